"""`manoeuvre check`: the verdict on a move, a result file holding one, a player's nudges or a
Combat Reform proposal; also the HTTP service's /v1/check (`check_answer`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from optimizer.cli.options import EXIT_NO, EXIT_OK

if TYPE_CHECKING:
    from constraints.core.verdict import Verdict
    from optimizer.cli.results import Answer


def cmd_check(args: argparse.Namespace) -> int:
    from constraints.core.jsonread import read_json
    from constraints.core.scenario_io import load_scenario
    from constraints.t9a.combat_reform_io import load_combat_result

    scenario = load_scenario(args.scenario)
    answer = check_answer(scenario, read_json(args.move), source=args.move,
                          referee=args.referee,
                          result=(lambda: load_combat_result(args.result)) if args.result
                          else None,
                          casualties=args.casualties, exposure=args.exposure)
    return answer.print(args.json)


def check_answer(scenario: Any, data: Any, *, source: str, referee: float | None = None,
                 result: Callable[[], Any] | None = None, casualties: Any = None,
                 exposure: bool = False) -> Answer:
    """`check`'s answer for a move, a result file holding one, nudges or a Combat Reform
    proposal (`data`, read from `source`).  `result` reads the combat result when one is
    given (after the proposal is known to be a Combat Reform); `casualties`: a casualties
    file's path, or their JSON (the HTTP service), for nudges."""
    from constraints.core.referee import checked_tolerance
    from constraints.core.system import find_system
    from constraints.errors import InvalidInputError
    from optimizer.cli.nudge import is_nudge_data, nudge_check_answer
    from optimizer.cli.reform import check_reform_file, is_combat_reform
    from optimizer.cli.results import Answer, move_of_result
    from optimizer.cli.warn import warned

    warnings = warned(scenario, move=data)
    if is_nudge_data(data) or casualties:  # the player's nudges (a `nudge --json` file)
        return nudge_check_answer(scenario, data, casualties, result is not None, source)
    try:
        data = move_of_result(data)  # a `solve --json` or `route --json` output: its move
    except InvalidInputError as exc:
        raise exc.in_file(source) from None
    if result is not None and not is_combat_reform(data):
        raise InvalidInputError("--result goes only with a Combat Reform proposal",
                                path="command line")
    combat = result() if result is not None else None
    system = find_system(scenario.rules)
    try:
        verdict = check_reform_file(scenario, data, combat) if is_combat_reform(data) \
            else system.check(scenario, system.read_move(data))
    except InvalidInputError as exc:
        raise exc.in_file(source) from None
    if referee is not None:
        verdict = verdict.refereed(checked_tolerance(referee, "--referee"))
    if verdict.referee is not None and verdict.referee.passes:
        status = EXIT_OK  # legal, or within the referee's tolerance
    else:
        status = EXIT_OK if verdict.status == "legal" else EXIT_NO  # illegal, not proved: 1
    if exposure:
        return _with_exposure(scenario, system.read_move(data), verdict, status, warnings)
    return Answer(verdict.to_json(), status,
                  lambda: verdict.text() if hasattr(verdict, "text") else verdict_text(verdict),
                  warnings, schema="verdict")


def _with_exposure(scenario: Any, move: Any, verdict: Any, status: int,
                   warnings: list[str]) -> Answer:
    """A route's verdict with its exposure to the enemies' AROs (`check --exposure`)."""
    from optimizer.cli.results import Answer
    from optimizer.routes.sight import route_exposure

    exposed = route_exposure(scenario, move)
    return Answer({**verdict.to_json(), **exposed.to_json()}, status,
                  lambda: verdict.text() + "\n" + exposed.text(), warnings, schema="verdict")


def verdict_text(verdict: Verdict) -> str:
    """A readable verdict: the outcome, the end position, each broken clause, measurements;
    for an end pose neither proved legal nor illegal, NOT PROVED and the reason."""
    word = {"legal": "LEGAL", "illegal": "ILLEGAL", "not_proved": "NOT PROVED"}[verdict.status]
    x, y = verdict.end_centre
    lines = [f"{verdict.unit} {verdict.manoeuvre}: {word}",
             f"  end: centre ({x:.3f}, {y:.3f}), facing {verdict.end_facing_deg:.3f} deg, "
             f"{verdict.end_files} files"]
    if verdict.not_proved is not None:
        lines.append(f"  not proved: {verdict.not_proved}")
    if verdict.steps is not None:
        lines.append(f"  reached by: {json.dumps(list(verdict.steps))}")
    for v in verdict.violations:
        lines.append(f"  broken {v.clause}: {v.message} "
                     f"(measured {v.measured:.3f} {v.dimension}, limit {v.limit:.3f})")
    for t in verdict.dangerous_terrain or ():
        lines.append(f"  Dangerous Terrain test: {t['terrain']}, {t['dice']} dice"
                     + (f", {t['test']}+" if t["test"] is not None else ""))
    for note in verdict.notes:
        lines.append(f"  note: {note}")
    shown = ", ".join(f"{k} {v:.3f}" for k, v in verdict.measurements.items())
    lines.append(f"  measurements: {shown}")
    if verdict.referee is not None:
        lines.append(verdict.referee.text())
    return "\n".join(lines)
