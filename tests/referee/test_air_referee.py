"""Jumps and Climbs against the reference referee (tests/referee/route_referee.py `Air`):
seeded random towns, random trajectories (straight, or up, across and down at a random
height); the checker's route.jump.clear / route.climb.clear must agree with the referee's
sampled volumes wherever its clearance is more than the referee's tolerance from the
base's radius, and its Jump distance must match the sampled least distance."""

from __future__ import annotations

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import rect, town
from constraints.infinity.route import Route
from tests.referee.route_referee import AIR_TOLERANCE_IN, RING, Air

R = 25 / 25.4 / 2


def _town(rng):
    kept = []
    for k in range(7):
        x, y = rng.uniform(2, 20, 2)
        w, d = rng.uniform(0.5, 4, 2)
        height = float(rng.choice([0.8, 1.5, 2.0, 3.0, 4.0]))
        piece = rect(f"p{k}", x, y, min(x + w, 23.5), min(y + d, 23.5), height,
                     kind="obstacle" if height < 1 else "building")
        try:
            scenario_from_json(town(*kept, piece, at=(1.0, 1.0, 0.0)))
            kept.append(piece)
        except ValueError:
            continue
    return town(*kept, at=(1.0, 1.0, 0.0))


def _trajectory(rng, data, referee):
    a = (1.0, 1.0, 0.0)
    b2 = tuple(rng.uniform(0.6, 23.4, 2))
    b = (*b2, float(referee.surface(np.asarray([b2]))[0]))
    if rng.random() < 0.3:
        return [a, b]
    top = max(a[2], b[2]) + float(rng.choice([0.0, 0.5, 1.0, 2.5]))
    return [a, (a[0], a[1], top), (b[0], b[1], top), b]


def test_jump_clearance_and_distance_agree_with_the_referee():
    rng = np.random.default_rng(25)
    compared = {True: 0, False: 0}
    for _ in range(8):
        data = _town(rng)
        scenario = scenario_from_json(data)
        referee = Air(data)
        for _ in range(6):
            path = _trajectory(rng, data, referee)
            path = [p for k, p in enumerate(path) if k == 0 or p != path[k - 1]]
            verdict = check_route(scenario, Route("fusilier", "jump", tuple(path)))
            found = referee.judge_air("fusilier", path)
            # The referee's samples lie on rings RING points round: its least distance is
            # never below the true one, and above it by at most the rings' sagittas and a
            # sideways offset of up to two half-steps round them.
            exact = verdict.measurements["jump_distance"]
            sagitta = R * (1 - np.cos(np.pi / RING))
            aside = 2 * R * np.sin(np.pi / RING)
            slack = np.hypot(exact, aside) - exact + 3 * sagitta + 1e-6
            assert exact - 1e-9 <= found.distance <= exact + slack
            gap = verdict.measurements["jump_clearance"]
            if abs(gap - R) <= AIR_TOLERANCE_IN:
                continue
            assert ("route.jump.clear" in verdict.clauses()) == found.enters_scenery, (data, path)
            compared[found.enters_scenery] += 1
    print(compared)
    assert compared[True] >= 10 and compared[False] >= 10, compared


def test_climb_length_and_clearance_agree_with_the_referee():
    data = town(rect("house", 6, 10, 10, 14, 3.0),
                rect("chimney", 6.2, 11.5, 7, 12.5, 1.0, level=3.0), at=(6 - R, 12, 0))
    for end, enters in [((6 + R, 12, 3), True), ((6 + R, 10.6, 3), False)]:
        path = [(6 - R, end[1], 0.0), (6 - R, end[1], 3.0), end]
        moved = dict(data, units=[dict(data["units"][0], centre=[6 - R, end[1]])])
        verdict = check_route(scenario_from_json(moved), Route("fusilier", "climb", tuple(path)))
        found = Air(moved).judge_air("fusilier", path)
        assert found.enters_scenery is enters is ("route.climb.clear" in verdict.clauses())
        assert found.length == pytest.approx(verdict.length_in)
