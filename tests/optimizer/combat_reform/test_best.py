"""The best Combat Reform (seed 002): every proposal judged again by the exact checker, the
cases of the issue, and a property over random combats (the search's proposal keeps at
least as many models in contact as placing the unit back where it stands)."""

from __future__ import annotations

import json
import random

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.combats import engaged_ids
from constraints.rank_and_file.contact import model_contacts
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.combat_reform_io import combat_result_from_json
from constraints.t9a.examples import field, unit
from optimizer.cli import main
from optimizer.combat_reform.best import best_reform
from optimizer.combat_reform.output import reforms_to_json, status_of
from optimizer.combat_reform.reforms import combat_reforms
from tests.constraints.t9a.test_combat_reform_checker import RESULT, figure


def _own_in_contact(scenario, uid):
    me = scenario.unit(uid)
    return len({a for e in scenario.units if e.player != me.player
                for a, _ in model_contacts(me, e)})


def test_the_figure_red_then_blue_each_checked_and_at_least_the_captions_contacts():
    """The caption's reform of A leaves 5 of A's models in contact (the checker's figure
    test); the search finds a legal one with more, then blue reforms B and C after it."""
    before = scenario_from_json(figure())
    result = combat_result_from_json(RESULT)
    red = combat_reforms(before, "red", result=result)
    assert red.verdict is not None and red.verdict.legal
    assert _own_in_contact(red.after, "A") >= 5
    blue = combat_reforms(red.after, "blue", result=result)
    assert [o.unit for o in blue.outcomes] == ["B", "C"]
    assert blue.verdict is not None and blue.verdict.legal
    for o in blue.outcomes:
        assert o.answer is not None and o.answer.value[0] >= o.answer.contacts_before


def test_the_best_reform_wins_two_models():
    """A (3 models, 2 files) touches B's front only at a corner: one model in contact.
    Three files side by side under B's 5" front put all three in contact: two more, and
    no placement can have more than its three models (OPTIMAL)."""
    scn = scenario_from_json(field(
        unit("A", models=3, files=2, centre=(30.0, 10.0)),
        unit("B", models=5, files=5, centre=(33.5, 11.5), facing=270.0, player="blue")))
    answer = best_reform(scn, "A")
    assert answer.status == "OPTIMAL"
    assert answer.contacts_before == 1 and answer.value[0] == 3 and answer.files == 3
    found = combat_reforms(scn, "red")
    assert found.verdict is not None and found.verdict.legal


def test_a_unit_engaged_on_its_front_and_flank_is_refused_with_the_clause():
    scn = scenario_from_json(field(
        unit("A", models=10, files=5, centre=(36.0, 10.0)),
        unit("B", models=5, files=5, centre=(36.0, 11.5), facing=270.0, player="blue"),
        unit("C", models=2, files=2, centre=(39.0, 9.5), facing=180.0, player="blue")))
    found = combat_reforms(scn, "red")
    [outcome] = found.outcomes
    assert outcome.reform is None and outcome.refused is not None
    assert outcome.refused.clauses() == ("combat_reform.eligible",)
    assert status_of(found) == "INFEASIBLE"
    assert reforms_to_json(found)["refused"][0]["violations"][0]["clause"] == \
        "combat_reform.eligible"


def test_a_loser_that_did_not_pass_is_refused():
    scn = scenario_from_json(figure())
    result = combat_result_from_json({"loser": "red", "passed": [], "first": "red"})
    found = combat_reforms(scn, "red", result=result)
    assert found.outcomes[0].refused is not None and found.verdict is None


def test_a_character_in_contact_stays_in_contact():
    scn = scenario_from_json(field(
        unit("A", models=9, files=5, centre=(36.0, 10.0),
             characters=[{"id": "hero", "slot": [0, 4]}]),
        unit("B", models=7, files=7, centre=(40.0, 11.5), facing=270.0, player="blue")))
    found = combat_reforms(scn, "red")
    after = found.after.unit("A")
    assert any(a == "hero" for a, _ in model_contacts(after, found.after.unit("B")))
    assert found.verdict is not None and found.verdict.legal


