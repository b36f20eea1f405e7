"""`solve --manoeuvre post_combat_pivot --face X,Y | --facing DEG` (docs/formats.md)."""

from __future__ import annotations

import argparse
import json

from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from optimizer.cli.search_output import as_options, result_json, result_text, search_time
from optimizer.dispatch import require
from optimizer.post_combat import best_pivot
from optimizer.search.objectives import Objective


def solve_post_combat_pivot(args: argparse.Namespace) -> int:

    _check_goal(args)
    scenario = load_scenario(args.scenario)
    require(scenario, "best_move")
    with as_options():
        if not scenario.has_unit(args.unit):
            raise InvalidInputError(f"unknown unit {args.unit!r}", path="unit_id")
        centre = scenario.unit(args.unit).pose.centre
        objective = Objective("face_point", args.face) if args.face is not None \
            else Objective("target_pose", centre, args.facing)
        result = best_pivot(scenario, args.unit, objective, time_limit_s=search_time(args))
    print(json.dumps(result_json(result), indent=2) if args.json else result_text(result))
    return 0 if result.status.found else 1


def _check_goal(args: argparse.Namespace) -> None:
    """Exactly one of --face X,Y and --facing DEG; nothing a pivot cannot use."""
    for name, given in (("--target", args.target is not None), ("--forward", args.forward),
                        ("--front", args.front), ("--avoid", bool(getattr(args, "avoid", None)))):
        if given:
            raise InvalidInputError(f"{name} does not go with a Post-Combat Pivot (it keeps "
                                    "its centre): give --face X,Y or --facing DEG", path=name)
    if (args.face is None) == (args.facing is None):
        raise InvalidInputError("a Post-Combat Pivot needs exactly one of --face X,Y and "
                                "--facing DEG", path="--face")
