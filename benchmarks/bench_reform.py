"""Combat Reforms (seed 002): `best_reform` / `combat_reforms` against an exhaustive baseline.

    .venv/bin/python benchmarks/bench_reform.py [--quick] [--repeats N] [--json OUT]
                                                [--scenes NAME,...] [--profile NAME]
                                                [--no-joint]

Scenes are generated here: a unit of about 20 models (25 mm, 20 mm or 25 x 50 mm cavalry
bases, Mobility 3 to 8, most with a Character) Engaged on its Front with 1, 2 or 3 enemy
units whose Facing edges lie on one line (Fronts, a Flank, a Rear with an incomplete rear
rank), an enemy touching at a corner, a scene with a friend and a rock nearby, and scenes
where two or three units of one player reform one after the other (`combat_reforms` with
its joint reforms off, in unit id order; `joint=True`, two or three units of one Combat
reformed together, is timed as well, in a child process with its memory capped, side by side
with `reform_baselines.joint_exhaustive` over every tuple of their candidates (counted only
past `JOINT_TUPLES`), and compared with the sequences' totals; not with `--quick` or
`--no-joint`).

Per scene, in this one process: the solver, `--repeats` times (default 3), its status and
value (own models in contact, enemy models touched), each answer re-checked by the exact
checker `check_combat_reform` and its contacts counted again on the scene after it; the
baseline (`reform_baselines.exhaustive`: every legal number of files x every offset of a
0.01" lattice, once without and once with the solver's kind of event offsets, each with the
best assignment by bipartite matching), its best re-checked by the checker too.  A baseline
run longer than `LONG_S` is not repeated.  The full run ends with the cProfile of the
solver's slowest scene.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import hashlib
import inspect
import io
import json
import math
import os
import platform
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import shapely

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_args import choose  # noqa: E402
from reform_baselines import Best, JointBest, exhaustive, joint_exhaustive, true_value  # noqa: E402

from constraints.core.scenario import Scenario  # noqa: E402
from constraints.core.scenario_io import scenario_from_json  # noqa: E402
from constraints.rank_and_file.combats import combats, engagements  # noqa: E402
from constraints.rank_and_file.contact import model_contacts  # noqa: E402
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform  # noqa: E402
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, placed  # noqa: E402
from constraints.t9a.examples import field, unit, wall  # noqa: E402
from optimizer.combat_reform.best import ReformAnswer, best_reform  # noqa: E402
from optimizer.combat_reform.reforms import combat_reforms  # noqa: E402

Json = dict[str, Any]
MM25, MM20, CAV = (25.0, 25.0), (20.0, 20.0), (25.0, 50.0)
LONG_S = 10.0        # a baseline run longer than this is not repeated
JOINT_MEM_GB = 4.0   # the joint reform's child process: its address space
JOINT_TIMEOUT_S = 600.0
JOINT_TUPLES = 5_000_000  # the exhaustive joint baseline runs up to this many tuples
TARGET_S = 0.5       # the target: OPTIMAL in <= 0.5 s median
QUICK = ("one-25", "two-line", "seq-2")
ROOT = Path(__file__).resolve().parent.parent


# -- scenes ----------------------------------------------------------------------------------
#
# Every unit is placed by the line its Front (or the Facing named) lies on: `up` faces +y,
# its front edge on y = `front`, its left edge at x = `left`; `down` faces -y (its file 0 at
# the right, +x), its front edge on y = `front`, spanning x from `left`.

def _ranks(files: int, models: int, chars: int) -> int:
    return math.ceil((models + chars) / files)


def _chars(chars: tuple[tuple[str, int, int], ...]) -> list[Json]:
    return [{"id": cid, "slot": [rank, file]} for cid, rank, file in chars]


def up(uid: str, files: int, models: int, base: tuple[float, float], left: float,
       front: float, *, mob: float = 4.0, player: str = "red",
       chars: tuple[tuple[str, int, int], ...] = ()) -> Json:
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, len(chars)) * d
    return unit(uid, models=models, files=files, base=base, mobility=mob, player=player,
                centre=(left + files * w / 2.0, front - depth / 2.0), facing=90.0,
                characters=_chars(chars))


def down(uid: str, files: int, models: int, base: tuple[float, float], left: float,
         front: float, *, mob: float = 4.0, player: str = "blue",
         chars: tuple[tuple[str, int, int], ...] = ()) -> Json:
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, len(chars)) * d
    return unit(uid, models=models, files=files, base=base, mobility=mob, player=player,
                centre=(left + files * w / 2.0, front + depth / 2.0), facing=270.0,
                characters=_chars(chars))


def rear_on(uid: str, files: int, models: int, base: tuple[float, float], left: float,
            rear: float, *, player: str = "blue") -> Json:
    """Facing +y, its Rear edge on y = `rear` (charged in the rear)."""
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, 0) * d
    return unit(uid, models=models, files=files, base=base, player=player,
                centre=(left + files * w / 2.0, rear + depth / 2.0), facing=90.0)


def flank_on(uid: str, files: int, models: int, base: tuple[float, float], left: float,
             flank: float, *, player: str = "blue") -> Json:
    """Facing -x, its left Flank edge on y = `flank`, its front at x = `left`."""
    w, d = base[0] / 25.4, base[1] / 25.4
    depth = _ranks(files, models, 0) * d
    return unit(uid, models=models, files=files, base=base, player=player,
                centre=(left + depth / 2.0, flank + files * w / 2.0), facing=180.0)


def _scene(*units: Json, terrain: tuple[Json, ...] = ()) -> Scenario:
    return scenario_from_json({**field(*units, terrain=terrain), "active_player": "red"})


W25, W20 = 25.0 / 25.4, 20.0 / 25.4
HERO = (("hero", 0, 2),)
Y = 24.0  # the line the combats are fought on


def one_25() -> Scenario:
    """A: 5 x 4 of 25 mm (19 + hero in the front middle), Mobility 4; B (blue, 5 x 2 of
    25 mm) 3" to the right: two of A's models in contact, the hero not."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 5, 10, MM25, 33.0, Y))


