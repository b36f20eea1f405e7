"""The seeded Infinity N4 maps of benchmarks/infinity_maps.py and the shapely half of
benchmarks/epf_baseline.py (extremitypathfinder itself is optional: that test skips)."""

from __future__ import annotations

import itertools
import math

import pytest
import shapely
from shapely.geometry import Point, Polygon, box

from benchmarks.epf_baseline import _ring, free_space
from benchmarks.infinity_maps import (
    MM_PER_INCH,
    SILHOUETTE_BASE_MM,
    flat_town,
    ruined_town,
)
from benchmarks.infinity_queries import queries

S2_HEIGHT = 40 / MM_PER_INCH
TALLEST = 70 / MM_PER_INCH
CASES = [("ruined", 30, 0), ("ruined", 60, 1), ("ruined", 120, 2), ("ruined", 200, 3),
         ("unlevelled", 50, 4), ("flat", 30, 5), ("flat", 100, 6), ("flat", 200, 7)]


def make(kind: str, n: int, seed: int) -> dict:
    if kind == "flat":
        return flat_town(n, seed)
    return ruined_town(n, seed, levels=kind == "ruined")


@pytest.fixture(scope="module", params=CASES, ids=[f"{k}-{n}-{s}" for k, n, s in CASES])
def case(request):
    kind, n, seed = request.param
    return kind, n, make(kind, n, seed)


def pieces(sc: dict) -> list[dict]:
    return [p for p in sc["terrain"] if "polygon" in p]


def level(p: dict) -> float:
    return p.get("level", 0.0)


def top(p: dict) -> float:
    return level(p) + p["height"]


def table(sc: dict) -> Polygon:
    return box(0.0, 0.0, sc["battlefield"]["width"], sc["battlefield"]["depth"])


def radius(u: dict) -> float:
    return u["base"] / 2 / MM_PER_INCH


def surface_at(sc: dict, z: float):
    """Written again here (not infinity_queries.surface): table or roofs topping out at z, minus
    the footprints standing at z."""
    if z == 0.0:
        under = table(sc)
    else:
        under = shapely.union_all([Polygon(p["polygon"]) for p in pieces(sc)
                                   if p["kind"] == "building" and math.isclose(top(p), z)])
    on = [Polygon(p["polygon"]) for p in pieces(sc) if math.isclose(level(p), z)]
    return under.difference(shapely.union_all(on)) if on else under


@pytest.mark.parametrize("kind", ["ruined", "unlevelled", "flat"])
def test_deterministic_per_seed(kind):
    a, b, c = make(kind, 40, 11), make(kind, 40, 11), make(kind, 40, 12)
    assert a == b
    assert a != c
    assert queries(a, 15, 3) == queries(b, 15, 3)
    assert queries(a, 15, 3) != queries(a, 15, 4)


def test_format_and_count(case):
    kind, n, sc = case
    assert sc["format"] == "manoeuvre/1" and sc["rules"] == "infinity-n4"
    assert len(pieces(sc)) == n
    ids = [p["id"] for p in sc["terrain"]] + [u["id"] for u in sc["units"]]
    assert len(ids) == len(set(ids))
    for p in pieces(sc):
        poly = Polygon(p["polygon"])
        assert poly.is_valid and poly.area > 0 and p["polygon"][0] != p["polygon"][-1]
        assert table(sc).covers(poly)
        assert p["kind"] in ("building", "obstacle") and p["height"] > 0
    if kind == "flat":
        assert all(p["kind"] == "obstacle" and p["height"] > TALLEST for p in pieces(sc))
    if kind != "ruined":
        assert all(level(p) == 0.0 for p in pieces(sc))
        assert all("polygon" in p for p in sc["terrain"])  # no ladders or stairs


def test_town_has_the_promised_pieces(case):
    kind, _, sc = case
    if kind == "flat":
        return
    walls = [p for p in pieces(sc) if p["id"].startswith("w")]
    assert any(p["height"] < S2_HEIGHT for p in walls)  # low walls an S2 walks over
    assert any(2.0 <= p["height"] <= 3.0 for p in walls)  # tall walls
    assert all(p["height"] <= 1.0 or 2.0 <= p["height"] <= 3.0 for p in walls)
    assert any(p["kind"] == "building" and len(p["polygon"]) == 6 for p in pieces(sc))  # L
    if kind == "ruined":
        assert any(level(p) > 0 for p in pieces(sc))
        assert any(p["kind"] in ("ladder", "stairs") for p in sc["terrain"])