@pytest.mark.parametrize("seed", range(12))
def test_random_front_to_front_combats(seed):
    rng = random.Random(seed)
    width, depth = rng.choice([(25.4, 25.4), (20.0, 20.0), (25.0, 50.0)])
    models = rng.randint(3, 16)
    files = rng.randint(2, min(6, models))
    a = unit("A", models=models, files=files, base=(width, depth), centre=(36.0, 20.0),
             mobility=rng.choice([3.0, 4.0, 6.0]))
    front = 20.0 + (models + files - 1) // files * depth / 25.4 / 2.0
    b_files = rng.randint(2, 7)
    b = unit("B", models=b_files, files=b_files, facing=270.0,
             player="blue", centre=(36.0 + rng.uniform(-3.0, 3.0), front + 0.5))
    data = field(a, b)
    try:
        scn = scenario_from_json(data)
    except Exception:  # noqa: BLE001 (a random scene off the table or overlapping)
        pytest.skip("random scene rejected")
    if "A" not in engaged_ids(scn.units):
        pytest.skip("the random units do not touch")
    found = combat_reforms(scn, "red")
    [outcome] = found.outcomes
    assert outcome.answer is not None and outcome.reform is not None
    verdict = check_combat_reform(scn, [outcome.reform])
    assert verdict.legal, verdict.violations
    assert outcome.answer.value[0] >= _own_in_contact(scn, "A")


