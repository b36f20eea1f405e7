"""Contact, Engaged in a Facing, models in contact and combats (docs/rules.md §11.1).

Units stand on 1" bases (tests.support), so the geometry is exact: the unit "A" is 5 files
x 2 ranks centred at (36, 10) facing +y, its Unit Boundary x in [33.5, 38.5], y in [9, 11].
"""

from __future__ import annotations

import math

import pytest

from constraints.core.scenario import Pose
from constraints.rank_and_file.combats import (
    combats,
    contact_graph,
    engaged_ids,
    engagements,
    split,
)
from constraints.rank_and_file.contact import (
    FACINGS,
    arc_of,
    engaged_facing,
    facing_edges,
    gap_blockers,
    in_contact,
    model_contacts,
    models_in_contact,
    touched_facings,
)
from constraints.rank_and_file.unit import Base
from tests.support import scenario, unit, wall

NORTH, EAST, SOUTH, WEST = 90.0, 0.0, 270.0, 180.0
ROOT2 = math.sqrt(2.0)


def a_unit(**kw):
    return unit("A", centre=(36.0, 10.0), facing=NORTH, **kw)


def enemy(uid: str = "B", *, centre, facing, models: int = 10, files: int = 5, **kw):
    return unit(uid, centre=centre, facing=facing, models=models, files=files,
                player="blue", **kw)


# --- Units in contact, and in which Facing ---------------------------------------------

# (id, the enemy, contact?, the Facings of A it touches, the enemy's engaged Facing)
# A corner touch touches both Facings meeting there; `ENGAGED` names the one the Arc picks.
UNIT_CASES = [
    ("front-to-front-flush", enemy(centre=(36.0, 12.0), facing=SOUTH),
     True, {"front"}, "front"),
    ("front-on-the-right-flank", enemy(centre=(39.5, 10.0), facing=WEST, models=4, files=2),
     True, {"right"}, "front"),
    ("corner-to-corner-on-the-135-line-is-front-A9",
     enemy(centre=(39.5, 12.0), facing=SOUTH, models=4, files=2), True, {"front", "right"},
     "right"),
    ("corner-to-corner-off-the-line-is-by-arc",
     enemy(centre=(40.0, 12.0), facing=SOUTH, models=6, files=3), True, {"front", "right"},
     "right"),
    ("rear-corner-on-the-135-line-is-flank-A9",
     enemy(centre=(39.5, 8.0), facing=SOUTH, models=4, files=2), True, {"right", "rear"},
     "right"),
    ("gap-of-1e-7-is-contact", enemy(centre=(36.0, 12.0 + 1e-7), facing=SOUTH),
     True, {"front"}, "front"),
    ("gap-of-1e-4-is-contact-A21", enemy(centre=(36.0, 12.0 + 1e-4), facing=SOUTH),
     True, {"front"}, "front"),
    ("gap-of-2e-3-is-not", enemy(centre=(36.0, 12.0 + 2e-3), facing=SOUTH),
     False, set(), None),
    ("overlap-is-contact", enemy(centre=(36.0, 11.5), facing=SOUTH, models=6, files=3),
     True, {"front"}, "front"),
    ("overlap-around-a-corner-touches-two-facings",
     enemy(centre=(38.5, 11.0), facing=SOUTH, models=4, files=2), True, {"front", "right"},
     None),
    ("a-corner-inside-an-edge-is-that-edge",
     enemy(centre=(36.0, 11.0 + ROOT2 / 2.0), facing=45.0, models=1, files=1),
     True, {"front"}, None),
    ("wholly-inside-is-the-nearest-facing",
     enemy(centre=(38.0, 10.0), facing=NORTH, models=1, files=1, base=Base(5.0, 5.0)),
     True, {"right"}, None),
]


# The one Facing of A named for a corner touch: the Arc holding the enemy's centre (A9 ties).
ENGAGED = {id(UNIT_CASES[2][1]): "front", id(UNIT_CASES[3][1]): "right",
           id(UNIT_CASES[4][1]): "right"}