def one_20() -> Scenario:
    """A: 5 x 4 of 20 mm (19 + a hero at the front left), Mobility 5; B (8 x 2 of 25 mm)
    on A's left, A's front overlapping B's right end by 2.1": 3 of A's models in contact,
    the hero among them."""
    return _scene(up("A", 5, 19, MM20, 30.0, Y, mob=5.0, chars=(("hero", 0, 0),)),
                  down("B", 8, 16, MM25, 30.0 + 2.1 - 8 * W25, Y))


def one_cav() -> Scenario:
    """A: 20 cavalry on 25 x 50 mm (5 x 4, 19 + a hero), Mobility 8 (March Rate 16");
    B: 6 x 3 of 25 mm infantry, 1.3" to the right."""
    return _scene(up("A", 5, 19, CAV, 30.0, Y, mob=8.0, chars=HERO),
                  down("B", 6, 18, MM25, 31.3, Y))


def one_m3() -> Scenario:
    """A: 5 x 4 of 25 mm, Mobility 3 (March Rate 6"), touching a wide B (10 x 2 of 20 mm)
    only with its front-right model (0.5" of overlap): the March Rate binds."""
    return _scene(up("A", 5, 20, MM25, 30.0, Y, mob=3.0),
                  down("B", 10, 20, MM20, 30.0 + 5 * W25 - 0.5, Y))


def two_line() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero, Mobility 4; B (4 x 2 of 25 mm) and C (3 x 2 of
    20 mm) side by side 1" apart, their fronts on one line; A touches both."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 4, 8, MM25, 30.0 + 1.5 - 4 * W25, Y),
                  down("C", 3, 6, MM20, 31.5 + 1.0, Y))


def two_flank() -> Scenario:
    """A: 5 x 4 of 20 mm with a hero, Mobility 5; B (4 x 2 of 25 mm) front to front on A's
    left, and C (3 x 2 of 25 mm facing -x) whose left Flank lies on the same line, 0.6"
    right of B: A touches B's Front and C's Flank."""
    return _scene(up("A", 5, 19, MM20, 30.0, Y, mob=5.0, chars=HERO),
                  down("B", 4, 8, MM25, 30.0 + 1.2 - 4 * W25, Y),
                  flank_on("C", 3, 6, MM25, 31.8, Y))


def three_line() -> Scenario:
    """A: 7 x 3 of 25 mm (19 + a hero), Mobility 6; B (3 x 2), C (2 x 2 of 20 mm) and
    D (3 x 2) on one line, 0.7" and 0.9" apart; A's front spans all three."""
    b_left = 30.0 - 2.0
    c_left = b_left + 3 * W25 + 0.7
    d_left = c_left + 2 * W20 + 0.9
    return _scene(up("A", 7, 19, MM25, 30.0, Y, mob=6.0, chars=(("hero", 0, 3),)),
                  down("B", 3, 6, MM25, b_left, Y), down("C", 2, 4, MM20, c_left, Y),
                  down("D", 3, 6, MM25, d_left, Y))


