"""The search side of the command line: `solve`, `moves`, and what `render` needs to draw a
solve result and a legal region."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shapely

from constraints.core.jsonread import point as json_point
from constraints.core.jsonread import read_json
from constraints.core.profile import PROFILES
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.geometry.plane import Point
from constraints.t9a.move_io import move_from_json
from optimizer.cli.options import finite, point
from optimizer.cli.results import Answer
from optimizer.cli.search_output import as_options, result_json, result_text, search_time
from optimizer.cli.warn import warned
from optimizer.dispatch import require

if TYPE_CHECKING:  # the searches (and the solver) are imported by the commands that run them
    from optimizer.search.objectives import Objective
    from optimizer.search.solve import SearchResult

# optimizer.search.request's defaults, written here so that building the parser (for
# --version, --help or `check`) imports no search; tests/optimizer/cli compares them.
DEFAULT_MAX_WHEELS, MAX_WHEELS, DEFAULT_TOLERANCE = 3, 8, 0.01

REGION_STYLE = {"facecolor": "#2ca02c", "alpha": 0.3, "edgecolor": "none",
                "label": "legal end centres (this facing)"}
# Every manoeuvre some registered profile has (the scenario's own profile is checked later).
MANOEUVRES = tuple(sorted({m for p in PROFILES.values() for m in p.manoeuvres}))
MAX_TIME_LIMIT_S = 3600.0
# The most moves `moves` lists: a Reform has a hundred thousand legal end poses on the view
# lattice, and listing them all takes a minute.
MAX_LIST = 10_000
SCENARIO_HELP = "a scenario file (JSON, format manoeuvre/1)"


def add_search_commands(sub: Any, epilog: str | None = None) -> None:
    """The `solve` and `moves` commands, on the command line's subparsers."""
    shown = {"epilog": epilog, "formatter_class": argparse.RawDescriptionHelpFormatter}
    solve = sub.add_parser("solve", help="the best legal move for an objective (CP-SAT)",
                           **shown)
    solve.add_argument("scenario", help=SCENARIO_HELP)
    solve.add_argument("--unit", required=True, help="the id of the unit that moves")
    solve.add_argument("--manoeuvre", required=True, choices=MANOEUVRES)
    # Required, but checked by objective_of: a Post-Combat Pivot takes --facing alone.
    goal = solve.add_mutually_exclusive_group()
    goal.add_argument("--target", type=point, metavar="X,Y",
                      help="inches: end the unit's centre near this point")
    goal.add_argument("--face", type=point, metavar="X,Y",
                      help="inches: end facing this point")
    goal.add_argument("--forward", action="store_true", help="go as far forward as possible")
    solve.add_argument("--front", action="store_true",
                       help="with --target: bring the Front Facing's centre to it")
    solve.add_argument("--facing", type=finite, metavar="DEG",
                       help="with --target: and end facing this way (degrees); alone for "
                       "--manoeuvre post_combat_pivot")
    solve.add_argument("--time-limit", type=finite, metavar="S",
                       help="seconds for the whole command, start-up included (default 10, "
                       f"at most {MAX_TIME_LIMIT_S:g})")
    solve.add_argument("--effort", type=finite, metavar="E",
                       help="the search's work budget in CP-SAT deterministic time units "
                       "(the same answer on any machine; default: the search's own)")
    solve.add_argument("--max-wheels", type=int, default=DEFAULT_MAX_WHEELS, metavar="K",
                       help="Advance and March: search ways of up to K wheels (default "
                       f"{DEFAULT_MAX_WHEELS}, at most {MAX_WHEELS})")
    solve.add_argument("--tolerance", type=finite, default=DEFAULT_TOLERANCE, metavar="T",
                       help="OPTIMAL only within T of the bound over every way (default "
                       f"{DEFAULT_TOLERANCE:g})")
    solve.add_argument("--avoid", choices=("dangerous",),
                       help="keep out of Dangerous Terrain: the search counts it as "
                       "Impassable (docs/formats.md: what it then proves)")
    solve.add_argument("--json", action="store_true", help="print the result as JSON")
    moves = sub.add_parser("moves", help="legal end positions on the view lattice", **shown)
    moves.add_argument("scenario", help=SCENARIO_HELP)
    moves.add_argument("--unit", required=True, help="the id of the unit that moves")
    moves.add_argument("--manoeuvre", required=True, choices=MANOEUVRES)
    moves.add_argument("--limit", type=int, default=20, metavar="N",
                       help=f"list at most N moves (default 20, at most {MAX_LIST})")
    moves.add_argument("--json", action="store_true", help="print the moves as JSON")


def objective_of(args: argparse.Namespace) -> Objective:
    """The objective the options ask for; `--front` and `--facing` only go with `--target`
    (and not together: a target pose measures the unit's centre)."""
    if args.target is None and args.face is None and not args.forward:
        raise InvalidInputError("one of the arguments --target --face --forward is required",
                                path="command line")

    from optimizer.search.objectives import Objective

    if args.target is None:
        extra = [name for name, given in (("--front", args.front),
                                          ("--facing", args.facing is not None)) if given]
        if extra:
            goal = "--forward" if args.forward else "--face"
            raise InvalidInputError(f"{' and '.join(extra)} must come with --target, "
                                    f"not with {goal}", path=extra[0])
    if args.forward:
        return Objective("forward")
    if args.face is not None:
        return Objective("face_point", args.face)
    if args.facing is not None:
        if args.front:
            raise InvalidInputError("--front and --facing cannot be combined: a target pose "
                                    "(--facing) brings the unit's centre to the target",
                                    path="--front")
        return Objective("target_pose", args.target, args.facing)
    return Objective("front_target_distance" if args.front else "target_distance", args.target)




