"""The route checker against the reference referee (tests/referee/route_referee.py) on seeded
random towns and straight routes on the ground: every clause's verdict must agree wherever
the checker's measurement is more than the referee's tolerance from the limit, and each
clause must have been compared on enough legal and broken cases."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json, scenario_to_json
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import rect, town, trooper
from constraints.infinity.route import Route
from tests.referee.route_referee import SAMPLE_IN, TOLERANCE_IN, Town

CLAUSES = {"scenery": ("route.scenery", "scenery_clearance", 1.0),
           "surface": ("route.surface", "surface_margin", 0.5),
           "table": ("route.table", "table_margin", 1.0)}


def _random_town(rng: np.random.Generator) -> dict:
    terrain = []
    for k in range(8):
        x, y = rng.uniform(2, 20, 2)
        w, h = rng.uniform(0.3, 4, 2)
        height = float(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0]))
        box = rect(f"p{k}", x, y, min(x + w, 23.5), min(y + h, 23.5), height,
                   kind="obstacle" if height < 1.2 else "building")
        terrain.append(box)
    data = town(*terrain, at=(1.0, 1.0, 0.0))
    kept: list[dict] = []
    for piece in terrain:  # drop overlapping prisms (one level only here)
        trial = town(*kept, piece, at=(1.0, 1.0, 0.0))
        try:
            scenario_from_json(trial)
            kept.append(piece)
        except ValueError:
            continue
    data = town(*kept, at=(1.0, 1.0, 0.0),
                troopers=(trooper("enemy", *rng.uniform(3, 21, 2), player="red"),
                          trooper("ally", *rng.uniform(3, 21, 2), silhouette=5)))
    return data


def _scenario(data):
    try:
        return scenario_from_json(data)
    except ValueError:
        return None


def test_the_checker_agrees_with_the_reference():
    rng = np.random.default_rng(2026)
    compared = {name: {True: 0, False: 0} for name in [*CLAUSES, "troopers"]}
    for _ in range(30):
        data = _random_town(rng)
        start = _scenario(data)
        if start is None:
            continue
        for scenario, a, b in _routes(rng, data, start):
            referee = Town(scenario_json(scenario))
            route = Route("fusilier", "move", ((*a, scenario_level(referee, a)),
                                               (*b, scenario_level(referee, b))))
            verdict = check_route(scenario, route)
            if "route.levels" in verdict.clauses():
                continue  # the end is over a prism too high to step on: not a ground walk
            if verdict.cut_at is not None:  # A22: the Move ended on meeting the enemy
                b = tuple(verdict.cut_at[:2])
            found = referee.judge("fusilier", a, b)
            if found.climbs and not verdict.violations:
                raise AssertionError(("a path up a cliff passed", b))
            r = 25 / 25.4 / 2
            for name, (clause, measure, share) in CLAUSES.items():
                limit = r * share
                if abs(verdict.measurements[measure] - limit) <= TOLERANCE_IN or \
                        name == "surface" and found.climbs:
                    continue
                assert (clause in verdict.clauses()) == getattr(found, name), (name, data, b)
                compared[name][getattr(found, name)] += 1
            gap = verdict.measurements["trooper_gap"]
            if abs(gap) > TOLERANCE_IN:
                assert ("route.troopers" in verdict.clauses()) == found.troopers, (data, b)
                compared["troopers"][found.troopers] += 1
    print(compared)
    for name, counts in compared.items():
        assert counts[True] >= 5 and counts[False] >= 5, (name, counts)


def _routes(rng, data, scenario):
    """Six walks from the corner on the ground, and six from the middle of a roof."""
    for _ in range(6):
        yield scenario, (1.0, 1.0), tuple(rng.uniform(0.2, 23.8, 2))
    roofs = [t for t in data["terrain"] if t["kind"] == "building" and t["height"] >= 2.0]
    if not roofs:
        return
    roof = roofs[int(rng.integers(len(roofs)))]
    (x0, y0), (x1, y1) = roof["polygon"][0], roof["polygon"][2]
    up = json.loads(json.dumps(data))
    up["units"][0].update(centre=[(x0 + x1) / 2, (y0 + y1) / 2], level=roof["height"])
    moved = _scenario(up)
    if moved is None:
        return
    for _ in range(6):
        end = tuple(rng.uniform((x0 - 1, y0 - 1), (x1 + 1, y1 + 1)))
        yield moved, ((x0 + x1) / 2, (y0 + y1) / 2), end


def scenario_json(scenario):
    return scenario_to_json(scenario)


def scenario_level(referee: Town, point) -> float:
    return float(referee.surface(np.asarray([point]))[0])


if __name__ == "__main__":
    pytest.main([__file__, "-q"])


# --- Silhouette contact on any level (A22): the checker's cut against sampled volumes -------

def _contact_town(rng: np.random.Generator) -> dict | None:
    """A random town whose enemy (of a random Silhouette) stands on the ground or on a
    prism's top, and a mover of a random Silhouette."""
    data = _random_town(rng)
    enemy = data["units"][1]
    enemy["silhouette"] = int(rng.choice([1, 2, 5, 7]))
    enemy["base"] = 55.0 if enemy["silhouette"] == 7 else 25.0
    tops = [t for t in data["terrain"] if t["kind"] == "building"]
    if tops and rng.random() < 0.5:
        top = tops[int(rng.integers(len(tops)))]
        (x0, y0), (x1, y1) = top["polygon"][0], top["polygon"][2]
        enemy.update(centre=[float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))],
                     level=top["height"])
    else:
        enemy.update(centre=[float(v) for v in rng.uniform(3, 21, 2)], level=0.0)
    data["units"][0]["silhouette"] = int(rng.choice([1, 2, 5]))
    return data if _scenario(data) is not None else None


