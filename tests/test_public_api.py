"""The public API serves every game system (docs/api.md): each public query, called through
`optimizer` alone, on a T9A, a whfb7 and an Infinity scenario; a query a system does not
serve raises `InvalidInputError` naming the system and the query, never another error.

Every search's move is judged again here by `check_move`; verdicts name their clauses."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import pytest

import optimizer
from optimizer import (
    CombatResult,
    InvalidInputError,
    Lattice,
    Leg,
    Loss,
    Move,
    Objective,
    Route,
    best_move,
    best_reform,
    check_combat_reform,
    check_move,
    check_nudge,
    check_route,
    forward,
    is_legal,
    least_nudge,
    legal_mask,
    legal_moves,
    legal_region,
    load_scenario,
    nearest_legal,
    reach,
    reachable_area,
    render,
    resolve,
    shortest_route,
    turn,
    wheel,
    why_not,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SPEARS = load_scenario(EXAMPLES / "spears.json")      # t9a
GOBLINS = load_scenario(EXAMPLES / "goblins.json")    # whfb7
RUINS = load_scenario(EXAMPLES / "ruins.json")        # infinity-n4
COMBAT = load_scenario(EXAMPLES / "combat.json")      # t9a, units Engaged
MELEE = load_scenario(EXAMPLES / "melee.json")        # t9a, a round of combat
LIMIT_S = 30.0
COARSE = Lattice(inch=0.1, degree=1.0)  # small views: each pose is judged

# Per system: a scenario, its unit, a manoeuvre, a legal move and an illegal one with the
# clause that breaks it.
CASES = {
    "t9a": (SPEARS, "spears", "march",
            Move("spears", "march", steps=(forward(2.0), wheel(-45.0), forward(3.0))),
            Move("spears", "march", steps=(forward(6.0), wheel(-30.0), forward(4.0))),
            "t9a.march.distance"),
    "whfb7": (GOBLINS, "goblins", "march",
              Move("goblins", "march", steps=(forward(4.0),)),
              Move("goblins", "march", steps=(turn(90.0),)),
              "whfb7.march.no_turn"),
}
MOVE_SYSTEMS = sorted(CASES)


def assert_refused(call: Any, *words: str) -> None:
    """InvalidInputError, one line, naming each of `words`."""
    with pytest.raises(InvalidInputError) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def assert_rechecked(scenario: Any, result: Any) -> None:
    """A search's move is LEGAL by the exact checker and ends where the result says."""
    assert result.move is not None
    verdict = check_move(scenario, result.move)
    assert verdict.legal, verdict.violations
    assert verdict.end_centre == pytest.approx(result.verdict.end_centre, abs=1e-6)


def test_the_issue_example_judges_a_whfb7_march() -> None:
    verdict = check_move(GOBLINS, Move("goblins", "march", steps=(forward(4),)))
    assert verdict.legal and verdict.violations == ()
    assert verdict.end_centre == pytest.approx((24.0, 14.0))


@pytest.mark.parametrize("system", MOVE_SYSTEMS)
def test_check_move_and_is_legal_name_the_broken_clause(system: str) -> None:
    scenario, _, _, legal, illegal, clause = CASES[system]
    assert check_move(scenario, legal).legal and is_legal(scenario, legal)
    verdict = check_move(scenario, illegal)
    assert not verdict.legal and not is_legal(scenario, illegal)
    assert clause in {v.clause for v in verdict.violations}
    refereed = check_move(scenario, illegal, referee=0.1)
    assert refereed.referee is not None


def test_a_warhammer_move_turns_on_the_spot() -> None:
    move = Move("goblins", "move", steps=(turn(90.0), forward(3.0)))
    verdict = check_move(GOBLINS, move)
    assert verdict.legal and verdict.end_facing_deg == pytest.approx(180.0)
    too_far = check_move(GOBLINS, Move("goblins", "move", steps=(forward(5.0),)))
    assert [v.clause for v in too_far.violations] == ["whfb7.move.distance"]


def test_a_move_is_read_as_the_scenarios_system_or_refused_in_one_line() -> None:
    assert isinstance(Move("goblins", "march", steps=(forward(1.0),)), Move)
    assert isinstance(Move("goblins", "move", steps=(turn(90.0),)), Move)
    assert not isinstance("a move", Move)
    assert_refused(lambda: check_move(SPEARS, Move("spears", "move", steps=(forward(1.0),))),
                   "t9a", "move")
    assert_refused(lambda: check_move(GOBLINS, Move("goblins", "advance", pivot_deg=10.0)),
                   "whfb7")
    assert_refused(lambda: Move("spears", "charge"), "manoeuvre", "charge")
    assert_refused(lambda: check_move(SPEARS, "march"), "move", "Move")
    assert_refused(lambda: check_move("spears.json", Move("spears", "reform")), "Scenario")


