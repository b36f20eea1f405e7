"""The throughput of `BatchJudge.mask` on March end poses, against a Python loop of
`check_move` over the first of them (benchmarks/bench_solve.py runs it after its cases)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.geometry.frame import Frame
from constraints.geometry.plane import unit_vector
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step
from optimizer.batch import BatchJudge
from optimizer.families.base import options_for
from optimizer.families.snaking import legs

SCENARIOS = Path(__file__).resolve().parent / "scenarios"

def march_poses(scenario: Scenario, unit_id: str, count: int,
                seed: int = 0) -> tuple[list[Any], np.ndarray, np.ndarray, np.ndarray]:
    """`count` March end poses on the lattice: a random option (wheel) and random legs, the
    frame centre rounded to 0.01", kept when that centre is still reached by the option with
    legs >= 0 (rounding can push a short leg below zero).  (options, option index, world
    centres, world facings)."""
    unit = scenario.unit(unit_id)
    options, _ = options_for(scenario, unit, "march", Lattice())
    rng = np.random.default_rng(seed)
    n = count + count // 4
    k = rng.integers(len(options), size=n)
    spare = np.array([o.spare_in for o in options])[k]
    a = rng.uniform(0.0, 1.0, n) * spare
    b = np.where(np.array([o.wheel_deg for o in options])[k] == 0, 0.0,
                 rng.uniform(0.0, 1.0, n) * (spare - a))
    w, fp, fe = (np.array([getattr(o, key) for o in options])
                 for key in ("wheel_shift", "first_dir", "end_dir"))
    frame = np.round((w[k] + a[:, None] * fp[k] + b[:, None] * fe[k]) / 0.01) * 0.01
    maps = np.array([o.a_map + o.b_map for o in options])[k]  # (n, 6)
    legs_ab = np.stack([np.sum(maps[:, 3 * i:3 * i + 2] * frame, axis=1) + maps[:, 3 * i + 2]
                        for i in (0, 1)], axis=1)
    keep = np.flatnonzero((legs_ab >= -1e-12).all(axis=1))[:count]
    assert len(keep) == count, "too few reachable poses: raise the oversampling"
    fx, fy = unit_vector(unit.pose.facing_deg)
    world = np.asarray(unit.pose.centre) + frame[:, :1] * (fy, -fx) + frame[:, 1:] * (fx, fy)
    facings = np.array([o.facing_deg for o in options])[k]
    return options, k[keep], world[keep], facings[keep]


MASK_CASES = (("battle.json", "guard", "rocks within reach: obstacle and table-edge sweep checks"),
              ("open.json", "solo", "no obstacle within reach; the table-edge sweep check runs"))


def bench_mask(file: str, unit_id: str, count: int, loop: int, repeats: int) -> dict[str, Any]:
    scenario = load_scenario(SCENARIOS / file)
    unit = scenario.unit(unit_id)
    options, k, centres, facings = march_poses(scenario, unit_id, count)
    started = time.perf_counter()
    judge = BatchJudge(scenario, unit_id, "march")
    setup = time.perf_counter() - started
    rates, ok = [], np.zeros(0, dtype=bool)
    for _ in range(repeats):
        started = time.perf_counter()
        ok = judge.mask(centres, facings)
        rates.append(count / (time.perf_counter() - started))
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    loop_rates, disagree, legal = [], 0, 0
    for _ in range(repeats):
        started = time.perf_counter()
        verdicts = [check_move(scenario, _move(unit_id, options[k[n]],
                                               frame.point(tuple(centres[n]))))
                    for n in range(loop)]
        loop_rates.append(loop / (time.perf_counter() - started))
        legal = sum(v.legal for v in verdicts)
        disagree = sum(bool(ok[n]) and not v.legal for n, v in enumerate(verdicts))
    out: dict[str, Any] = {
        "scenario": file, "unit": unit_id, "poses": count,
        "mask_legal_fraction": float(ok.mean()), "setup_s": setup,
        "mask_poses_per_s": rates, "loop_poses": loop, "loop_poses_per_s": loop_rates,
        "loop_legal": legal, "loop_mask_legal": int(ok[:loop].sum()),
        "mask_true_but_illegal": disagree,
        "ratio_median": statistics.median(rates) / statistics.median(loop_rates)}
    print(f"\nBatchJudge.mask, {unit_id} March on {file}, {count:,} lattice poses "
          f"({100 * out['mask_legal_fraction']:.1f}% mask-legal; judge set-up {setup:.3f} s):")
    print(f"  mask        {min(rates):>12,.0f} / {statistics.median(rates):>12,.0f} poses/s "
          "(min / median)")
    print(f"  check_move  {min(loop_rates):>12,.1f} / {statistics.median(loop_rates):>12,.1f} "
          f"poses/s on the first {loop} ({legal} legal, {out['loop_mask_legal']} mask-legal, "
          f"{disagree} mask-legal but illegal)")
    print(f"  ratio (medians) {out['ratio_median']:,.0f}x")
    return out


def _move(unit_id: str, option: Any, centre: tuple[float, float]) -> Move:
    a, b = legs(option, centre)
    steps = [Step("forward", a), Step("wheel", option.wheel_deg), Step("forward", b)]
    return Move(unit_id, "march", steps=tuple(s for s in steps if s.value != 0.0))
