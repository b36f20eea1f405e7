"""The budget set by levels (optimizer.search.budget_sets): it holds what any way's legs add,
and it is tighter than the hull set where a long leg at one heading meets a costly one.

The reference is the set's own definition, sampled: a way whose wheels leave the radius s
(0 < s <= the largest) has legs only at headings t with r(t) >= s, and they add s x a
convex combination of those u(t) (or less).  r is at most its chord between the points
(constraints.rank_and_file.snaking_hull), so the chord is the loosest r the set must hold.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import load_scenario
from constraints.geometry.frame import Frame
from optimizer.search.budget_sets import budget_polygon, budget_polygons
from optimizer.search.certified import relaxation_of
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.sector_polygons import hull_polygons

ROCKS = Path(__file__).parents[3] / "benchmarks" / "scenarios" / "rocks.json"


def _profile(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Radii and rising headings of a random curve: a bump down in the middle, as a run of
    wheels gives (cheap legs at its ends, costly ones inside), some points repeated."""
    count = int(rng.integers(4, 20))
    angle = np.sort(rng.uniform(0.0, 1.0, count)) * rng.uniform(0.2, 2.5) + rng.uniform(-3, 3)
    angle[rng.integers(0, count)] = angle[min(int(rng.integers(0, count)), count - 1)]
    angle = np.sort(angle)
    middle = (angle - angle[0]) / max(angle[-1] - angle[0], 1e-9)
    radius = rng.uniform(2.0, 6.0) - rng.uniform(0.0, 3.0) * np.sin(math.pi * middle)
    radius = np.maximum(radius + rng.normal(0.0, 0.1, count), 1e-9)
    return radius, angle


def _chord(radius: np.ndarray, angle: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.interp(t, angle, radius)


@pytest.mark.parametrize("seed", range(12))
def test_the_set_holds_every_leg_mix_its_definition_allows(seed):
    rng = np.random.default_rng(700 + seed)
    radius, angle = _profile(rng)
    polygon = budget_polygon(radius, angle)
    shapely.prepare(polygon)
    fine = np.linspace(angle[0], angle[-1], 4001)
    chord = _chord(radius, angle, fine)
    held = 0
    for _ in range(300):
        s = float(rng.uniform(0.0, radius.max()))
        allowed = fine[chord >= s]
        if not len(allowed):
            continue
        headings = rng.choice(allowed, size=int(rng.integers(1, 4)))
        weights = rng.dirichlet(np.ones(len(headings))) * rng.uniform(0.0, 1.0) ** 0.2
        point = s * (weights[:, None] * np.stack([np.cos(headings), np.sin(headings)],
                                                 axis=1)).sum(axis=0)
        assert shapely.distance(polygon, shapely.Point(*point)) <= 1e-9, (s, headings)
        held += 1
    assert held >= 200
    # A single leg at a point's heading, as long as its radius: on the set's edge.
    for r, t in zip(radius, angle, strict=True):
        edge = shapely.Point(r * math.cos(t), r * math.sin(t))
        assert shapely.distance(polygon, edge) <= 1e-9, (r, t)


def _rocks_box():
    """benchmarks/scenarios/rocks.json's March, its certificate's point (82.5, -3.75, 82.5)
    deg: a right wheel of 3.75 deg and a left one of 86.25 (benchmarks/README.md, issue 31,
    thirteenth session)."""
    scenario = load_scenario(ROCKS)
    request = SearchRequest(scenario, "band", "march", Objective("target_distance", (30, 30)))
    relaxation = relaxation_of(request)
    mids = np.radians([[82.5, -3.75, 82.5]])
    return relaxation.tighter_pieces(mids, np.zeros_like(mids))


def test_a_long_leg_does_not_lend_its_budget_to_a_costly_heading():
    """Left of the start the hull lends the free leg's budget (the chord from the leg before
    the wheel, r = M) to headings inside the run: along 10 and 30.3 deg the budget set stops
    short of the hull of the points (measured 4.2051 against 4.2204, and 3.7088 against
    3.7125; 30.3 deg is where the certificate's point (82.5, -3.75, 82.5) met G)."""
    pieces = _rocks_box()
    points = pieces.hull_points[0]
    radius = np.hypot(points[:, 0], points[:, 1])
    angle = np.unwrap(np.arctan2(points[:, 1], points[:, 0]))
    polygon = budget_polygon(radius, angle)
    hull = shapely.MultiPoint(np.vstack([np.zeros((1, 2)), points])).convex_hull
    for degrees, short in ((10.0, 0.01), (30.3, 0.002)):
        heading = math.radians(90.0 + degrees)
        ray = shapely.LineString([(0.0, 0.0), (10 * math.cos(heading), 10 * math.sin(heading))])
        assert ray.intersection(polygon).length < ray.intersection(hull).length - short


def test_pieces_without_hull_sets_have_no_budget_polygons():
    pieces = _rocks_box()
    frame = Frame((30.0, 12.0), 90.0)
    plain = relaxation_of(SearchRequest(load_scenario(ROCKS), "band", "march",
                                        Objective("forward"))).pieces(
        np.radians([[10.0, -5.0, 20.0]]), np.radians([[5.0, 5.0, 5.0]]))
    assert budget_polygons(plain, np.array([0]), frame) is None
    made = budget_polygons(pieces.centres(), np.array([0]), frame)
    hulls = hull_polygons(pieces.centres(), np.array([0]), frame)
    assert made is not None and hulls is not None
    # Circumscribed about arcs, not chords of a curve: no bend in its margin.
    assert made[1][0] <= hulls[1][0]
