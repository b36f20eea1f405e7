"""Line of Fire (docs/rules.md §13.10, decision A23): the rule's examples,
and the rules module against the dense reference (tests/referee/lof_referee.py) on random
scenes."""

from __future__ import annotations

import random

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.errors import InvalidInputError
from constraints.infinity.clauses.examples import marker, rect, town, trooper
from constraints.infinity.lof import line_of_fire
from tests.depth import rows
from tests.referee.lof_referee import reference_lof, segment_clear

MM = 25.4


def _lof(data, viewer="red1", target="fusilier", **kw):
    return line_of_fire(scenario_from_json(data), viewer, target, **kw)


def _red(x=16.0, y=12.0, **kw):
    facing = kw.pop("facing", None)
    out = trooper("red1", x, y, player="red", **kw)
    if facing is not None:
        out["facing"] = facing
    return out


def test_open_ground_is_seen_and_a_trooper_without_facing_sees_all_around():
    found = _lof(town(troopers=(_red(),)))
    assert found.lof and found.in_arc and found.all_around and found.witness is not None
    assert found.to_json()["all_around"] is True


def test_a_building_taller_than_both_silhouettes_blocks():
    house = rect("house", 9, 9, 11, 15, 3.0)
    assert not _lof(town(house, troopers=(_red(),))).lof
    # the same building lower than both Silhouettes: seen over it
    assert _lof(town(rect("house", 9, 9, 11, 15, 0.8), troopers=(_red(),))).lof


def test_a_low_wall_does_not_block_silhouettes_taller_than_it():
    wall = rect("wall", 9, 6, 9.3, 18, 0.8, kind="obstacle")
    found = _lof(town(wall, troopers=(_red(),)))
    assert found.lof
    assert found.witness[0][2] > 0.8 or found.witness[1][2] > 0.8  # over the wall
    # a wall as tall as the S2s hides them: less than 3 mm shows above it
    hiding = rect("wall", 9, 6, 9.3, 18, 40 / MM, kind="obstacle")
    assert not _lof(town(hiding, troopers=(_red(),))).lof


def test_a_wall_showing_less_than_3_mm_of_the_target_hides_it_and_4_mm_does_not():
    # two S2s (40 mm) each side of a wall 2 mm / 4 mm lower than them
    for shown_mm, seen in ((2.0, False), (4.0, True)):
        wall = rect("wall", 9, 6, 9.3, 18, (40 - shown_mm) / MM, kind="obstacle")
        data = town(wall, troopers=(_red(level=0.0),))
        assert _lof(data).lof is seen, shown_mm


def test_an_enemy_facing_away_cannot_draw_lof():
    away = _lof(town(troopers=(_red(facing=0.0),)))   # the fusilier is at -x
    assert not away.lof and not away.in_arc and not away.all_around
    towards = _lof(town(troopers=(_red(facing=180.0),)))
    assert towards.lof and towards.in_arc
    # side-on: the target straddles the edge of the front 180°, its front half is seen
    side = _lof(town(troopers=(_red(facing=90.0),)))
    assert side.in_arc and side.lof
    assert side.witness[1][1] >= 12.0 - 1e-9


def test_a_trooper_between_blocks_and_a_marker_does_not():
    between = trooper("big", 5.5, 12, player="red", base=40, silhouette=6)
    assert not _lof(town(troopers=(_red(), between))).lof
    camo = marker("camo", 5.5, 12, player="red", base=40, silhouette=6)
    assert _lof(town(troopers=(_red(), camo))).lof
    # a trooper that is moving does not block either
    assert _lof(town(troopers=(_red(), between)), moving=("big",)).lof


def test_a_gap_narrower_than_3_mm_hides_the_target_and_a_wider_one_does_not():
    for gap_mm, seen in ((2.0, False), (4.0, True)):
        half = gap_mm / MM / 2
        walls = (rect("n", 10, 12 + half, 10.3, 24, 3.0, kind="obstacle"),
                 rect("s", 10, 0, 10.3, 12 - half, 3.0, kind="obstacle"))
        assert _lof(town(*walls, troopers=(_red(),))).lof is seen, gap_mm
        # with min_visible_mm 0 any clear segment is enough
        assert _lof(town(*walls, troopers=(_red(),)), min_visible_mm=0.0).lof


