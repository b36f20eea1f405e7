"""Game-AI environments: steps per second with exact masks, the mask against a loop of exact
checks, masked random actions judged by the checker, and the batch mask on Ray.

Parts (all in one run, so the ratios share the machine's load):
1. `steps`: MoveEnv and DuelEnv steps per second with masks (masked random agent); a
   DuelEnv step builds the moved-next unit's action lattice and mask afresh (positions
   change), a MoveEnv episode reuses its lattice's mask.
2. `mask`: the time to build one action lattice and its mask, against a loop of `check_move`
   over the same lattice's actions (every action with a way; the check alone, no move
   building counted), per action and per lattice.
3. `judged`: `--actions` masked random actions over the bundled examples, each judged by the
   exact checker (illegal must be 0, and each must end at its cell); and how many legal
   actions the mask hides (every refused action of a March lattice judged, a sample of the
   others'); and, for the March lattices, how many of a sample of refused actions within
   the March's reach a way of several wheels makes legal (the solver's `target_pose`).
4. `ray`: `ray_legal_mask` on `--poses` March poses, locally (`legal_mask`) and on Ray with 1
   and 2 workers, then over a `ray.cluster_utils.Cluster` of 2 simulated nodes (1 CPU each).

    python benchmarks/bench_rl.py [--actions 10000] [--poses 3000000] [--parts ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from optimizer import Objective, best_move, legal_mask, load_scenario
from optimizer.queries import check_move
from optimizer.rl import ActionLattice, DuelEnv, MoveEnv, RandomAgent

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CASES = [("spears.json", "spears", "march"), ("spears.json", "spears", "advance"),
         ("spears.json", "spears", "reform"), ("flank_march.json", "knights", "march"),
         ("goblins.json", "goblins", "march"), ("goblins.json", "goblins", "reform")]


def bench_steps(seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    env = MoveEnv(EXAMPLES / "spears.json", "spears", "march",
                  {"name": "target_distance", "point": (44.0, 18.0)})
    agent = RandomAgent(seed=0)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        _, info = env.reset()
        env.step(agent.act(info["action_mask"]))
        steps += 1
    out["move_env_steps_per_s"] = steps / (time.perf_counter() - started)
    for name in ("spears.json", "goblins.json"):
        duel = DuelEnv(EXAMPLES / name, turns=1_000_000)
        duel.reset(seed=0)
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            obs, *_ = duel.last()
            duel.step(agent.act(obs["action_mask"]))
            steps += 1
        out[f"duel_env_steps_per_s[{name}]"] = steps / (time.perf_counter() - started)
    return out


def bench_mask(repeats: int) -> list[dict[str, Any]]:
    rows = []
    for name, unit, manoeuvre in CASES:
        scenario = load_scenario(EXAMPLES / name)
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            actions = ActionLattice(scenario, unit, manoeuvre)
            mask = actions.mask()
            times.append(time.perf_counter() - started)
        with_way = [a for a in range(actions.n) if actions.decode(a)[:2] in actions.ways]
        sample = with_way[::max(1, len(with_way) // 300)]
        moves = [actions.move(a) for a in sample]
        started = time.perf_counter()
        for move in moves:
            check_move(scenario, move)
        per_check = (time.perf_counter() - started) / len(moves)
        mask_s = float(np.median(times))
        rows.append({"case": f"{name} {unit} {manoeuvre}", "actions": actions.n,
                     "with_way": len(with_way), "passed": int(mask.sum()),
                     "mask_s": mask_s, "mask_us_per_action": 1e6 * mask_s / len(with_way),
                     "check_us": 1e6 * per_check,
                     "check_loop_s": per_check * len(with_way),
                     "speedup": per_check * len(with_way) / mask_s})
    return rows


def bench_judged(total: int, hidden_sample: int) -> dict[str, Any]:
    rng = np.random.default_rng(33)
    illegal, wrong_end, judged, rows = 0, 0, 0, []
    per_case = -(-total // len(CASES))
    for name, unit, manoeuvre in CASES:
        scenario = load_scenario(EXAMPLES / name)
        actions = ActionLattice(scenario, unit, manoeuvre)
        mask = actions.mask()
        for action in rng.choice(np.flatnonzero(mask), per_case):
            verdict = check_move(scenario, actions.move(int(action)))
            illegal += not verdict.legal
            wrong_end += verdict.legal and not actions.reaches(int(action), verdict)
            judged += 1
        refused = [a for a in np.flatnonzero(~mask) if actions.decode(int(a))[:2] in actions.ways]
        every = manoeuvre == "march" or len(refused) <= hidden_sample
        tried = refused if every else list(rng.choice(refused, hidden_sample, replace=False))
        hidden = sum((v := check_move(scenario, actions.move(int(a)))).legal
                     and actions.reaches(int(a), v) for a in tried)
        rows.append({"case": f"{name} {unit} {manoeuvre}", "passed": int(mask.sum()),
                     "refused_with_way": len(refused), "refused_judged": len(tried),
                     "hidden_legal": int(hidden),
                     "hidden_estimate": hidden * len(refused) / max(1, len(tried))})
    return {"judged": judged, "illegal": illegal, "not_at_cell": wrong_end, "hidden": rows}


def bench_hidden_by_solver(count: int, time_limit_s: float) -> list[dict[str, Any]]:
    """Poses the mask refuses that a way of several wheels reaches: for `count` refused
    March actions whose cell lies within the March's reach of the start, the solver's
    `target_pose` answer (up to 3 wheels), counted when it ends at the action's pose (within
    0.01" and 0.1 deg) and the checker finds it legal."""
    rows = []
    rng = np.random.default_rng(7)
    for name, unit, manoeuvre in CASES:
        if manoeuvre != "march":
            continue
        scenario = load_scenario(EXAMPLES / name)
        actions = ActionLattice(scenario, unit, manoeuvre)
        reach = 2.0 * scenario.unit(unit).mobility_in
        near = [int(a) for a in np.flatnonzero(~actions.mask())
                if np.hypot(*actions.frame_centres[actions.decode(int(a))[2]]) <= reach]
        tried = rng.choice(near, min(count, len(near)), replace=False)
        hit = 0
        for action in tried:
            what = actions.describe(int(action))
            facing = scenario.unit(unit).pose.facing_deg + what["turn_deg"]
            result = best_move(scenario, unit, manoeuvre,
                               Objective("target_pose", what["centre"], facing),
                               time_limit_s=time_limit_s)
            if result.move is None:
                continue
            verdict = check_move(scenario, result.move)
            turn = (verdict.end_facing_deg - facing + 180.0) % 360.0 - 180.0
            hit += bool(verdict.legal and abs(turn) < 0.1 and
                        np.hypot(*np.subtract(verdict.end_centre, what["centre"])) < 0.01)
        rows.append({"case": f"{name} {unit} {manoeuvre}", "refused_in_reach": len(near),
                     "tried": len(tried), "legal_by_more_wheels": hit})
    return rows


