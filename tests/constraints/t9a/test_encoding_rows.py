"""The CP-SAT rows against the float rows they stand for (`MoveEncoding.row`: every integer
point a posted row accepts satisfies the float row), and the bugs found while writing the
encoding tests (tests/constraints/t9a/test_encodings.py), each test guarding its fix."""

from __future__ import annotations

import math

import numpy as np
import pytest
from ortools.sat.python import cp_model

from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice, inscribed_polygon
from constraints.sat.option import Option
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from optimizer.search.model import build_search, solver_for
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move
from tests.constraints.t9a.test_encodings import (
    COARSE,
    CORNER_LOSS,
    FLOAT,
    FORWARD,
    STRAIGHT,
    TICK,
    between,
    optimal,
    rocks_beside,
    solve,
)
from tests.support import scenario, unit

# --- MoveEncoding.row: sound rounding of float rows -----------------------------------------

def _encoding() -> MoveEncoding:
    option = Option(0, 90.0, 90.0, 1, 1.0, 1.0)
    return MoveEncoding([option], Lattice(), 1.0)


def _random_row(rng: np.random.Generator):
    """Coefficients of very different sizes (some dropped as negligible), boxes inside the
    stated bounds on |var|, and a right-hand side anywhere in the row's range."""
    n = int(rng.integers(1, 4))
    coefs = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-3, 3, n)
    kind = rng.integers(0, 5)
    if kind == 0 and n > 1:
        coefs[0] *= 1e-11  # negligible next to the others
    elif kind == 1:
        coefs = np.round(coefs)  # integers (maybe 0)
    elif kind == 2:
        coefs = coefs / 3.0
    bounds = rng.integers(1, 40, n)
    boxes = []
    for b in bounds:
        lo, hi = sorted(rng.integers(-b, b + 1, 2))
        boxes.append((int(lo), int(hi)))
    reach = float(np.sum(np.abs(coefs) * bounds))
    if rng.random() < 0.5:
        rhs = float(rng.uniform(-1.1, 1.1) * reach)
    else:  # just below the row's value at a point of the box: that point is (barely) out
        point = [rng.integers(lo, hi + 1) for lo, hi in boxes]
        at = float(np.dot(coefs, point))
        rhs = at - abs(at) * 10.0 ** rng.uniform(-15, -9) - 1e-300
    return coefs, bounds, boxes, rhs


def _exact_lhs(coefs, point) -> float:
    from fractions import Fraction

    return sum(Fraction(float(c)) * int(v) for c, v in zip(coefs, point, strict=True))


def test_row_is_sound_and_loses_little():
    """Every integer point the posted row accepts passes the float row (exactly, in rational
    arithmetic), and every point that passes the float row with room (the row's documented
    rounding loss) is accepted."""
    from fractions import Fraction

    rng = np.random.default_rng(20240611)
    posted = 0
    for _ in range(600):
        coefs, bounds, boxes, rhs = _random_row(rng)
        enc = _encoding()
        variables = [enc.sat_model.new_int_var(lo, hi, f"v{k}") for k, (lo, hi) in
                     enumerate(boxes)]
        before = len(enc.sat_model.proto.constraints)
        enforce = [enc.sat_model.new_bool_var("on")] if rng.random() < 0.3 else []
        enc.row([(float(c), v, int(b)) for c, v, b in zip(coefs, variables, bounds,
                                                          strict=True)], rhs, enforce)
        new = list(enc.sat_model.proto.constraints)[before:]
        grid = np.stack(np.meshgrid(*[np.arange(lo, hi + 1) for lo, hi in boxes],
                                    indexing="ij"), -1).reshape(-1, len(boxes))
        float_lhs = grid @ coefs
        if not new:
            accepted = np.ones(len(grid), dtype=bool)  # nothing posted: every point
        else:
            assert len(new) == 1
            ct = new[0]
            if ct.has_bool_or():  # the row is false everywhere: it forbids the enforcement
                assert not ct.enforcement_literal
                assert sorted(-lit - 1 for lit in ct.bool_or.literals) == \
                    [lit.index for lit in enforce]
                accepted = np.zeros(len(grid), dtype=bool)
            else:
                assert list(ct.enforcement_literal) == [lit.index for lit in enforce]
                posted += 1
                index = {v.index: k for k, v in enumerate(variables)}
                ints = np.zeros(len(boxes), dtype=np.int64)
                for var, coef in zip(ct.linear.vars, ct.linear.coeffs, strict=True):
                    ints[index[var]] = coef
                domain = list(ct.linear.domain)  # (the proto's [-1] is not the last item)
                assert len(domain) == 2
                lo, hi = domain
                int_lhs = grid.astype(np.int64) @ ints
                accepted = (int_lhs >= lo) & (int_lhs <= hi)
        # Soundness: accepted points satisfy the float row (exactly where floats are close).
        doubtful = accepted & (float_lhs > rhs - 1e-6 * (1.0 + abs(rhs)))
        for point in grid[doubtful]:
            # Up to the checker's float allowance (constraints.limits: 1e-9", i.e. 1e-7 of a
            # tick, the rows' unit), a little of which MoveEncoding.row spends on float noise
            # in its own scaling.
            assert _exact_lhs(coefs, point) <= Fraction(rhs) + Fraction(1, 10**7), \
                (coefs, boxes, rhs, point)
        # Loss: at most (sum of bounds + 1) / scale in row units, scale = 1e5 / max |coef|
        # (twice the coefficients' rounding error, plus the floor), and twice the worst case
        # of the dropped terms (moved to the right-hand side, and still in the float row).
        largest = float(np.max(np.abs(coefs)))
        dropped = np.abs(coefs) <= 1e-9 * largest
        loss = largest * (float(np.sum(bounds)) + 1.0) / 1e5 + \
            2.0 * float(np.sum(np.abs(coefs[dropped]) * bounds[dropped]))
        roomy = float_lhs <= rhs - loss - 1e-9 * (1.0 + abs(rhs))
        assert accepted[roomy].all(), (coefs, boxes, rhs)
    assert posted > 200  # most rows were real constraints, not trivial ones


