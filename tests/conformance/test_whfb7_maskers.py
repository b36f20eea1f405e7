"""The whfb7 clauses' maskers against their checker (Warhammer Fantasy Battle 7th), the
counterpart of test_clauses.py's mask test for T9A, on each clause's own rule examples:

- each masker alone, exact where it decides: on random end poses of the family (a prefix and
  a wheel of the search's options, random legs, some past the budget), a pose the masker
  clears passes the clause's own check, a pose it blocks breaks it, and what it returns is
  within what it clears; most are decided.  A clause without a masker in a
  scenario (no obstacle for the 1" rule, no enemy near a march) passes every pose there;
- the judge, the combination of the maskers (constraints.whfb7.masks), under a profile of
  the clause alone: its mask is the checker's verdict on every pose.
"""

from __future__ import annotations

import numpy as np
import pytest

from constraints.core.clause import Clause, Masker
from constraints.core.scenario import Scenario
from constraints.rank_and_file.poses import ReformPoses
from constraints.whfb7.checker import check_move
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.mask_geometry import BLOCKED, CLEAR
from constraints.whfb7.masks import WarhammerJudge
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.way_poses import steps_of
from constraints.whfb7.ways import option_pre_wheel, option_turn
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.conformance.test_clauses import alone
from tests.conformance.test_whfb7_encodings import IDS, PROFILE, cases

POSES = 24  # a case: each judged by the checker


def the_clause(scenario: Scenario, manoeuvre: str, clause_id: str) -> Clause:
    return next(c for c in scenario.profile.clauses(manoeuvre) if c.id == clause_id)


def its_masker(judge: WarhammerJudge, clause_id: str) -> Masker | None:
    return next((m for m in judge.maskers if m.clause_id == clause_id), None)


