"""The rule numbers of docs/rules.md §7, typed in again for the reference referee.

They are deliberately not read from the rules profiles (constraints.t9a.profiles): a wrong
number in the profile data then shows up as a disagreement instead of being copied.
"""

from __future__ import annotations

from dataclasses import dataclass

# docs/rules.md §1.3: a measurement within this of its limit counts as at the limit.
NOISE = 1e-9


@dataclass(frozen=True)
class Rulebook:
    """One rules profile's numbers (docs/rules.md §7)."""

    max_file_change: int
    max_file_change_musician: int
    advance_mob: float = 1.0
    march_mob: float = 2.0
    final_position_mob: float = 2.0
    model_move_mob: float = 2.0
    reform_centre_mob: float = 0.5
    light_troops_reform_centre_mob: float = 2.0
    heading_window_deg: float = 90.0
    end_spacing_in: float = 1.0
    mid_move_spacing_in: float = 0.5
    proper_rank_width: tuple[int, ...] = (5, 5, 5, 3, 3, 1)


RULEBOOKS = {
    "t9a": Rulebook(max_file_change=3, max_file_change_musician=3),
    "t9a-2025": Rulebook(max_file_change=2, max_file_change_musician=4),
}


def within(measured: float, limit: float) -> bool:
    """"Within X" allows exactly X (docs/rules.md §1.2-1.3)."""
    return measured <= limit + NOISE


def more_than(measured: float, limit: float) -> bool:
    """"More than X" excludes exactly X (docs/rules.md §1.2-1.3)."""
    return measured > limit + NOISE
