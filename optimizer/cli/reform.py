"""`manoeuvre combat-reform`, and `check` of a proposed Combat Reform (docs/formats.md)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.t9a.combat_reform_io import CombatResult, load_combat_result
from optimizer.cli.options import finite
from optimizer.cli.results import Answer
from optimizer.cli.warn import warned
from optimizer.dispatch import require

SCENARIO_HELP = "a scenario file (JSON, format manoeuvre/1)"
RESULT_HELP = ("the combat result (JSON: loser, passed, first, skip, ...); without it no "
               "loser, the active player reforms first, nobody skips")


def add_reform_command(sub: Any, epilog: str | None = None) -> None:
    cmd = sub.add_parser("combat-reform", help="the best Combat Reform of a player's units "
                         "(CP-SAT), each checked exactly", epilog=epilog,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    cmd.add_argument("scenario", help=SCENARIO_HELP + " (units as they stand after the "
                     "round of combat)")
    cmd.add_argument("--unit", action="append", default=[], metavar="ID",
                     help="reform this unit (repeat for several, in order)")
    cmd.add_argument("--player", help="reform this player's Engaged units")
    cmd.add_argument("--result", metavar="FILE", help=RESULT_HELP)
    cmd.add_argument("--effort", type=finite, default=None, metavar="E",
                     help="CP-SAT deterministic time per unit (default 5)")
    cmd.add_argument("--widest", action="store_true",
                     help="the widest frontage first, then the most models in contact")
    cmd.add_argument("--keep", action="append", default=[], metavar="CHARACTER:ENEMY",
                     help="keep this character in contact with this enemy unit (repeat)")
    cmd.add_argument("--joint", action="store_true",
                     help="reform two or three units of one combat together (a best-first "
                     "search over their candidates; about a second for two 20-model units); "
                     "with --widest such groups are reformed one at a time, and a note says "
                     "so")
    cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    cmd.add_argument("--render", metavar="FILE",
                     help="also draw before and after (.png or .svg)")


def cmd_combat_reform(args: argparse.Namespace) -> int:
    from optimizer.pictures.output import check_output

    output = check_output(args.render) if args.render else None
    scenario = load_scenario(args.scenario)
    require(scenario, "best_reform")
    answer, found = reform_answer(
        scenario, lambda: load_combat_result(args.result) if args.result else None,
        args.unit, args.player, args.effort, args.widest, args.keep, args.joint)
    answer.print(args.json)
    if output is not None:
        from optimizer.pictures.reform import render_reforms_to_file
        render_reforms_to_file(scenario, found, output)
    return answer.status


def reform_answer(scenario: Scenario, result: Callable[[], CombatResult | None],
                  units: list[str], player: str | None, effort: float | None, widest: bool,
                  keep: list[str], joint: bool) -> tuple[Answer, Any]:
    """`combat-reform`'s answer (`result` reads the combat result), and the reforms found."""
    from optimizer.combat_reform.best import EFFORT, Asks
    from optimizer.combat_reform.output import reforms_text, reforms_to_json, status_of
    from optimizer.combat_reform.reforms import combat_reforms

    require(scenario, "best_reform")
    warnings = warned(scenario)
    combat = result()
    if units and player:
        raise InvalidInputError("give --unit or --player, not both", path="command line")
    effort = EFFORT if effort is None else effort
    if not 0.0 < effort <= 600.0:
        raise InvalidInputError("--effort must be above 0 and at most 600",
                                path="command line")
    found = combat_reforms(scenario, player, units, combat, effort,
                           Asks(widest, tuple(_pair(k) for k in keep)), joint=joint)
    return Answer(reforms_to_json(found), 0 if status_of(found) in ("OPTIMAL", "FEASIBLE")
                  else 1, lambda: reforms_text(found), warnings,
                  schema="combat-reform-result"), found


def _pair(text: str) -> tuple[str, str]:
    char, sep, enemy = text.partition(":")
    if not sep or not char or not enemy:
        raise InvalidInputError(f"--keep expects CHARACTER:ENEMY, got {text!r}",
                                path="command line")
    return char, enemy


def is_combat_reform(data: Any) -> bool:
    return isinstance(data, dict) and data.get("manoeuvre") == "combat_reform"


def check_reform_file(scenario: Scenario, data: Any, result: CombatResult | None) -> Verdict:
    from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
    from constraints.t9a.combat_reform_io import combat_reform_from_json

    return check_combat_reform(scenario, combat_reform_from_json(data, scenario), result)


def render_reform_file(scenario: Scenario, path: str, output: Any) -> int:
    """`manoeuvre render` of a Combat Reform proposal (or a `combat-reform --json` output):
    the units before and with the proposal placed, titled with the checker's verdict."""
    from constraints.core.jsonread import read_json
    from constraints.t9a.combat_reform import placed
    from constraints.t9a.combat_reform_io import combat_reform_from_json
    from optimizer.pictures.reform import render_placed_to_file

    data = read_json(path)
    try:
        verdict = check_reform_file(scenario, data, None)
        reforms = combat_reform_from_json(data, scenario)
    except InvalidInputError as exc:
        raise exc.in_file(path) from None
    title = f"the proposal ({', '.join(r.unit for r in reforms)}): " \
        + ("legal" if verdict.legal else "illegal")
    render_placed_to_file(scenario, placed(scenario, reforms), title, output)
    print(f"wrote {output}")
    return 0

