"""Properties every verdict keeps (hypothesis): standing still far from everything is legal,
and moving the whole battlefield rigidly never changes a verdict."""

import math
from dataclasses import replace

import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from constraints.core.scenario import Pose, Scenario, Terrain
from constraints.geometry.plane import rotate_about
from constraints.rank_and_file.unit import Base, Unit
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from tests.support import scenario, unit

CENTRE = (100.0, 100.0)
BASES = [Base(20, 20), Base(25, 25), Base(25, 50), Base(40, 40), Base(50, 100)]

units = st.builds(
    lambda files, ranks, base, facing, mob: unit(
        "u", models=files * ranks, files=files, base=base, centre=CENTRE, facing=facing,
        mobility=mob),
    st.integers(1, 8), st.integers(1, 5), st.sampled_from(BASES),
    st.floats(-180, 180, allow_nan=False), st.floats(1.0, 10.0))

steps = st.lists(st.one_of(st.floats(0, 6).map(forward), st.floats(-80, 80).map(wheel)),
                 max_size=4)


@settings(max_examples=60, deadline=None)
@given(units)
def test_a_move_of_zero_length_far_from_everything_is_legal(u):
    s = scenario(u, width=200.0, depth=200.0)
    for move in (Move("u", "march", steps=(forward(0.0),)), Move("u", "advance"),
                 Move("u", "reform", files=u.files, centre=u.pose.centre,
                      facing_deg=u.pose.facing_deg)):
        verdict = check_move(s, move)
        assert verdict.legal, verdict.violations


def _moved(s: Scenario, angle: float, shift: tuple[float, float]) -> Scenario:
    def place(p):
        x, y = rotate_about(p, CENTRE, angle)
        return (x + shift[0], y + shift[1])

    units = tuple(replace(u, pose=Pose(place(u.pose.centre), u.pose.facing_deg + angle))
                  for u in s.units)
    terrain = tuple(replace(t, polygon=tuple(place(p) for p in t.polygon)) for t in s.terrain)
    return replace(s, units=units, terrain=terrain)


def _crowded(u: Unit, other_at: tuple[float, float], other_facing: float,
             rocks_at: tuple[float, float]) -> Scenario:
    other = unit("o", models=6, files=3, centre=(CENTRE[0] + other_at[0],
                                                 CENTRE[1] + other_at[1]),
                 facing=other_facing, player="blue")
    x, y = CENTRE[0] + rocks_at[0], CENTRE[1] + rocks_at[1]
    rocks = Terrain("rocks", "impassable", ((x, y), (x + 3, y), (x + 2, y + 2)))
    s = scenario(u, other, terrain=(rocks,), width=200.0, depth=200.0)
    shapes = [u.boundary(), other.boundary(), rocks.shape]
    assume(all(not a.intersects(b) for i, a in enumerate(shapes) for b in shapes[i + 1:]))
    return s


def _near_a_limit(verdict) -> bool:
    limits = {v.clause: v.limit for v in verdict.violations}
    return any(abs(v.measured - v.limit) < 1e-6 for v in verdict.violations) or \
        any(abs(m - lim) < 1e-6 for m in verdict.measurements.values() for lim in
            (0.5, 1.0, *limits.values()))


offsets = st.tuples(st.floats(-12, 12), st.floats(-12, 12))


# Overlapping draws are filtered out by design (a unit and rocks within 12"): the health check
# once failed a run (50 drawn filtered out, 8 kept).  Derandomised: the same examples every run.
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much])
@given(units, offsets, st.floats(0, 360), offsets, steps, st.floats(-180, 180),
       st.floats(-180, 180), st.tuples(st.floats(-30, 30), st.floats(-30, 30)),
       st.sampled_from(["march", "advance", "reform"]))
def test_moving_the_whole_battlefield_never_changes_a_verdict(
        u, other_at, other_facing, rocks_at, snake, pivot, angle, shift, manoeuvre):
    s = _crowded(u, other_at, other_facing, rocks_at)
    if manoeuvre == "reform":
        move = Move("u", "reform", files=max(1, u.files - 1),
                    centre=(CENTRE[0] + 1.0, CENTRE[1]), facing_deg=u.pose.facing_deg + pivot)
    else:
        move = Move("u", manoeuvre, steps=tuple(snake),
                    pivot_deg=pivot if manoeuvre == "advance" else 0.0)
    before = check_move(s, move)
    assume(not _near_a_limit(before))
    moved = _moved(s, angle, shift)
    if manoeuvre == "reform":
        assert move.centre is not None
        x, y = rotate_about(move.centre, CENTRE, angle)
        move = replace(move, centre=(x + shift[0], y + shift[1]),
                       facing_deg=(move.facing_deg or 0.0) + angle)
    after = check_move(moved, move)
    assert after.legal == before.legal
    assert set(after.clauses()) == set(before.clauses())
    for name, value in before.measurements.items():
        if math.isfinite(value):
            assert math.isclose(after.measurements[name], value, rel_tol=1e-6, abs_tol=1e-6), name


def test_the_invariance_test_would_notice_a_changed_verdict():
    # Sanity of the harness: moving only the rocks (not everything) can change a verdict.
    u = unit("u", centre=CENTRE)
    s = scenario(u, width=200.0, depth=200.0)
    blocked = replace(s, terrain=(Terrain("r", "impassable", ((98, 105), (102, 105),
                                                              (100, 107))),))
    move = Move("u", "march", steps=(forward(8.0),))
    assert check_move(s, move).legal and not check_move(blocked, move).legal
    assert shapely.Polygon(blocked.terrain[0].polygon).area > 0