def rear_gap() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero, Mobility 4, in the Rear of D (blue, 5 files, 8
    models, facing away: its rear rank of 3 has gaps at both ends, so models facing a gap
    touch D's front rank across it), 1.5" to the right."""
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  rear_on("D", 5, 8, MM25, 31.5, Y))


def corner() -> Scenario:
    """A: 5 x 4 of 25 mm with a hero; B (5 x 2) front to front on A's left; C (3 x 1),
    turned 30 degrees, touching A's front edge with its front-right corner only."""
    b = down("B", 5, 10, MM25, 30.0 + 2.0 - 5 * W25, Y)
    w, d = 3 * W25, W25
    tip = (30.0 + 4.0, Y)  # C's front-right corner, on A's front edge
    # C faces 270 + 30 = 300 degrees: its front-right corner is at local (+w/2, +d/2).
    fx, fy = math.cos(math.radians(300.0)), math.sin(math.radians(300.0))
    rx, ry = fy, -fx
    centre = (tip[0] - w / 2.0 * rx - d / 2.0 * fx, tip[1] - w / 2.0 * ry - d / 2.0 * fy)
    c = unit("C", models=3, files=3, base=MM25, centre=centre, facing=300.0, player="blue")
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO), b, c)


def crowded() -> Scenario:
    """one-25 with a friend E (red, 4 x 2, not in the combat) 1.2" right of B's right end
    and 0.5" back from the line, and a rock 1.5" left of A: Unit Spacing bounds the offsets."""
    b_right = 33.0 + 5 * W25
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  down("B", 5, 10, MM25, 33.0, Y),
                  up("E", 4, 8, MM25, b_right + 1.2, Y - 0.5),
                  terrain=(wall("rock", 26.0, 18.0, 28.5, Y - 0.3),))


def seq_2() -> Scenario:
    """Two red units reform one after the other: A (5 x 4 of 25 mm with a hero, Mobility
    4) and A2 (4 x 3 of 20 mm, Mobility 5), side by side 0.6" apart, both against B (12 x 2
    of 25 mm), A2 past B's right end by 1.5"."""
    a2_left = 30.0 + 5 * W25 + 0.6
    b_left = a2_left + 4 * W20 - 1.5 - 12 * W25
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  up("A2", 4, 12, MM20, a2_left, Y, mob=5.0),
                  down("B", 12, 24, MM25, b_left, Y))


def seq_3() -> Scenario:
    """Three red units one after the other: A (5 x 4 of 25 mm with a hero), A2 (5 x 3 of
    20 mm, Mobility 5), A3 (4 x 2 cavalry, Mobility 8) against B (6 x 2 of 25 mm) and C
    (6 x 2 of 20 mm) on one line 1" apart."""
    a2_left = 30.0 + 5 * W25 + 0.4
    a3_left = a2_left + 5 * W20 + 0.8
    b_left = 30.0 + 1.0
    c_left = b_left + 6 * W25 + 1.0
    return _scene(up("A", 5, 19, MM25, 30.0, Y, chars=HERO),
                  up("A2", 5, 15, MM20, a2_left, Y, mob=5.0),
                  up("A3", 4, 8, CAV, a3_left, Y, mob=8.0),
                  down("B", 6, 12, MM25, b_left, Y), down("C", 6, 12, MM20, c_left, Y))


def pair_small() -> Scenario:
    """Two red units (4 x 1 of 25 mm, Mobility 2) side by side against B (5 x 1 of 25 mm):
    one at a time A's best leaves A2 3 models in contact, jointly A2 gets 4."""
    return _scene(up("A", 4, 4, MM25, 30.0, Y, mob=2.0),
                  up("A2", 4, 4, MM25, 30.0 + 4 * W25, Y, mob=2.0),
                  down("B", 5, 5, MM25, 30.0 + 2 * W25 - 0.5 * W25, Y))


def trio_small() -> Scenario:
    """Three red units (3 x 1 of 25 mm, Mobility 2) side by side against B (8 x 1 of
    25 mm)."""
    return _scene(up("A", 3, 3, MM25, 30.0, Y, mob=2.0),
                  up("A2", 3, 3, MM25, 30.0 + 3 * W25, Y, mob=2.0),
                  up("A3", 3, 3, MM25, 30.0 + 6 * W25, Y, mob=2.0),
                  down("B", 8, 8, MM25, 30.0 + 0.5 * W25, Y))


