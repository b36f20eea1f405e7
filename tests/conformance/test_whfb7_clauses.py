"""The whfb7 clauses (Warhammer Fantasy Battle 7th): the profile, what each clause judges, and
each clause alone on its rule examples (the whole checker on them is run with every other
clause's by test_rule_examples.py).  Their CP-SAT rows are checked against the checker by
test_whfb7_encodings.py (T9A's test_clauses.py covers T9A's search)."""

from __future__ import annotations

import pytest

from constraints.core.clause import Judges
from constraints.core.profile import find_profile
from constraints.core.scenario_io import scenario_from_json
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.move_io import move_from_json

PROFILE = find_profile("whfb7")
SPECS = [(manoeuvre, spec) for manoeuvre, specs in PROFILE.manoeuvres.items()
         for spec in specs]
CASES = [(spec, example) for manoeuvre, spec in SPECS for example in spec.clause.examples
         if example.move["manoeuvre"] == manoeuvre]
MEASURE_TOL = 1e-5  # swept arcs are circumscribed polygons (a few millionths over)


def test_the_profile_belongs_to_the_whfb7_system():
    assert PROFILE.system == "whfb7"
    assert set(PROFILE.manoeuvres) == {"move", "march", "reform"}


@pytest.mark.parametrize("manoeuvre, spec", SPECS, ids=[s.id for _, s in SPECS])
def test_every_clause_says_what_it_judges(manoeuvre, spec):
    assert spec.clause.judges is not Judges.UNSTATED, spec.id


@pytest.mark.parametrize("spec, example", CASES, ids=[f"{s.id}: {e.why}" for s, e in CASES])
def test_each_clause_alone_on_its_examples(spec, example):
    scenario = scenario_from_json(example.scenario)
    move = move_from_json(example.move)
    found = spec.bound_to(scenario.profile).check(WarhammerContext(scenario, move))
    assert bool(found.violations) is example.breaks, [v.message for v in found.violations]
    for violation in found.violations:
        assert violation.clause == spec.id and violation.limit >= 0.0
    if example.measured is not None:
        name, value = example.measured
        assert found.measurements[name] == pytest.approx(value, abs=MEASURE_TOL)