def test_bad_input_is_refused():
    data = town(troopers=(_red(),))
    with pytest.raises(InvalidInputError, match="unknown trooper"):
        _lof(data, viewer="nobody")
    with pytest.raises(InvalidInputError):
        _lof(data, viewer="red1", target="red1")
    with pytest.raises(InvalidInputError):
        _lof(data, min_visible_mm=-1.0)


def _random_scene(rng: random.Random) -> dict:
    """Pieces in slots 3" apart along x (at most 1.5" wide), other troopers in the gaps
    between slots, the viewer to the east, the target to the west."""
    slots = rng.sample(range(4), rng.randint(1, 4))
    terrain = []
    for k in slots:
        x, y = 5 + 3 * k + rng.uniform(0, 0.3), rng.uniform(3, 17)
        w, h = rng.uniform(0.2, 1.4), rng.uniform(0.2, 5.0)
        terrain.append(rect(f"p{k}", round(x, 2), round(y, 2), round(x + w, 2),
                            round(y + h, 2), round(rng.uniform(0.3, 3.0), 2),
                            kind=rng.choice(("building", "obstacle"))))
    troopers = [_red(round(rng.uniform(18, 22), 2), round(rng.uniform(3, 21), 2),
                     facing=rng.choice((None, 90.0, 180.0, 225.0)),
                     silhouette=rng.choice((1, 2, 5)))]
    for k in rng.sample(range(3), rng.randint(0, 2)):
        troopers.append(trooper(f"o{k}", 5 + 3 * k + 2.25, round(rng.uniform(3, 21), 2),
                                player="red", silhouette=rng.choice((1, 2, 5))))
    at = (round(rng.uniform(1.5, 3.5), 2), round(rng.uniform(3, 21), 2), 0.0)
    return town(*terrain, troopers=tuple(troopers), at=at, silhouette=rng.choice((1, 2, 5)))


# The dense reference takes 3-8 s a scene (tests.depth).
@pytest.mark.parametrize("seed", rows(range(8), 4))
def test_agrees_with_the_dense_reference_on_random_scenes(seed):
    rng = random.Random(seed)
    data = _random_scene(rng)
    scenario = scenario_from_json(data)
    found = line_of_fire(scenario, "red1", "fusilier")
    assert found.lof == reference_lof(data, "red1", "fusilier"), data
    if found.witness is not None:
        assert segment_clear(data, found.witness[0], found.witness[1], {"red1", "fusilier"})


def test_the_convex_clip_agrees_with_the_general_crossing_test():
    """Rectangles (turned or not) take the Cyrus-Beck clip; the edge-crossing test that
    serves any footprint must give the same answers, vertical segments included."""
    import numpy as np
    import shapely
    from shapely import affinity

    from constraints.infinity.sightlines import Prism, _crosses_convex, _crosses_prism

    rng = np.random.default_rng(3)
    crossing = 0
    for k in range(60):
        x0, y0 = rng.uniform(0, 5, 2)
        w, h = rng.uniform(0.1, 3, 2)
        poly = shapely.box(x0, y0, x0 + w, y0 + h)
        if k % 2:
            poly = affinity.rotate(poly, rng.uniform(0, 90))
        prism = Prism("p", poly, 0.0, float(rng.uniform(0.5, 3)))
        assert prism.convex is not None
        p, q = rng.uniform(-2, 8, (300, 3)), rng.uniform(-2, 8, (300, 3))
        p[:, 2], q[:, 2] = rng.uniform(0, 3, 300), rng.uniform(0, 3, 300)
        p[:30, :2] = q[:30, :2]
        general = _crosses_prism(p, q, prism)
        crossing += int(general.sum())
        assert (general == _crosses_convex(p, q, prism, *prism.convex)).all()
    assert 1000 < crossing < 60 * 300 - 1000  # both answers are common
    l_shape = shapely.Polygon([(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)])
    assert Prism("l", l_shape, 0.0, 1.0).convex is None
