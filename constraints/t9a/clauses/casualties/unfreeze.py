"""Restoring a viable formation when Unit Boundaries unfreeze (RULES §2.7.4, §2.8.1, A14).

"Unfreeze the boundaries of the remaining units and rearrange them into viable formations."
For gaps or incomplete ranks other than the rear: "fill gaps/incomplete ranks with models
taken, in priority: rear rank -> other non-front ranks -> front rank"; "avoid changing the
number of files. If unavoidable (e.g. a single-rank unit), slide all the models on one side
of the gap towards the other side".  The rear rank "may be narrower and may have gaps, as
long as its models stay aligned with the files" (§2.1.3), and it is not recentred (A14).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from constraints.core.scenario import Pose
from constraints.errors import InvalidInputError
from constraints.geometry.plane import local_to_world
from constraints.rank_and_file.formation import Character, Formation, Slot
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.casualties.removal import is_wiped_out

SLIDE_SIDES = ("left", "right")
DEFAULT_SLIDE = "right"

# Occupied slot -> the character's id, or None for a rank-and-file model.
Grid = dict[Slot, str | None]


def unfreeze(unit: Unit, slide: str | None = None) -> Unit:
    """`unit` re-formed into a viable formation now that its boundaries unfreeze.

    Decisions:
    * gaps are filled front rank first, then rank by rank, left to right within a rank;
    * a gap takes a model from behind it: the rear rank's model whose file is nearest the
      gap's file ("rear-rank model nearest the gap's file", A14; ties: the left one), else
      the next rank forwards.  A front-rank model never fills a gap: moved along the front
      rank it would only leave another, so the front rank gives models by sliding alone;
      so characters never leave the front rank nor move backwards;
    * a rear rank left without models disappears; the rear rank keeps its gaps;
    * only a single-rank unit slides: for each gap the side with fewer models slides
      ("slide as few models as possible", 2nd ed.); on a tie `slide` ("left" or "right":
      the side whose models move) decides, by default "right" (the owner's pick);
    * the front edge and every model that did not move keep their places on the table.
    A wiped-out unit is returned as it is: there is nothing to re-form.
    """
    side = _slide_side(slide)
    if is_wiped_out(unit):
        return unit
    grid = _grid(unit.formation)
    _fill_gaps(grid, unit.files)
    files, shift = unit.files, 0
    if _rear(grid) == 0:
        grid, files, shift = _slide_front_rank(grid, files, side)
    formation = _formation(unit.formation, grid, files)
    if formation == unit.formation:
        return unit
    return replace(unit, formation=formation, pose=_pose(unit, formation, shift))


def _grid(formation: Formation) -> Grid:
    characters = {c.slot: c.id for c in formation.characters}
    return {slot: characters.get(slot) for slot in formation.occupied_slots()}


def _rear(grid: Grid) -> int:
    return max(rank for rank, _ in grid)


def _fill_gaps(grid: Grid, files: int) -> None:
    """Fill every gap in front of the rear rank, in place.  Each move takes a model
    strictly forwards, so this ends; the rear rank may empty and the next one become the
    rear rank, whose gaps then stay."""
    while (gap := _first_gap(grid, files)) is not None:
        grid[gap] = grid.pop(_filler(grid, gap))


def _first_gap(grid: Grid, files: int) -> Slot | None:
    for rank in range(_rear(grid)):
        for file in range(files):
            if (rank, file) not in grid:
                return (rank, file)
    return None


def _filler(grid: Grid, gap: Slot) -> Slot:
    """The model that fills `gap`: rear-most rank first, then the file nearest the gap's,
    then the left one.  There is one: the rear rank is behind any gap in front of it."""
    behind = [slot for slot in grid if slot[0] > gap[0]]
    return min(behind, key=lambda slot: (-slot[0], abs(slot[1] - gap[1]), slot[1]))


def _slide_front_rank(grid: Grid, files: int, side: str) -> tuple[Grid, int, int]:
    """(the single rank closed up, its files, the old file of its new file 0).

    Models never slide past a gap, so how many stand on each side of a gap does not depend
    on which gaps close first: each gap's sliding side is decided on its own.  Every gap
    whose left side slides moves the left edge one file to the right."""
    occupied = sorted(file for _, file in grid)
    gaps = sorted(set(range(files)) - set(occupied))
    shift = sum(1 for gap in gaps if _left_side_slides(occupied, gap, side))
    closed = {(0, i): grid[(0, file)] for i, file in enumerate(occupied)}
    return closed, len(occupied), shift


def _left_side_slides(occupied: list[int], gap: int, side: str) -> bool:
    left = sum(1 for file in occupied if file < gap)
    right = len(occupied) - left
    return left < right or (left == right and side == "left")


def _formation(old: Formation, grid: Grid, files: int) -> Formation:
    """The formation of `grid`: its rear rank's unoccupied slots listed as empty, unless
    the default (centred) layout puts the models exactly where they stand."""
    where = {key: slot for slot, key in grid.items() if key is not None}
    characters = tuple(Character(c.id, where[c.id]) for c in old.characters)
    models = sum(1 for key in grid.values() if key is None)
    plain = Formation(files, models, characters)
    if set(plain.occupied_slots()) == set(grid):
        return plain
    rear = _rear(grid)
    empty = tuple((rear, file) for file in range(files) if (rear, file) not in grid)
    return Formation(files, models, characters, empty)


def _pose(unit: Unit, formation: Formation, shift: int) -> Pose:
    """The new boundary's centre: the front edge stays and its left edge moves `shift`
    files to the right (old file `shift` is the new file 0), so the models that did not
    move keep their world positions; ranks lost at the rear move the centre forward by
    half their depth."""
    width, depth = unit.base.width_in, unit.base.depth_in
    right = (shift + formation.files / 2.0) * width - unit.width_in / 2.0
    forward = unit.depth_in / 2.0 - formation.ranks * depth / 2.0
    centre = local_to_world(unit.pose.centre, unit.pose.facing_deg, right, forward)
    return Pose(centre, unit.pose.facing_deg)


def _slide_side(slide: Any) -> str:
    if slide is None:
        return DEFAULT_SLIDE
    if not isinstance(slide, str) or slide not in SLIDE_SIDES:
        raise InvalidInputError(f"expected left, right or None, got {slide!r}", path="slide")
    return slide