@dataclass(frozen=True)
class Scene:
    build: Callable[[], Scenario]
    units: tuple[str, ...]     # the red units that reform, in order
    what: str


SCENES: dict[str, Scene] = {
    "one-25": Scene(one_25, ("A",), "20 x 25 mm (hero), 1 enemy 3\" off centre"),
    "one-20": Scene(one_20, ("A",), "20 x 20 mm (hero in contact), 1 wide enemy"),
    "one-cav": Scene(one_cav, ("A",), "20 cavalry 25 x 50 mm, Mobility 8, 1 enemy"),
    "one-m3": Scene(one_m3, ("A",), "20 x 25 mm, Mobility 3, a corner's worth of contact"),
    "two-line": Scene(two_line, ("A",), "2 enemies, fronts on one line"),
    "two-flank": Scene(two_flank, ("A",), "2 enemies: a Front and a Flank on one line"),
    "three-line": Scene(three_line, ("A",), "3 enemies on one line, 7 x 3"),
    "rear-gap": Scene(rear_gap, ("A",), "an enemy's Rear with gaps (contact across them)"),
    "corner": Scene(corner, ("A",), "1 enemy front to front, 1 touching at a corner"),
    "crowded": Scene(crowded, ("A",), "one-25 with a friend and a rock near"),
    "seq-2": Scene(seq_2, ("A", "A2"), "2 units reform in turn against 1 enemy"),
    "seq-3": Scene(seq_3, ("A", "A2", "A3"), "3 units reform in turn against 2 enemies"),
    "pair-small": Scene(pair_small, ("A", "A2"), "2 units of 4 against 1 enemy of 5"),
    "trio-small": Scene(trio_small, ("A", "A2", "A3"), "3 units of 3 against 1 enemy of 8"),
}


def validate(scenario: Scenario, reforming: tuple[str, ...]) -> None:
    """Units on the table, overlapping neither each other nor impassable terrain; every
    reforming unit Engaged on its Front only."""
    shapes = [(u.id, u.boundary()) for u in scenario.units]
    field_ = scenario.battlefield
    table = shapely.box(0.0, 0.0, field_.width_in, field_.depth_in)
    for k, (a, pa) in enumerate(shapes):
        if pa.difference(table).area > 1e-9:
            raise AssertionError(f"{a} is off the table")
        for b, pb in shapes[k + 1:] + [(t.id, t.shape) for t in scenario.impassable()]:
            if pa.intersection(pb).area > 1e-9:
                raise AssertionError(f"{a} overlaps {b}")
    engaged = engagements(scenario.units)
    for uid in reforming:
        facings = set(engaged.get(uid, {}).values())
        if facings != {"front"}:
            raise AssertionError(f"{uid} is engaged on {facings or 'nothing'}")


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
                      "reform": _reform_json(best.reform)})
    return {"times_s": times, "min_s": min(times), "median_s": statistics.median(times),
            "units": units}


def _reform_json(reform: UnitReform | None) -> Json | None:
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
            "total": _total(values), "true": [list(true_value(current, u)) for u in units]}


def _total(values: list[Any]) -> list[int]:
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

    command = [sys.executable, str(Path(__file__).resolve()), "--joint-of", name,
               "--repeats", str(repeats)]
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
              "value": list(_two(o.answer.value)) if o.answer else None,
              # reformed in one joint search (else alone: its budget ran out at once)
              "jointly": bool(o.answer and o.answer.family.get("joint")),
              "search": o.answer.search if o.answer else None}
             for o in found.outcomes]
    return {"error": "", "times_s": times, "median_s": statistics.median(times),
            "min_s": min(times), "cpu_median_s": statistics.median(cpu), "units": units,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
            "legal": found.verdict.legal if found.verdict is not None else None,
            "total": _total([u["value"] for u in units]),
            "enemy_once": len({b for o in found.outcomes if o.reform is not None
                               for e in found.after.units if e.player != "red"
                               for _, b in model_contacts(found.after.unit(o.unit), e)}),
            "baseline": joint_baseline(scenario, units),
            "true": [list(true_value(found.after, o.unit)) for o in found.outcomes]}


# -- one scene -------------------------------------------------------------------------------

