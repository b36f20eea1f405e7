"""The `manoeuvre` command line (docs/formats.md "Commands").

Exit status: 0 legal / solved, 1 illegal / infeasible / timeout, 2 bad input (one line on
stderr naming the file, the JSON path and the problem; never a traceback, never a partial
output file).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from optimizer.cli.options import EXIT_BAD_INPUT, EXIT_OK, finite, join_negative_values

# Each command imports what it needs when it runs: `--version` loads no game system and
# `check` no solver (benchmarks/bench_startup.py measures the start-up).
if TYPE_CHECKING:
    pass

EPILOG = """\
units: lengths in inches, base sizes in mm, angles in degrees counter-clockwise from +x
(a facing of 90 looks towards +y), times in seconds.

exit status:
  0  legal (check), solved (solve, nudge), a legal move found (moves), written (render)
  1  illegal, infeasible, timed out, or no legal move
  2  bad input: one line on stderr naming the file and JSON path (or the option) and the
     problem; no output file is left behind

docs/formats.md describes the files and every command."""
# Each command's own --help: the units and a pointer, not the whole paragraph again.
COMMAND_EPILOG = """\
units: inches, mm (base sizes), degrees counter-clockwise from +x, seconds.
exit status: 0 done, 1 no (illegal, infeasible, nothing found), 2 bad input; see
`manoeuvre --help` and docs/formats.md."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from constraints.errors import InvalidInputError

        raise InvalidInputError(message, path="command line")


SHOWN: dict[str, Any] = {"epilog": COMMAND_EPILOG,
                         "formatter_class": argparse.RawDescriptionHelpFormatter}


