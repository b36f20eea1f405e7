"""Ways with a prefix (a wheel, then a move's turn; optimizer.search.ways.whfb7_prefix): every
centre their model accepts passes the whfb7 checker (random scenarios with rocks and a
friend, random prefixes, random linear objectives), their templates, and the move a prefix
option decodes to."""

from __future__ import annotations

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.rank_and_file.steps import StepKind
from constraints.whfb7.checker import check_move
from optimizer.search.model import build_search
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.ways.whfb7_prefix import PrefixRequest, templates
from tests.optimizer.search.test_whfb7_search import _random_scenario, accepted_moves


@pytest.mark.parametrize("seed", [4, 5, 6])
@pytest.mark.parametrize("manoeuvre", ["march", "move"])
def test_every_centre_a_prefix_model_accepts_passes_check(seed, manoeuvre):
    rng = np.random.default_rng(seed)
    scenario = scenario_from_json(_random_scenario(rng))
    unit = scenario.unit("u")
    if manoeuvre == "march" and any(c.refuses_every_move(scenario, unit)
                                    for c in scenario.profile.clauses("march")):
        pytest.skip("a march is blocked here")
    found = 0
    turns = (0.0,) if manoeuvre == "march" else (0.0, 90.0, -90.0, 180.0)
    for _ in range(4):
        prefix = (float(rng.choice([-1.0, 1.0]) * rng.integers(3, 40)),
                  float(rng.choice(turns)), float(rng.integers(-60, 61)))
        request = PrefixRequest(scenario, "u", manoeuvre, Objective("forward"),
                                prefix=prefix)
        if not request.options()[0]:
            continue
        search = build_search(request)
        for move in accepted_moves(search, rng):
            assert move.steps[0].kind is StepKind.WHEEL
            assert move.steps[0].value == pytest.approx(prefix[0])
            verdict = check_move(scenario, move)
            assert verdict.legal, (move.to_json(), verdict.violations)
            found += 1
    assert found > 0


def test_templates_are_prefixes_best_first_and_distinct():
    from constraints.whfb7.examples import field, unit
    scenario = scenario_from_json(field(unit(models=20, files=5, base=(20.0, 20.0))))
    request = SearchRequest(scenario, "u", "march",
                            Objective("target_pose", (40.0, 16.0), 90.0))
    found = templates(request, 1.0, [float(w) for w in range(-90, 91) if w], 8)
    assert 1 <= len(found) <= 8
    assert len({tuple(t) for t in found}) == len(found)
    # The best prefix wheels right (towards the target), its wheel after turns back.
    assert found[0][0] < 0 < found[0][2]