def _solver_value(step: Step) -> tuple[int, int] | None:
    """What the solver's answer is worth: its value when legal, None when it has no legal
    answer (NOT_FOUND, TIMEOUT, or a proposal the checker refuses)."""
    if step.answer is None or step.reform is None or not step.legal:
        return None
    return _two(step.answer.value)


def _two(value: Any) -> tuple[int, int]:
    """The first two levels of a value (own models in contact, enemy models touched)."""
    return (int(value[0]), int(value[1]))


def _verdict(step: Step, base: Json, counted: bool = False) -> str:
    """same / better / WORSE (the baseline found a better legal reform) / WRONG (the
    solver's proposal is illegal).  By the values claimed (the solver's `value`, the
    baseline's), or, `counted`, by the contacts counted on the scene after each answer."""
    if step.reform is not None and not step.legal:
        return "WRONG"
    if counted:
        mine = step.true if step.legal else None
        theirs = tuple(base["true"]) if base["found"] else None
    else:
        mine = _solver_value(step)
        theirs = tuple(base["value"]) if base["found"] else None
    if theirs is None:
        return "same" if mine is None else "better"
    if mine is None or mine < theirs:
        return "WORSE"
    return "same" if mine == theirs else "better"


def bench_scene(name: str, repeats: int, joint: bool = True) -> dict[str, Any]:
    scene = SCENES[name]
    scenario = scene.build()
    validate(scenario, scene.units)
    solver = run_solver(scene, scenario, repeats)
    steps: list[Step] = solver.pop("steps")
    lattice = run_baseline(steps, False, repeats)
    both = run_baseline(steps, True, repeats)
    units = []
    for k, step in enumerate(steps):
        a = step.answer
        units.append({
            "unit": step.unit, "models": step.before.unit(step.unit).formation.model_count,
            "enemies": len(engagements(step.before.units).get(step.unit, {})),
            "status": a.status if a else None,
            "family_status": a.family.get("status") if a else None,
            "value": list(_two(a.value)) if a else None,
            "bound": list(a.bound) if a and a.bound is not None else None,
            "files": a.files if a else None, "contacts_before": a.contacts_before if a else None,
            "flush_against": a.family.get("flush_against") if a else None,
            "reason": a.reason if a else "", "legal": step.legal, "clauses": step.clauses,
            "search": getattr(a, "search", None) if a else None,
            "true": list(step.true) if step.true else None,
            "reform": _reform_json(step.reform),
            "vs_lattice": _verdict(step, lattice["units"][k]),
            "vs_events": _verdict(step, both["units"][k]),
            "vs_counted": _verdict(step, both["units"][k], counted=True)})
    times = solver["times_s"]
    median = statistics.median(times)
    several: dict[str, Any] = {}
    if len(scene.units) > 1:
        several["baseline_sequence"] = baseline_sequence(scenario, scene.units)
        several["sequential_total"] = _total([u["value"] if u["legal"] else None
                                              for u in units])
        if JOINT and joint:
            several["joint"] = run_joint(name, repeats)
    return {"scene": name, "what": scene.what, "units": units, **several,
            "models": sum(u["models"] for u in units),
            "enemies": len({e for s in steps
                            for e in engagements(s.before.units).get(s.unit, {})}),
            "combats": combats(scenario.units),
            "solver": {**solver, "min_s": min(times), "median_s": median},
            "lattice": lattice, "events": both,
            "ratio_lattice": lattice["median_s"] / median,
            "ratio_events": both["median_s"] / median}


# -- report ----------------------------------------------------------------------------------

HEADER = (f"{'scene':<10} {'models':>6} {'foes':>4} {'solver s (med/min)':>18} "
          f"{'status (family)':<22} {'value':<14} {'legal':<5} {'lattice s':>9} "
          f"{'value':<14} {'+events s':>9} {'value':<14} {'ratio':>6} same+ (by the values "
          "claimed; by the contacts counted after)")


def _values(units: list[Json], key: str) -> str:
    return " ".join("-" if u[key] is None else f"{u[key][0]},{u[key][1]}" for u in units)