def test_contact_agrees_with_the_reference():
    """Straight walks on the ground and from roofs: the checker cuts the route (`cut_at`)
    exactly where the referee's sampled cylinders first meet, to within the sampling."""
    rng = np.random.default_rng(2412)
    compared = {True: 0, False: 0}
    across = 0  # contacts with an enemy on another level than the mover's
    for _ in range(80):
        data = _contact_town(rng)
        if data is None:
            continue
        start = scenario_from_json(data)
        for scenario, a, b in _past_the_enemy(rng, data, start):
            referee = Town(scenario_json(scenario))
            route = Route("fusilier", "move", ((*a, scenario_level(referee, a)),
                                               (*b, scenario_level(referee, b))))
            verdict = check_route(scenario, route)
            if "route.levels" in verdict.clauses():
                continue  # no walk from a to b: no contact is looked for on a broken leg
            if referee.judge("fusilier", a, b).climbs:
                continue  # through a cliff: the checker walks on at the region's level
            found = referee.contact("fusilier", a, b)
            if not found.settled or (found.near is not None
                                     and math.dist(a, b) - found.near <= TOLERANCE_IN):
                continue  # too close to call, or contact at the very end
            contact = found.least < 0
            assert (verdict.cut_at is not None) == contact, (data, a, b, found)
            compared[contact] += 1
            if contact:
                walked = math.dist(a, verdict.cut_at[:2])
                assert found.near - SAMPLE_IN - 1e-9 <= walked <= found.deep + SAMPLE_IN, \
                    (data, a, b, walked, found)
                enemy = scenario.unit(verdict.contact[0])
                across += abs(enemy.level_in - verdict.cut_at[2]) > 1e-6
    print(compared, across)
    assert compared[True] >= 10 and compared[False] >= 10 and across >= 3, (compared, across)


def _past_the_enemy(rng, data, scenario):
    """Walks from near the enemy (2-4 in away, on the ground or a roof, wherever the mover
    stands legally) towards it and past, aside by up to 1.5 in: many meet it, some pass over
    or under it."""
    enemy = np.asarray(data["units"][1]["centre"])
    referee = Town(data)
    for _ in range(10):
        angle = rng.uniform(0, 2 * math.pi)
        a = enemy + rng.uniform(2.0, 4.0) * np.array([math.cos(angle), math.sin(angle)])
        if not (0.6 < a[0] < 23.4 and 0.6 < a[1] < 23.4):
            continue
        moved = json.loads(json.dumps(data))
        moved["units"][0].update(centre=[float(a[0]), float(a[1])],
                                 level=scenario_level(referee, a))
        there = _scenario(moved)
        if there is None:
            continue
        ahead = (enemy - a) / np.hypot(*(enemy - a))
        side = np.array([-ahead[1], ahead[0]])
        b = enemy + ahead * rng.uniform(0.5, 2.5) + side * rng.uniform(-1.5, 1.5)
        yield there, (float(a[0]), float(a[1])), tuple(float(v) for v in np.clip(b, 0.6, 23.4))