def build_parser() -> argparse.ArgumentParser:
    from optimizer.cli.lof import add_lof_command
    from optimizer.cli.nudge import add_nudge_command
    from optimizer.cli.reform import add_reform_command
    from optimizer.cli.route import add_route_command
    from optimizer.cli.schema import add_schema_command
    from optimizer.cli.search import add_search_commands
    from optimizer.cli.serve import add_serve_command

    parser = _Parser(prog="manoeuvre", description="Referee and optimiser for unit movement "
                     "(The Ninth Age Move Manoeuvres).", epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser("check", help="judge a move: legal, or every broken clause",
                           **SHOWN)
    check.add_argument("scenario", help=SCENARIO_HELP)
    check.add_argument("move", help="a move file (JSON: unit, manoeuvre, steps or end pose), "
                       "or a Combat Reform proposal (manoeuvre combat_reform, reforms)")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check.add_argument("--referee", metavar="T", type=finite, default=None,
                       help="referee mode (A21): a tolerance in inches; clauses measured in "
                       "inches within T of their limit are close calls, and a move broken "
                       "only by close calls is WITHIN TOLERANCE (exit status 0)")
    check.add_argument("--result", metavar="FILE",
                       help="for a Combat Reform: the combat result (loser, passed, ...)")
    check.add_argument("--exposure", action="store_true",
                       help="for an Infinity route: each enemy's Line of Fire and Zone of "
                       "Control stretches along it (who may ARO)")
    check.add_argument("--casualties", metavar="FILE",
                       help="for nudges (a `nudge --json` result, its legs possibly edited): "
                       "the casualties file given to `nudge`")
    render = sub.add_parser("render", help="draw a scenario, a move or a solve result",
                            **SHOWN)
    render.add_argument("scenario", help=SCENARIO_HELP)
    render.add_argument("move", nargs="?", help="a move file, the JSON output of `solve` "
                        "(its target is marked), or the JSON output of `nudge`")
    render.add_argument("-o", "--output", required=True,
                        help="FILE.png or FILE.svg (written whole or not at all)")
    render.add_argument("--region", action="store_true",
                        help="shade where the unit may legally end at the move's end facing")
    add_search_commands(sub, COMMAND_EPILOG)
    add_nudge_command(sub, COMMAND_EPILOG)
    add_reform_command(sub, COMMAND_EPILOG)
    add_route_command(sub, COMMAND_EPILOG)
    add_lof_command(sub, COMMAND_EPILOG)
    add_serve_command(sub, COMMAND_EPILOG)
    add_schema_command(sub, COMMAND_EPILOG)
    return parser


SCENARIO_HELP = "a scenario file (JSON, format manoeuvre/1)"


def _version() -> str:
    from optimizer import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (0, 1, or 2 for bad input).

    Called without `argv` (as the `manoeuvre` script), the command's time limits count from
    the start of the process; with `argv`, from this call.
    """
    called_at = time.monotonic()
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # answered before any command's modules are loaded
        print(f"manoeuvre {_version()}")
        return EXIT_OK
    from constraints.errors import InvalidInputError

    try:
        args = build_parser().parse_args(join_negative_values(words))
    except InvalidInputError as exc:
        print(f"manoeuvre: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    args.whole_process, args.called_at = argv is None, called_at
    status = _run(args)
    if args.whole_process and args.command == "solve":
        _leave_now(status)
    return status


def _run(args: argparse.Namespace) -> int:
    from constraints.errors import InvalidInputError

    status = EXIT_OK
    try:
        status = command(args.command)(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except InvalidInputError as exc:
        print(f"manoeuvre: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader took what it wanted (`| head`): not an error.  The command's own status
        # when it had finished, else 0.
        _silence_stdout()
        return status


def _leave_now(status: int) -> None:
    """End the process at once: the interpreter's own teardown (the solver's and plotting
    libraries' modules) takes a few tenths of a second, which --time-limit must include."""
    sys.stderr.flush()
    os._exit(status)


def _silence_stdout() -> None:
    """The reader went away (`| head`): send what is left to /dev/null, so that Python's
    own flush at exit does not report the broken pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (captured in tests)
        pass


def cmd_render(args: argparse.Namespace) -> int:
    from constraints.core.jsonread import read_json
    from constraints.core.scenario_io import load_scenario
    from constraints.core.system import find_system
    from constraints.errors import InvalidInputError
    from optimizer.cli.nudge import is_nudge_result, render_nudge_result
    from optimizer.cli.reform import is_combat_reform, render_reform_file
    from optimizer.cli.route import render_route_file
    from optimizer.cli.search import REGION_STYLE, load_drawing, region_of
    from optimizer.dispatch import require
    from optimizer.pictures import check_output, render_to_file

    output = check_output(args.output)  # before the work, which may take a while
    scenario = load_scenario(args.scenario)
    system = find_system(scenario.rules)
    if "check_route" in system.queries:  # a town of troopers and its routes
        return render_route_file(scenario, args.move, output)
    if args.move and is_nudge_result(args.move):
        return render_nudge_result(scenario, args.move, output)
    if args.move and is_combat_reform(read_json(args.move)):
        return render_reform_file(scenario, args.move, output)
    drawing = load_drawing(args.move, system.read_move) if args.move else None
    move = drawing.move if drawing is not None else None
    verdict, overlays = None, []
    if move is not None:
        try:
            verdict = system.check(scenario, move)
        except InvalidInputError as exc:
            raise exc.in_file(args.move) from None
        if args.region:
            require(scenario, "legal_region")
            overlays.append((region_of(scenario, move, verdict), REGION_STYLE))
    render_to_file(scenario, output, move=move, verdict=verdict, overlays=overlays,
                   target=drawing.target if drawing is not None else None)
    print(f"wrote {args.output}")
    return EXIT_OK


# Each command's function, as "module:function": its module is imported when it runs.
COMMANDS = {"check": "optimizer.cli.check:cmd_check", "render": "optimizer.cli.main:cmd_render",
            "solve": "optimizer.cli.search:cmd_solve", "moves": "optimizer.cli.search:cmd_moves",
            "nudge": "optimizer.cli.nudge:cmd_nudge",
            "combat-reform": "optimizer.cli.reform:cmd_combat_reform",
            "route": "optimizer.cli.route:cmd_route",
            "lof": "optimizer.cli.lof:cmd_lof",
            "serve": "optimizer.cli.serve:cmd_serve",
            "schema": "optimizer.cli.schema:cmd_schema"}


def command(name: str) -> Callable[[argparse.Namespace], int]:
    """The function running the command `name`."""
    module, _, function = COMMANDS[name].partition(":")
    found: Callable[[argparse.Namespace], int] = getattr(import_module(module), function)
    return found

if __name__ == "__main__":
    sys.exit(main())