def test_cli_combat_reform_and_check_of_its_output(tmp_path, capsys):
    scn = tmp_path / "scenario.json"
    scn.write_text(json.dumps(figure()), encoding="utf-8")
    res = tmp_path / "result.json"
    res.write_text(json.dumps(RESULT), encoding="utf-8")
    assert main(["combat-reform", str(scn), "--player", "red", "--result", str(res),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["manoeuvre"] == "combat_reform" and out["reforms"][0]["unit"] == "A"
    assert out["verdict"]["legal"] is True
    proposal = tmp_path / "proposal.json"
    proposal.write_text(json.dumps(out), encoding="utf-8")
    assert main(["check", str(scn), str(proposal), "--result", str(res), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True


@pytest.mark.parametrize("args, problem", [
    (["--unit", "Z"], "unknown unit 'Z'"),
    (["--player", "green"], "unknown player 'green'"),
    (["--unit", "A", "--player", "red"], "give --unit or --player, not both"),
])
def test_cli_bad_input(tmp_path, capsys, args, problem):
    scn = tmp_path / "scenario.json"
    scn.write_text(json.dumps(figure()), encoding="utf-8")
    assert main(["combat-reform", str(scn), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and problem in err


def test_cli_a_unit_not_in_combat_is_bad_input(tmp_path, capsys):
    scn = tmp_path / "scenario.json"
    scn.write_text(json.dumps(figure(4.0, unit("D", models=5, files=5, centre=(60.0, 30.0)))),
                   encoding="utf-8")
    assert main(["combat-reform", str(scn), "--unit", "D"]) == 2
    assert "D is not Engaged" in capsys.readouterr().err


def test_variant_a_keeps_the_file_change_within_two_and_ignores_the_march_rate():
    """Profile `t9a-2025`: the 5-file unit may go to 7 files at most, which it does; the
    bound knows it (a side of the unit holds at most 7 models), so 7 is OPTIMAL; with
    Mobility 1 the seed's March Rate (2") would forbid the 4.5" moves, variant A has none."""
    scn = scenario_from_json(field(
        unit("A", models=10, files=5, centre=(36.0, 10.0), mobility=1.0),
        unit("B", models=7, files=7, centre=(40.0, 11.5), facing=270.0, player="blue"),
        rules="t9a-2025"))
    found = combat_reforms(scn, "red")
    [outcome] = found.outcomes
    assert outcome.answer is not None and outcome.answer.status == "OPTIMAL"
    assert outcome.answer.files == 7 and outcome.answer.value == (7, 7)
    assert found.verdict is not None and found.verdict.legal


def _narrow_foe():
    return scenario_from_json(field(
        unit("A", models=9, files=5, centre=(36.0, 10.0),
             characters=[{"id": "hero", "slot": [0, 0]}]),
        unit("B", models=3, files=3, centre=(37.0, 11.5), facing=270.0, player="blue")))


def test_the_alternative_objectives_widest_frontage_and_a_character_kept_with_an_enemy():
    from optimizer.combat_reform.best import Asks
    scn = _narrow_foe()
    widest = combat_reforms(scn, "red", asks=Asks(widest=True)).outcomes[0]
    assert widest.answer is not None and widest.answer.files == 10  # every model in front
    kept = combat_reforms(scn, "red", asks=Asks(character_with=(("hero", "B"),)))
    after = kept.after.unit("A")
    assert any(a == "hero" for a, _ in model_contacts(after, kept.after.unit("B")))
    assert kept.verdict is not None and kept.verdict.legal


@pytest.mark.parametrize("keep, problem", [
    ("hero", "--keep expects CHARACTER:ENEMY"),
    ("nobody:B", "'nobody' is not a character of a unit that reforms"),
    ("hero:Z", "'Z' is not an enemy A touches"),
])
def test_cli_bad_keep(tmp_path, capsys, keep, problem):
    scn = tmp_path / "scenario.json"
    scn.write_text(json.dumps(field(
        unit("A", models=9, files=5, centre=(36.0, 10.0),
             characters=[{"id": "hero", "slot": [0, 0]}]),
        unit("B", models=3, files=3, centre=(37.0, 11.5), facing=270.0, player="blue"))),
        encoding="utf-8")
    assert main(["combat-reform", str(scn), "--keep", keep]) == 2
    assert problem in capsys.readouterr().err


def test_two_units_on_one_enemy_line_reform_jointly_and_reach_the_pairs_bound():
    """A1 and A2 (4 x 1 each, Mobility 2) fight B's 5" front side by side, 3 models each in
    contact.  Jointly they reach 7 in all, which is all B's front can take (5" / 1" + 2):
    OPTIMAL for the pair; one at a time does no better."""
    scn = scenario_from_json(field(
        unit("A1", models=4, files=4, centre=(32.0, 10.5), mobility=2.0),
        unit("A2", models=4, files=4, centre=(36.0, 10.5), mobility=2.0),
        unit("B", models=5, files=5, centre=(34.0, 11.5), facing=270.0, player="blue")))
    apart = combat_reforms(scn, "red")
    together = combat_reforms(scn, "red", joint=True)
    total = lambda found: sum(o.answer.value[0] for o in found.outcomes)  # noqa: E731
    assert total(apart) <= 7 and total(together) == 7
    assert status_of(together) == "OPTIMAL"
    assert together.outcomes[0].answer.family["joint"] == ["A1", "A2"]
    assert together.verdict is not None and together.verdict.legal
    for o in together.outcomes:
        assert check_combat_reform(scn, together.reforms).legal and o.reform is not None


@pytest.mark.parametrize("entry, problem", [
    ({"unit": "A", "files": 5, "centre": [31.5, 9.0], "facing": 90.0,
      "models": [{"id": "hero", "slot": [0, 9]}]}, "outside"),
    ({"unit": "Z", "files": 5, "centre": [31.5, 9.0], "facing": 90.0}, "unknown unit 'Z'"),
    ({"unit": "A", "files": 5, "centre": [31.5, 9.0], "facing": 90.0,
      "models": [{"id": "A.0", "slot": [0, 1]}, {"id": "hero", "slot": [0, 1]}]}, "$.reforms[0]"),
])
def test_cli_check_of_a_proposal_that_misplaces_a_model_is_bad_input(tmp_path, capsys, entry,
                                                                      problem):
    scn = tmp_path / "scenario.json"
    scn.write_text(json.dumps(figure()), encoding="utf-8")
    bad = tmp_path / "proposal.json"
    bad.write_text(json.dumps({"manoeuvre": "combat_reform", "reforms": [entry]}),
                   encoding="utf-8")
    assert main(["check", str(scn), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and problem in err and str(bad) in err


def test_an_enemy_rear_with_gaps_is_touched_across_them():
    """D faces away, its rear rank of 3 centred in 5 files: A, in its Rear, touched D's front
    rank at the ends across the rear rank's gaps.  Those enemy models must stay touched, so
    the search counts them (across a gap: a shared width, not a corner) and finds a reform."""
    scn = scenario_from_json(field(
        unit("A", models=10, files=5, centre=(31.0, 10.0)),
        unit("D", models=8, files=5, centre=(32.0, 12.0), facing=90.0, player="blue")))
    before = {b for _, b in model_contacts(scn.unit("A"), scn.unit("D"))}
    assert "D.0" in before or "D.4" in before  # a front-rank model across a gap
    found = combat_reforms(scn, "red")
    [outcome] = found.outcomes
    assert outcome.reform is not None and found.verdict is not None and found.verdict.legal
