"""`solve --manoeuvre post_combat_pivot --face X,Y | --facing DEG` (docs/formats.md)."""

from __future__ import annotations

import argparse

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from optimizer.cli.results import Answer
from optimizer.cli.search_output import as_options, result_json, result_text, search_time
from optimizer.dispatch import require
from optimizer.post_combat import best_pivot
from optimizer.search.objectives import Objective


def pivot_answer(args: argparse.Namespace, scenario: Scenario) -> Answer:
    """`solve --manoeuvre post_combat_pivot`'s answer (the goal checked by `check_goal`)."""
    require(scenario, "best_move")
    with as_options():
        if not scenario.has_unit(args.unit):
            raise InvalidInputError(f"unknown unit {args.unit!r}", path="unit_id")
        centre = scenario.unit(args.unit).pose.centre
        objective = Objective("face_point", args.face) if args.face is not None \
            else Objective("target_pose", centre, args.facing)
        result = best_pivot(scenario, args.unit, objective, time_limit_s=search_time(args))
    return Answer(result_json(result), 0 if result.status.found else 1,
                  lambda: result_text(result), schema="search-result")


def check_goal(args: argparse.Namespace) -> None:
    """Exactly one of --face X,Y and --facing DEG; nothing a pivot cannot use."""
    for name, given in (("--target", args.target is not None), ("--forward", args.forward),
                        ("--front", args.front), ("--avoid", bool(getattr(args, "avoid", None)))):
        if given:
            raise InvalidInputError(f"{name} does not go with a Post-Combat Pivot (it keeps "
                                    "its centre): give --face X,Y or --facing DEG", path=name)
    if (args.face is None) == (args.facing is None):
        raise InvalidInputError("a Post-Combat Pivot needs exactly one of --face X,Y and "
                                "--facing DEG", path="--face")
