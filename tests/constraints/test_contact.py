"""Contact, Engaged in a Facing, models in contact and combats (docs/rules.md §11.1).

Units stand on 1" bases (tests.support), so the geometry is exact: the unit "A" is 5 files
x 2 ranks centred at (36, 10) facing +y, its Unit Boundary x in [33.5, 38.5], y in [9, 11].
"""

from __future__ import annotations

import math
import random

import pytest
from shapely.geometry import Polygon

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
    line_in,
    model_contacts,
    models_in_contact,
    named_facing,
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


# --- Property test against a slow reference, in plain Python floats (no shapely) -------

def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def _add(a, b, k=1.0):
    return (a[0] + k * b[0], a[1] + k * b[1])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def _cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def _norm(a):
    return math.hypot(a[0], a[1])


def _unit(a):
    return (a[0] / _norm(a), a[1] / _norm(a))


def _seg_dist(p, a, b):
    ab = _sub(b, a)
    t = min(1.0, max(0.0, _dot(_sub(p, a), ab) / _dot(ab, ab)))
    return _norm(_sub(p, _add(a, ab, t)))


def _inside(p, poly):
    crosses = [_cross(_sub(poly[(i + 1) % 4], poly[i]), _sub(p, poly[i])) for i in range(4)]
    return all(c >= 0 for c in crosses) or all(c <= 0 for c in crosses)


def _point_dist(p, poly):
    if _inside(p, poly):
        return 0.0
    return min(_seg_dist(p, poly[i], poly[(i + 1) % 4]) for i in range(4))


def _separated(p, q):
    """Separating axis test for two convex quadrilaterals."""
    for poly in (p, q):
        for i in range(4):
            edge = _sub(poly[(i + 1) % 4], poly[i])
            axis = (-edge[1], edge[0])
            a, b = [_dot(v, axis) for v in p], [_dot(v, axis) for v in q]
            if max(a) < min(b) or max(b) < min(a):
                return True
    return False


# The slow reference judges the geometry at an exact tolerance of 1e-6" (the readers take any
# tolerance; A21's default is the rule option's 0.001"), where a line needs 1e-5" of edge.
REF_TOL, REF_LINE = 1e-6, line_in(1e-6)


def _ref_distance(p, q):
    if not _separated(p, q):
        return 0.0
    return min(min(_point_dist(v, q) for v in p), min(_point_dist(v, p) for v in q))


def _near_interval(a, b, poly):
    """The part [t0, t1] (inches from a) of segment ab within REF_TOL of poly, found by
    ternary search and bisection on the distance to poly, which is convex along ab."""
    length = _norm(_sub(b, a))
    along = _unit(_sub(b, a))

    def f(t):
        return _point_dist(_add(a, along, t), poly)
    lo, hi = 0.0, length
    for _ in range(90):
        m1, m2 = lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0
        lo, hi = (lo, m2) if f(m1) <= f(m2) else (m1, hi)
    best = (lo + hi) / 2.0
    if f(best) > REF_TOL:
        return None
    return _cross_at(f, 0.0, best), _cross_at(f, length, best)


def _cross_at(f, outer, inner):
    if f(outer) <= REF_TOL:
        return outer
    for _ in range(60):
        mid = (outer + inner) / 2.0
        outer, inner = (outer, mid) if f(mid) <= REF_TOL else (mid, inner)
    return (outer + inner) / 2.0


def _ref_arc(corners, p):
    """The Arc of p from the 135° lines through the corners, as cross products."""
    fl, fr, rr, rl = corners
    right, fwd = _unit(_sub(fr, fl)), _unit(_sub(fl, rl))
    out_fr, out_fl = _add(right, fwd), _sub(fwd, right)
    out_rr, out_rl = _sub(right, fwd), (-right[0] - fwd[0], -right[1] - fwd[1])
    ahead, behind = _dot(_sub(p, fl), fwd), -_dot(_sub(p, rl), fwd)
    if ahead >= 0 and _cross(out_fr, _sub(p, fr)) >= 0 and _cross(out_fl, _sub(p, fl)) <= 0:
        return "front"
    if behind >= 0 and _cross(out_rr, _sub(p, rr)) < 0 and _cross(out_rl, _sub(p, rl)) > 0:
        return "rear"
    from_left, from_right = _dot(_sub(p, fl), right), -_dot(_sub(p, fr), right)
    side = "right" if from_left >= from_right else "left"
    if ahead >= 0 or behind >= 0 or not _inside(p, corners):
        return side
    gaps = [(-ahead, "front"), (min(from_left, from_right), side), (-behind, "rear")]
    return min(gaps, key=lambda g: g[0])[1]


def _borderline(x):
    """Too close to REF_LINE to tell apart from the approximation of a buffered polygon."""
    return 0.8 * REF_LINE < x < 1.25 * REF_LINE


