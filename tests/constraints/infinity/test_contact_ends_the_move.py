"""Seed 004 and decision A22: "A Trooper's Movement ends automatically whenever he enters
Silhouette contact with an enemy, even if the specified movement route is cut short as a
result."  A declared route that meets an enemy's base before its end is executed up to
there: LEGAL, with `cut_at`, `contact` and the path as executed."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import marker, rect, town, trooper, walk
from constraints.infinity.route import route_from_json

R = 25 / 25.4  # two 25 mm bases touch with their centres this far apart


def judged(scenario: dict, route: dict):
    return check_route(scenario_from_json(scenario), route_from_json(route))


# (what the rule text says, scenario, route, cut at (x, y) or None, length walked)
CASES = [
    # The declared 7" is more than the MOV of 4": only the cut makes these legal.
    ("past an enemy, touching it on the way: the Move ends where the bases meet",
     town(troopers=(trooper("zhanshi", 8, 12 + R, player="red"),)),
     walk((4, 12, 0), (11, 12, 0)), (8.0, 12.0), 4.0),
    ("straight at an enemy and on: it ends after 4 in, in contact",
     town(troopers=(trooper("zhanshi", 8 + R, 12, player="red"),)),
     walk((4, 12, 0), (11, 12, 0)), (8.0, 12.0), 4.0),
    ("into base contact at the route's end: executed as declared",
     town(troopers=(trooper("zhanshi", 8 + R, 12, player="red"),)),
     walk((4, 12, 0), (8, 12, 0)), None, 4.0),
    ("past an enemy 0.5 in clear: not stopped",
     town(troopers=(trooper("zhanshi", 6, 12.5 + R, player="red"),)),
     walk((4, 12, 0), (8, 12, 0)), None, 4.0),
    ("a marker is no trooper: reaching it does not end the Move",
     town(troopers=(marker("camo", 6, 12 + R, player="red"),)),
     walk((4, 12, 0), (8, 12, 0)), None, 4.0),
    ("an ally touched on the way does not end it",
     town(troopers=(trooper("friend", 6, 12 + R),)),
     walk((4, 12, 0), (8, 12, 0)), None, 4.0),
]


@pytest.mark.parametrize(("words", "scenario", "route", "cut", "length"), CASES,
                         ids=[c[0] for c in CASES])
def test_contact_ends_the_move(words, scenario, route, cut, length) -> None:
    verdict = judged(scenario, route)
    assert verdict.legal, verdict.violations
    assert verdict.length_in == pytest.approx(length, abs=1e-6)
    if cut is None:
        assert verdict.cut_at is None and "cut_at" not in verdict.to_json()
        return
    assert verdict.cut_at[:2] == pytest.approx(cut, abs=1e-6)
    assert verdict.contact == ("zhanshi",)
    out = json.loads(json.dumps(verdict.to_json()))
    assert out["cut_at"][:2] == pytest.approx(list(cut), abs=1e-6)
    assert out["contact"] == ["zhanshi"] and out["path"][-1] == out["cut_at"]


def test_what_lies_beyond_the_contact_is_never_walked() -> None:
    """Past the enemy the declared route runs through a building: cut short first, the
    route is legal (the Move ended before the building)."""
    scenario = town(rect("house", 10, 11, 10.5, 13, 3.0),
                    troopers=(trooper("zhanshi", 8 + R, 12, player="red"),))
    route = walk((4, 12, 0), (11, 12, 0))
    verdict = judged(scenario, route)
    assert verdict.legal and verdict.cut_at[:2] == pytest.approx((8.0, 12.0))
    # Without the enemy, the same route is refused for the building.
    alone = judged(town(rect("house", 10, 11, 10.5, 13, 3.0)), route)
    assert not alone.legal and "route.scenery" in alone.clauses()


def test_cut_in_the_first_of_two_moves_the_second_never_starts() -> None:
    scenario = town(troopers=(trooper("zhanshi", 6 + R, 12, player="red"),))
    route = walk((4, 12, 0), (8, 12, 0), (8, 15, 0), mid=(8, 12, 0))
    verdict = judged(scenario, route)
    assert verdict.legal and verdict.skill == "move_move"
    assert verdict.move_lengths_in == pytest.approx((2.0,))
    assert verdict.cut_at[:2] == pytest.approx((6.0, 12.0))


def test_cut_in_the_second_move_keeps_the_first() -> None:
    scenario = town(troopers=(trooper("zhanshi", 8 + R, 14, player="red"),))
    route = walk((4, 12, 0), (8, 12, 0), (8, 16, 0), mid=(8, 12, 0))
    verdict = judged(scenario, route)
    assert verdict.legal
    assert verdict.move_lengths_in == pytest.approx((4.0, 2.0))
    assert verdict.cut_at[:2] == pytest.approx((8.0, 14.0))
