"""The search side of the command line: `solve`, `moves`, and what `render` needs to draw a
solve result and a legal region."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import shapely

from constraints.core.jsonread import read_json
from constraints.core.profile import PROFILES
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import Move
from optimizer.queries import legal_moves, legal_region
from optimizer.search.objectives import Objective
from optimizer.search.solve import SearchResult, best_move

REGION_STYLE = {"facecolor": "#2ca02c", "alpha": 0.3, "edgecolor": "none",
                "label": "legal end centres (this facing)"}
# Every manoeuvre some registered profile has (the scenario's own profile is checked later).
MANOEUVRES = tuple(sorted({m for p in PROFILES.values() for m in p.manoeuvres}))


def add_search_commands(sub: Any) -> None:
    solve = sub.add_parser("solve", help="the best legal move for an objective (CP-SAT)")
    solve.add_argument("scenario")
    solve.add_argument("--unit", required=True)
    solve.add_argument("--manoeuvre", required=True, choices=MANOEUVRES)
    goal = solve.add_mutually_exclusive_group(required=True)
    goal.add_argument("--target", type=_point, help="X,Y: end the unit's centre near it")
    goal.add_argument("--face", type=_point, help="X,Y: end facing this point")
    goal.add_argument("--forward", action="store_true", help="go as far forward as possible")
    solve.add_argument("--front", action="store_true",
                       help="with --target: bring the Front Facing's centre to it")
    solve.add_argument("--facing", type=float, help="with --target: and end facing this")
    solve.add_argument("--time-limit", type=float, default=10.0, help="seconds (default 10)")
    solve.add_argument("--json", action="store_true")
    moves = sub.add_parser("moves", help="legal end positions on the view lattice")
    moves.add_argument("scenario")
    moves.add_argument("--unit", required=True)
    moves.add_argument("--manoeuvre", required=True, choices=MANOEUVRES)
    moves.add_argument("--limit", type=int, default=20)
    moves.add_argument("--json", action="store_true")


def _point(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y, got {text!r}") from None
    if not all(abs(v) < 1e6 for v in (x, y)):
        raise argparse.ArgumentTypeError(f"expected finite X,Y, got {text!r}")
    return (x, y)


def objective_of(args: argparse.Namespace) -> Objective:
    if args.forward:
        return Objective("forward")
    if args.face is not None:
        return Objective("face_point", args.face)
    if args.facing is not None:
        return Objective("target_pose", args.target, args.facing)
    return Objective("front_target_distance" if args.front else "target_distance", args.target)


# The API arguments the command-line options stand for, to name them in errors.
OPTIONS = {"unit_id": "--unit", "manoeuvre": "--manoeuvre", "time_limit_s": "--time-limit"}


@contextmanager
def as_options() -> Iterator[None]:
    """Errors about API arguments, re-labelled with the options that gave them."""
    try:
        yield
    except InvalidInputError as exc:
        raise exc.at(OPTIONS.get(exc.path, exc.path)) from None


def cmd_solve(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    if not 0 < args.time_limit <= 3600:
        raise InvalidInputError("expected 0 < --time-limit <= 3600", path="command line")
    with as_options():
        result = best_move(scenario, args.unit, args.manoeuvre, objective_of(args),
                           time_limit_s=args.time_limit)
    print(json.dumps(result.to_json(), indent=2) if args.json else result_text(result))
    return 0 if result.status.found else 1


def result_text(result: SearchResult) -> str:
    lines = [f"{result.status} ({result.objective.name}"
             + (f" = {result.value:.3f}" if result.value is not None else "")
             + f") on a {result.lattice.inch}\" / {result.lattice.degree} deg lattice "
             f"in {result.elapsed_s:.2f} s"]
    if result.move is not None:
        lines.append(f"  move: {json.dumps(result.move.to_json())}")
    if result.verdict is not None:
        x, y = result.verdict.end_centre
        lines.append(f"  end: centre ({x:.3f}, {y:.3f}), facing "
                     f"{result.verdict.end_facing_deg:.3f} deg, legal")
    if result.blocking:
        lines.append(f"  blocked by: {', '.join(result.blocking)}")
    return "\n".join(lines)


def cmd_moves(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    if args.limit < 1:
        raise InvalidInputError("expected --limit >= 1", path="command line")
    with as_options():
        view = legal_moves(scenario, args.unit, args.manoeuvre)
    found: list[Move] = []
    for move in view:
        found.append(move)
        if len(found) >= args.limit:
            break
    if args.json:
        print(json.dumps({"unit": args.unit, "manoeuvre": args.manoeuvre,
                          "lattice": view.lattice.to_json(),
                          "moves": [m.to_json() for m in found]}, indent=2))
    else:
        print("\n".join(json.dumps(m.to_json()) for m in found) or "no legal move")
    return 0 if found else 1



def load_move_or_result(path: str | Path) -> Move:
    """A move file, or a `solve --json` result (its move is drawn)."""
    data = read_json(path)
    try:
        if isinstance(data, dict) and "status" in data:
            if not isinstance(data.get("move"), dict):
                raise InvalidInputError("this solve result has no move to draw", path="$.move")
            return move_from_json(data["move"])
        return move_from_json(data)
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def region_of(scenario: Scenario, move: Move, verdict: Verdict) -> shapely.Geometry:
    files = None if move.manoeuvre.snaking else verdict.end_files
    return legal_region(scenario, move.unit, move.manoeuvre, verdict.end_facing_deg, files)
