"""Warhammer 7th's best move (`best_move` on whfb7 scenarios) against a brute force.

    .venv/bin/python benchmarks/bench_whfb7.py [--quick]

The brute force: every way of the family on a grid (each turn, wheels on 5 deg steps, legs on
0.1"; --quick: 15 deg and 0.5") within the budget, sorted by its objective value (end centre
computed from the way), then judged by the whfb7 checker in that order until the first legal
one: the grid's best legal value, exactly, without judging the whole grid.  Side by side:
times (the brute force's over the search's), values, statuses.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from constraints.core.scenario import Scenario  # noqa: E402
from constraints.core.scenario_io import load_scenario, scenario_from_json  # noqa: E402
from constraints.whfb7.checker import check_move  # noqa: E402
from constraints.whfb7.examples import field, unit, wall  # noqa: E402
from optimizer.families.snaking import end_centre  # noqa: E402
from optimizer.search.objectives import Objective  # noqa: E402
from optimizer.search.request import SearchRequest  # noqa: E402
from optimizer.search.solve import best_move  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAP = (wall("left", 24.0, 16.0, 34.5, 18.0), wall("right", 37.5, 16.0, 48.0, 18.0))


def cases() -> list[tuple[str, Scenario, str, str, Objective]]:
    goblins = load_scenario(ROOT / "examples" / "goblins.json")
    open_field = scenario_from_json(field(unit()))
    gap = scenario_from_json(field(unit(movement=5.0), terrain=GAP))
    edge = scenario_from_json(field(unit(centre=(3.5, 10.0))))
    return [
        ("open-march-forward", open_field, "u", "march", Objective("forward")),
        ("open-march-side", open_field, "u", "march", Objective("target_distance", (42, 15))),
        ("open-move-behind", open_field, "u", "move", Objective("target_distance", (36, 6))),
        ("rocks-march", goblins, "goblins", "march", Objective("target_distance", (14, 23))),
        ("rocks-move", goblins, "goblins", "move", Objective("target_distance", (19, 12))),
        ("gap-march", gap, "u", "march", Objective("target_distance", (36, 21))),
        ("gap-move", gap, "u", "move", Objective("target_distance", (38, 14))),
        ("edge-march-left", edge, "u", "march", Objective("target_distance", (0, 14))),
    ]


def brute(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
          wheel_step: int, leg_step: float) -> tuple[float | None, int, float]:
    """The grid's best legal value, the ways judged, the seconds taken."""
    started = time.perf_counter()
    request = SearchRequest(scenario, unit_id, manoeuvre, objective)
    family, frame = request.family, request.frame
    options = [o for o in request.options()[0] if round(o.wheel_deg) % wheel_step == 0]
    rows = []  # (value, option index, a, b)
    for k, option in enumerate(options):
        legs = np.arange(0.0, option.spare_in + 1e-9, leg_step)
        a, b = np.meshgrid(legs, legs if option.wheel_deg else [0.0], indexing="ij")
        keep = a + b <= option.spare_in + 1e-9
        a, b = a[keep], b[keep]
        ends = np.array([end_centre(option, x, y) for x, y in zip(a, b, strict=True)])
        world = frame.world_array(ends)
        if objective.name == "forward":
            values = -ends[:, 1]
        else:
            assert objective.point is not None
            values = np.hypot(world[:, 0] - objective.point[0], world[:, 1] - objective.point[1])
        rows += [(float(v), k, float(x), float(y)) for v, x, y in zip(values, a, b, strict=True)]
    rows.sort()
    judged = 0
    for value, k, a, b in rows:
        judged += 1
        move = family.move(unit_id, frame, options[k], end_centre(options[k], a, b))
        if check_move(scenario, move).legal:
            return (-value if objective.name == "forward" else value), judged, \
                time.perf_counter() - started
    return None, judged, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a coarser brute-force grid")
    args = parser.parse_args()
    wheel_step, leg_step = (15, 0.5) if args.quick else (5, 0.1)
    print("| case | search (s) | status | value | brute force (s) | judged | grid value "
          "| ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name, scenario, unit_id, manoeuvre, objective in cases():
        started = time.perf_counter()
        result = best_move(scenario, unit_id, manoeuvre, objective)
        took = time.perf_counter() - started
        grid, judged, brute_s = brute(scenario, unit_id, manoeuvre, objective, wheel_step,
                                      leg_step)
        value = "-" if result.value is None else f"{result.value:.3f}"
        best = "-" if grid is None else f"{grid:.3f}"
        ratio = brute_s / took if took > 0 else math.inf
        print(f"| {name} | {took:.2f} | {result.status} | {value} | {brute_s:.2f} | "
              f"{judged} | {best} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
