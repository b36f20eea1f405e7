"""`manoeuvre nudge`: casualties, unfrozen Unit Boundaries and nudges (docs/formats.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from optimizer.cli.results import Answer
from optimizer.cli.warn import warned
from optimizer.dispatch import require

SCENARIO_HELP = "a scenario file (JSON, format manoeuvre/1)"


def add_nudge_command(sub: Any, epilog: str | None = None) -> None:
    nudge = sub.add_parser(
        "nudge", help="remove casualties, re-form units, nudge them back into contact",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    nudge.add_argument("scenario", help=SCENARIO_HELP + " (units as they stood in combat)")
    nudge.add_argument("--casualties", metavar="FILE",
                       help="casualties per unit (JSON: a count, the slots removed, or "
                       "{\"count\": N, \"outside_melee\": true}); without it, only the "
                       "scenario's own gaps")
    nudge.add_argument("--json", action="store_true", help="print the result as JSON")
    nudge.add_argument("--render", metavar="FILE",
                       help="also draw before and after, with the nudges (.png or .svg)")


def cmd_nudge(args: argparse.Namespace) -> int:
    from optimizer.nudge import load_losses
    from optimizer.pictures.output import check_output

    output = check_output(args.render) if args.render else None
    scenario = load_scenario(args.scenario)
    require(scenario, "resolve")
    losses = load_losses(args.casualties, scenario) if args.casualties else ()
    answer, result = nudge_answer(scenario, losses)
    answer.print(args.json)
    if output is not None:
        from optimizer.pictures.nudge import render_nudge_to_file
        render_nudge_to_file(result, output)
    return answer.status


def nudge_answer(scenario: Scenario, losses: Any) -> tuple[Answer, Any]:
    """`nudge`'s answer for these losses, and the resolution (to draw)."""
    from optimizer.nudge import resolve
    from optimizer.nudge.output import result_text, result_to_json

    require(scenario, "resolve")
    warnings = warned(scenario)
    result = resolve(scenario, losses)
    return Answer(result_to_json(result), 0, lambda: result_text(result), warnings,
                  schema="nudge-result"), result


def is_nudge_result(path: str) -> bool:
    """Whether `path` holds the JSON output of `manoeuvre nudge` (it has "nudges")."""
    return is_nudge_data(read_json(path))


def is_nudge_data(data: Any) -> bool:
    return isinstance(data, dict) and "nudges" in data


def nudge_check_answer(scenario: Scenario, data: Any, casualties: Any, with_result: bool,
                       source: str) -> Answer:
    """`check SCENARIO NUDGE.json [--casualties FILE]`: judge the player's nudges.
    `casualties`: a file's path, their JSON (the HTTP service), or None for those the
    nudges echo."""
    from optimizer.nudge import load_losses, losses_from_json
    from optimizer.nudge.judge import judge_nudges

    if not is_nudge_data(data):
        raise InvalidInputError("--casualties goes only with nudges (a `nudge --json` "
                                "result)", path="command line")
    if with_result:
        raise InvalidInputError("--result goes only with a Combat Reform proposal",
                                path="command line")
    require(scenario, "check_nudge")
    try:
        # Without --casualties, those a `nudge --json` file echoes (so its output chains).
        losses = load_losses(casualties, scenario) if isinstance(casualties, str) else \
            losses_from_json(data.get("casualties", {}) if casualties is None else casualties,
                             scenario)
        verdict = judge_nudges(scenario, losses, data)
    except InvalidInputError as exc:
        raise exc.in_file(source) from None
    return Answer(verdict.to_json(), 0 if verdict.legal else 1, verdict.text,
                  schema="verdict")


def render_nudge_result(scenario: Scenario, path: str, output: Path) -> int:
    """Draw a `nudge --json` result: resolved again from its echoed casualties (the
    resolution is deterministic), so the picture shows every model."""
    from optimizer.nudge import losses_from_json, resolve
    from optimizer.pictures.nudge import render_nudge_to_file

    data = read_json(path)
    try:
        losses = losses_from_json(data.get("casualties", {}), scenario)
    except InvalidInputError as exc:
        raise exc.in_file(path) from None
    render_nudge_to_file(resolve(scenario, losses), output)
    print(f"wrote {output}")
    return 0