def way_poses(scenario: Scenario, unit_id: str, manoeuvre: str,
              rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Random end poses of the family's options (under the whole profile), a quarter with
    legs past what the budget leaves: world centres, facings, turns, pre-wheels."""
    request = SearchRequest(scenario, unit_id, manoeuvre, Objective("forward"))
    options = request.options()[0]
    k = rng.integers(len(options), size=POSES)
    spare = np.maximum(np.array([o.spare_in for o in options])[k], 0.5)
    spare *= np.where(rng.uniform(size=POSES) < 0.25, 1.5, 1.0)
    a = rng.uniform(0.0, 1.0, POSES) * spare
    b = np.where(np.array([o.wheel_deg for o in options])[k] == 0, 0.0,
                 rng.uniform(0.0, 1.0, POSES) * (spare - a))
    w, fp, fe = (np.array([getattr(o, key) for o in options])[k]
                 for key in ("wheel_shift", "first_dir", "end_dir"))
    world = request.frame.world_array(w + a[:, None] * fp + b[:, None] * fe)
    return (world, np.array([o.facing_deg for o in options])[k],
            np.array([option_turn(o) for o in options])[k],
            np.array([option_pre_wheel(o) for o in options])[k])


def reform_poses(scenario: Scenario, unit_id: str,
                 rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Reforms to random files (and an impossible one) and facings, about the centre."""
    unit = scenario.unit(unit_id)
    files = rng.integers(1, unit.formation.model_count + 2, size=POSES)
    facings = np.where(rng.uniform(size=POSES) < 0.5, rng.integers(0, 4, POSES) * 90.0,
                       rng.uniform(0.0, 360.0, POSES))
    return np.tile(unit.pose.centre, (POSES, 1)), facings, files


def ways_of(judge: WarhammerJudge, poses: tuple[np.ndarray, ...]):
    """Per prefix, the batch of the poses whose way exists, and (pose index, move) of each."""
    for rows, batch in judge.batches(*poses):
        ways = batch.poses.ways
        moves = [WarhammerMove(judge.unit.id, Manoeuvre(judge.manoeuvre), steps=steps_of(
            batch.prefix, float(batch.a[row]), float(ways.delta[ways.inverse[row]]),
            float(batch.b[row]))) for row in range(len(batch))]
        yield batch, list(zip(rows, moves, strict=True))


def reforms_of(unit_id: str, poses: tuple[np.ndarray, ...]):
    centres, facings, files = poses
    for n in range(POSES):
        yield n, WarhammerMove(unit_id, Manoeuvre.REFORM, files=int(files[n]),
                               facing_deg=float(facings[n]) % 360.0)


def breaks(scenario: Scenario, clause: Clause, move: WarhammerMove) -> bool:
    return bool(clause.check(WarhammerContext(scenario, move)).violations)


@pytest.mark.parametrize("clause_id", IDS)
def test_each_masker_is_exact_where_it_decides(clause_id):
    rng = np.random.default_rng(len(clause_id))
    decided = undecided = 0
    for scenario, move in cases(clause_id):
        manoeuvre = str(move.manoeuvre)
        clause = the_clause(scenario, manoeuvre, clause_id)
        judge = WarhammerJudge(scenario, move.unit, manoeuvre)
        masker = its_masker(judge, clause_id)
        if manoeuvre == "reform":
            poses = reform_poses(scenario, move.unit, rng)
            batch, exists = ReformPoses.of(judge.unit, *poses, judge.setting.tol)
            ok = exists if masker is None else masker.judge(batch, exists)
            for n, end in reforms_of(move.unit, poses):
                if exists[n]:
                    assert bool(ok[n]) is not breaks(scenario, clause, end), (clause_id, end)
                    decided += 1
            continue
        for batch, moves in ways_of(judge, way_poses(scenario, move.unit, manoeuvre, rng)):
            if masker is None:  # it refuses no pose here
                for _n, end in moves:
                    assert not breaks(scenario, clause, end), (clause_id, end)
                decided += len(moves)
                continue
            passed = masker.judge(batch, np.ones(len(batch), dtype=bool))
            assert not (passed & (batch.state != CLEAR)).any()
            for state, (_n, end) in zip(batch.state, moves, strict=True):
                if state == CLEAR:
                    assert not breaks(scenario, clause, end), (clause_id, end)
                elif state == BLOCKED:
                    assert breaks(scenario, clause, end), (clause_id, end)
                decided += state in (CLEAR, BLOCKED)
                undecided += state not in (CLEAR, BLOCKED)
    # (a start exactly at a limit, as some examples put it, leaves its poses to the checker)
    assert decided > 4 * undecided, (decided, undecided)


@pytest.mark.parametrize("clause_id", IDS)
def test_the_judge_of_the_clause_alone_is_its_checker(clause_id, monkeypatch):
    rng = np.random.default_rng(len(clause_id) + 1)
    judged = 0
    for scenario, move in cases(clause_id):
        manoeuvre = str(move.manoeuvre)
        s = alone(monkeypatch, scenario, clause_id)
        judge = WarhammerJudge(s, move.unit, manoeuvre)
        if manoeuvre == "reform":
            centres, facings, files = reform_poses(scenario, move.unit, rng)
            files = np.minimum(files, judge.unit.formation.model_count)
            ok = judge.mask(centres, facings, files=files)
            for n, end in reforms_of(move.unit, (centres, facings, files)):
                assert bool(ok[n]) is check_move(s, end).legal, (clause_id, end)
                judged += 1
            continue
        poses = way_poses(scenario, move.unit, manoeuvre, rng)
        ok = judge.mask(poses[0], poses[1], turns=poses[2], pre_wheels=poses[3])
        for _batch, moves in ways_of(judge, poses):
            for n, end in moves:
                assert bool(ok[n]) is check_move(s, end).legal, (clause_id, end)
                judged += 1
    assert judged


def test_the_profile_has_a_masker_for_every_clause():
    for manoeuvre, specs in PROFILE.manoeuvres.items():
        for spec in specs:
            assert spec.clause.masker is not Clause.masker, (manoeuvre, spec.id)
