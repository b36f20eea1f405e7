"""The runs of benchmarks/bench_reform.py: the solver on a scene (each unit's reform in turn, judged
by the checker), the exhaustive baselines on the same sequence (the lattice, the events) and
the joint reform's, in a child process with its own limits."""

from __future__ import annotations

import inspect
import json
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.reform_baselines import Best, exhaustive, true_value
from benchmarks.reform_joint_baselines import JointBest, joint_exhaustive
from benchmarks.reform_report import JOINT_TUPLES
from benchmarks.reform_scenes import Json, Scene
from constraints.core.scenario import Scenario
from constraints.rank_and_file.contact import model_contacts
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, placed
from optimizer.combat_reform.best import ReformAnswer, best_reform
from optimizer.combat_reform.reforms import combat_reforms

LONG_S = 10.0        # a baseline run longer than this is not repeated
JOINT_MEM_GB = 4.0   # the joint reform's child process: its address space
JOINT_TIMEOUT_S = 600.0


# -- the solver ------------------------------------------------------------------------------

def proposal(answer: ReformAnswer) -> UnitReform | None:
    """The solver's answer as the checker's value: every model placed."""
    if answer.reformed is None:
        return None
    return UnitReform(answer.unit, answer.files, answer.centre, answer.facing_deg,
                      tuple(ModelPlacement(mid, slot) for mid, slot in answer.models))


@dataclass
class Step:
    """One unit's reform in a run: the scene it was given, the answer, its proposal, the
    checker's verdict on it, and its contacts counted on the scene after."""

    unit: str
    before: Scenario
    answer: ReformAnswer | None
    reform: UnitReform | None
    legal: bool | None
    clauses: tuple[str, ...] = ()
    true: tuple[int, int] | None = None


def _judged(before: Scenario, uid: str, answer: ReformAnswer, player_done: bool) -> Step:
    reform = proposal(answer)
    if reform is None:
        return Step(uid, before, answer, None, None)
    verdict = check_combat_reform(before, [reform], player_done=player_done)
    after = placed(before, [reform])
    return Step(uid, before, answer, reform, verdict.legal, verdict.clauses(),
                true_value(after, uid))


def sequence(scenario: Scenario, units: tuple[str, ...]) -> list[Step]:
    """`combat_reforms`' work one unit at a time, without stopping at a refused proposal:
    each unit's `best_reform` on the scene the units before it left, judged by the checker
    (the last unit with the player done); a refused proposal is not placed."""
    steps, current = [], scenario
    for k, uid in enumerate(units):
        step = _judged(current, uid, best_reform(current, uid), k == len(units) - 1)
        if step.legal and step.reform is not None:
            current = placed(current, [step.reform])
        steps.append(step)
    return steps


JOINT = "joint" in inspect.signature(combat_reforms).parameters


def _sequential(scenario: Scenario) -> Any:
    """`combat_reforms` one unit at a time (its joint reforms off, where it has them)."""
    if JOINT:
        return combat_reforms(scenario, "red", joint=False)
    return combat_reforms(scenario, "red")


def run_solver(scene: Scene, scenario: Scenario, repeats: int) -> dict[str, Any]:
    """Times the public call (`best_reform`, or `combat_reforms` one unit at a time for
    several units); when `combat_reforms` raises, the error is kept and `sequence` (the same
    work, not stopping at a refused proposal) is timed instead."""
    error = ""
    times: list[float] = []
    if len(scene.units) == 1:
        uid = scene.units[0]
        for _ in range(repeats):
            started = time.perf_counter()
            answer = best_reform(scenario, uid)
            times.append(time.perf_counter() - started)
        steps = [_judged(scenario, uid, answer, True)]
        return {"times_s": times, "steps": steps, "error": error, "timed": "best_reform"}
    for _ in range(repeats):
        started = time.perf_counter()
        try:
            found = _sequential(scenario)
        except Exception as exc:  # noqa: BLE001 (reported: the solver's own re-check)
            error = f"{type(exc).__name__}: {exc}"
            break
        times.append(time.perf_counter() - started)
    if error:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            steps = sequence(scenario, scene.units)
            times.append(time.perf_counter() - started)
        return {"times_s": times, "steps": steps, "error": error, "timed": "sequence"}
    assert [o.unit for o in found.outcomes] == list(scene.units), found.outcomes
    steps, current = [], scenario
    for k, outcome in enumerate(found.outcomes):
        assert outcome.answer is not None
        step = _judged(current, outcome.unit, outcome.answer, k == len(scene.units) - 1)
        steps.append(step)
        if outcome.reform is not None:
            current = placed(current, [outcome.reform])
    final = found.verdict.legal if found.verdict is not None else None
    return {"times_s": times, "steps": steps, "error": error, "timed": "combat_reforms",
            "final_legal": final}


# -- the baseline ----------------------------------------------------------------------------

def run_baseline(steps: list[Step], events: bool, repeats: int) -> dict[str, Any]:
    """The baseline on each unit's scene as the solver had it (the units before it reformed
    by the solver), so each unit's answers are compared on the same scene."""
    times: list[float] = []
    bests: list[Best] = []
    for _ in range(repeats):
        started = time.perf_counter()
        bests = [exhaustive(s.before, s.unit, events=events, player_done=k == len(steps) - 1)
                 for k, s in enumerate(steps)]
        times.append(time.perf_counter() - started)
        if times[-1] > LONG_S:
            break
    units = []
    for step, best in zip(steps, bests, strict=True):
        true = true_value(placed(step.before, [best.reform]), step.unit) \
            if best.reform is not None else None
        units.append({"unit": step.unit, "found": best.found, "value": list(best.value),
                      "files": best.files, "x": best.x, "line": list(best.line),
                      "true": list(true) if true else None,
                      "counts": vars(best.counts),
                      "reform": reform_json(best.reform)})
    return {"times_s": times, "min_s": min(times), "median_s": statistics.median(times),
            "units": units}


