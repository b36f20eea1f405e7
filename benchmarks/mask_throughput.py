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


# -- whfb7: WarhammerJudge.mask, this tree against another in one run -----------------------

WHFB7_CASES = ("goblins-march", "goblins-move", "gap-march", "gap-move", "open-move")


def whfb7_poses(name: str, count: int, seed: int = 0) -> tuple[Any, ...]:
    """`count` end poses of the case's family: a random option (a prefix and a wheel on the
    search's lattice) and random legs within what its budget leaves.  (scenario, unit,
    manoeuvre, world centres, facings, turns, pre-wheels)."""
    from constraints.core.scenario_io import scenario_from_json
    from constraints.whfb7.examples import field, unit, wall
    from constraints.whfb7.ways import option_pre_wheel, option_turn
    from optimizer.search.objectives import Objective
    from optimizer.search.request import SearchRequest

    place, manoeuvre = name.rsplit("-", 1)
    gap = (wall("left", 24.0, 16.0, 34.5, 18.0), wall("right", 37.5, 16.0, 48.0, 18.0))
    scenario, unit_id = {
        "goblins": lambda: (load_scenario(SCENARIOS.parent.parent / "examples" /
                                          "goblins.json"), "goblins"),
        "gap": lambda: (scenario_from_json(field(unit(movement=5.0), terrain=gap)), "u"),
        "open": lambda: (scenario_from_json(field(unit())), "u"),
    }[place]()
    request = SearchRequest(scenario, unit_id, manoeuvre, Objective("forward"))
    options = request.options()[0]
    rng = np.random.default_rng(seed)
    k = rng.integers(len(options), size=count)
    spare = np.maximum(np.array([o.spare_in for o in options])[k], 0.0)
    a = rng.uniform(0.0, 1.0, count) * spare
    b = np.where(np.array([o.wheel_deg for o in options])[k] == 0, 0.0,
                 rng.uniform(0.0, 1.0, count) * (spare - a))
    w, fp, fe = (np.array([getattr(o, key) for o in options])[k]
                 for key in ("wheel_shift", "first_dir", "end_dir"))
    world = request.frame.world_array(w + a[:, None] * fp + b[:, None] * fe)
    facings = np.array([o.facing_deg for o in options])[k]
    turns = np.array([option_turn(o) for o in options])[k]
    pres = np.array([option_pre_wheel(o) for o in options])[k]
    return scenario, unit_id, manoeuvre, world, facings, turns, pres


def whfb7_rates(name: str, count: int, repeats: int) -> dict[str, Any]:
    """Poses a second of a fresh judge's mask (its caches built on the first call: each
    repeat is a new judge), and the mask itself (to compare trees)."""
    import hashlib

    from constraints.whfb7.masks import WarhammerJudge

    scenario, unit_id, manoeuvre, world, facings, turns, pres = whfb7_poses(name, count)
    rates, ok = [], np.zeros(0, dtype=bool)
    for _ in range(repeats):
        started = time.perf_counter()
        judge = WarhammerJudge(scenario, unit_id, manoeuvre)
        ok = judge.mask(world, facings, turns=turns, pre_wheels=pres)
        rates.append(count / (time.perf_counter() - started))
    return {"case": name, "poses": count, "legal": int(ok.sum()),
            "mask_sha1": hashlib.sha1(np.packbits(ok).tobytes()).hexdigest(), "rates": rates}


def compare_trees(other: Path, count: int, repeats: int) -> None:
    """Each whfb7 case measured in this tree and in `other` (a worktree of the same
    repository), alternately, each in its own process: median poses a second, the ratio."""
    import json
    import os
    import subprocess
    import sys

    here = Path(__file__).resolve().parents[1]
    print("| case | poses | legal (this / other) | this tree poses/s | other poses/s | "
          "this / other |\n|---|---|---|---|---|---|")
    for name in WHFB7_CASES:
        found = {}
        for tree in (here, other) * 3:
            env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
            out = subprocess.run([sys.executable, __file__, "--whfb7-case", name, "--count",
                                  str(count), "--repeats", str(repeats)], env=env, check=True,
                                 capture_output=True, text=True, cwd=tree).stdout
            data = json.loads(out.splitlines()[-1])
            found.setdefault(tree, {"rates": []} | data)["rates"] += data["rates"]
        mine, theirs = found[here], found[other]
        assert mine["mask_sha1"] == theirs["mask_sha1"], f"{name}: the masks differ"
        ratio = statistics.median(mine["rates"]) / statistics.median(theirs["rates"])
        print(f"| {name} | {count:,} | {mine['legal']:,} / {theirs['legal']:,} | "
              f"{statistics.median(mine['rates']):,.0f} | "
              f"{statistics.median(theirs['rates']):,.0f} | {ratio:.2f}x |")


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--whfb7-against", type=Path, help="a worktree to compare whfb7 with")
    parser.add_argument("--whfb7-case", choices=WHFB7_CASES)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.whfb7_case:
        print(json.dumps(whfb7_rates(args.whfb7_case, args.count, args.repeats)))
    elif args.whfb7_against:
        compare_trees(args.whfb7_against.resolve(), args.count, args.repeats)
    else:
        for file, unit_id, _why in MASK_CASES:
            bench_mask(file, unit_id, 100_000, 100, 3)
