"""Joint Combat Reforms of two or three units of one player (optimizer/combat_reform/joint.py):
a case where one unit at a time does worse than the two together, and the best-first search
against an exhaustive baseline over every tuple of the units' candidates."""

from __future__ import annotations

import pytest

from benchmarks.reform_joint_baselines import JointBest, joint_exhaustive
from constraints.core.scenario_io import scenario_from_json
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.examples import field, unit
from optimizer.combat_reform.joint_group import joint_reform
from optimizer.combat_reform.output import reforms_text, reforms_to_json, status_of
from optimizer.combat_reform.prepare import Asks
from optimizer.combat_reform.reforms import combat_reforms


def _pair(a2_x: float = 36.0, b_models: int = 5, b_x: float = 34.0) -> object:
    """A1 and A2 (4 x 1 of 1" bases, Mobility 2) side by side against B's front (5 x 1)."""
    return scenario_from_json(field(
        unit("A1", models=4, files=4, centre=(32.0, 10.5), mobility=2.0),
        unit("A2", models=4, files=4, centre=(a2_x, 10.5), mobility=2.0),
        unit("B", models=b_models, files=b_models, centre=(b_x, 11.5), facing=270.0,
             player="blue")))


def _total(found: object) -> int:
    return sum(o.answer.value[0] for o in found.outcomes)  # type: ignore[attr-defined]


def test_one_at_a_time_is_worse_than_jointly():
    """One at a time A1 takes its best (3 in contact) where it leaves A2 room for only 3 of
    its own; jointly A1 moves aside and A2 gets 4: 7 in all, B's front's bound (5" / 1" + 2),
    so OPTIMAL.  Both judged by the exact checker, all the player's reforms together."""
    scn = _pair()
    apart = combat_reforms(scn, "red")
    together = combat_reforms(scn, "red", joint=True)
    assert _total(apart) == 6 and _total(together) == 7
    assert status_of(together) == "OPTIMAL"
    assert together.verdict is not None and together.verdict.legal
    assert check_combat_reform(scn, together.reforms).legal
    assert all(o.answer.family["joint"] == ["A1", "A2"] for o in together.outcomes)


@pytest.mark.parametrize("a2_x, b_models, b_x", [(36.0, 5, 34.0), (36.5, 4, 34.5),
                                                  (36.0, 3, 33.0)])
def test_the_joint_search_matches_the_exhaustive_tuples(a2_x, b_models, b_x):
    """Value (own models in contact summed, enemy models touched once) and least total
    displacement: the search's proof against every tuple of the two units' candidates."""
    scn = _pair(a2_x, b_models, b_x)
    found = joint_reform(scn, ("A1", "A2"), 5.0, [Asks(), Asks()])
    brute = joint_exhaustive(scn, ("A1", "A2"))
    assert isinstance(brute, JointBest) and brute.legal
    assert found is not None
    assert all(a.family["status"] == "OPTIMAL" for a in found)
    assert sum(a.value[0] for a in found) == brute.own
    enemy = {b for a in found for _, b in _contacts(scn, a)}
    assert len(enemy) == brute.enemy
    assert found[0].search["displacement_ticks"] == brute.cost


def _contacts(scn, answer):
    from constraints.rank_and_file.contact import model_contacts
    enemy = scn.unit("B")
    return model_contacts(answer.reformed, enemy)


def test_three_units_reformed_together_are_legal_and_proved():
    """Three 3 x 1 units side by side against B's 8" front: one joint search, every answer
    legal together, the family's optimum proved; at least as good as one at a time."""
    scn = scenario_from_json(field(
        unit("A1", models=3, files=3, centre=(31.5, 10.5), mobility=2.0),
        unit("A2", models=3, files=3, centre=(34.5, 10.5), mobility=2.0),
        unit("A3", models=3, files=3, centre=(37.5, 10.5), mobility=2.0),
        unit("B", models=8, files=8, centre=(34.5, 11.5), facing=270.0, player="blue")))
    apart = combat_reforms(scn, "red")
    together = combat_reforms(scn, "red", joint=True)
    assert together.verdict is not None and together.verdict.legal
    assert [o.answer.family["joint"] for o in together.outcomes] == [["A1", "A2", "A3"]] * 3
    assert all(o.answer.family["status"] == "OPTIMAL" for o in together.outcomes)
    assert _total(together) >= _total(apart)


def test_the_widest_frontage_with_joint_is_said_to_go_one_at_a_time():
    """`--widest` with `--joint`: the joint search has no level for the frontage, so the
    group is reformed one at a time (the same answers as without `joint`), and the result
    says so: a note (text and JSON) and `family["joint_declined"]` on each of its units."""
    scn = _pair()
    widest = Asks(widest=True)
    asked = combat_reforms(scn, "red", asks=widest, joint=True)
    alone = combat_reforms(scn, "red", asks=widest)
    assert [o.reform for o in asked.outcomes] == [o.reform for o in alone.outcomes]
    assert len(asked.notes) == 1 and "A1, A2" in asked.notes[0]
    assert "--widest" in asked.notes[0] and "one at a time" in asked.notes[0]
    assert all(o.answer.family["joint_declined"] == {"group": ["A1", "A2"], "why": "widest"}
               for o in asked.outcomes)
    assert reforms_to_json(asked)["notes"] == list(asked.notes)
    assert "note: joint reform of A1, A2 not done" in reforms_text(asked)
    assert "notes" not in reforms_to_json(alone) and not alone.notes
