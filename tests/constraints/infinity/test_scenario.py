"""Infinity scenarios: read and written back, and bad input named (never a traceback)."""

from __future__ import annotations

import copy

import pytest

from constraints.core.scenario_io import scenario_from_json, scenario_to_json
from constraints.errors import InvalidInputError
from constraints.infinity.clauses.examples import ladder, marker, rect, town, trooper
from constraints.infinity.silhouettes import height_in
from constraints.infinity.surfaces import Surfaces

HOUSE = rect("house", 6, 10, 10, 14, 3.0)


def test_save_then_load_is_the_same_scenario():
    data = town(HOUSE, rect("shed", 7, 11, 9, 13, 1.0, level=3.0),
                ladder("l", (5.4, 12, 0), (6.6, 12, 3)),
                troopers=(trooper("up", 8, 13.5, level=3.0, player="red"),))
    scenario = scenario_from_json(data)
    assert scenario_from_json(scenario_to_json(scenario)) == scenario


def test_silhouette_heights_compare_by_height_not_number():
    assert height_in(2) > height_in(3)           # S2 40 mm, S3 32 mm
    assert height_in(5, prone=True) < height_in(1)


def test_pieces_tile_the_table_and_regions_join_steps_no_higher_than_the_silhouette():
    scenario = scenario_from_json(town(HOUSE, rect("crate", 12, 10, 13, 11, 1.0)))
    s2 = Surfaces(scenario, height_in(2))
    total = sum(p.polygon.area for p in s2.pieces)
    assert total == pytest.approx(24 * 24)
    assert s2.locate(12.5, 10.5, 1.0) == s2.locate(2, 2, 0.0)   # the crate: a step
    assert s2.locate(8, 12, 3.0) != s2.locate(2, 2, 0.0)        # the roof: no step


BAD = [
    ("unknown silhouette", lambda d: d["units"][0].update(silhouette=9), "unknown silhouette"),
    ("a base size no trooper has", lambda d: d["units"][0].update(base=30), "base 30 mm"),
    ("a trooper inside scenery", lambda d: d["units"][0].update(centre=[8, 12]),
     "not on a surface"),
    ("a trooper pressed into a wall", lambda d: d["units"][0].update(centre=[5.7, 12]),
     "inside scenery"),
    ("a ladder that touches no level",
     lambda d: d["terrain"].append(ladder("l", (5.4, 12, 0), (5.0, 12, 3))), "touches no level"),
    ("overlapping scenery",
     lambda d: d["terrain"].append(rect("b", 9, 13, 12, 15, 2.0)), "overlaps"),
    ("scenery standing on nothing",
     lambda d: d["terrain"].append(rect("b", 14, 14, 15, 15, 2.0, level=1.0)), "on no roof"),
    ("troopers overlapping",
     lambda d: d["units"].append(trooper("b", 4.5, 12)), "overlaps trooper"),
    ("an unknown terrain kind",
     lambda d: d["terrain"].append({"id": "x", "kind": "lava", "polygon": [[0, 0], [1, 0],
                                                                          [1, 1]]}),
     "unknown terrain kind"),
    ("a MOV value past any rule", lambda d: d["units"][0].update(mov=[4, 400]), "<= 24"),
]


@pytest.mark.parametrize("why, change, message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_named(why, change, message):
    data = copy.deepcopy(town(HOUSE))
    change(data)
    with pytest.raises(InvalidInputError, match=message) as info:
        scenario_from_json(data)
    assert "\n" not in str(info.value)


def test_troopers_on_different_levels_may_share_x_y():
    data = town(HOUSE, troopers=(trooper("up", 8, 12, level=3.0),), at=(4, 12, 0))
    data["units"][0]["centre"] = [4.0, 12.0]
    scenario_from_json(data)


def test_markers_are_read_with_silhouette_2_by_default_and_written_back():
    data = town(HOUSE, troopers=(marker("camo", 14, 14, player="red"),
                                 marker("mine", 16, 16, silhouette=1)))
    scenario = scenario_from_json(data)
    camo = scenario.unit("camo")
    assert camo.marker and camo.kind == "marker" and camo.silhouette == 2
    assert camo.height_in == height_in(2) and scenario.unit("mine").height_in == height_in(1)
    assert scenario_from_json(scenario_to_json(scenario)) == scenario
    assert scenario_to_json(scenario)["units"][1] == {
        "id": "camo", "player": "red", "kind": "marker", "base": 25.0, "silhouette": 2,
        "centre": [14.0, 14.0], "level": 0.0}


MARKER_BAD = [
    ("a marker with MOV", lambda d: d["units"][1].update(mov=[4, 4]), "unknown key 'mov'"),
    ("a marker overlapping a trooper", lambda d: d["units"][1].update(centre=[4.3, 12]),
     "overlaps trooper"),
    ("a marker of an unknown silhouette", lambda d: d["units"][1].update(silhouette=9),
     "unknown silhouette"),
]


@pytest.mark.parametrize("why, change, message", MARKER_BAD, ids=[b[0] for b in MARKER_BAD])
def test_bad_markers_are_named(why, change, message):
    data = copy.deepcopy(town(HOUSE, troopers=(marker("camo", 14, 14),)))
    change(data)
    with pytest.raises(InvalidInputError, match=message):
        scenario_from_json(data)


def test_a_marker_does_not_move():
    from constraints.infinity.checker import check_route
    from constraints.infinity.route import route_from_json

    scenario = scenario_from_json(town(HOUSE, troopers=(marker("camo", 14, 14),)))
    with pytest.raises(InvalidInputError, match="is a marker"):
        check_route(scenario, route_from_json({"unit": "camo", "path": [[14, 14, 0]]}))