def march_poses(n: int) -> tuple[Any, np.ndarray, np.ndarray]:
    scenario = load_scenario(EXAMPLES / "spears.json")
    rng = np.random.default_rng(0)
    centres = np.stack([rng.uniform(30.0, 42.0, n), rng.uniform(6.0, 20.0, n)], axis=1)
    return scenario, centres, rng.choice(np.arange(0.0, 181.0, 15.0), n)


def timed(call: Any, repeats: int) -> tuple[float, Any]:
    times, answer = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        answer = call()
        times.append(time.perf_counter() - started)
    return float(np.median(times)), answer


def bench_ray(n: int, repeats: int) -> dict[str, Any]:
    import ray
    from ray.cluster_utils import Cluster

    from optimizer.rl import ray_legal_mask
    from optimizer.rl.ray_mask import shutdown_actors

    scenario, centres, facings = march_poses(n)
    out: dict[str, Any] = {"poses": n}
    local_s, local = timed(lambda: legal_mask(scenario, "spears", "march", centres, facings),
                           repeats)
    out["local_poses_per_s"] = n / local_s
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    out["ray_init_s"] = time.perf_counter() - started
    for workers in (1, 2):
        ray_legal_mask(scenario, "spears", "march", centres[:10], facings[:10],
                       workers=workers)  # actors up, judges prepared
        took, got = timed(lambda w=workers: ray_legal_mask(scenario, "spears", "march",
                                                           centres, facings, workers=w),
                          repeats)
        out[f"ray_{workers}_poses_per_s"] = n / took
        out[f"ray_{workers}_equal"] = bool(np.array_equal(got, local))
    out["scaling_2_over_1"] = out["ray_2_poses_per_s"] / out["ray_1_poses_per_s"]
    shutdown_actors()
    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    try:
        ray.init(address=cluster.address, log_to_driver=False)
        ray_legal_mask(scenario, "spears", "march", centres[:10], facings[:10], workers=2)
        took, got = timed(lambda: ray_legal_mask(scenario, "spears", "march", centres,
                                                 facings, workers=2), repeats)
        out["cluster_2_nodes_poses_per_s"] = n / took
        out["cluster_equal"] = bool(np.array_equal(got, local))
    finally:
        shutdown_actors()
        ray.shutdown()
        cluster.shutdown()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--hidden-sample", type=int, default=1_000)
    parser.add_argument("--solver-sample", type=int, default=60)
    parser.add_argument("--poses", type=int, default=3_000_000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--parts", default="steps,mask,judged,solver,ray",
                        help="which parts to run, comma-separated")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    report: dict[str, Any] = {"load_average": os.getloadavg()}
    if "steps" in parts:
        report["steps"] = bench_steps(args.seconds)
        print(json.dumps(report["steps"], indent=1))
    if "mask" in parts:
        report["mask"] = bench_mask(args.repeats)
        for row in report["mask"]:
            print(json.dumps(row))
    if "judged" in parts:
        report["judged"] = bench_judged(args.actions, args.hidden_sample)
        print(json.dumps(report["judged"], indent=1))
    if "solver" in parts:
        report["hidden_by_solver"] = bench_hidden_by_solver(args.solver_sample, 2.0)
        print(json.dumps(report["hidden_by_solver"], indent=1))
    if "ray" in parts:
        report["ray"] = bench_ray(args.poses, args.repeats)
        print(json.dumps(report["ray"], indent=1))
    report["load_average_after"] = os.getloadavg()
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
