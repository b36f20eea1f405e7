"""A rules profile registered at run time (the toy profile, tests/conformance/toy_clause.py)
with a parameter of its own: a scenario sets it through `rule_options` as any other, the
profile checks its value (the scenario model knows the shipped profiles' parameters only),
and a key neither knows is refused as before."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from constraints.core.scenario_io import scenario_from_json, scenario_to_json
from constraints.errors import InvalidInputError
from constraints.t9a import check_move
from constraints.t9a.examples import field, march, wh
from constraints.t9a.move_io import move_from_json
from tests.conformance import toy_clause

toy_clause.register()
TOY, PARAM = toy_clause.TOY_PROFILE, toy_clause.TOY_PARAM
RIGHT = march(wh(-30.0))


def toy(**options: Any) -> dict[str, Any]:
    return field(rules=TOY, **options)


def broken_clauses(scenario: dict[str, Any]) -> set[str]:
    verdict = check_move(scenario_from_json(scenario), move_from_json(copy.deepcopy(RIGHT)))
    return {v.clause for v in verdict.violations}


def test_the_profiles_own_parameter_is_set_by_the_scenario() -> None:
    assert toy_clause.TOY_ID in broken_clauses(toy())
    assert toy_clause.TOY_ID not in broken_clauses(toy(**{PARAM: 45.0}))
    assert toy_clause.TOY_ID in broken_clauses(toy(**{PARAM: 20.0}))
    # With the shipped parameters beside it, each read by its own judge.
    scenario = scenario_from_json(toy(**{PARAM: 45.0, "march_mob": 3.0}))
    assert dict(scenario.rule_options) == {"march_mob": 3.0, PARAM: 45.0}
    assert scenario.profile.param(PARAM) == 45.0
    again = scenario_from_json(scenario_to_json(scenario))
    assert dict(again.rule_options) == dict(scenario.rule_options)


@pytest.mark.parametrize(("rules", "options", "path", "problem"), [
    (TOY, {PARAM: 200.0}, f"$.rule_options.{PARAM}",
     "expected a number <= 180 degrees, got 200"),
    (TOY, {PARAM: "far"}, f"$.rule_options.{PARAM}", "expected a finite number >= 0, got 'far'"),
    (TOY, {PARAM: True}, f"$.rule_options.{PARAM}", "expected a finite number >= 0, got True"),
    (TOY, {"bogus": 1.0}, "$.rule_options.bogus", "unknown key 'bogus'"),
    (TOY, {"march_mob": 11}, "$.rule_options.march_mob",
     "expected a number <= 10 times Mob, got 11"),
    ("t9a", {PARAM: 45.0}, f"$.rule_options.{PARAM}", f"unknown key {PARAM!r}"),
])
def test_a_bad_option_is_one_error_at_its_path(rules: str, options: dict[str, Any], path: str,
                                               problem: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        scenario_from_json(field(rules=rules, **options))
    assert (caught.value.path, caught.value.problem) == (path, problem)
