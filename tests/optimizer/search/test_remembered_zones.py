"""Unit Spacing's zones are made once per search for each end rectangle and set of pieces near
it (RegionSetting.remembered): the regions are exactly those made afresh, option by option."""

from __future__ import annotations

import shapely

from constraints.core.scenario_io import load_scenario
from optimizer import Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest
from tests.support import SCENARIOS


def test_remembered_zones_give_the_regions_made_afresh():
    s = load_scenario(SCENARIOS / "advance_over_time_limit.json")
    request = SearchRequest(s, "hero", "advance", Objective("target_distance", (37.786, 36.0)))
    options, _ = request.options()
    picked = options[::max(1, len(options) // 80)]
    for outer in (True, False):
        shared = CentreRegions(s, request.unit, "advance", outer=outer)
        regions = [shared.of(o) for o in picked]
        made = len(shared.setting._made)
        assert 0 < made < len(picked)  # options of one end rectangle shared their zones
        for option, region in zip(picked, regions, strict=True):
            fresh = CentreRegions(s, request.unit, "advance", outer=outer).of(option)
            assert shapely.equals_exact(region, fresh, tolerance=0.0) or \
                (region.is_empty and fresh.is_empty)
