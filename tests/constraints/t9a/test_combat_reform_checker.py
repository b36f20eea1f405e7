"""The Combat Reform checker on whole cases: the figure of seed 002 (RULES §2.12 (B) 4), the
refusals the rule text names, malformed input, the combat result, and a property (placing a
unit back exactly where it stands is a legal Combat Reform whenever the unit may reform).

The figure, on 1" bases (its coordinates are ours: the caption gives none).  Players: A is
red, the Active Player, who reforms first; B and C are blue and reform after A.

* A (red, facing +y): 4 files x 2 ranks, 7 models and its Character "hero" at the front
  left; front edge on y = 10 from x = 30 to 34.
* B (blue, facing -y): 5 models in one rank, x 26 to 31; it touches A's left end.
* C (blue, facing -y): 3 models and its Character "chief" in one rank, x 33 to 37; "chief"
  stands at x 33-34, touching A's front-right model along its edge and the next at a corner.

A "adds a file on its left and its Character moves left" (5 files, x 29 to 34, "hero" at the
new left end).  B "shifts as far as possible to the right" (until it touches C's flank, at
x = 33) "and the two models not in base contact move to the second rank" (3 files, x 30-33).
C "does not move, but its Character moves to touch only one enemy model" (one file to the
right: it touches A's front-right model at a corner only).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from constraints.core.scenario_io import scenario_from_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.contact import model_contacts
from constraints.rank_and_file.formation import Character
from constraints.rank_and_file.unit import Base
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform, unit_contexts
from constraints.t9a.clauses.combat_reform.eligible import Eligible
from constraints.t9a.combat_reform import (
    ModelPlacement,
    UnitReform,
    model_moves,
    placed,
    reformed_unit,
)
from constraints.t9a.combat_reform_io import (
    CombatResult,
    combat_reform_from_json,
    combat_reform_to_json,
    combat_result_from_json,
    combat_result_to_json,
)
from constraints.t9a.examples import field, unit
from tests.support import scenario as build_scenario
from tests.support import unit as build_unit

RESULT = {"loser": "blue", "passed": ["B", "C"], "first": "red"}
A_REFORM = {"unit": "A", "files": 5, "centre": [31.5, 9.0], "facing": 90.0,
            "models": [{"id": "hero", "slot": [0, 0]}]}
B_REFORM = {"unit": "B", "files": 3, "centre": [31.5, 11.0], "facing": 270.0, "models": []}
C_REFORM = {"unit": "C", "files": 4, "centre": [35.0, 10.5], "facing": 270.0,
            "models": [{"id": "chief", "slot": [0, 2]}]}


def figure(a_mobility: float = 4.0, *extra: dict) -> dict:
    """The figure's scene (JSON), A's Mobility as asked, `extra` units added."""
    units = field(
        unit("A", models=7, files=4, centre=(32.0, 9.0), mobility=a_mobility,
             characters=[{"id": "hero", "slot": [0, 0]}]),
        unit("B", models=5, files=5, centre=(28.5, 10.5), facing=270.0, player="blue"),
        unit("C", models=3, files=4, centre=(35.0, 10.5), facing=270.0, player="blue",
             characters=[{"id": "chief", "slot": [0, 3]}]),
        *extra)
    return {**units, "active_player": "red"}


def proposal(*entries: dict) -> dict:
    return {"manoeuvre": "combat_reform", "reforms": list(entries)}


def judge(scenario, *entries: dict, result: dict | None = RESULT):
    reforms = combat_reform_from_json(proposal(*entries), scenario)
    outcome = None if result is None else combat_result_from_json(result)
    return check_combat_reform(scenario, reforms, outcome), reforms


# --- (1) the figure ------------------------------------------------------------------------

def test_the_figure_a_reforms_first_then_b_and_c():
    before = scenario_from_json(figure())
    verdict, a_reforms = judge(before, A_REFORM)
    assert verdict.legal, verdict.violations
    assert verdict.unit == "A" and verdict.end_files == 5
    assert verdict.measurements["combat_reform.contact_count.models"] == 5.0
    after_a = placed(before, a_reforms)
    verdict, blue = judge(after_a, B_REFORM, C_REFORM)
    assert verdict.legal, verdict.violations
    assert verdict.unit == "B,C"
    assert verdict.measurements["combat_reform.contact_count.models[B]"] == 3.0
    assert verdict.measurements["combat_reform.enemy_models.lost"] == 0.0


def test_the_figure_positions_match_the_caption():
    before = scenario_from_json(figure())
    after_a = placed(before, combat_reform_from_json(proposal(A_REFORM), before))
    a = after_a.unit("A")
    assert a.corners()[0] == pytest.approx((29.0, 10.0))  # a file added on its left
    hero = dict(zip(a.model_ids(), a.model_positions().tolist(), strict=True))["hero"]
    assert hero == pytest.approx([29.5, 9.5])
    end = placed(after_a, combat_reform_from_json(proposal(B_REFORM, C_REFORM), after_a))
    b = end.unit("B")
    assert max(x for x, _ in b.corners()) == pytest.approx(33.0)  # against C's flank
    front = [m for m, (rank, _) in zip(b.model_ids(), b.formation.occupied_slots(),
                                       strict=True) if rank == 0]
    touching = {own for own, _ in model_contacts(b, end.unit("A"))}
    assert len(b.model_ids()) - len(touching) == 2 and touching == set(front)
    chief = {their for own, their in model_contacts(end.unit("C"), end.unit("A"))
             if own == "chief"}
    assert len(chief) == 1  # "touch only one enemy model"


def test_the_figure_seed_order_matters_c_alone_after_a_keeps_chief_in_contact():
    before = scenario_from_json(figure())
    after_a = placed(before, combat_reform_from_json(proposal(A_REFORM), before))
    verdict, _ = judge(after_a, C_REFORM)
    assert verdict.legal, verdict.violations


# --- (2)-(4) refusals ----------------------------------------------------------------------

def test_a_unit_engaged_in_its_front_and_flank_is_refused():
    flanker = unit("F", models=2, files=2, centre=(34.5, 8.0), facing=180.0, player="blue")
    before = scenario_from_json(figure(4.0, flanker))
    verdict, _ = judge(before, A_REFORM)
    assert "combat_reform.eligible" in verdict.clauses()
    assert verdict.measurements["combat_reform.eligible.facings"] == 2.0


def test_a_loser_that_did_not_pass_is_refused():
    before = scenario_from_json(figure())
    verdict, _ = judge(before, A_REFORM, result={"loser": "red"})
    assert verdict.clauses() == ("combat_reform.eligible",)


def test_a_reform_losing_a_characters_contact_is_refused():
    before = scenario_from_json(figure())
    after_a = placed(before, combat_reform_from_json(proposal(A_REFORM), before))
    away = {**C_REFORM, "models": [{"id": "chief", "slot": [0, 0]}]}  # x 36-37: no contact
    verdict, _ = judge(after_a, away)
    assert "combat_reform.characters" in verdict.clauses()
    assert verdict.measurements["combat_reform.characters.lost"] == 1.0


def test_a_model_beyond_its_march_rate_is_refused():
    before = scenario_from_json(figure(1.0))  # A's March Rate: 2"
    verdict, _ = judge(before, A_REFORM)
    assert verdict.legal, verdict.violations
    far = {**A_REFORM, "models": [{"id": "hero", "slot": [0, 4]}]}  # x 30-31 to 33-34
    verdict, _ = judge(before, far)
    assert verdict.clauses() == ("combat_reform.march_rate",)
    assert verdict.violations[0].measured == pytest.approx(3.0)
    assert verdict.violations[0].limit == 2.0


def test_the_deferred_clause_waits_until_the_player_is_done():
    before = scenario_from_json(figure())
    after_a = placed(before, combat_reform_from_json(proposal(A_REFORM), before))
    reforms = combat_reform_from_json(proposal(B_REFORM), after_a)
    slid = replace(reforms[0], centre=(33.5, 11.0))  # x 32-35: A's x 30-31 model left alone
    done = check_combat_reform(after_a, (slid,))
    assert "combat_reform.enemy_models" in done.clauses()
    waiting = check_combat_reform(after_a, (slid,), player_done=False)
    assert "combat_reform.enemy_models" not in waiting.clauses()
    assert "combat_reform.enemy_models.lost" not in waiting.measurements


# --- (5) malformed input -------------------------------------------------------------------

@pytest.mark.parametrize("entry, path", [
    ({**A_REFORM, "unit": "Z"}, "$.reforms[0].unit"),
    ({**A_REFORM, "models": [{"id": "hero", "slot": [0, 0]}, {"id": "A.99", "slot": [1, 0]}]},
     "$.reforms[0].models[1].id"),
    ({**A_REFORM, "models": []}, "$.reforms[0].models"),
    ({**A_REFORM, "models": [{"id": "hero", "slot": [0, 0]}, {"id": "A.3", "slot": [0, 0]}]},
     "$.reforms[0].models[1].slot"),
    ({**A_REFORM, "models": [{"id": "hero", "slot": [0, 0]}, {"id": "hero", "slot": [0, 1]}]},
     "$.reforms[0].models[1].id"),
    ({**A_REFORM, "models": [{"id": "hero", "slot": [2, 0]}]}, "$.reforms[0].models[0].slot"),
    ({**A_REFORM, "files": 0}, "$.reforms[0].files"),
    ({**A_REFORM, "models": [{"id": "hero", "slot": [0]}]}, "$.reforms[0].models[0].slot"),
    ({**A_REFORM, "turn": 1}, "$.reforms[0].turn"),
])
def test_bad_proposals_name_the_path(entry, path):
    before = scenario_from_json(figure())
    with pytest.raises(InvalidInputError) as caught:
        combat_reform_from_json(proposal(entry), before)
    assert caught.value.path == path


def test_a_unit_reforming_twice_and_two_players_at_once_are_malformed():
    before = scenario_from_json(figure())
    with pytest.raises(InvalidInputError) as caught:
        combat_reform_from_json(proposal(A_REFORM, A_REFORM), before)
    assert caught.value.path == "$.reforms[1].unit"
    reforms = combat_reform_from_json(proposal(A_REFORM, C_REFORM))
    with pytest.raises(InvalidInputError) as caught:
        check_combat_reform(before, reforms)
    assert caught.value.path == "reforms[1].unit"


def test_the_api_names_the_path_of_a_bad_placement():
    before = scenario_from_json(figure())
    bad = UnitReform("A", 5, (31.5, 9.0), 90.0, (ModelPlacement("nobody", (0, 0)),))
    with pytest.raises(InvalidInputError) as caught:
        check_combat_reform(before, [bad])
    assert caught.value.path == "reforms[0].models[0].id"
    with pytest.raises(InvalidInputError):
        UnitReform("A", 5, (31.5, math.nan), 90.0)
    with pytest.raises(InvalidInputError):
        ModelPlacement("A.0", (-1, 0))


def test_positions_and_solver_keys_are_accepted_and_ignored():
    before = scenario_from_json(figure())
    entry = {**A_REFORM, "contacts_before": 4, "contacts_after": 5,
             "models": [{"id": "hero", "slot": [0, 0], "position": [29.5, 9.5]}]}
    (reform,) = combat_reform_from_json(proposal(entry), before)
    assert reform.models == (ModelPlacement("hero", (0, 0)),)
    assert combat_reform_from_json(combat_reform_to_json((reform,))) == (reform,)


# --- the values ----------------------------------------------------------------------------

def test_reformed_unit_lists_the_unoccupied_slots_as_empty():
    before = scenario_from_json(figure())
    a = reformed_unit(before.unit("A"), combat_reform_from_json(proposal(A_REFORM))[0])
    assert a.formation.files == 5 and a.formation.ranks == 2
    assert set(a.formation.empty) == {(1, 0), (1, 4)}  # the rear rank of 3, centred
    assert a.formation.characters == (Character("hero", (0, 0)),)


def test_model_moves_uses_the_best_assignment_for_unlisted_models():
    before = scenario_from_json(figure())
    moves = model_moves(before.unit("A"), combat_reform_from_json(proposal(A_REFORM))[0])
    assert set(moves) == set(before.unit("A").model_ids())
    assert moves["hero"] == pytest.approx(1.0)
    assert max(moves.values()) == pytest.approx(1.0)  # each model at most one file over


# --- the combat result ---------------------------------------------------------------------

def test_chance_to_pass():
    result = CombatResult(discipline={"B": 8, "C": 8, "D": 8, "E": 8}, score_difference=3,
                          steadfast=frozenset({"C"}), stubborn=frozenset({"D", "E"}),
                          steady=frozenset({"E"}))
    assert result.chance_to_pass("B") == pytest.approx(10 / 36)   # 2D6 <= 5
    assert result.chance_to_pass("C") == pytest.approx(26 / 36)   # Steadfast: <= 8
    assert result.chance_to_pass("D") == pytest.approx(15 / 36)   # -3 halved up: -2
    assert result.chance_to_pass("E") == pytest.approx(21 / 36)   # clamp -2, halve: -1
    assert result.chance_to_pass("B", modified=False) == pytest.approx(26 / 36)
    assert result.chance_to_pass("Z") is None
    assert CombatResult(discipline={"B": 1}).chance_to_pass("B") == 0.0


def test_combat_result_reads_back_and_names_bad_paths():
    data = {"loser": "blue", "passed": ["B"], "first": "red", "skip": ["C"],
            "discipline": {"B": 8}, "score_difference": 2, "steadfast": ["B"],
            "stubborn": []}
    result = combat_result_from_json(data)
    assert combat_result_from_json(combat_result_to_json(result)) == result
    assert combat_result_from_json({}) == CombatResult()
    for bad, path in (({"discipline": {"B": "8"}}, "$.discipline.B"),
                      ({"passed": "B"}, "$.passed"), ({"score_difference": -1},
                                                      "$.score_difference"),
                      ({"winner": "red"}, "$.winner")):
        with pytest.raises(InvalidInputError) as caught:
            combat_result_from_json(bad)
        assert caught.value.path == path


def test_a_result_naming_an_unknown_unit_is_malformed():
    before = scenario_from_json(figure())
    reforms = combat_reform_from_json(proposal(A_REFORM), before)
    with pytest.raises(InvalidInputError) as caught:
        check_combat_reform(before, reforms, CombatResult(passed=frozenset({"Z"})))
    assert caught.value.path == "result.passed"


# --- the property --------------------------------------------------------------------------

BASES = [Base(25.4, 25.4), Base(20, 20), Base(25, 50), Base(40, 40)]


@st.composite
def front_to_front(draw):
    """Two units front to front, touching (corner to corner at the extremes)."""
    base = draw(st.sampled_from(BASES))
    sizes = []
    for _ in range(2):
        files = draw(st.integers(1, 6))
        sizes.append((files, draw(st.integers(files, 3 * files))))
    led = draw(st.booleans())
    (fu, mu), (fe, me) = sizes
    wu, we = fu * base.width_in, fe * base.width_in
    dx = draw(st.floats(-0.5, 0.5)) * (wu + we)
    du = math.ceil(mu / fu) * base.depth_in
    de = math.ceil(me / fe) * base.depth_in
    chars = (Character("lord", (0, draw(st.integers(0, fu - 1)))),) if led and mu > fu else ()
    u = build_unit("u", models=mu - len(chars), files=fu, base=base,
                   centre=(36.0, 20.0 - du / 2.0), characters=chars)
    e = build_unit("e", models=me, files=fe, base=base, centre=(36.0 + dx, 20.0 + de / 2.0),
                   facing=270.0, player="blue")
    return build_scenario(u, e)


def identity(unit_) -> UnitReform:
    slots = dict(zip(unit_.model_ids(), unit_.formation.occupied_slots(), strict=True))
    return UnitReform(unit_.id, unit_.files, unit_.pose.centre, unit_.pose.facing_deg,
                      tuple(ModelPlacement(m, s) for m, s in slots.items()))


@settings(max_examples=40, deadline=None)
@given(front_to_front(), st.sampled_from(["u", "e"]))
def test_placing_a_unit_back_where_it_stands_is_legal_when_it_may_reform(scenario, uid):
    reform = identity(scenario.unit(uid))
    ctx = unit_contexts(scenario, [reform], CombatResult())[0]
    assume(not Eligible().check(ctx).violations)
    verdict = check_combat_reform(scenario, [reform])
    assert verdict.legal, verdict.violations
    assert verdict.measurements["combat_reform.march_rate.distance"] == 0.0