def print_row(r: dict[str, Any]) -> None:
    s, units = r["solver"], r["units"]
    times = f"{s['median_s']:.2f} / {s['min_s']:.2f}"
    status = " ".join(f"{u['status']}({(u['family_status'] or '')[:3]})" for u in units)
    legal = "".join("y" if u["legal"] else ("-" if u["legal"] is None else "N") for u in units)
    base = {k: " ".join(f"{b['value'][0]},{b['value'][1]}" if b["found"] else "-"
                        for b in r[k]["units"]) for k in ("lattice", "events")}
    verdicts = sorted({u["vs_lattice"] for u in units} | {u["vs_events"] for u in units})
    counted = sorted({u["vs_counted"] for u in units})
    print(f"{r['scene']:<10} {r['models']:>6} {r['enemies']:>4} {times:>18} {status:<22} "
          f"{_values(units, 'value'):<14} {legal:<5} {r['lattice']['median_s']:>9.2f} "
          f"{base['lattice']:<14} {r['events']['median_s']:>9.2f} {base['events']:<14} "
          f"{r['ratio_events']:>6.1f} {'/'.join(verdicts)} (counted: {'/'.join(counted)})")
    if s["error"]:
        print(f"{'':<10} combat_reforms raised {s['error']}; timed: {s['timed']}")
    if "baseline_sequence" in r:
        b = r["baseline_sequence"]
        print(f"{'':<10} totals (own, enemy): solver one at a time {r['sequential_total']}; "
              f"baseline's own sequence {b['total']} in {b['seconds']:.1f} s (legal "
              f"together: {b['legal']})")
    if "joint" in r:
        j = r["joint"]
        if j["error"]:
            print(f"{'':<10} joint (combat_reforms joint=True) raised {j['error']}")
        else:
            print(f"{'':<10} joint (combat_reforms joint=True): {j['median_s']:.2f} / "
                  f"{j['min_s']:.2f} s ({len(j['times_s'])} runs; CPU "
                  f"{j.get('cpu_median_s', math.nan):.2f} s median), "
                  + ", ".join(f"{u['unit']} {u['status']}({(u['family_status'] or '')[:3]}) "
                              f"{u['value']}{' jointly' if u.get('jointly') else ' alone'}"
                              for u in j["units"])
                  + f"; total {j['total']} ({j['enemy_once']} enemy models once), "
                  f"legal {j['legal']}, peak memory {j['peak_mb']:.0f} MB")
            b = j["baseline"]
            ticks = (j["units"][0].get("search") or {}).get("displacement_ticks")
            if b["ran"]:
                print(f"{'':<10} joint baseline (every tuple of candidates): {b['seconds']:.2f} "
                      f"s, {b['tuples']} tuples, own {b.get('own')}, enemy {b.get('enemy')}, "
                      f"displacement {b.get('displacement_ticks')} ticks (solver {ticks}), "
                      f"legal {b.get('legal')}")
            else:
                print(f"{'':<10} joint baseline: {b['tuples']:.3g} tuples, not run (past "
                      f"{JOINT_TUPLES:,}; counting them took {b['seconds_to_count']:.1f} s)")
    for u, b in zip(units, r["events"]["units"], strict=True):
        notes = []
        if u["true"] is not None and u["value"] is not None and u["true"] != u["value"]:
            notes.append(f"counted after: {u['true']}")
        if u["legal"] is False:
            notes.append(f"REFUSED by the checker: {', '.join(u['clauses'])}")
        if u["reason"]:
            notes.append(u["reason"])
        if u.get("search") and "candidates" in u["search"]:
            notes.append(f"search: {u['search']['candidates']} candidates, "
                         f"{u['search']['assignments']} assignments")
        elif u.get("search"):
            notes.append(f"search: {u['search']}")
        if "WORSE" in (u["vs_lattice"], u["vs_events"], u["vs_counted"]) \
                or u["legal"] is False:
            notes.append(f"baseline: {b['files']} files, x {b['x']:.4f} on {b['line']}, "
                         f"value {b['value']}, counted after {b['true']}")
        c = b["counts"]
        print(f"{'':<10} {u['unit']}: {u['files']} files, before {u['contacts_before']}, "
              f"bound {u['bound']}; baseline {c['candidates']} offsets x files "
              f"({c['events']} events), {c['allowed']} allowed, {c['matchings']} matchings, "
              f"{c['checked']} checks ({c['refused']} refused), audit "
              f"{c['audited'] - c['audit_mismatch']}/{c['audited']}"
              + (f"; {'; '.join(notes)}" if notes else ""))


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    medians = [r["solver"]["median_s"] for r in results]
    units = [u for r in results for u in r["units"]]
    worse = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
             if "WORSE" in (u["vs_lattice"], u["vs_events"])]
    wrong = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
             if u["legal"] is False]
    worse_counted = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                     if u["vs_counted"] == "WORSE"]
    # A bug, not a timeout: the family's optimum proved, and the baseline beats it.
    proved_beaten = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                     if u["family_status"] == "OPTIMAL"
                     and "WORSE" in (u["vs_lattice"], u["vs_events"])]
    # The solver's value against the contacts counted on the scene after its answer.
    miscounted = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                  if u["legal"] and u["true"] is not None and u["value"] != u["true"]]
    statuses: dict[str, int] = {}
    family: dict[str, int] = {}
    for u in units:
        statuses[u["status"]] = statuses.get(u["status"], 0) + 1
        family[u["family_status"]] = family.get(u["family_status"], 0) + 1
    out: dict[str, Any] = {
        "median_solver_s": statistics.median(medians), "max_solver_s": max(medians),
        "min_solver_s": min(medians), "scenes": len(results), "unit_reforms": len(units),
        "statuses": statuses, "family_statuses": family, "worse": worse, "wrong": wrong,
        "proved_but_beaten": proved_beaten, "worse_counted": worse_counted,
        "value_not_counted": miscounted,
        "errors": [r["scene"] for r in results if r["solver"]["error"]],
        "median_ratio_events": statistics.median(r["ratio_events"] for r in results),
        "median_ratio_lattice": statistics.median(r["ratio_lattice"] for r in results),
        "by_enemies": {}, "by_units": {}}
    print(f"\nsummary over {len(results)} scenes, {len(units)} unit reforms:")
    print(f"  solver median time {out['median_solver_s']:.2f} s (min "
          f"{out['min_solver_s']:.2f}, max {out['max_solver_s']:.2f}); target OPTIMAL in "
          f"<= {TARGET_S} s median: {'met' if out['median_solver_s'] <= TARGET_S else 'MISSED'}")
    print(f"  status under the rules {statuses}; the family's {family}")
    print(f"  ratio baseline / solver: lattice median {out['median_ratio_lattice']:.1f}, "
          f"lattice+events median {out['median_ratio_events']:.1f}")
    for key, group in (("by_enemies", lambda r: r["enemies"]),
                       ("by_units", lambda r: len(r["units"]))):
        for size in sorted({group(r) for r in results}):
            rows = [r for r in results if group(r) == size]
            row = {"scenes": len(rows),
                   "solver_s": statistics.median(r["solver"]["median_s"] for r in rows),
                   "lattice_s": statistics.median(r["lattice"]["median_s"] for r in rows),
                   "events_s": statistics.median(r["events"]["median_s"] for r in rows),
                   "optimal": sum(u["status"] == "OPTIMAL" for r in rows for u in r["units"]),
                   "reforms": sum(len(r["units"]) for r in rows)}
            out[key][size] = row
            print(f"  {key.replace('_', ' ')} {size} ({row['scenes']} scenes): solver "
                  f"{row['solver_s']:.2f} s, baseline {row['lattice_s']:.2f} / "
                  f"{row['events_s']:.2f} s, OPTIMAL {row['optimal']}/{row['reforms']}")
    print(f"  solver's value differs from the contacts counted after its answer: "
          f"{', '.join(miscounted) or 'nowhere'} (off-line enemies count there too)")
    print(f"  solver worse by the contacts counted after: {', '.join(worse_counted) or 'nowhere'}")
    print(f"  solver worse than the baseline by the values claimed: "
          f"{', '.join(worse) or 'nowhere'} (of which with the family's optimum claimed "
          f"proved: {', '.join(proved_beaten) or 'none'}); proposals "
          f"the checker refuses: {', '.join(wrong) or 'none'}; combat_reforms raised on: "
          f"{', '.join(out['errors']) or 'none'}")
    return out


