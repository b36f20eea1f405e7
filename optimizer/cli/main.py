"""The `manoeuvre` command line (docs/formats.md "Commands").

Exit status: 0 legal / solved, 1 illegal / infeasible / timeout, 2 bad input (one line on
stderr naming the file, the JSON path and the problem; never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from constraints.core.scenario_io import load_scenario
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.t9a.checker import check_move
from constraints.t9a.move_io import load_move
from optimizer.cli.search import (
    REGION_STYLE,
    add_search_commands,
    cmd_moves,
    cmd_solve,
    load_move_or_result,
    region_of,
)

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InvalidInputError(message, path="command line")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="manoeuvre", description="Referee and optimiser for unit movement.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser("check", help="judge a move: legal, or every broken clause")
    check.add_argument("scenario")
    check.add_argument("move")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    render = sub.add_parser("render", help="draw a scenario, a move or a solve result")
    render.add_argument("scenario")
    render.add_argument("move", nargs="?", help="a move, or the JSON output of `solve`")
    render.add_argument("-o", "--output", required=True, help="FILE.png or FILE.svg")
    render.add_argument("--region", action="store_true",
                        help="shade where the unit may legally end at the move's end facing")
    add_search_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except InvalidInputError as exc:
        print(f"manoeuvre: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def cmd_check(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    move = load_move(args.move)
    try:
        verdict = check_move(scenario, move)
    except InvalidInputError as exc:
        raise exc.in_file(args.move) from None
    print(json.dumps(verdict.to_json(), indent=2) if args.json else verdict_text(verdict))
    return EXIT_OK if verdict.status == "legal" else EXIT_NO  # illegal or not proved: 1


def cmd_render(args: argparse.Namespace) -> int:
    from optimizer.render import render_to_file

    scenario = load_scenario(args.scenario)
    move = load_move_or_result(args.move) if args.move else None
    verdict, overlays = None, []
    if move is not None:
        try:
            verdict = check_move(scenario, move)
        except InvalidInputError as exc:
            raise exc.in_file(args.move) from None
        if args.region:
            overlays.append((region_of(scenario, move, verdict), REGION_STYLE))
    render_to_file(scenario, args.output, move=move, verdict=verdict, overlays=overlays)
    print(f"wrote {args.output}")
    return EXIT_OK


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
    shown = ", ".join(f"{k} {v:.3f}" for k, v in verdict.measurements.items())
    lines.append(f"  measurements: {shown}")
    return "\n".join(lines)


COMMANDS = {"check": cmd_check, "render": cmd_render, "solve": cmd_solve, "moves": cmd_moves}

if __name__ == "__main__":
    sys.exit(main())