def two_levels(value: Any) -> tuple[int, int]:
    """The first two levels of a value (own models in contact, enemy models touched)."""
    return (int(value[0]), int(value[1]))


def reform_json(reform: UnitReform | None) -> Json | None:
    if reform is None:
        return None
    return {"files": reform.files, "centre": [round(c, 6) for c in reform.centre],
            "facing": round(reform.facing_deg, 6),
            "models": [[p.id, list(p.slot)] for p in reform.models]}


def baseline_sequence(scenario: Scenario, units: tuple[str, ...]) -> dict[str, Any]:
    """The baseline's own sequence: each unit's exhaustive best (lattice + events) on the
    scene its own earlier answers left, then all of them judged together by the checker."""
    started = time.perf_counter()
    current, reforms, values = scenario, [], []
    for k, uid in enumerate(units):
        best = exhaustive(current, uid, player_done=k == len(units) - 1)
        values.append(list(best.value) if best.found else None)
        if best.reform is not None:
            reforms.append(best.reform)
            current = placed(current, [best.reform])
    seconds = time.perf_counter() - started
    legal = check_combat_reform(scenario, reforms).legal if reforms else None
    return {"seconds": seconds, "values": values, "legal": legal,
            "total": total_of(values), "true": [list(true_value(current, u)) for u in units]}


def total_of(values: list[Any]) -> list[int]:
    return [sum(v[0] for v in values if v), sum(v[1] for v in values if v)]


def run_joint(name: str, repeats: int) -> dict[str, Any]:
    """`joint_here` in a child process whose address space is capped at `JOINT_MEM_GB` and
    whose time at `JOINT_TIMEOUT_S`: the joint model has taken the whole machine's memory
    (24 GB, killed by the kernel) on a two-unit scene.  Its peak memory is reported."""
    def cap() -> None:
        limit = int(JOINT_MEM_GB * 2**30)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)  # a cap set by the caller's shell stays
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    script = Path(__file__).resolve().parent / "bench_reform.py"
    command = [sys.executable, str(script), "--joint-of", name, "--repeats", str(repeats)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              timeout=JOINT_TIMEOUT_S, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {JOINT_TIMEOUT_S:.0f} s (killed)", "times_s": []}
    seconds = time.perf_counter() - started
    peak_mb = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024.0
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = " | ".join(done.stderr.strip().splitlines()[-2:])
        return {"error": f"the child died after {seconds:.0f} s (exit {done.returncode}, "
                         f"address space capped at {JOINT_MEM_GB} GB): {tail}",
                "times_s": [], "peak_mb": peak_mb}
    return {"peak_mb": peak_mb, **json.loads(lines[-1])}


def joint_baseline(scenario: Scenario, units: list[dict[str, Any]]) -> dict[str, Any]:
    """`reform_baselines.joint_exhaustive` on the units the solver reformed jointly: every
    tuple of their candidates, timed once; past `JOINT_TUPLES` tuples only counted."""
    ids = tuple(u["unit"] for u in units)
    started = time.perf_counter()
    got = joint_exhaustive(scenario, ids, JOINT_TUPLES)
    seconds = time.perf_counter() - started
    if isinstance(got, int):
        return {"tuples": got, "ran": False, "seconds_to_count": seconds}
    if got is None:
        return {"tuples": None, "ran": True, "seconds": seconds, "found": None}
    assert isinstance(got, JointBest)
    return {"tuples": got.tuples, "ran": True, "seconds": seconds, "own": got.own,
            "enemy": got.enemy, "displacement_ticks": got.cost, "legal": got.legal,
            "units": [list(u) for u in got.units]}


def joint_here(scenario: Scenario, repeats: int) -> dict[str, Any]:
    """`combat_reforms` with its joint reforms on (two units on one enemy line reformed
    jointly), timed; not repeated past `LONG_S`."""
    times: list[float] = []
    cpu: list[float] = []  # the process's CPU time: on a shared machine, what the wall hides
    found = None
    try:
        for _ in range(repeats):
            started, used = time.perf_counter(), time.process_time()
            found = combat_reforms(scenario, "red", joint=True)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
            if times[-1] > LONG_S:
                break
    except Exception as exc:  # noqa: BLE001 (reported)
        return {"error": f"{type(exc).__name__}: {exc}", "times_s": times}
    assert found is not None
    units = [{"unit": o.unit, "status": o.answer.status if o.answer else None,
              "family_status": o.answer.family.get("status") if o.answer else None,
              "value": list(two_levels(o.answer.value)) if o.answer else None,
              # reformed in one joint search (else alone: its budget ran out at once)
              "jointly": bool(o.answer and o.answer.family.get("joint")),
              "search": o.answer.search if o.answer else None}
             for o in found.outcomes]
    return {"error": "", "times_s": times, "median_s": statistics.median(times),
            "min_s": min(times), "cpu_median_s": statistics.median(cpu), "units": units,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
            "legal": found.verdict.legal if found.verdict is not None else None,
            "total": total_of([u["value"] for u in units]),
            "enemy_once": len({b for o in found.outcomes if o.reform is not None
                               for e in found.after.units if e.player != "red"
                               for _, b in model_contacts(found.after.unit(o.unit), e)}),
            "baseline": joint_baseline(scenario, units),
            "true": [list(true_value(found.after, o.unit)) for o in found.outcomes]}
