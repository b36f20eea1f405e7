"""The swept front is measured part by part, never over a union (issue 22, part 1).

GEOS 3.14's union of the four sweeps of tests/data/sweep_union_move.json (a March: wheel,
forward, wheel, forward) drops most of the forward leg, which passes through the triangle
`t4_tri`: the checker measured the union, 0.643" clear, and called the March legal.  Its
measurements are now the least over the parts (constraints.geometry.parts), so they never
depend on an overlay's robustness.
"""

from __future__ import annotations

import json
import math

import numpy as np
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from constraints.core.scenario import Terrain
from constraints.core.scenario_io import load_scenario
from constraints.rank_and_file.kinematics import snake
from constraints.rank_and_file.unit import Base
from constraints.t9a.checker import check_move
from constraints.t9a.move_io import load_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer.cli import main
from tests.referee.compare import Tally, judge
from tests.referee.referee import SAMPLE_IN
from tests.support import ROOT, scenario, unit

DATA = ROOT / "tests" / "data"
SCENARIO, MOVE = DATA / "sweep_union_scenario.json", DATA / "sweep_union_move.json"


def test_the_forward_leg_through_the_triangle_is_illegal():
    s, move = load_scenario(SCENARIO), load_move(MOVE)
    verdict = check_move(s, move)
    assert "t9a.snaking.front_spacing" in verdict.clauses()
    assert verdict.measurements["front_clearance"] == 0.0
    legs = snake(s.unit("hero"), 0.0, move.steps).front_sweep_parts
    triangle = s.terrain[0].shape
    assert min(shapely.distance(p, triangle) for p in legs) == 0.0


def test_the_checker_and_the_referee_agree_on_the_repro():
    tally = Tally()
    judge(load_scenario(SCENARIO), load_move(MOVE), tally, label="sweep_union")
    assert not tally.problems, tally.problems
    assert tally.broken["t9a.snaking.front_spacing"] == 1


def test_the_command_line_says_illegal(capsys):
    assert main(["check", str(SCENARIO), str(MOVE), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["legal"] is False
    assert "t9a.snaking.front_spacing" in {v["clause"] for v in answer["violations"]}


BASES = [Base(20, 20), Base(25, 25), Base(25, 50), Base(40, 40)]
CENTRE = (40.0, 40.0)


@st.composite
def ways(draw) -> tuple:
    """A unit, a way of up to 4 wheels with forward legs between (some of zero length), and
    two triangles placed near the way's legs."""
    files, ranks = draw(st.integers(1, 8)), draw(st.integers(1, 4))
    u = unit("u", models=files * ranks, files=files, base=draw(st.sampled_from(BASES)),
             centre=CENTRE, facing=draw(st.floats(0, 360)), mobility=10.0)
    steps = []
    for _ in range(draw(st.integers(0, 4))):
        steps.append(forward(draw(st.sampled_from([0.0, 0.5, 3.0, 7.0]))))
        steps.append(wheel(draw(st.floats(-60, 60).filter(lambda a: abs(a) > 0.5))))
    steps.append(forward(draw(st.floats(0.0, 8.0))))
    trajectory = snake(u, 0.0, tuple(steps))
    rocks = []
    for k in range(2):
        leg = trajectory.legs[draw(st.integers(0, len(trajectory.legs) - 1))]
        x, y = leg.after.centre
        dx, dy = draw(st.floats(-4, 4)), draw(st.floats(-4, 4))
        size, turn = draw(st.floats(0.3, 3.0)), draw(st.floats(0, 2 * math.pi))
        tri = [(x + dx + size * math.cos(turn + a), y + dy + size * math.sin(turn + a))
               for a in (0.0, 2.2, 4.1)]
        rocks.append(Terrain(f"rock{k}", "impassable", tuple(tri)))
    return u, tuple(steps), tuple(rocks)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(ways())
def test_the_clearance_is_the_least_over_the_parts(case):
    u, steps, rocks = case
    # More than the 0.5" mid-move limit from the start: not a unit that starts close (A20,
    # whose limits are its start distances: tests/constraints/t9a/test_start_close.py).
    assume(all(r.shape.distance(u.boundary()) > 0.5 for r in rocks))
    s = scenario(u, terrain=rocks, width=100.0, depth=100.0)
    verdict = check_move(s, Move("u", "march", steps=steps))
    parts = snake(u, 0.0, steps).front_sweep_parts
    least = np.min(shapely.distance(np.asarray(parts, dtype=object)[:, None],
                                    np.asarray([r.shape for r in rocks], dtype=object)[None]))
    assert verdict.measurements["front_clearance"] == float(least)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(ways())
def test_the_referee_agrees_on_random_ways(case):
    u, steps, rocks = case
    # More than the 0.5" mid-move limit from the start: not a unit that starts close (A20,
    # whose limits are its start distances: tests/constraints/t9a/test_start_close.py).
    assume(all(r.shape.distance(u.boundary()) > 0.5 for r in rocks))
    assume(sum(s.value for s in steps if s.kind.value == "forward") < 40 / SAMPLE_IN)
    s = scenario(u, terrain=rocks, width=100.0, depth=100.0)
    tally = Tally()
    judge(s, Move("u", "march", steps=steps), tally,
          only={"t9a.snaking.front_spacing", "t9a.table_edge.front"})
    assert not tally.problems, tally.problems