@pytest.mark.parametrize("other, contact, touched, theirs",
                         [c[1:] for c in UNIT_CASES], ids=[c[0] for c in UNIT_CASES])
def test_units_in_contact(other, contact, touched, theirs):
    a = a_unit()
    assert in_contact(a.boundary(), other.boundary()) is contact
    assert touched_facings(a, other.boundary()) == touched
    assert engaged_facing(a, other) == ENGAGED.get(
        id(other), next((f for f in FACINGS if f in touched), None))
    if theirs is not None:
        assert engaged_facing(other, a) == theirs


def test_facing_edges_follow_the_corners_clockwise():
    edges = facing_edges(a_unit())
    assert edges["front"] == ((33.5, 11.0), (38.5, 11.0))
    assert edges["right"] == ((38.5, 11.0), (38.5, 9.0))
    assert edges["rear"] == ((38.5, 9.0), (33.5, 9.0))
    assert edges["left"] == ((33.5, 9.0), (33.5, 11.0))


@pytest.mark.parametrize("point, arc", [
    ((36.0, 30.0), "front"), ((41.5, 14.0), "front"), ((41.5, 13.9), "right"),
    ((30.5, 14.0), "front"), ((20.0, 10.0), "left"), ((41.5, 6.0), "right"),
    ((40.5, 6.0), "rear"), ((36.0, 0.0), "rear"), ((36.0, 10.8), "front"),
    ((38.3, 10.0), "right"), ((36.0, 9.1), "rear"),
], ids=["ahead", "front-flank-line", "just-off-the-line", "left-front-line", "far-left",
        "rear-flank-line-is-flank", "just-inside-rear", "behind", "inside-near-front",
        "inside-near-right", "inside-near-rear"])
def test_arcs_and_the_A9_ties(point, arc):
    assert arc_of(a_unit(), point) == arc


# --- Models in contact ------------------------------------------------------------------

def _gap_pair(**kw):
    """A facing B front to front; B's front rank has an empty slot in file 2 (x in [35.5,
    36.5]), so A's model A.2 faces B.6, in B's second rank, across the gap."""
    b = enemy(centre=(36.0, 12.0), facing=SOUTH, models=9, empty=((0, 2),), **kw)
    return a_unit(), b


# (id, A, B, blockers, pairs that must be in contact, pairs that must not, A's models in
# contact, B's models in contact)
GAP_WALL = wall("rocks", 35.8, 11.3, 36.2, 11.7).shape
MODEL_CASES = [
    ("flush-front-ranks", a_unit(), enemy(centre=(36.0, 12.0), facing=SOUTH), (),
     {("A.0", "B.4"), ("A.4", "B.0"), ("A.0", "B.3")}, {("A.5", "B.9"), ("A.0", "B.9")}, 5,
     5),
    ("across-a-gap-in-the-enemy-front-rank", *_gap_pair(), (),
     {("A.2", "B.6"), ("A.1", "B.2"), ("A.2", "B.1")}, {("A.7", "B.6"), ("A.1", "B.6")}, 5,
     5),
    ("impassable-terrain-in-the-gap-blocks", *_gap_pair(), (GAP_WALL,),
     {("A.1", "B.2")}, {("A.2", "B.6")}, 5, 4),
    ("across-a-gap-in-our-own-front-rank", a_unit(models=9, empty=((0, 2),)),
     enemy(centre=(36.0, 12.0), facing=SOUTH), (),
     {("A.6", "B.2")}, {("A.6", "B.7")}, 5, 5),
    ("offset-alignment-half-a-base", a_unit(),
     enemy(centre=(36.5, 12.0), facing=SOUTH, models=9, empty=((0, 2),)), (),
     {("A.2", "B.6"), ("A.3", "B.6")}, {("A.7", "B.6")}, 5, 5),
    ("across-the-empty-corners-of-an-incomplete-rear-rank", a_unit(models=8),
     enemy(centre=(36.0, 8.5), facing=NORTH, models=5), (),
     {("A.0", "B.0"), ("A.4", "B.4"), ("A.5", "B.1")}, {("A.0", "B.1")}, 5, 5),
    ("corner-to-corner-only-the-corner-models", a_unit(),
     enemy(centre=(39.5, 12.0), facing=SOUTH, models=3, files=2, empty=((0, 0),)), (),
     {("A.4", "B.0")}, set(), 1, 1),
    ("not-in-contact", a_unit(), enemy(centre=(36.0, 12.5), facing=SOUTH), (),
     set(), {("A.2", "B.2")}, 0, 0),
]


