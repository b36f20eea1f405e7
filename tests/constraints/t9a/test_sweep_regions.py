"""The relaxed regions' cut by the front's sweep (constraints.rank_and_file.sweep_regions,
`CentreRegions(outer=True, sweeps=True)`) keeps every legal end centre: on crowded random
scenarios, every March way of one wheel on a grid of legs that the checker passes ends in its
option's region; and the cut is not empty there (it refuses some centres the region without
it keeps)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import load_scenario
from constraints.rank_and_file.sweep_regions import last_leg_cut
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.unit_spacing import FLOAT_ROOM_IN
from optimizer.families.base import family_for, options_for
from optimizer.search.regions import CentreRegions
from tests.solver_support import make_scenario
from tests.support import SCENARIOS

LEG_STEP_IN = 0.4


def _centres(option) -> np.ndarray:
    ticks = np.arange(0.0, option.spare_in + 1e-9, LEG_STEP_IN)
    a, b = (m.reshape(-1) for m in np.meshgrid(ticks, ticks, indexing="ij"))
    keep = (a + b <= option.spare_in + 1e-9) & ((option.wheel_deg != 0) | (b == 0))
    w, fp, fe = (np.asarray(v) for v in (option.wheel_shift, option.first_dir,
                                         option.end_dir))
    return w + a[keep][:, None] * fp + b[keep][:, None] * fe


def _judge_cut_centres(scenario, unit_id: str, degree: float) -> tuple[int, int]:
    """Every grid centre the swept relaxation cuts from the plain one is judged illegal;
    (options cut, centres judged)."""
    unit = scenario.unit(unit_id)
    options, _ = options_for(scenario, unit, "march", Lattice(degree=degree))
    plain = CentreRegions(scenario, unit, "march", outer=True)
    swept = CentreRegions(scenario, unit, "march", outer=True, sweeps=True)
    family = family_for(scenario.profile, "march")
    cut = judged = 0
    for option in options:
        region, without = swept.of(option), plain.of(option)
        cut += int(not region.equals(without))
        for centre in _centres(option):
            point = shapely.Point(centre)
            if without.distance(point) > 1e-6 or region.distance(point) <= 1e-6:
                continue  # outside the plain relaxation, or kept by the swept one
            move = family.move(unit_id, swept.frame, option, (float(centre[0]),
                                                              float(centre[1])))
            judged += 1
            assert not check_move(scenario, move).legal, (option.wheel_deg, centre)
    return cut, judged


@pytest.mark.parametrize("kind, seed", [("crowded", s) for s in (100, 101, 102, 103, 104)] +
                         [("random", s) for s in (3, 5, 8)])
def test_every_legal_end_centre_stays_in_the_swept_relaxation(kind, seed):
    _judge_cut_centres(make_scenario(kind, seed), "u", 10.0)


def test_the_rocks_cut_a_hard_wheel_and_only_illegal_centres():
    """benchmarks' rocks.json: wheels of 84-90 deg right after a first leg swing the front
    into a rock; the cut takes those centres, and every one judged is illegal."""
    cut, judged = _judge_cut_centres(load_scenario(SCENARIOS / "rocks.json"), "band", 2.0)
    assert cut > 0 and judged > 50


def test_the_last_leg_cut_alone_takes_only_illegal_centres():
    """gap.json (an S through a gap between walls): the last leg's part of the cut, alone,
    takes grid centres the plain relaxation keeps, and the checker refuses every one."""
    scenario = load_scenario(SCENARIOS / "gap.json")
    unit = scenario.unit("block")
    options, _ = options_for(scenario, unit, "march", Lattice(degree=2.0))
    plain = CentreRegions(scenario, unit, "march", outer=True)
    family = family_for(scenario.profile, "march")
    grown = plain.setting.grown(scenario.profile.param("mid_move_spacing_in") - FLOAT_ROOM_IN)
    judged = 0
    for option in options:
        cut = last_leg_cut(option, grown, family.reach(option, plain.travel_disc))
        if cut.is_empty:
            continue
        region = plain.of(option)
        for centre in _centres(option):
            point = shapely.Point(centre)
            if region.distance(point) > 1e-6 or not cut.intersects(point):
                continue
            move = family.move("block", plain.frame, option, (float(centre[0]),
                                                                float(centre[1])))
            judged += 1
            assert not check_move(scenario, move).legal, (option.wheel_deg, centre)
    assert judged > 500, judged