PHASES = (("best.py", "best_reform", "best_reform"),
          ("prepare.py", "prepare", "  layouts of every formation (prepare.prepare)"),
          ("intervals.py", "unit_rules", "    of which unit rules (intervals.unit_rules)"),
          ("model.py", "layout", "    of which offsets and windows (model.layout)"),
          ("search.py", "best_first", "  best-first search (search.best_first)"),
          ("assignment.py", "bounds", "    of which displacement bounds (Frame.bounds)"),
          ("assignment.py", "assign", "    of which least-cost assignments (Frame.assign)"),
          ("best.py", "_checked", "  exact checker on the answer (best._checked)"),
          ("cp_model.py", "solve", "CP-SAT solve (fallback past the budget)"),
          ("reforms.py", "_place", "combat_reforms: each unit judged again and placed"))


def profile_scene(name: str, top: int = 14) -> str:
    """cProfile of the solver on one scene (after a warm-up run): the share of its phases,
    then the top entries by cumulative and by internal time."""
    scene = SCENES[name]
    scenario = scene.build()

    def run() -> None:
        if len(scene.units) == 1:
            best_reform(scenario, scene.units[0])
        else:
            sequence(scenario, scene.units)
    run()
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs()
    total = stats.total_tt
    cum: dict[tuple[str, str], float] = {}
    for (path, _, func), (_, _, _, ct, _) in stats.stats.items():  # type: ignore[attr-defined]
        key = (os.path.basename(path), func)
        cum[key] = cum.get(key, 0.0) + ct
    lines = [f"{name}: {total:.2f} s under the profiler"]
    lines += [f"  {label}: {cum.get((f, fn), 0.0):.2f} s "
              f"({100.0 * cum.get((f, fn), 0.0) / total:.0f}%)" for f, fn, label in PHASES]
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    lines += [line for line in text.getvalue().splitlines() if line.strip()]
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    """Date, commit, the solver's sources (where they were loaded from, whether they differ
    from the commit, a hash of them: the solver may be edited while a run goes on), the
    machine and its load.  `BENCH_COMMIT` names the commit of a tree exported without
    git (`git archive`)."""
    solver_dir = Path(inspect.getfile(best_reform)).parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", str(solver_dir)],
                               cwd=ROOT, text=True, capture_output=True,
                               check=False).stdout.strip()
    except OSError:
        commit, dirty = "", ""
    digest = hashlib.sha1()
    for path in sorted(solver_dir.glob("*.py")):
        digest.update(path.read_bytes())
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "commit": os.environ.get("BENCH_COMMIT") or commit,
            "solver_dir": str(solver_dir), "solver_sha1": digest.hexdigest()[:12],
            "solver_edited": bool(dirty), "joint": JOINT,
            "python": platform.python_version(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "loadavg_before": os.getloadavg()}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"only {', '.join(QUICK)}, once")
    parser.add_argument("--repeats", type=int, help="runs per method (default 3, quick 1)")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--no-joint", action="store_true",
                        help="skip combat_reforms(joint=True) on several units")
    parser.add_argument("--joint-of", choices=sorted(SCENES), help=argparse.SUPPRESS)
    parser.add_argument("--profile", choices=sorted(SCENES),
                        help="only print the cProfile hot spots of the solver on one scene")
    args = parser.parse_args(argv)
    return choose(parser, args, args.scenes, list(SCENES), QUICK, "scene")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.joint_of:  # the child of `run_joint`: one JSON line
        print(json.dumps(joint_here(SCENES[args.joint_of].build(), args.repeats)))
        return 0
    if args.profile:
        print(profile_scene(args.profile))
        return 0
    info = machine()
    print(f"{info['date']}  commit {info['commit']}  Python {info['python']}  "
          f"{info['cpus']} CPUs  load {tuple(round(x, 2) for x in info['loadavg_before'])}  "
          f"repeats {args.repeats}")
    print(f"solver from {info['solver_dir']} (sources sha1 {info['solver_sha1']}"
          f"{', EDITED since the commit' if info['solver_edited'] else ''}; joint reforms "
          f"{'present' if info['joint'] else 'absent'})")
    print(HEADER)
    results = []
    for name in args.names:
        results.append(bench_scene(name, args.repeats,
                                   joint=not (args.quick or args.no_joint)))
        print_row(results[-1])
    summary = summarise(results)
    slowest = max(results, key=lambda r: r["solver"]["median_s"])["scene"]
    single = max((r for r in results if len(r["units"]) == 1),
                 key=lambda r: r["solver"]["median_s"], default=None)
    profile = ""
    if not args.quick:
        profile = profile_scene(slowest)
        print(f"\nwhere the solver's time goes on its slowest scene, {slowest}:\n{profile}")
        if single is not None and single["scene"] != slowest:
            extra = profile_scene(single["scene"])
            print(f"\nand on the slowest single-unit scene, {single['scene']}:\n{extra}")
            profile += "\n\n" + extra
    info["loadavg_after"] = os.getloadavg()
    print(f"load after {tuple(round(x, 2) for x in info['loadavg_after'])}")
    if args.json:
        out = {**info, "repeats": args.repeats, "scenes": results, "summary": summary,
               "slowest": slowest, "profile": profile}
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