def _ref_touched(corners, other):
    """(facings, ambiguous) by the rule, measured without shapely."""
    if _ref_distance(corners, other) > REF_TOL:
        return frozenset(), False
    near = {f: _near_interval(corners[k], corners[(k + 1) % 4], other)
            for k, f in enumerate(FACINGS)}
    lengths = {f: iv[1] - iv[0] for f, iv in near.items() if iv is not None}
    ambiguous = any(_borderline(n) for n in lengths.values())
    along = frozenset(f for f, n in lengths.items() if n > REF_LINE)
    centre = (sum(v[0] for v in other) / 4.0, sum(v[1] for v in other) / 4.0)
    if along or not lengths:
        return along or frozenset({_ref_arc(corners, centre)}), ambiguous
    to_corner = []
    for k, f in enumerate(FACINGS):
        if near[f] is not None:
            t = sum(near[f]) / 2.0
            to_corner.append(min(t, _norm(_sub(corners[(k + 1) % 4], corners[k])) - t))
    ambiguous |= any(_borderline(e) for e in to_corner)
    if min(to_corner) <= REF_LINE:  # a corner: both Facings meeting there
        return frozenset(lengths), ambiguous
    return frozenset(lengths), ambiguous or len(lengths) > 1


def _direction(t, n, deg):
    return _add(_add((0.0, 0.0), t, math.cos(math.radians(deg))), n,
                math.sin(math.radians(deg)))


def _quarter(corner, t, n, theta, w, d):
    """A w x d rectangle with a corner at `corner`, its sides along theta and theta + 90,
    in degrees anticlockwise from t towards n."""
    e1, e2 = _direction(t, n, theta), _direction(t, n, theta + 90.0)
    far = _add(_add(corner, e1, w), e2, d)
    return [corner, _add(corner, e1, w), far, _add(corner, e2, d)]


def _other(rng, corners, kind):
    """A rectangle placed against a random edge of A (p to q) in the way `kind` says."""
    k = rng.randrange(4)
    p, q = corners[k], corners[(k + 1) % 4]
    length = _norm(_sub(q, p))
    t = _unit(_sub(q, p))
    n = (-t[1], t[0])  # outwards: the corners go clockwise
    w, d = rng.uniform(0.3, 5.0), rng.uniform(0.3, 4.0)
    if kind == "corner_edge":
        return _quarter(_add(p, t, rng.uniform(0.05, 0.95) * length), t, n,
                        rng.uniform(10.0, 80.0), w, d)
    if kind == "corner_corner":
        if rng.random() < 0.5:
            return _quarter(p, t, n, rng.choice([90.0, rng.uniform(15.0, 165.0)]), w, d)
        return _quarter(q, t, n, rng.choice([360.0, rng.uniform(285.0, 435.0)]), w, d)
    if kind == "random":
        centre = (rng.uniform(-6, 6) + p[0], rng.uniform(-6, 6) + p[1])
        return _quarter(centre, t, n, rng.uniform(0.0, 360.0), w, d)
    h0 = {"flush": 0.0, "gap": rng.uniform(0.01, 1.0), "overlap": -rng.uniform(0.05, 2.0),
          "tiny": rng.choice([1e-7, -1e-7, 5e-7, 2e-6, 1e-5])}[kind]
    start = _add(_add(p, t, rng.uniform(-w + 0.05, length - 0.05)), n, h0)
    return _quarter(start, t, n, 0.0, w, d)


KINDS = ("flush", "tiny", "gap", "overlap", "corner_edge", "corner_corner", "random")


def test_contact_and_touched_facings_match_a_slow_reference():
    rng = random.Random(20240611)
    seen = {"contact": 0, "point": 0, "ambiguous": 0}
    for case in range(210):
        kind = KINDS[case % len(KINDS)]
        size = Base(rng.uniform(1.0, 6.0) * 25.4, rng.uniform(1.0, 4.0) * 25.4)
        a = unit("A", models=1, files=1, base=size, facing=rng.uniform(0.0, 360.0),
                 centre=(rng.uniform(20, 50), rng.uniform(10, 30)))
        corners = a.corners()
        other = _other(rng, corners, kind)
        expected, ambiguous = _ref_touched(corners, other)
        if ambiguous:
            seen["ambiguous"] += 1
            continue
        shape = Polygon(other)
        assert in_contact(a.boundary(), shape, REF_TOL) == bool(expected), f"case {case} ({kind})"
        assert touched_facings(a, shape, REF_TOL) == expected, f"case {case} ({kind})"
        seen["contact"] += bool(expected)
        if kind.startswith("corner") and len(expected) == 2:  # named by the Arc
            centre = (sum(v[0] for v in other) / 4.0, sum(v[1] for v in other) / 4.0)
            arc = _ref_arc(corners, centre)
            named = named_facing(a, shape, expected, REF_TOL)
            assert named == (arc if arc in expected else min(expected, key=FACINGS.index))
            seen["point"] += 1
    assert seen["ambiguous"] <= 5
    assert seen["contact"] >= 100 and seen["point"] >= 20


def test_arcs_match_the_reference():
    rng = random.Random(7)
    for _ in range(500):
        a = unit("A", models=rng.randrange(1, 13), files=rng.randrange(1, 6),
                 centre=(36.0, 20.0), facing=rng.uniform(0.0, 360.0))
        p = (rng.uniform(26.0, 46.0), rng.uniform(10.0, 30.0))
        assert arc_of(a, p) == _ref_arc(a.corners(), p)
