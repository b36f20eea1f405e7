"""`manoeuvre lof`: whether one Infinity trooper draws Line of Fire to another
(docs/formats.md, "Infinity N4")."""

from __future__ import annotations

import argparse
from typing import Any

from constraints.core.scenario_io import load_scenario
from optimizer.cli.options import EXIT_NO, EXIT_OK
from optimizer.cli.results import Answer


def add_lof_command(sub: Any, epilog: str | None = None) -> None:
    lof = sub.add_parser(
        "lof", help="whether an Infinity trooper draws Line of Fire to another",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    lof.add_argument("scenario", help="a scenario file (JSON, format manoeuvre/1, rules "
                     "infinity-n4)")
    lof.add_argument("--from", dest="viewer", required=True, help="the viewer's id")
    lof.add_argument("--to", dest="target", required=True, help="the target's id")
    lof.add_argument("--min-visible", type=float, default=None, metavar="MM",
                     help="how much of the target must be seen (A23; default 3 mm)")
    lof.add_argument("--json", action="store_true", help="print the answer as JSON")


def lof_answer(scenario: Any, viewer: str, target: str,
               min_visible_mm: float | None = None) -> Answer:
    """`lof`'s answer: exit 0 when the viewer has Line of Fire, 1 when not."""
    from constraints.infinity.lof import DEFAULT_MIN_VISIBLE_MM
    from optimizer.routes.sight import line_of_fire

    found = line_of_fire(scenario, viewer, target,
                         DEFAULT_MIN_VISIBLE_MM if min_visible_mm is None else min_visible_mm)
    return Answer(found.to_json(), EXIT_OK if found.lof else EXIT_NO, found.text,
                  schema="lof-result")


def cmd_lof(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    return lof_answer(scenario, args.viewer, args.target, args.min_visible).print(args.json)