def test_no_forbidden_overlaps(case):
    _, _, sc = case
    ps = pieces(sc)
    polys = [Polygon(p["polygon"]) for p in ps]
    for i, j in itertools.combinations(range(len(ps)), 2):
        if not polys[i].relate_pattern(polys[j], "T********"):
            continue
        low, up = (i, j) if level(ps[i]) < level(ps[j]) else (j, i)
        assert ps[low]["kind"] == "building", (ps[i]["id"], ps[j]["id"])
        assert math.isclose(level(ps[up]), top(ps[low]), abs_tol=1e-9)
        assert polys[low].contains(polys[up])


def test_raised_pieces_stand_on_a_roof(case):
    _, _, sc = case
    for p in pieces(sc):
        if level(p) > 0:
            roofs = [q for q in pieces(sc) if q["kind"] == "building"
                     and math.isclose(top(q), level(p)) and q is not p]
            assert any(Polygon(q["polygon"]).contains(Polygon(p["polygon"])) for q in roofs)


def test_troopers_clear(case):
    _, _, sc = case
    units = sc["units"]
    assert 4 <= len(units) <= 10
    assert {u["player"] for u in units} == {"blue", "red"}
    ground = [Polygon(p["polygon"]) for p in pieces(sc) if level(p) == 0.0]
    for u in units:
        assert u["kind"] == "trooper" and u["level"] == 0.0 and u["prone"] is False
        assert u["base"] == SILHOUETTE_BASE_MM[u["silhouette"]] and len(u["mov"]) == 2
        disc = Point(u["centre"]).buffer(radius(u), quad_segs=64)
        assert table(sc).contains(disc)
        assert all(g.distance(Point(u["centre"])) >= radius(u) for g in ground)
    for u, v in itertools.combinations(units, 2):
        assert math.dist(u["centre"], v["centre"]) >= radius(u) + radius(v) + 0.1 - 1e-9


def test_ladder_ends_strictly_inside_a_surface(case):
    _, _, sc = case
    for p in sc["terrain"]:
        if p["kind"] not in ("ladder", "stairs"):
            continue
        assert p["from"][2] < p["to"][2]
        for x, y, z in (p["from"], p["to"]):
            surf = surface_at(sc, z)
            assert surf.contains(Point(x, y)), (p["id"], z)
            assert surf.boundary.distance(Point(x, y)) > 0.4, p["id"]  # a 25 mm base fits


@pytest.mark.parametrize("reachable", [True, False])
def test_queries_on_free_ground(case, reachable):
    _, _, sc = case
    qs = queries(sc, 40, 9, reachable=reachable)
    assert len(qs) == 40
    units = {u["id"]: u for u in sc["units"]}
    ground = shapely.union_all([Polygon(p["polygon"]) for p in pieces(sc) if level(p) == 0.0])
    for uid, (x, y, z) in qs:
        u = units[uid]
        assert z == 0.0
        assert table(sc).contains(Point(x, y).buffer(radius(u), quad_segs=64))
        assert ground.distance(Point(x, y)) >= radius(u)
        assert all(math.dist((x, y), v["centre"]) >= radius(u) + radius(v)
                   for v in units.values() if v["id"] != uid)
        if reachable:  # same part of the ground's free space as the trooper
            free = table(sc).buffer(-radius(u), join_style="mitre").difference(
                ground.buffer(radius(u), quad_segs=64))
            parts = getattr(free, "geoms", [free])
            (part,) = [g for g in parts if g.covers(Point(u["centre"]))]
            assert part.covers(Point(x, y))


def test_epf_input_normalisation():
    sq = [(4, 2), (6, 2), (6, 5), (4, 5)]
    sq2 = [(4, 5), (6, 5), (6, 8), (4, 8), (4, 5)]
    (part,) = free_space([(0, 0), (10, 0), (10, 10), (0, 10)], [sq, Polygon(sq2)])
    assert len(part.interiors) == 1 and math.isclose(part.area, 100 - 12)
    ring = _ring(part.exterior.coords, ccw=True)
    assert ring[0] != ring[-1] and Polygon(ring).exterior.is_ccw
    assert not Polygon(_ring(part.interiors[0].coords, ccw=False)).exterior.is_ccw
    parts = free_space(box(0, 0, 10, 10), [box(4, -1, 6, 11)])
    assert len(parts) == 2


def test_epf_square_hole_by_hand():
    pytest.importorskip("extremitypathfinder")
    from benchmarks.epf_baseline import prepare, shortest

    env = prepare(box(0, 0, 10, 10), [box(4, 2, 6, 8)])
    length, path = shortest(env, (2, 5), (8, 5))
    assert math.isclose(length, 2 * math.sqrt(13) + 2) and len(path) == 4
