"""Casualties while Unit Boundaries are frozen and the formation re-formed when they
unfreeze (RULES §2.7, §2.8.1, A14): rule examples, bad input, and a random property test
against slow references written independently of the modules."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from constraints.errors import InvalidInputError
from constraints.geometry.plane import unit_vector
from constraints.rank_and_file.formation import Character, Formation
from constraints.rank_and_file.unit import Base, Unit
from constraints.t9a.clauses.casualties.removal import (
    casualty_slots,
    is_wiped_out,
    remove_casualties,
    remove_slots,
)
from constraints.t9a.clauses.casualties.unfreeze import unfreeze
from tests.support import unit

C = Character


def block(models: int, files: int, characters=(), **kw) -> Unit:
    return unit("u", models=models, files=files, characters=tuple(characters), **kw)


def local(before: Unit, point) -> tuple[float, float]:
    """(right, forward) of a world point from `before`'s centre, in `before`'s frame."""
    fx, fy = unit_vector(before.pose.facing_deg)
    dx, dy = point[0] - before.pose.centre[0], point[1] - before.pose.centre[1]
    return (dx * fy - dy * fx, dx * fx + dy * fy)


def occupied(u: Unit) -> set:
    return set(u.formation.occupied_slots())


# --- removal: (id, unit, count, front_side, removed slots in order) ---------------------

REMOVALS = [
    ("3 casualties on 5 x 3 of 15 come from the rear rank", block(15, 5), 3, "both",
     [(2, 4), (2, 0), (2, 3)]),
    ("7 casualties on 5 x 2: the front rank loses one from each side", block(10, 5), 7,
     "both", [(1, 4), (1, 0), (1, 3), (1, 1), (1, 2), (0, 4), (0, 0)]),
    ("an odd front-rank count takes the extra model from the right", block(5, 5), 3,
     "both", [(0, 4), (0, 0), (0, 3)]),
    ("a narrower rear rank loses its outermost models", block(13, 5), 2, "both",
     [(2, 3), (2, 1)]),
    ("a character in the front rank is skipped by a count",
     block(4, 5, [C("hero", (0, 4))]), 2, "both", [(0, 3), (0, 0)]),
    ("front_side left takes every front-rank casualty from the left", block(10, 5), 7,
     "left", [(1, 4), (1, 0), (1, 3), (1, 1), (1, 2), (0, 0), (0, 1)]),
    ("front_side right", block(10, 5), 6, "right",
     [(1, 4), (1, 0), (1, 3), (1, 1), (1, 2), (0, 4)]),
    ("front_side does not change a rank behind the front", block(10, 5), 2, "left",
     [(1, 4), (1, 0)]),
    ("no casualties", block(10, 5), 0, "both", []),
    ("more casualties than models remove every rank-and-file model",
     block(3, 4, [C("hero", (0, 1))]), 99, "both", [(0, 3), (0, 0), (0, 2)]),
]


@pytest.mark.parametrize(("u", "count", "side", "removed"),
                         [case[1:] for case in REMOVALS], ids=[case[0] for case in REMOVALS])
def test_removal_examples(u, count, side, removed):
    assert list(casualty_slots(u, count, side)) == removed
    after = remove_casualties(u, count, side)
    assert occupied(after) == occupied(u) - set(removed)
    # Frozen: the boundary, the pose and the slots stay; removed models leave gaps.
    assert after.pose == u.pose and after.corners() == u.corners()
    assert after.formation.positions == u.formation.positions
    assert set(after.formation.empty) >= set(removed)
    assert after.formation.characters == u.formation.characters


def test_remove_slots_removes_a_character_and_a_model():
    u = block(9, 5, [C("hero", (0, 2))])
    after = remove_slots(u, [(0, 2), (1, 0)])
    assert occupied(after) == occupied(u) - {(0, 2), (1, 0)}
    assert after.formation.characters == () and after.formation.models == 8
    assert after.corners() == u.corners()


def test_any_whole_count_is_accepted():
    u = block(10, 5)
    numpy_count: Any = np.int64(3)
    assert remove_casualties(u, numpy_count) == remove_casualties(u, 3)
    assert remove_casualties(u, 10**5000).formation.models == 0


def test_is_wiped_out():
    u = block(2, 2, [C("hero", (0, 0))])
    assert not is_wiped_out(remove_casualties(u, 5))
    gone = remove_slots(remove_casualties(u, 5), [(0, 0)])
    assert is_wiped_out(gone)
    assert unfreeze(gone) == gone  # nothing to re-form


# --- unfreeze: (id, unit, slots removed, slide, occupied after, files, ranks, centre move) --

UNFREEZES = [
    ("a front-rank gap is filled from the rear rank model nearest its file",
     block(13, 5), [(0, 4)], None,
     {(r, f) for r in range(2) for f in range(5)} | {(2, 1), (2, 2)}, 5, 3, (0.0, 0.0)),
    ("a tie between rear-rank models is broken to the left",
     block(10, 5), [(1, 1), (1, 3), (1, 4), (0, 1)], None,
     {(0, f) for f in range(5)} | {(1, 2)}, 5, 2, (0.0, 0.0)),
    ("a gap in the middle rank of 3 is filled from the rear rank",
     block(15, 5), [(1, 2)], None,
     {(r, f) for r in range(2) for f in range(5)} | {(2, 0), (2, 1), (2, 3), (2, 4)}, 5, 3,
     (0.0, 0.0)),
    ("a rear rank that empties shrinks the boundary, the centre moves forward half a rank",
     block(11, 5), [(2, 2)], None, {(r, f) for r in range(2) for f in range(5)}, 5, 2,
     (0.0, 0.5)),
    ("the new rear rank keeps its gaps", block(15, 5),
     [(1, 0), (1, 1), (2, 0), (2, 1), (2, 3), (2, 4)], None,
     {(0, f) for f in range(5)} | {(1, 0), (1, 2), (1, 3), (1, 4)}, 5, 2, (0.0, 0.5)),
    ("a single rank slides its smaller side, files drop by one", block(6, 6), [(0, 1)], None,
     {(0, f) for f in range(5)}, 5, 1, (0.5, 0.0)),
    ("a tie slides the right side by default", block(5, 5), [(0, 2)], None,
     {(0, f) for f in range(4)}, 4, 1, (-0.5, 0.0)),
    ("a tie slides the left side when asked", block(5, 5), [(0, 2)], "left",
     {(0, f) for f in range(4)}, 4, 1, (0.5, 0.0)),
    ("7 casualties on 5 x 2 leave 3 files in one rank", block(10, 5),
     [(1, f) for f in range(5)] + [(0, 0), (0, 4)], None, {(0, f) for f in range(3)}, 3, 1,
     (0.0, 0.5)),
    ("a rear rank of one fills one front gap, the other gap slides", block(6, 5),
     [(0, 0), (0, 3)], None, {(0, f) for f in range(4)}, 4, 1, (-0.5, 0.5)),
    ("a lost front rank is refilled from behind", block(10, 5), [(0, f) for f in range(5)],
     None, {(0, f) for f in range(5)}, 5, 1, (0.0, 0.5)),
]


@pytest.mark.parametrize(("u", "slots", "slide", "after_slots", "files", "ranks", "move"),
                         [case[1:] for case in UNFREEZES], ids=[case[0] for case in UNFREEZES])
def test_unfreeze_examples(u, slots, slide, after_slots, files, ranks, move):
    frozen = remove_slots(u, slots)
    after = unfreeze(frozen, slide)
    assert occupied(after) == after_slots
    assert (after.files, after.formation.ranks) == (files, ranks)
    assert local(u, after.pose.centre) == pytest.approx(move, abs=1e-12)
    assert after.pose.facing_deg == u.pose.facing_deg
    assert_viable(after)


def test_unfreeze_keeps_the_models_that_did_not_move_in_place():
    # Turned and on an odd base so that the frame's arithmetic is really exercised.
    u = block(7, 7, centre=(20.0, 15.0), facing=33.0, base=Base(20.0, 40.0))
    after = unfreeze(remove_slots(u, [(0, 1)]))
    # Files 0 (alone on the left) slides right; files 2-6 stay where they were.
    for file in range(2, 7):
        assert after.slot_centre((0, file - 1)) == pytest.approx(u.slot_centre((0, file)),
                                                                 abs=1e-9)
    assert after.slot_centre((0, 0)) == pytest.approx(u.slot_centre((0, 1)), abs=1e-9)
    assert np.allclose(after.corners()[1], u.corners()[1], rtol=0, atol=1e-9)  # front right


def test_unfreeze_slides_a_character_along_the_front_rank():
    u = block(4, 5, [C("hero", (0, 0))])
    after = unfreeze(remove_slots(u, [(0, 1)]))
    assert after.formation.characters == (C("hero", (0, 0)),)
    assert after.slot_centre((0, 0)) == pytest.approx(u.slot_centre((0, 1)))


def test_unfreeze_leaves_a_viable_unit_alone():
    u = block(13, 5)
    assert unfreeze(u) is u


def test_unfreeze_lists_only_the_rear_ranks_gaps():
    after = unfreeze(remove_slots(block(15, 5), [(1, 2)]))
    assert after.formation.empty == ((2, 2),)
    # The default centred rear rank needs no empty slot at all.
    assert unfreeze(remove_slots(block(15, 5), [(2, 0), (2, 4)])).formation == Formation(5, 13)


WRONG: Any = {"fraction": 1.5, "text": "2", "slot": ("a", 1), "slots": "01"}

BAD = [
    ("negative count", lambda: remove_casualties(block(5, 5), -1)),
    ("fractional count", lambda: remove_casualties(block(5, 5), WRONG["fraction"])),
    ("boolean count", lambda: remove_casualties(block(5, 5), True)),
    ("text count", lambda: remove_casualties(block(5, 5), WRONG["text"])),
    ("unknown front side", lambda: remove_casualties(block(5, 5), 1, "middle")),
    ("slot outside the formation", lambda: remove_slots(block(5, 5), [(1, 0)])),
    ("slot outside the narrower rear rank", lambda: remove_slots(block(6, 5), [(1, 0)])),
    ("empty slot", lambda: remove_slots(remove_slots(block(5, 5), [(0, 1)]), [(0, 1)])),
    ("repeated slot", lambda: remove_slots(block(5, 5), [(0, 1), (0, 1)])),
    ("malformed slot", lambda: remove_slots(block(5, 5), [WRONG["slot"]])),
    ("slots as text", lambda: remove_slots(block(5, 5), WRONG["slots"])),
    ("unknown slide side", lambda: unfreeze(block(5, 5), "up")),
]


@pytest.mark.parametrize("call", [case[1] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input(call):
    with pytest.raises(InvalidInputError):
        call()


def test_bad_slot_is_named():
    with pytest.raises(InvalidInputError, match=r"slots\[1\].*\(0, 1\) is repeated"):
        remove_slots(block(5, 5), [(0, 1), (0, 1)])


# --- slow references ----------------------------------------------------------------------

def reference_casualties(u: Unit, count: int, side: str) -> set:
    """Per rank, rear first: t casualties are the ceil(t/2) rightmost and floor(t/2)
    leftmost rank-and-file models, or the t on `side` in the front rank."""
    chars = u.formation.character_slots()
    plain = [s for s in u.formation.occupied_slots() if s not in chars]
    removed: set = set()
    for rank in sorted({r for r, _ in plain}, reverse=True):
        files = sorted(f for r, f in plain if r == rank)
        t = min(count - len(removed), len(files))
        if rank == 0 and side != "both":
            take = files[:t] if side == "left" else files[len(files) - t:]
        else:
            take = files[len(files) - (t + 1) // 2:] + files[: t // 2]
        removed |= {(rank, f) for f in take}
    return removed


def reference_slide(taken: list[int], files: int, slide: str) -> tuple[list[int], int]:
    """Close a single rank's gaps one at a time by moving models file by file: the side
    with fewer models (on a tie, `slide`) steps over the leftmost gap.  Returns the old
    files the models end on (in order) and the old file of the new left edge."""
    pos = sorted(taken)
    left_edge, right_edge = 0, files
    while True:
        holes = [f for f in range(left_edge, right_edge) if f not in pos]
        if not holes:
            return pos, left_edge
        hole = holes[0]
        n_left = sum(1 for p in pos if p < hole)
        n_right = len(pos) - n_left
        if n_left < n_right or (n_left == n_right and slide == "left"):
            pos = [p + 1 if p < hole else p for p in pos]
            left_edge += 1
        else:
            pos = [p - 1 if p > hole else p for p in pos]
            right_edge -= 1


def assert_viable(u: Unit) -> None:
    """Only the rear rank has gaps, every file of the rectangle, characters in front."""
    slots = occupied(u)
    rear = max(r for r, _ in slots)
    assert rear == u.formation.ranks - 1
    assert all((r, f) in slots for r in range(rear) for f in range(u.files))
    assert all(0 <= f < u.files for _, f in slots)
    assert len(slots) == u.formation.model_count


def random_unit(rng: np.random.Generator) -> Unit:
    files = int(rng.integers(1, 9))
    n_chars = int(rng.integers(0, min(2, files) + 1))
    char_files = sorted(rng.choice(files, size=n_chars, replace=False).tolist())
    # The front rank sets the width: enough models to fill it.
    models = int(rng.integers(max(1, files - n_chars), 41))
    chars = tuple(C(f"c{i}", (0, f)) for i, f in enumerate(char_files))
    base = Base(float(rng.choice([20.0, 25.0, 40.0])), float(rng.choice([20.0, 50.0])))
    centre = (float(rng.uniform(10, 60)), float(rng.uniform(10, 40)))
    return unit("u", models=models, files=files, characters=chars, base=base,
                centre=centre, facing=float(rng.uniform(0, 360)))


def on_old_grid(before: Unit, point) -> tuple[int, int]:
    """The old slot whose centre `point` is (it must be one)."""
    right, fwd = local(before, point)
    file = (right + before.width_in / 2) / before.base.width_in - 0.5
    rank = (before.depth_in / 2 - fwd) / before.base.depth_in - 0.5
    assert file == pytest.approx(round(file), abs=1e-6)
    assert rank == pytest.approx(round(rank), abs=1e-6)
    return (round(rank), round(file))


def test_random_casualties_then_unfreeze():
    rng = np.random.default_rng(20240607)
    for _ in range(200):
        u = random_unit(rng)
        count = int(rng.integers(0, u.formation.models + 3))
        side = str(rng.choice(["both", "left", "right"]))
        slide = str(rng.choice(["left", "right"]))
        frozen = remove_casualties(u, count, side)
        assert set(casualty_slots(u, count, side)) == reference_casualties(u, count, side)
        after = unfreeze(frozen, slide)
        check_unfrozen(u, frozen, after, slide)


def check_unfrozen(u: Unit, frozen: Unit, after: Unit, slide: str) -> None:
    if is_wiped_out(frozen):
        assert after == frozen
        return
    assert after.formation.model_count == frozen.formation.model_count
    assert_viable(after)
    assert {c.id for c in after.formation.characters} == {c.id for c in u.formation.characters}
    assert all(c.slot[0] == 0 for c in after.formation.characters)
    # The front edge stays on its line, within its old extent.
    old_fl, old_fr = u.corners()[:2]
    for corner in after.corners()[:2]:
        right, fwd = local(u, corner)
        assert fwd == pytest.approx(u.depth_in / 2, abs=1e-9)
        assert -u.width_in / 2 - 1e-9 <= right <= u.width_in / 2 + 1e-9
    if after.files == u.files:
        assert np.allclose(after.corners()[:2], [old_fl, old_fr], rtol=0, atol=1e-9)
    # Every model stands on one of the old slots, one to a slot.
    new_places = [on_old_grid(u, after.slot_centre(s)) for s in after.formation.occupied_slots()]
    assert len(set(new_places)) == len(new_places)
    if after.files < u.files:  # a single rank slid: compare with the step-by-step slide
        expected, _ = reference_slide(_filled_single_rank(frozen), u.files, slide)
        assert sorted(new_places) == [(0, f) for f in expected]
    else:  # front rank models never move when there are models behind to fill its gaps
        front = {s for s in frozen.formation.occupied_slots() if s[0] == 0}
        assert front <= set(new_places)


def _filled_single_rank(frozen: Unit) -> list[int]:
    """The front rank's files after the gap filling that precedes a slide: the models
    behind, taken rear first and nearest file first, fill the front gaps left to right
    (here the unit ends in one rank, so every model behind moves forward)."""
    slots = set(frozen.formation.occupied_slots())
    front = sorted(f for r, f in slots if r == 0)
    behind = sorted((s for s in slots if s[0] > 0), key=lambda s: -s[0])
    for gap in [f for f in range(frozen.files) if f not in front]:
        if not behind:
            break
        rear = max(r for r, _ in behind)
        pick = min((s for s in behind if s[0] == rear), key=lambda s: (abs(s[1] - gap), s[1]))
        behind.remove(pick)
        front.append(gap)
    return sorted(front)


def test_reference_slide_agrees_with_the_rule_examples():
    assert reference_slide([0, 2, 3, 4, 5], 6, "right") == ([1, 2, 3, 4, 5], 1)
    assert reference_slide([0, 1, 3, 4], 5, "right") == ([0, 1, 2, 3], 0)
    assert reference_slide([0, 1, 3, 4], 5, "left") == ([1, 2, 3, 4], 1)
    assert reference_slide([1, 2, 3], 5, "right") == ([1, 2, 3], 1)
