"""Why three bench_solve Marches stay FEASIBLE (issue 31): the measurements behind the note.

    .venv/bin/python benchmarks/probe_open.py [--json OUT]

1. rocks-march, gap-sidestep and column-shuffle solved as bench_solve solves them (30 s, one
   worker): value, bound, and the answer's binding measurements.
2. gap-sidestep with its walls moved apart by 0.02, 0.05 and 0.1" a side: how much of the
   value hangs on the exact 0.5" clearance, so how much of it a bound may give up and still
   close within the tolerance (0.01").
3. rocks-march with the reach's turning priced at f W a radian (an experiment, NOT sound: the
   reach as built charges 2W/pi, the least a radian of a 90 deg wheel; the detour round
   rock0, wheels of about 45 and 37.5 deg, really costs about 0.915 W a radian).
4. gap-sidestep's symmetric S through the gap (wheel -t, leg, wheel +t, leg, ending on the
   target pose), judged by the checker: the ways inside the budget sweep a wall.
5. The front's reach (constraints/rank_and_file/front_reach.py) of gap-sidestep and
   column-shuffle at the target's facing: how near to the target's front centre its cells
   come, as built (sound) and in experiments stricter than the rules (NOT sound, never
   used by the search: turns priced at W a radian, barring 0.1" beyond the limit, cells 2x
   and 4x finer).  With each, the stencils' growth a step (a cell's g sqrt 2 for where in
   its cell a state starts, and the step's reach x half a band for where in its band the
   heading is) times the steps: how far the reach lets the front drift sideways unpaid.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from bench_solve import CASES, SCENARIOS

import constraints.rank_and_file.front_reach as front_reach_module
import optimizer.search.front_cut as front_cut_module
from constraints.core.clause import KeepsClear, keeping_clear
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.geometry.frame import Frame
from constraints.rank_and_file.front_layers import COARSE
from constraints.rank_and_file.front_reach import FrontReach
from constraints.rank_and_file.start_close import StartClose
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search.certified import relaxation_of
from optimizer.search.front_cut import front_pieces
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move

OPEN = ("rocks-march", "gap-sidestep", "column-shuffle")
TIME_LIMIT_S = 30.0
WIDER = (0.02, 0.05, 0.1)   # inches each wall of gap-sidestep moves away from the gap
PRICES = (0.9, 0.915, 0.935, 0.95)  # f: rocks-march's reach charging f W a radian of turn


def solved(scenario: Scenario, name: str) -> dict[str, Any]:
    _, unit, manoeuvre, objective, _ = CASES[name]
    start = time.perf_counter()
    out = best_move(scenario, unit, manoeuvre, objective, time_limit_s=TIME_LIMIT_S,
                    workers=1).to_json()
    measured = out["verdict"]["measurements"]
    return {"status": out["status"], "value": out["objective"]["value"],
            "bound": out["objective"]["bound"], "seconds": round(time.perf_counter() - start, 1),
            "front_clearance": measured["front_clearance"], "distance": measured["distance"],
            "steps": out["move"]["steps"]}


def gap_widened(by: float) -> Scenario:
    data = json.loads((SCENARIOS / "gap.json").read_text())
    west, east = data["terrain"]
    west["polygon"] = [[0, 20], [37.3 - by, 20], [37.3 - by, 21], [0, 21]]
    east["polygon"] = [[42.7 + by, 20], [72, 20], [72, 21], [42.7 + by, 21]]
    return scenario_from_json(data)


def symmetric_s(scenario: Scenario, turn: float) -> dict[str, Any] | None:
    """Wheel -turn, a leg, wheel +turn, a leg, ending at gap-sidestep's target (40, 24)
    facing 90: the first leg by bisection on the end's x, the last one from the end's y."""
    def judged(first: float, last: float) -> dict[str, Any]:
        steps = (wheel(-turn), forward(first), wheel(turn), forward(max(last, 0.0)))
        return check_move(scenario, Move("block", Manoeuvre.MARCH, steps)).to_json()

    low, high = 0.0, 16.0
    if (judged(low, 0.0)["end"]["centre"][0] - 40.0) * \
            (judged(high, 0.0)["end"]["centre"][0] - 40.0) > 0:
        return None
    for _ in range(50):
        mid = (low + high) / 2.0
        if judged(mid, 0.0)["end"]["centre"][0] < 40.0:
            low = mid
        else:
            high = mid
    last = 24.0 - judged(low, 0.0)["end"]["centre"][1]
    verdict = judged(low, last)
    return {"turn": turn, "first_leg": round(low, 3), "last_leg": round(last, 3),
            "distance": verdict["measurements"]["distance"],
            "front_clearance": verdict["measurements"]["front_clearance"],
            "broken": [v["clause"] for v in verdict["violations"]]}


@contextlib.contextmanager
def turns_priced(f: float) -> Iterator[None]:
    """The certificate's reach charging f W a radian of turn (psi(x) = (f - 1/2) x: a wheel
    costs W (x/2 + psi(x))), whatever the family's psi: an experiment, not sound."""
    made = front_cut_module.FrontReach

    class Priced(made):  # type: ignore[valid-type, misc]
        def __init__(self, width: float, depth: float, budget: float, window: float | None,
                     pivots: bool, psi: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(width, depth, budget, window, pivots,
                             lambda x: (f - 0.5) * np.asarray(x), *args, **kwargs)

    front_cut_module.FrontReach = Priced
    try:
        yield
    finally:
        front_cut_module.FrontReach = made


@contextlib.contextmanager
def cells_across(count: int, smallest: float) -> Iterator[None]:
    """The reach's raster, finer for an experiment (module constants read when it is made)."""
    saved = front_reach_module.CELLS_ACROSS, front_reach_module.MIN_CELL_IN
    front_reach_module.CELLS_ACROSS, front_reach_module.MIN_CELL_IN = count, smallest
    try:
        yield
    finally:
        front_reach_module.CELLS_ACROSS, front_reach_module.MIN_CELL_IN = saved


def reach_near_target(scenario: Scenario, name: str, priced_w: bool = False,
                      stricter: float = 0.0) -> dict[str, Any]:
    """How near the reach's cells at the target's facing come to the target's front centre."""
    _, unit_id, manoeuvre, objective, _ = CASES[name]
    request = SearchRequest(scenario, unit_id, manoeuvre, objective)
    shape, unit = relaxation_of(request).shape, request.unit
    clause = keeping_clear(scenario.profile.clauses(manoeuvre), KeepsClear.FRONT_SWEEP)
    assert clause is not None and objective.point is not None and objective.facing_deg is not None
    limit = clause.number("spacing_in")
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    pieces = front_pieces(scenario, unit, frame, StartClose.of(scenario, unit.id), limit)
    psi = (lambda x: np.asarray(x) / 2.0) if priced_w else shape.psi  # W a radian: unsound
    start = time.perf_counter()
    reach = FrontReach(unit.width_in, unit.depth_in, shape.budget, shape.window, False, psi,
                       [p for p, _ in pieces], limit + stricter, None,
                       [own + stricter for _, own in pieces], COARSE)
    facing = math.radians(objective.facing_deg - unit.pose.facing_deg) + math.pi / 2.0
    front = np.add(frame.point(objective.point),
                   unit.depth_in / 2.0 * np.array([math.cos(facing), math.sin(facing)]))
    rows, cols = np.nonzero(reach.fronts(facing - 1e-6, facing + 1e-6))
    xs, ys = reach.origin + (cols + 0.5) * reach.cell, reach.origin + (rows + 0.5) * reach.cell
    growth = reach.step * reach.speed * reach.bands.width / 2.0 + reach.cell * math.sqrt(2.0)
    return {"cell": round(reach.cell, 4), "band_deg": round(math.degrees(reach.bands.width), 2),
            "margin": round(reach.margin, 3), "steps": reach.steps,
            "nearest": round(float(np.hypot(xs - front[0], ys - front[1]).min()), 3),
            "growth_a_step": round(growth, 3), "drift": round(growth * reach.steps, 2),
            "seconds": round(time.perf_counter() - start, 1)}


# Each experiment: reach_near_target's options, and the raster (cells across, least cell).
REACHES: dict[str, tuple[dict[str, Any], tuple[int, float] | None]] = {
    "as built": ({}, None),
    "turns at W a radian": ({"priced_w": True}, None),
    "W, barring 0.1 farther": ({"priced_w": True, "stricter": 0.1}, None),
    "W, cells 2x finer": ({"priced_w": True}, (540, 0.03)),
    "W, cells 4x finer": ({"priced_w": True}, (1080, 0.015))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    out: dict[str, Any] = {"solved": {}, "gap_widened": {}, "priced": {}, "gap_s": [],
                           "reach": {}}
    for name in OPEN:
        out["solved"][name] = solved(load_scenario(SCENARIOS / CASES[name][0]), name)
        print(name, {k: v for k, v in out["solved"][name].items() if k != "steps"})
    for by in WIDER:
        widened = solved(gap_widened(by), "gap-sidestep")
        out["gap_widened"][by] = widened
        print(f"gap-sidestep, walls {by}\" apart each:", widened["value"], widened["status"],
              "front_clearance", widened["front_clearance"])
    for f in PRICES:
        with turns_priced(f):
            priced = solved(load_scenario(SCENARIOS / "rocks.json"), "rocks-march")
        out["priced"][f] = priced
        print(f"rocks-march, turns at {f} W a radian:", priced["status"], priced["value"],
              "bound", priced["bound"])
    gap = load_scenario(SCENARIOS / "gap.json")
    for turn in np.arange(16.0, 24.5, 0.5):
        found = symmetric_s(gap, float(turn))
        if found is not None:
            out["gap_s"].append(found)
            print("S", found)
    for name in ("gap-sidestep", "column-shuffle"):
        scenario = load_scenario(SCENARIOS / CASES[name][0])
        for label, (options, raster) in REACHES.items():
            with cells_across(*raster) if raster else contextlib.nullcontext():
                probe = reach_near_target(scenario, name, **options)
            out["reach"].setdefault(name, {})[label] = probe
            print(name, label, probe)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
