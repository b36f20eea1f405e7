"""Contact and touched Facings against a slow reference written in plain Python floats (no
shapely): the property tests of tests/constraints/test_contact.py's geometry (docs/rules.md
§11.1)."""

from __future__ import annotations

import math
import random

from shapely.geometry import Polygon

from constraints.rank_and_file.contact import (
    FACINGS,
    arc_of,
    in_contact,
    line_in,
    named_facing,
    touched_facings,
)
from constraints.rank_and_file.unit import Base
from tests.support import unit

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