def test_corner_row_is_sound_for_the_true_corner():
    """A corner row is posted on the centre ticks plus the corner's rounded offset (in
    1/CORNER_SUBTICKS ticks): every centre it accepts must put the true corner within the
    float row, and it may give up at most the offset's rounding plus the row's."""
    from fractions import Fraction

    from constraints.sat.encoding import CORNER_SUBTICKS, ROW_SCALE
    from constraints.sat.option import corner_offset

    rng = np.random.default_rng(7)
    for _ in range(60):
        facing = float(rng.uniform(0.0, 360.0))
        width, depth = (float(x) for x in rng.uniform(0.5, 6.0, 2))
        option = Option(0, facing, facing, 1, width, depth)
        enc = MoveEncoding([option], Lattice(), 0.2)
        corner = int(rng.integers(0, 4))
        angle = rng.uniform(0.0, 2 * np.pi)
        normal = (float(np.cos(angle)), float(np.sin(angle)))
        offset = corner_offset(option, corner)
        centre_at = float(rng.uniform(-0.15, 0.15))  # the row's boundary crosses the box
        rhs = centre_at + normal[0] * offset[0] + normal[1] * offset[1]
        before = len(enc.sat_model.proto.constraints)
        enc.corner_row(corner, normal, rhs)
        new = list(enc.sat_model.proto.constraints)[before:]
        assert len(new) == 1
        row = new[0].linear
        values = {enc.right_ticks.index: None, enc.forward_ticks.index: None,
                  enc.corner_dx[corner].index: round(CORNER_SUBTICKS * offset[0] / enc.tick),
                  enc.corner_dy[corner].index: round(CORNER_SUBTICKS * offset[1] / enc.tick)}
        ticks = np.arange(-enc.bound, enc.bound + 1)
        i, j = (a.reshape(-1) for a in np.meshgrid(ticks, ticks, indexing="ij"))
        lhs = np.zeros(len(i), dtype=np.int64)
        for var, coef in zip(row.vars, row.coeffs, strict=True):
            fixed = values[var]
            at = {enc.right_ticks.index: i, enc.forward_ticks.index: j}
            lhs += coef * at.get(var, fixed)
        accepted = (lhs >= row.domain[0]) & (lhs <= row.domain[1])
        true_lhs = normal[0] * (i * enc.tick + offset[0]) + normal[1] * (j * enc.tick + offset[1])
        for k in np.flatnonzero(accepted & (true_lhs > rhs - 1e-6)):
            tick = Fraction(enc.tick)
            exact = Fraction(normal[0]) * (int(i[k]) * tick + Fraction(offset[0])) + \
                Fraction(normal[1]) * (int(j[k]) * tick + Fraction(offset[1]))
            assert exact <= Fraction(rhs) + Fraction(1, 10**9)
        # Loss: the offsets' rounding, taken off the row (0.5 / CORNER_SUBTICKS tick per axis)
        # and perhaps against it as much again, plus the row's own rounding.
        bounds = 2 * enc.bound + enc.magnitude[enc.corner_dx[corner].name] + \
            enc.magnitude[enc.corner_dy[corner].name] + 1
        row_loss = max(abs(normal[0]), abs(normal[1])) * bounds / ROW_SCALE
        loss = (1.0 / CORNER_SUBTICKS * (abs(normal[0]) + abs(normal[1])) + row_loss) * enc.tick
        assert accepted[true_lhs <= rhs - loss].all()
        assert not accepted.all() and accepted.any()