@pytest.mark.parametrize("system", MOVE_SYSTEMS)
def test_legal_moves_and_legal_region(system: str) -> None:
    scenario, unit, manoeuvre, _, _, _ = CASES[system]
    view = legal_moves(scenario, unit, manoeuvre, COARSE)
    first = next(iter(view))
    assert check_move(scenario, first).legal and first in view
    facing = check_move(scenario, first).end_facing_deg
    region = legal_region(scenario, unit, manoeuvre, facing, lattice=COARSE)
    assert not region.is_empty


@pytest.mark.parametrize("system", MOVE_SYSTEMS)
def test_best_move_is_proved_and_rechecked(system: str) -> None:
    scenario, unit, manoeuvre, _, _, _ = CASES[system]
    result = best_move(scenario, unit, manoeuvre, Objective("forward"), time_limit_s=LIMIT_S)
    assert result.status == "OPTIMAL"
    assert_rechecked(scenario, result)
    assert result.value == pytest.approx(result.bound, abs=result.tolerance)


@pytest.mark.parametrize("system", MOVE_SYSTEMS)
def test_why_not_reach_and_nearest_legal(system: str) -> None:
    scenario, unit, manoeuvre, legal, illegal, _ = CASES[system]
    assert why_not(scenario, legal, time_limit_s=LIMIT_S) == ()
    blocking = why_not(scenario, illegal, time_limit_s=LIMIT_S)
    assert blocking and all(c.startswith(f"{system}.") for c in blocking)
    end = check_move(scenario, legal)
    found = reach(scenario, unit, manoeuvre, end.end_centre, end.end_facing_deg,
                  time_limit_s=LIMIT_S)
    assert found.status == "OPTIMAL"
    assert_rechecked(scenario, found)
    assert math.dist(found.verdict.end_centre, end.end_centre) <= 0.01
    far = check_move(scenario, illegal)
    nearest = nearest_legal(scenario, unit, manoeuvre, far.end_centre, far.end_facing_deg,
                            time_limit_s=LIMIT_S)
    assert nearest.status in ("OPTIMAL", "FEASIBLE")
    assert_rechecked(scenario, nearest)


@pytest.mark.parametrize("system", MOVE_SYSTEMS)
def test_render_draws_a_move(system: str, tmp_path: Path) -> None:
    scenario, _, _, _, illegal, _ = CASES[system]
    out = tmp_path / "move.png"
    render(scenario, out, illegal)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_batch_mask() -> None:
    mask = legal_mask(SPEARS, "spears", "march", [[36.0, 12.0], [36.0, 40.0]], [90.0, 90.0])
    assert mask.tolist() == [True, False]
    # whfb7: through the ways of the legal-move view; off its 1 deg facings, no way.
    mask = legal_mask(GOBLINS, "goblins", "march", [[24.0, 14.0], [24.0, 40.0], [24.0, 14.0]],
                      [90.0, 90.0, 90.5])
    assert mask.tolist() == [True, False, False]
    assert_refused(lambda: legal_mask(RUINS, "trooper", "move", [[1.0, 1.0]], [90.0]),
                   "legal_mask")


def test_combat_reforms() -> None:
    answer = best_reform(COMBAT, "A")
    assert answer.status == "OPTIMAL" and answer.reform is not None
    result = CombatResult("blue", frozenset({"B", "C"}))
    assert check_combat_reform(COMBAT, [answer.reform], result).legal
    astray = dataclasses.replace(answer.reform, centre=(answer.centre[0] + 3.0,
                                                       answer.centre[1]))
    verdict = check_combat_reform(COMBAT, [astray], result)
    assert not verdict.legal and verdict.violations[0].clause.startswith("combat_reform.")