def cmd_solve(args: argparse.Namespace) -> int:
    from optimizer.search.request import time_limit

    args.time_limit = time_limit(args.time_limit)
    if not 0 < args.time_limit <= MAX_TIME_LIMIT_S:
        raise InvalidInputError(f"expected 0 < S <= {MAX_TIME_LIMIT_S:g}, got "
                                f"{args.time_limit:g}", path="--time-limit")
    if args.manoeuvre == "post_combat_pivot":
        from optimizer.cli.post_combat import check_goal, pivot_answer

        check_goal(args)
        return pivot_answer(args, load_scenario(args.scenario)).print(args.json)
    with as_options():
        objective_of(args)  # the options' errors before the scenario's
    return solve_answer(args, load_scenario(args.scenario)).print(args.json)


def solve_answer(args: argparse.Namespace, scenario: Scenario) -> Answer:
    """`solve`'s answer (not a Post-Combat Pivot) for the options in `args` (as parsed, the
    time limit given; the HTTP service builds them from a request)."""
    from optimizer.search.solve import best_move

    with as_options():
        objective = objective_of(args)
    warnings = warned(scenario, [(args.target if args.target is not None else args.face,
                                  "the target")])
    search: Callable[..., SearchResult] = best_move
    if getattr(args, "avoid", None):
        from optimizer.search.avoid import avoiding

        require(scenario, "avoiding")
        search = partial(avoiding, best_move)
    with as_options():
        result = search(scenario, args.unit, args.manoeuvre, objective,
                        time_limit_s=search_time(args), max_wheels=args.max_wheels,
                        tolerance=args.tolerance, effort=args.effort)
    return Answer(result_json(result), 0 if result.status.found else 1,
                  lambda: result_text(result), warnings, schema="search-result")


def cmd_moves(args: argparse.Namespace) -> int:
    if not 1 <= args.limit <= MAX_LIST:
        raise InvalidInputError(f"expected 1 <= N <= {MAX_LIST}, got "
                                f"{args.limit if abs(args.limit) < 10**12 else 'more'}",
                                path="--limit")
    if args.manoeuvre == "post_combat_pivot":
        raise InvalidInputError("moves lists Move Manoeuvres; a Post-Combat Pivot is one "
                                "number: solve it, or check a pivot", path="--manoeuvre")
    return moves_answer(load_scenario(args.scenario), args.unit, args.manoeuvre,
                        args.limit).print(args.json)


def moves_answer(scenario: Scenario, unit: str, manoeuvre: str, limit: int) -> Answer:
    """`moves`'s answer: the first `limit` legal moves of the view."""
    from optimizer.queries import legal_moves

    warnings = warned(scenario)
    require(scenario, "legal_moves")
    with as_options():
        view = legal_moves(scenario, unit, manoeuvre)
    found: list[Any] = []
    for move in view:
        found.append(move)
        if len(found) >= limit:
            break

    def text() -> str:
        # A family of its own (whfb7's) says which ways the view holds, first.
        ways = view.searched.get("ways")
        lines = ([f"ways of the family searched: {ways}"] if ways else []) + \
            [json.dumps(m.to_json()) for m in found]
        return "\n".join(lines) if found else "\n".join(lines + ["no legal move"])

    return Answer({"unit": unit, "manoeuvre": manoeuvre, "lattice": view.lattice.to_json(),
                   "family": view.searched, "moves": [m.to_json() for m in found]},
                  0 if found else 1, text, warnings)


@dataclass(frozen=True)
class Drawing:
    """What `render` draws from its second file: a move, and a solve result's target."""

    move: Any  # a move of the scenario's system
    target: Point | None = None


def load_drawing(path: str | Path, read_move: Callable[[Any], Any] = move_from_json) -> Drawing:
    """A move file (read by `read_move`, the scenario's system's reader), or a `solve --json`
    result (its move is drawn, its target marked)."""
    data = read_json(path)
    try:
        if isinstance(data, dict) and "status" in data:
            if not isinstance(data.get("move"), dict):
                raise InvalidInputError("this solve result has no move to draw", path="$.move")
            return Drawing(read_move(data["move"]), _target(data))
        return Drawing(read_move(data))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def _target(result: dict[str, Any]) -> Point | None:
    """The target point a solve result's objective names, if it names one."""
    objective = result.get("objective")
    if not isinstance(objective, dict) or objective.get("point") is None:
        return None
    return json_point(objective["point"], "$.objective.point")


def region_of(scenario: Scenario, move: Any, verdict: Verdict) -> shapely.Geometry:
    """Where the move's unit may end with the move's end facing and files (any system's move:
    a whfb7 turn on the spot changes the files; None: the unit's own)."""
    from optimizer.queries import legal_region

    own = scenario.unit(move.unit).files
    files = None if verdict.end_files == own else verdict.end_files
    return legal_region(scenario, move.unit, move.manoeuvre, verdict.end_facing_deg, files)
