"""`manoeuvre nudge`: casualties, unfrozen Unit Boundaries and nudges (docs/formats.md)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.core.scenario import Scenario, require_system
from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from optimizer.cli.warn import shown, warned, with_warnings
from optimizer.nudge import load_losses, losses_from_json, resolve
from optimizer.nudge.output import result_text, result_to_json

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
    from optimizer.render.output import check_output

    output = check_output(args.render) if args.render else None
    scenario = load_scenario(args.scenario)
    require_system(scenario, "t9a", "manoeuvre nudge")
    warnings = warned(scenario)
    losses = load_losses(args.casualties, scenario) if args.casualties else ()
    result = resolve(scenario, losses)
    print(json.dumps(with_warnings(result_to_json(result), warnings), indent=2) if args.json
          else shown(result_text(result), warnings))
    if output is not None:
        from optimizer.render.nudge import render_nudge_to_file
        render_nudge_to_file(result, output)
    return 0


def is_nudge_result(path: str) -> bool:
    """Whether `path` holds the JSON output of `manoeuvre nudge` (it has "nudges")."""
    data = read_json(path)
    return isinstance(data, dict) and "nudges" in data


def render_nudge_result(scenario: Scenario, path: str, output: Path) -> int:
    """Draw a `nudge --json` result: resolved again from its echoed casualties (the
    resolution is deterministic), so the picture shows every model."""
    from optimizer.render.nudge import render_nudge_to_file

    data = read_json(path)
    try:
        losses = losses_from_json(data.get("casualties", {}), scenario)
    except InvalidInputError as exc:
        raise exc.in_file(path) from None
    render_nudge_to_file(resolve(scenario, losses), output)
    print(f"wrote {output}")
    return 0