def test_casualties_and_nudges() -> None:
    result = resolve(MELEE, [Loss("spears", 5), Loss("orcs", 2)])
    assert result.status == "OPTIMAL"
    [found] = result.nudges
    assert found.unit == "wolves" and found.verdict.legal
    wolves = result.after.unit("wolves")
    dx, dy = sum(leg.shift(wolves.pose.facing_deg) for leg in found.legs)
    start = dataclasses.replace(wolves.pose, centre=(wolves.pose.centre[0] - dx,
                                                     wolves.pose.centre[1] - dy))
    before = result.after.with_unit(dataclasses.replace(wolves, pose=start))
    previous = {"spears": "front"}
    assert check_nudge(before, "wolves", previous, found.legs).legal
    least = least_nudge(before, "wolves", previous)
    assert least is not None and least.distance_in == pytest.approx(found.distance_in)
    wrong = check_nudge(before, "wolves", previous, (Leg("sideways", -0.5),))
    assert [v.clause for v in wrong.violations] == ["nudge.contact"]


ROUTE = Route("fusilier", "move_move", ((4.8, 13.0, 0.0), (7.4, 16.0, 0.0), (8.6, 16.0, 3.0),
                                        (9.3, 16.3, 3.0)), 1)


def test_infinity_routes(tmp_path: Path) -> None:
    assert check_move(RUINS, ROUTE).legal and check_route(RUINS, ROUTE).legal
    assert is_legal(RUINS, ROUTE)
    shortcut = dataclasses.replace(ROUTE, path=((4.8, 13.0, 0.0), (9.3, 16.3, 3.0)),
                                   midpoint=None)
    assert not check_route(RUINS, shortcut).legal
    found = shortest_route(RUINS, "fusilier", (9.3, 16.3), skill="move_move")
    assert found.status == "OPTIMAL" and check_route(RUINS, found.route()).legal
    area = reachable_area(RUINS, "fusilier")
    assert area.status in ("OPTIMAL", "FEASIBLE") and not area.levels[0.0].is_empty
    out = tmp_path / "route.png"
    render(RUINS, out, ROUTE)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# Each query a system does not serve, called with that system's scenario: one line naming the
# system and the query (docs/api.md's table).
NOT_SERVED = [
    ("infinity", "best_move", lambda: best_move(RUINS, "fusilier", "move", Objective("forward"))),
    ("infinity", "legal_moves", lambda: legal_moves(RUINS, "fusilier", "move")),
    ("infinity", "legal_region", lambda: legal_region(RUINS, "fusilier", "move", 90.0)),
    ("infinity", "why_not", lambda: why_not(RUINS, ROUTE)),
    ("infinity", "reach", lambda: reach(RUINS, "fusilier", "move", (5.0, 13.0), 90.0)),
    ("infinity", "nearest_legal",
     lambda: nearest_legal(RUINS, "fusilier", "move", (5.0, 13.0), 90.0)),
    ("infinity", "best_reform", lambda: best_reform(RUINS, "fusilier")),
    ("infinity", "resolve", lambda: resolve(RUINS, [])),
    ("whfb7", "best_reform", lambda: best_reform(GOBLINS, "goblins")),
    ("whfb7", "check_combat_reform", lambda: check_combat_reform(GOBLINS, [])),
    ("whfb7", "least_nudge", lambda: least_nudge(GOBLINS, "goblins", {"dwarfs": "front"})),
    ("whfb7", "check_nudge", lambda: check_nudge(GOBLINS, "goblins", {}, ())),
    ("whfb7", "resolve", lambda: resolve(GOBLINS, [Loss("goblins", 1)])),
    ("whfb7", "check_route", lambda: check_route(GOBLINS, ROUTE)),
    ("whfb7", "shortest_route", lambda: shortest_route(GOBLINS, "goblins", (1.0, 1.0))),
    ("whfb7", "reachable_area", lambda: reachable_area(GOBLINS, "goblins")),
    ("t9a", "check_route", lambda: check_route(SPEARS, ROUTE)),
    ("t9a", "shortest_route", lambda: shortest_route(SPEARS, "spears", (1.0, 1.0))),
    ("t9a", "reachable_area", lambda: reachable_area(SPEARS, "spears")),
]


@pytest.mark.parametrize(("system", "query", "call"), NOT_SERVED,
                         ids=[f"{s}-{q}" for s, q, _ in NOT_SERVED])
def test_a_query_a_system_does_not_serve_is_refused(system: str, query: str, call: Any) -> None:
    assert_refused(call, system, query)


def test_every_public_name_resolves() -> None:
    for name in optimizer.__all__:
        assert getattr(optimizer, name) is not None, name


def test_render_is_a_function_whatever_was_imported_before() -> None:
    """The pictures package has its own name, so importing it never turns `render` into a
    module (Python sets a package as an attribute of its parent on import)."""
    import types

    import optimizer.pictures  # noqa: F401
    from optimizer import render as found

    assert callable(found) and not isinstance(found, types.ModuleType)
