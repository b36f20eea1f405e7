"""Shared by the solver property tests: random scenarios around a moving unit, random
best-move requests, and an exact brute-force baseline that looks for a legal move of the same
family on a grid, judged by the exact checker (tests/baseline_moves.py).

Everything is a pure function of a seed (numpy's default_rng), so worker processes rebuild
the same scenario from its seed and a failing case is reproduced by `make_scenario(kind,
seed)` and `make_request(kind, seed, k, manoeuvre)`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario, Terrain
from constraints.rank_and_file.unit import Base, Unit
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move

# (candidate_batches: the property tests import it from here)
from tests.baseline_moves import baseline_legal_move, candidate_batches  # noqa: F401
from tests.support import INCH_BASE, scenario, unit

TABLE = (72.0, 48.0)
BASES = (INCH_BASE, INCH_BASE, Base(20.0, 20.0), Base(25.0, 50.0))
# NOT_FOUND: a Reform whose model-path rows are safe discs only, and no legal move found.
STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "NOT_FOUND", "TIMEOUT")
# Lattices of the property test: a coarse heading step keeps hundreds of solves affordable;
# the centre lattice is the default (0.005").  Answers are judged on the lattice they state.
LATTICES = {
    "march": Lattice(degree=5.0),
    "advance": Lattice(degree=30.0, advance_wheel_deg=30.0),
    "reform": Lattice(degree=15.0),
}


# --- Scenarios -------------------------------------------------------------------------------

def _random_unit(rng: np.random.Generator, uid: str, centre, player: str) -> Unit:
    files = int(rng.integers(2, 6))
    ranks = int(rng.integers(1, 4))
    models = files * ranks - (int(rng.integers(0, files)) if ranks > 1 else 0)
    facing = float(rng.choice([0.0, 90.0, 180.0, 270.0])) if rng.random() < 0.3 else \
        float(np.round(rng.uniform(0.0, 360.0), 1))
    base = BASES[int(rng.integers(0, len(BASES)))]
    return unit(uid, models=models, files=files, base=base, centre=centre, facing=facing,
                mobility=float(rng.choice([3.0, 4.0, 5.0, 6.0])), player=player)


def _random_terrain(rng: np.random.Generator, tid: str, centre) -> Terrain:
    kind = "dangerous" if rng.random() < 0.15 else "impassable"
    if rng.random() < 0.5:  # a triangle
        pts = np.asarray(centre) + rng.uniform(-2.5, 2.5, (3, 2))
    else:  # a rotated rectangle
        w, h = rng.uniform(0.8, 5.0, 2)
        a = rng.uniform(0.0, math.pi)
        corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = np.asarray(centre) + corners @ rot.T
    polygon = shapely.orient_polygons(Polygon(np.round(pts, 3)))
    return Terrain(tid, kind, tuple(map(tuple, np.asarray(polygon.exterior.coords)[:-1])))


def _fits(shape: Polygon, placed: list[Polygon], gap: float = 0.05) -> bool:
    """On the table, not degenerate, and clear of every shape placed so far."""
    if not shape.is_valid or shape.area < 0.2:
        return False
    minx, miny, maxx, maxy = shape.bounds
    if minx < 0 or miny < 0 or maxx > TABLE[0] or maxy > TABLE[1]:
        return False
    return all(shape.distance(p) > gap for p in placed)


def _place_around(rng: np.random.Generator, mover: Unit, count: int, near: tuple[float, float],
                  clear: float, placed: list[Polygon], make) -> list[Any]:
    """Up to `count` things made by `make(rng, centre)`, their centres `near` inches from the
    mover, more than `clear` from it and clear of everything else."""
    found = []
    for _ in range(40 * count):
        if len(found) == count:
            break
        r, phi = rng.uniform(*near), rng.uniform(0.0, 2 * math.pi)
        centre = (mover.pose.centre[0] + r * math.cos(phi),
                  mover.pose.centre[1] + r * math.sin(phi))
        thing = make(rng, centre)
        shape = thing.boundary() if isinstance(thing, Unit) else thing.shape
        if _fits(shape, placed) and shape.distance(placed[0]) > clear:
            placed.append(shape)
            found.append(thing)
    return found


def random_scenario(seed: int, near: tuple[float, float] = (3.0, 11.0),
                    clear: float = 1.05) -> Scenario:
    """A unit `u` near the middle of a 72" x 48" table, other units and terrain around it
    (more than `clear` from it: by default where it stands is a legal end)."""
    rng = np.random.default_rng(seed)
    centre = (float(rng.uniform(24.0, 48.0)), float(rng.uniform(16.0, 32.0)))
    mover = _random_unit(rng, "u", centre, "red")
    placed = [mover.boundary()]
    counter = iter(range(100))
    others = _place_around(rng, mover, int(rng.integers(1, 4)), near, clear, placed,
                           lambda g, c: _random_unit(g, f"o{next(counter)}", c,
                                                     str(g.choice(["red", "blue"]))))
    terrain = _place_around(rng, mover, int(rng.integers(0, 4)), near, clear, placed,
                            lambda g, c: _random_terrain(g, f"t{next(counter)}", c))
    return scenario(mover, *others, terrain=tuple(terrain), width=TABLE[0], depth=TABLE[1])


def boxed_scenario(seed: int, gap_in: float, over_edge_in: float = 0.0) -> Scenario:
    """An axis-aligned unit with a unit in front and behind and walls on both flanks, each
    `gap_in` away.  Since A20 (units that start close) its own position is a legal end
    whatever the gap; with `over_edge_in` its Front Facing hangs that far over the table's
    far edge instead of facing a unit (facing +y), so no move gets it out: no pose ends on
    the table, the Pivots swing it into the walls or keep it hanging."""
    rng = np.random.default_rng(seed)
    files, ranks = int(rng.integers(3, 6)), int(rng.integers(2, 4))
    cx, cy = float(rng.uniform(20.0, 50.0)), float(rng.uniform(15.0, 30.0))
    facing = float(rng.choice([0.0, 90.0, 180.0, 270.0]))
    mobility = float(rng.choice([3.0, 4.0, 5.0]))
    if over_edge_in:
        facing = 90.0
    mover = unit("u", models=files * ranks, files=files, centre=(cx, cy), facing=facing,
                 mobility=mobility)
    minx, miny, maxx, maxy = mover.boundary().bounds
    g = gap_in
    across = round(maxx - minx)  # 1" bases: the front and back units are exactly as wide
    back = unit("back", models=2 * across, files=across, centre=(cx, miny - g - 1.0),
                facing=90.0, player="blue")
    depth = maxy - over_edge_in if over_edge_in else TABLE[1]
    top, bottom = (depth if over_edge_in else maxy + g + 2.0), miny - g - 2.0
    walls = (Terrain("left", "impassable", ((minx - g - 1.0, bottom), (minx - g, bottom),
                                            (minx - g, top), (minx - g - 1.0, top))),
             Terrain("right", "impassable", ((maxx + g, bottom), (maxx + g + 1.0, bottom),
                                             (maxx + g + 1.0, top), (maxx + g, top))))
    if over_edge_in:
        return scenario(mover, back, terrain=walls, width=TABLE[0], depth=depth)
    front = unit("front", models=2 * across, files=across, centre=(cx, maxy + g + 1.0),
                 facing=270.0, player="blue")
    return scenario(mover, front, back, terrain=walls, width=TABLE[0], depth=TABLE[1])


def make_scenario(kind: str, seed: int) -> Scenario:
    if kind == "random":
        return random_scenario(seed)
    if kind == "crowded":  # others close by, some within 1": the start may be no legal end
        return random_scenario(seed, near=(2.0, 6.0), clear=0.3)
    if kind == "boxed":  # hanging over the table's edge: nothing gets it out (see above)
        return boxed_scenario(seed, 0.9, over_edge_in=0.3)
    if kind == "tight":
        return boxed_scenario(seed, 1.2)
    raise ValueError(kind)


def overlaps(s: Scenario) -> list[tuple[str, str]]:
    """Pairs of units / terrain pieces that overlap (the generators must produce none)."""
    shapes = [(u.id, u.boundary()) for u in s.units] + [(t.id, t.shape) for t in s.terrain]
    return [(a, b) for k, (a, sa) in enumerate(shapes) for b, sb in shapes[k + 1:]
            if sa.intersection(sb).area > 1e-9]


# --- Requests --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Request:
    kind: str
    seed: int
    manoeuvre: str
    objective: Objective

    @property
    def lattice(self) -> Lattice:
        return LATTICES[self.manoeuvre]


def make_request(kind: str, seed: int, k: int, manoeuvre: str) -> Request:
    """The k-th random request of `manoeuvre` about scenario (kind, seed): a random objective
    (its point within 12" of the unit, on the table)."""
    rng = np.random.default_rng([seed, k, 7])
    s = make_scenario(kind, seed)
    centre = np.asarray(s.unit("u").pose.centre)
    name = str(rng.choice(["forward", "target_distance", "face_point", "target_pose"]))
    point = centre + rng.uniform(-12.0, 12.0, 2)
    point = (float(np.clip(point[0], 0.0, TABLE[0])), float(np.clip(point[1], 0.0, TABLE[1])))
    objective = {
        "forward": Objective("forward"),
        "target_distance": Objective("target_distance", point=point),
        "face_point": Objective("face_point", point=point),
        "target_pose": Objective("target_pose", point=point,
                                 facing_deg=float(np.round(rng.uniform(0.0, 360.0), 1))),
    }[name]
    return Request(kind, seed, manoeuvre, objective)


def _solve(s: Scenario, request: Request, time_limit_s: float):
    """The one-wheel family, which the brute force below enumerates too (the K-wheel model
    is tested in tests/optimizer/search/test_ways.py)."""
    return best_move(s, "u", request.manoeuvre, request.objective, time_limit_s=time_limit_s,
                     lattice=request.lattice, workers=1, max_wheels=1, effort=SOLVE_EFFORT)


# The searches' work budget: it, not the wall clock (a distant backstop), stops them, so the
# answers are the same on a busy machine (issue 22: under load, 3 s of wall clock proved no
# INFEASIBLE at all).
SOLVE_EFFORT = 5.0
BACKSTOP_S = 600.0


def run_scenario(kind: str, seed: int, manoeuvres: tuple[str, ...], repeat: tuple[bool, ...],
                 time_limit_s: float = BACKSTOP_S) -> list[dict]:
    """Solve the requests about one scenario (in a worker process) and judge each answer
    independently; plain data back.  A request marked in `repeat` is solved again on a freshly
    built scenario; an INFEASIBLE answer is put to the brute-force baseline (once per
    manoeuvre: it depends on the scenario and the move family only)."""
    s = make_scenario(kind, seed)
    baselines: dict[str, dict] = {}
    out = []
    for k, (manoeuvre, again) in enumerate(zip(manoeuvres, repeat, strict=True)):
        request = make_request(kind, seed, k, manoeuvre)
        started = time.perf_counter()
        result = _solve(s, request, time_limit_s)
        record: dict[str, Any] = {
            # The status within the family searched: the brute force judges that family.
            "request": request, "status": result.family_status, "value": result.value,
            "rules_status": result.status, "bound": result.bound,
            "move": result.move, "elapsed_s": time.perf_counter() - started}
        if result.move is not None:
            verdict = check_move(make_scenario(kind, seed), result.move)
            record["legal"] = verdict.legal
            record["violations"] = [v.message for v in verdict.violations]
        if again:
            second = _solve(make_scenario(kind, seed), request, time_limit_s)
            record["repeat"] = (second.family_status, second.value, second.move)
        if result.family_status == "INFEASIBLE":
            if manoeuvre not in baselines:
                found, judged = baseline_legal_move(s, "u", manoeuvre, request.lattice)
                baselines[manoeuvre] = {"found": found, "judged": judged}
            record["baseline"] = baselines[manoeuvre]
        out.append(record)
    return out