def test_centre_rows_post_exactly_what_centre_row_posts():
    """The vectorised rows are the scalar ones, bit for bit (axis normals, negligible
    components, rows true or false everywhere, enforced or not)."""
    rng = np.random.default_rng(11)
    angles = np.concatenate([rng.uniform(0.0, 2 * np.pi, 300), np.arange(8) * np.pi / 4])
    normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    normals[:20, 1] *= 1e-12  # a component negligible next to the other
    normals[20:30] *= 1e-3
    rhs = rng.uniform(-1.5, 1.5, len(normals))  # the centre box is +-1.0": some trivial rows
    for enforced in (False, True):
        one, many = _encoding(), _encoding()
        lits = [[e.sat_model.new_bool_var("on")] if enforced else [] for e in (one, many)]
        for n, r in zip(normals, rhs, strict=True):
            one.centre_row((float(n[0]), float(n[1])), float(r), lits[0])
        many.centre_rows(normals, rhs, lits[1])
        assert [str(c) for c in one.sat_model.proto.constraints] == \
            [str(c) for c in many.sat_model.proto.constraints]


def test_row_with_exact_integers_keeps_its_boundary():
    # x + 2y <= 7 has exact coefficients: the posted row loses nothing.
    enc = _encoding()
    x = enc.sat_model.new_int_var(-10, 10, "x")
    y = enc.sat_model.new_int_var(-10, 10, "y")
    enc.row([(1.0, x, 10), (2.0, y, 10)], 7.0)
    enc.sat_model.maximize(x + 2 * y)
    solver = cp_model.CpSolver()
    assert solver.solve(enc.sat_model) == cp_model.OPTIMAL
    assert solver.objective_value == 7


# --- Bugs found while writing these tests, fixed since: each test guards its fix -----------

def test_advance_pivot_then_straight_on_has_lattice_points():
    s = scenario(unit())
    assert check_move(s, Move("u", "advance", pivot_deg=45.0)).legal  # Pivot, stay put
    search = build_search(SearchRequest(s, "u", "advance", FORWARD),
                          only=lambda o: o.pivot_deg == 45.0 and o.wheel_deg == 0.0)
    status = solver_for(600.0).solve(search.ectx.enc.sat_model)  # a proof, however slow
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_best_move_never_reports_infeasible_while_a_legal_move_is_known():
    # Open table; face 45 deg further left without moving: Pivot 45 does it exactly.
    s = scenario(unit())
    assert check_move(s, Move("u", "advance", pivot_deg=45.0)).legal
    result = solve(s, "advance", Objective("target_pose", point=(36.0, 10.0), facing_deg=135.0),
                   Lattice(degree=5.0, advance_wheel_deg=15.0))
    assert result.found and result.value == pytest.approx(0.0, abs=FLOAT)


def test_spacing_is_judged_corner_to_corner():
    # Rocks 0.48" left of the unit's left edge and 1" above its front: the front-left corner is
    # hypot(0.48, 1) = 1.109" from the rocks' corner.  Straight ahead only: a < 0.1227.
    s = scenario(unit(), terrain=(rocks_beside(0.48, bottom_in=12.0),), **STRAIGHT)
    assert check_move(s, Move("u", "march")).legal
    result = solve(s, "march")
    assert result.stats["options_status"] == "OPTIMAL"
    limit = 1.0 - math.sqrt(1.0 - 0.48**2)
    assert between(result.value, limit - CORNER_LOSS, limit)


def test_objective_distance_is_optimal_on_the_lattice():
    # A Reform towards a target 30" away at bearing -117 deg: the best lattice centre inside
    # the travel 128-gon is 28.0019" from it; before the fix the solver answered 28.0407" and
    # called it optimal.
    b = math.radians(-117.0)
    target = (36.0 + 30.0 * math.cos(b), 24.0 + 30.0 * math.sin(b))
    s = scenario(unit(centre=(36.0, 24.0)), width=200.0, depth=200.0)
    ticks = np.arange(-200, 201)
    grid = np.stack(np.meshgrid(ticks, ticks, indexing="ij"), -1).reshape(-1, 2) * TICK
    inside = np.all(grid @ np.array([hp.normal for hp in inscribed_polygon(2.0, 128)]).T <=
                    inscribed_polygon(2.0, 128)[0].rhs, axis=1)
    dist = np.hypot(*(grid[inside] + (36.0, 24.0) - target).T)
    best = grid[inside][int(np.argmin(dist))]
    witness = Move("u", "reform", files=5, centre=(36.0 + best[0], 24.0 + best[1]),
                   facing_deg=90.0)
    assert check_move(s, witness).legal
    result = optimal(s, "reform", Objective("target_distance", point=target), COARSE)
    # Documented precision of the objective's norm: 0.008% (256-gon) + 0.07% (its integer
    # directions) of the distance.
    assert result.value <= float(dist.min()) + 7.8e-4 * 28.0 + FLOAT


def test_best_move_keeps_its_time_limit():
    """A limit too short for the search: the wall clock stops it and the answer says so (no
    timed assertion: how long it took depends on the machine)."""
    s = scenario(unit(mobility=2.0), reform_centre_mob=5.0, final_position_mob=5.0)
    result = best_move(s, "u", "reform", Objective("target_distance", point=(36.0, 40.0)),
                       time_limit_s=1e-3, lattice=COARSE)
    assert result.stopped_by == "wall_clock"
    assert str(result.status) not in ("OPTIMAL", "INFEASIBLE")
    assert result.move is None or check_move(s, result.move).legal
