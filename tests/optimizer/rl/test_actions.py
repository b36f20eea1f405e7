"""The action lattice: its numbering, and that every action its mask passes is a legal move
ending where the action says, judged by the exact checker."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from optimizer import InvalidInputError, load_scenario  # noqa: E402
from optimizer.queries import check_move  # noqa: E402
from optimizer.rl import ActionLattice, LatticeSpec  # noqa: E402
from tests.support import ROOT  # noqa: E402

# The bundled examples, T9A and whfb7, each manoeuvre.
CASES = [("spears.json", "spears", "march"), ("spears.json", "spears", "advance"),
         ("spears.json", "spears", "reform"), ("flank_march.json", "knights", "march"),
         ("goblins.json", "goblins", "march"), ("goblins.json", "goblins", "reform")]
SAMPLES = 40  # per case, seeded (benchmarks/bench_rl.py judges 10,000)


def lattice(name: str, unit: str, manoeuvre: str, **spec) -> ActionLattice:
    return ActionLattice(load_scenario(ROOT / "examples" / name), unit, manoeuvre,
                         LatticeSpec(**spec))


def test_numbering_round_trips() -> None:
    actions = lattice("spears.json", "spears", "advance", cells=(5, 3))
    variants, facings, cells = actions.shape
    assert (variants, cells) == (24, 15) and actions.n == variants * facings * cells
    for action in (0, 1, cells, actions.n - 1, 12345 % actions.n):
        assert actions.action_of(*actions.decode(action)) == action
    assert actions.decode(cells * facings + 7) == (1, 0, 7)
    with pytest.raises(InvalidInputError, match="action"):
        actions.decode(actions.n)


def test_cell_centres_are_in_the_start_frame() -> None:
    actions = lattice("spears.json", "spears", "march", cells=(3, 5), cell_in=2.0,
                      offset_in=(0.0, 4.0))
    # spears stands at (36, 10) facing 90 (up the table): frame x is world +x.
    assert actions.frame_centres[0].tolist() == [-2.0, 0.0]
    assert actions.frame_centres[-1].tolist() == [2.0, 8.0]
    assert np.allclose(actions.world_centres[-1], (38.0, 18.0))


@pytest.mark.parametrize("bad", [{"cells": (0, 3)}, {"cells": (3,)}, {"cell_in": 0.0},
                                 {"facing_step_deg": 200.0}, {"wheel_step_deg": 0.5},
                                 {"offset_in": (1.0, "x")}])
def test_bad_sizes_are_refused(bad: dict) -> None:
    with pytest.raises(InvalidInputError):
        LatticeSpec(**bad)


@pytest.mark.parametrize("name,unit,manoeuvre", CASES)
def test_masked_actions_are_legal_moves_ending_at_their_cell(name: str, unit: str,
                                                            manoeuvre: str) -> None:
    actions = lattice(name, unit, manoeuvre)
    mask = actions.mask()
    assert mask.sum() > 0 and not mask.all()
    rng = np.random.default_rng(33)
    for action in rng.choice(np.flatnonzero(mask), SAMPLES):
        verdict = check_move(actions.scenario, actions.move(int(action)))
        assert verdict.legal, (int(action), actions.describe(int(action)), verdict)
        assert actions.reaches(int(action), verdict)


def test_stand_still_is_an_action_the_mask_passes() -> None:
    actions = lattice("spears.json", "spears", "march")
    still = actions.stand_still()
    assert still is not None and actions.mask()[still]
    verdict = check_move(actions.scenario, actions.move(still))
    assert verdict.legal and np.allclose(verdict.end_centre, (36.0, 10.0))


def test_refused_actions_include_moves_the_checker_refuses() -> None:
    # The mask is not "everything": cells out of reach make moves that are refused or that
    # do not end at the cell.
    actions = lattice("spears.json", "spears", "march")
    refused = [a for a in np.flatnonzero(~actions.mask())[::97]
               if actions.move(int(a)) is not None]
    assert refused
    outcomes = {(v := check_move(actions.scenario, actions.move(int(a)))).legal
                and actions.reaches(int(a), v) for a in refused}
    assert False in outcomes
