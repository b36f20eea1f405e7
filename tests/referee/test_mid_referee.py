"""A Reform placed mid-move (docs/rules.md §5.6) against the reference referee
(tests/referee/mid_referee.py): seeded random Light Troops Reforms through a marsh, with
rocks and a friend about, each stating a random placement mid-move.  The placement clause and
the model paths through it must agree wherever the referee is sure, and each must have been
compared on enough legal and broken cases."""

from __future__ import annotations

import math

import numpy as np
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario, Terrain
from constraints.t9a.moves import Manoeuvre, MidPlacement, Move
from tests.depth import THOROUGH
from tests.referee.compare import Tally, judge
from tests.referee.referee import unit_corners
from tests.referee.scenes import box, field, make_unit

SEED = 20261202
CASES = 160 if THOROUGH else 100  # (tests.depth: 15 s for 160)
LEAST_EACH = 8
CLAUSES = {"t9a.reform.mid_placement", "t9a.reform.model_path"}


def _offset(rng: np.random.Generator, centre, heading_deg: float, ahead: float, aside: float):
    h = math.radians(heading_deg)
    return (round(centre[0] + ahead * math.cos(h) - aside * math.sin(h), 3),
            round(centre[1] + ahead * math.sin(h) + aside * math.cos(h), 3))


def _case(rng: np.random.Generator) -> tuple[Scenario, Move]:
    models = int(rng.integers(3, 7))
    files = int(rng.integers(2, models + 1))
    facing = round(float(rng.uniform(0, 360)), 2)
    mob = round(float(rng.uniform(2.5, 4.5)), 2)
    mover = make_unit(models=models, files=files, centre=(36.0, 24.0), facing=facing,
                      mobility=mob, light_troops=bool(rng.random() < 0.9))
    travel = float(rng.uniform(0.6, 2.2)) * mob
    end = _offset(rng, (36.0, 24.0), facing, travel, float(rng.normal(0, 0.8)))
    share = float(rng.uniform(0.2, 0.9))
    mid_at = _offset(rng, (36.0, 24.0), facing, share * travel, float(rng.normal(0, 0.8)))
    marsh_at = _offset(rng, mid_at, facing, float(rng.uniform(-0.5, 2.5)),
                       float(rng.normal(0, 1.0)))
    size = float(rng.uniform(0.5, 2.0))
    terrain: list[Terrain] = [Terrain("marsh", "dangerous", tuple(
        Polygon([(marsh_at[0] - size, marsh_at[1] - size), (marsh_at[0] + size,
                 marsh_at[1] - size), (marsh_at[0] + size, marsh_at[1] + size),
                 (marsh_at[0] - size, marsh_at[1] + size)]).exterior.coords[:-1]))]
    units = [mover]
    start = Polygon(unit_corners(mover))
    for k in range(int(rng.integers(0, 3))):
        x, y = _offset(rng, (36.0, 24.0), facing, float(rng.uniform(0.5, 1.5)) * travel,
                       float(rng.choice([-1, 1]) * rng.uniform(1.0, 4.0)))
        w = float(rng.uniform(0.3, 1.5))
        rock = box(f"rock{k}", x - w, y - w, x + w, y + w)
        if Polygon(rock.polygon).distance(start) > 1.05:
            terrain.append(rock)
    if rng.random() < 0.3:
        x, y = _offset(rng, mid_at, facing, float(rng.uniform(-1, 1)),
                       float(rng.choice([-1, 1]) * rng.uniform(2.0, 5.0)))
        friend = make_unit("f", models=3, files=3, centre=(x, y), facing=facing)
        if Polygon(unit_corners(friend)).distance(start) > 1.05:
            units.append(friend)
    mid_files = None if rng.random() < 0.5 else max(1, files + int(rng.integers(-2, 4)))
    mid = MidPlacement(mid_at, round(facing + float(rng.normal(0, 10)), 2), mid_files)
    move = Move("u", Manoeuvre.REFORM, centre=end, facing_deg=facing, mid=mid)
    return field(*units, terrain=tuple(terrain)), move


def test_random_mid_placements_agree() -> None:
    rng = np.random.default_rng(SEED)
    tally = Tally()
    for k in range(CASES):
        scenario, move = _case(rng)
        judge(scenario, move, tally, only=CLAUSES, label=f"seed {SEED} case {k}")
    print(f"\n{tally.moves} random Reforms placed mid-move\n{tally.table()}")
    assert not tally.problems, "\n".join(tally.problems[:20])
    for clause in CLAUSES:
        assert min(tally.legal[clause], tally.broken[clause]) >= LEAST_EACH, tally.table()
