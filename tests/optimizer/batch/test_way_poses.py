"""The pose mask of Warhammer's manoeuvres (optimizer.pose_mask): every pose it passes has
a way whose move the exact checker finds legal and which ends at that pose; it passes what
the legal-move view holds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from optimizer import check_move, legal_mask, legal_moves, load_scenario
from optimizer.pose_mask import WayPoseJudge

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
GOBLINS = load_scenario(EXAMPLES / "goblins.json")


@pytest.mark.parametrize(("manoeuvre", "reach"), [("march", 6.0), ("move", 3.0)])
def test_every_pose_passed_has_a_legal_move_ending_there(manoeuvre: str, reach: float) -> None:
    judge = WayPoseJudge(GOBLINS, "goblins", manoeuvre)
    rng = np.random.default_rng(7)
    n = 300
    centres = np.stack([rng.uniform(24.0 - reach, 24.0 + reach, n),
                        rng.uniform(10.0, 10.0 + 1.5 * reach, n)], axis=1)
    # Mostly the turns a March's wheels reach; a Move also turns on the spot.
    facings = rng.choice(np.r_[np.arange(60.0, 121.0, 5.0), [0.0, 180.0, 270.0]], n)
    moves = judge.moves(centres, facings)
    passed = judge.mask(centres, facings)
    assert passed.tolist() == [m is not None for m in moves]
    assert 10 <= passed.sum() < n  # both answers occur
    for n_, move in enumerate(moves):
        if move is None:
            continue
        verdict = check_move(GOBLINS, move)
        assert verdict.legal, (centres[n_], facings[n_])
        assert np.allclose(verdict.end_centre, centres[n_], atol=1e-6)
        assert abs((verdict.end_facing_deg - facings[n_] + 180.0) % 360.0 - 180.0) < 1e-6


def test_the_mask_passes_the_views_poses() -> None:
    view = legal_moves(GOBLINS, "goblins", "march")
    ends = []
    for move in view:
        verdict = check_move(GOBLINS, move)
        ends.append((*verdict.end_centre, verdict.end_facing_deg))
        if len(ends) == 200:
            break
    poses = np.array(ends)
    assert legal_mask(GOBLINS, "goblins", "march", poses[:, :2], poses[:, 2]).all()