@pytest.mark.parametrize("a, b, blockers, present, absent, ours, theirs",
                         [c[1:] for c in MODEL_CASES], ids=[c[0] for c in MODEL_CASES])
def test_models_in_contact(a, b, blockers, present, absent, ours, theirs):
    pairs = model_contacts(a, b, blockers)
    assert present <= pairs
    assert not absent & pairs
    assert models_in_contact(a, [b], blockers) == ours
    assert models_in_contact(b, [a], blockers) == theirs
    assert {(y, x) for x, y in model_contacts(b, a, blockers)} == pairs


def test_gap_blockers_are_terrain_and_third_units():
    a, b = _gap_pair()
    third = unit("C", centre=(10.0, 10.0))
    s = scenario(a, b, third, terrain=(wall("rocks", 0.0, 0.0, 1.0, 1.0),
                                       wall("wood", 2.0, 0.0, 3.0, 1.0, kind="forest")))
    found = gap_blockers(s, "A", "B")
    assert len(found) == 2
    assert found[0].equals(third.boundary())
    assert ("A.2", "B.6") in model_contacts(a, b, found)


# --- Combats ----------------------------------------------------------------------------

def _chain():
    """A (red) front to front with B (blue); C (red) charges B's right flank (B faces
    south, so its right is x = 33.5); D (blue) touches C's rear."""
    a = a_unit()
    b = enemy(centre=(36.0, 12.0), facing=SOUTH)
    c = unit("C", centre=(32.5, 12.5), facing=EAST, models=4, files=2)
    d = enemy("D", centre=(30.5, 12.5), facing=EAST, models=4, files=2)
    return a, b, c, d


@pytest.mark.parametrize("units, expected", [
    (_chain()[:3], [("A", "B", "C")]),
    (_chain(), [("A", "B", "C", "D")]),
    ((_chain()[0], unit("F", centre=(36.0, 12.0), facing=SOUTH)), []),
    ((_chain()[0], _chain()[3]), []),
], ids=["a-b-c-chain-is-one-combat", "a-b-c-d-chain", "friends-touching-do-not-fight",
        "apart"])
def test_combats(units, expected):
    assert combats(units) == expected
    assert combats(reversed(units)) == expected
    assert engaged_ids(units) == set(engagements(units)) == {u for c in expected for u in c}


def test_breaking_the_middle_contact_splits_the_combat():
    a, b, c, d = _chain()
    before = combats((a, b, c, d))
    c2 = c.with_pose(Pose((31.5, 12.5), EAST))
    d2 = d.with_pose(Pose((29.5, 12.5), EAST))
    after = combats((d2, c2, b, a))
    assert after == [("A", "B"), ("C", "D")]
    assert split(before, after) == {("A", "B", "C", "D"): [("A", "B"), ("C", "D")]}
    assert split(before, [("A", "B")]) == {}


def test_the_contact_graph_and_engagements_name_each_sides_facing():
    a, b, c, d = _chain()
    graph = contact_graph((a, b, c, d))
    assert sorted(graph.nodes) == ["A", "B", "C", "D"]
    assert sorted(tuple(sorted(e)) for e in graph.edges) == [("A", "B"), ("B", "C"),
                                                             ("C", "D")]
    assert graph.edges["B", "C"]["facing"] == {"B": "right", "C": "front"}
    assert graph.edges["C", "D"]["touched"] == {"C": frozenset({"rear"}),
                                                "D": frozenset({"front"})}
    assert engagements((d, c, b, a, unit("E", centre=(60.0, 40.0)))) == {
        "A": {"B": "front"}, "B": {"A": "front", "C": "right"},
        "C": {"B": "front", "D": "rear"}, "D": {"C": "front"}}
