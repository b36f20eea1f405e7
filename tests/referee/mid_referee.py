"""The reference referee of a Reform placed mid-move (docs/rules.md §5.6; seed 000,
"Mid-Reform Move Actions"), the slow and simple way: rectangles built here, plain shapely
distances, and the walks through the mid-move places by brute force over every way of
standing the models mid-move (then the referee's own bottleneck for the end slots) on the
referee's own path graphs (tests/referee/paths.py).  Nothing of constraints.geometry.relay
or the clause.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from shapely.geometry import Polygon

from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.unit import Unit
from constraints.t9a.moves import Move
from tests.referee import referee as ref
from tests.referee.paths import bottleneck, bracket_radii
from tests.referee.rulebook import Rulebook

MOST_MODELS = 6     # 6! ways of standing mid-move, each with its bottleneck: enough here
TOUCH_IN = 1e-6     # touching Dangerous Terrain: within this (docs/rules.md §3.5)


def mid_measures(scenario: Scenario, unit: Unit, move: Move, placed: Unit,
                 near: list[Polygon], book: Rulebook) -> dict[str, ref.Measure]:
    """The placement clause and the model paths through it."""
    mid = move.mid
    assert mid is not None
    formation = unit.formation if mid.files is None else unit.formation.reformed(mid.files)
    there = unit.with_formation(formation).with_pose(Pose(mid.centre, mid.facing_deg))
    box = ref.corners(mid.centre, mid.facing_deg, *ref.boundary_size(unit, formation))
    return {"t9a.reform.mid_placement": placement(scenario, unit, placed, there, box, near,
                                                  book),
            "t9a.reform.model_path": relay_paths(unit, there, placed, move, near, book)}


def placement(scenario: Scenario, unit: Unit, placed: Unit, there: Unit, box: np.ndarray,
              near: list[Polygon], book: Rulebook) -> ref.Measure:
    """Broken (1) or kept (0): relevant, viable, spaced, on the table; unsettled where a
    measured part lies within float drift of its limit."""
    travel = math.dist(unit.pose.centre, placed.pose.centre)
    dangerous = [Polygon(t.polygon) for t in scenario.terrain if t.kind == "dangerous"]
    touch = min((float(Polygon(box).distance(d)) for d in dangerous), default=math.inf)
    change = book.max_file_change_musician if unit.musician else book.max_file_change
    # Relevant: Light Troops (else broken outright) whose centre travels more than Mob.
    march = ref.Measure(travel, unit.mobility_in, True, travel - ref.EXACT_IN,
                        travel + ref.EXACT_IN) if unit.light_troops else \
        ref.exact(1.0, 0.0, drift=0)
    parts = [
        march,
        ref.exact(touch, TOUCH_IN),
        ref.exact(abs(there.formation.files - unit.formation.files), change, drift=0),
        ref.exact(float(not ref.viable(unit, there.formation, book)), 0.0, drift=0),
        ref.spaced(Polygon(box), near, Polygon(ref.unit_corners(unit)),
                   book.mid_move_spacing_in),
        ref.exact(ref.overhang(box, scenario), 0.0),
    ]
    if any(p.settled and p.broken for p in parts):
        return ref.Measure(1.0, 0.5, False, 1.0, 1.0)
    if all(p.settled for p in parts):
        return ref.Measure(0.0, 0.5, False, 0.0, 0.0)
    return ref.Measure(0.0, 0.5, False, 0.0, 1.0)


def relay_paths(unit: Unit, there: Unit, placed: Unit, move: Move, near: list[Polygon],
                book: Rulebook) -> ref.Measure:
    """Longest walk start -> mid place -> end slot under the best relay, bracketed as
    `referee.model_paths` brackets a walk start -> end."""
    radius = ref.walking_radius(unit, book)
    radii = ref.walking_radii(unit, near, book)
    brackets = [bracket_radii(r, ref.CHECKER_RADIUS_SLACK) for r in radii]
    start, middle, end = (unit.model_positions(), there.model_positions(),
                          placed.model_positions())
    mid_ok = ref.front_rank_rule(unit, there.formation)
    end_ok = ref.slot_rule(unit, placed.formation, move)
    values = []
    for rs in (radii, [lo for lo, _ in brackets], [hi for _, hi in brackets]):
        graph = ref.graph(near, radius, rs)
        values.append(relay(graph.lengths(start, middle), graph.lengths(middle, end),
                            mid_ok, end_ok))
    value, lo, hi = values
    return ref.Measure(value, book.model_move_mob * unit.mobility_in, False,
                       lo - ref.EXACT_IN, hi + ref.EXACT_IN)


def relay(first: np.ndarray, second: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray
          ) -> float:
    """Every way of standing the models mid-move; for each, the best end slots."""
    n = len(first)
    if n > MOST_MODELS:
        raise NotImplementedError(f"{n} models: the brute force stops at {MOST_MODELS}")
    ways = np.array([mids for mids in itertools.permutations(range(n))
                     if all(mid_ok[i, mids[i]] for i in range(n))], dtype=int).reshape(-1, n)
    # No way's longest walk is below its longest walk to the mid place and on to the
    # nearest end slot: ways in that order, stopping once it reaches the best (exact).
    nearest = first + second.min(axis=1)[None, :]
    lows = nearest[np.arange(n), ways].max(axis=1) if len(ways) else np.zeros(0)
    best = math.inf
    for k in np.argsort(lows, kind="stable"):
        if lows[k] >= best:
            break
        mids = ways[k]
        walked = first[np.arange(n), mids][:, None] + second[mids]
        best = min(best, bottleneck(walked, end_ok))
    return best
