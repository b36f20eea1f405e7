"""Rules profiles as data: which clauses apply to which manoeuvre, and their parameters.

A profile names its parameters once (`params`); a clause spec binds the clause module's own
parameter names to profile parameter names, so `rule_options` in a scenario can override a
profile's numbers without touching any clause.  Adding a profile means adding data here.
"""

from __future__ import annotations

from types import MappingProxyType

from constraints.core.clause import Clause
from constraints.core.profile import ClauseSpec, ParamValue, RulesProfile
from constraints.t9a.clauses.movement.characters_front_rank import CharactersFrontRank
from constraints.t9a.clauses.movement.distance import AdvanceDistance, MarchDistance
from constraints.t9a.clauses.movement.heading_window import (
    AdvanceHeadingWindow,
    MarchHeadingWindow,
)
from constraints.t9a.clauses.movement.pivot_model_distance import PivotModelDistance
from constraints.t9a.clauses.movement.pivot_unit_spacing import PivotSpacing
from constraints.t9a.clauses.movement.reform_centre_travel import CentreTravel
from constraints.t9a.clauses.movement.reform_file_change import FileChange
from constraints.t9a.clauses.movement.reform_mid_placement import MidPlacement
from constraints.t9a.clauses.movement.reform_model_path import ModelPath
from constraints.t9a.clauses.movement.reform_viable_formation import ViableFormation
from constraints.t9a.clauses.movement.reorder_files import ReorderFiles
from constraints.t9a.clauses.movement.snaking_front_spacing import FrontSpacing
from constraints.t9a.clauses.movement.table_edge import TableEdgeEnd, TableEdgeFront
from constraints.t9a.clauses.movement.unit_spacing import UnitSpacing
from constraints.t9a.clauses.movement.valid_final_position import ValidFinalPosition
from constraints.t9a.clauses.post_combat.model_distance import PostCombatModelDistance
from constraints.t9a.clauses.post_combat.unengaged import PostCombatUnengaged
from constraints.t9a.clauses.post_combat.unit_spacing import PostCombatSpacing


def _spec(clause: type[Clause], name: str, **bind: str) -> ClauseSpec:
    return ClauseSpec(clause, MappingProxyType(bind), name)


# Clauses every Move Manoeuvre ends with (docs/rules.md §3.1, §3.4, §6).
_END = (
    _spec(ValidFinalPosition, "Valid Final Position",
          mob_factor="final_position_mob"),
    _spec(UnitSpacing, "Unit Spacing", spacing_in="end_spacing_in"),
    _spec(TableEdgeEnd, "off the table at the end"),
)

# Clauses of Snaking Forward Moves, shared by Advance and March (docs/rules.md §3.3-3.4, §4.7).
_SNAKING = (
    _spec(FrontSpacing, "Snaking Forward Moves: Unit Spacing",
          spacing_in="mid_move_spacing_in"),
    _spec(TableEdgeFront, "Front Facing off the table"),
    _spec(ReorderFiles, "Reorder: files changed"),
    _spec(CharactersFrontRank,
          "Characters leave the front rank"),
)

_T9A_MANOEUVRES: dict[str, tuple[ClauseSpec, ...]] = {
    "advance": (
        _spec(PivotModelDistance, "Pivot: a model moves too far",
              mob_factor="model_move_mob"),
        _spec(PivotSpacing, "Pivot: Unit Spacing",
              spacing_in="mid_move_spacing_in"),
        _spec(AdvanceDistance, "Advance distance",
              mob_factor="advance_mob"),
        _spec(AdvanceHeadingWindow, "Advance heading window",
              window_deg="heading_window_deg"),
    ) + _SNAKING + _END,
    "march": (
        _spec(MarchDistance, "March distance", mob_factor="march_mob"),
        _spec(MarchHeadingWindow, "March heading window",
              window_deg="heading_window_deg"),
    ) + _SNAKING + _END,
    "reform": (
        _spec(CentreTravel, "Reform: centre travel",
              mob_factor="reform_centre_mob",
              light_troops_mob_factor="light_troops_reform_centre_mob"),
        _spec(FileChange, "Reform: file change",
              limit="max_file_change", musician_limit="max_file_change_musician"),
        _spec(ViableFormation, "Reform: viable formation",
              proper_rank_width="proper_rank_width"),
        _spec(ModelPath, "Reform: model path",
              mob_factor="model_move_mob", spacing_in="mid_move_spacing_in"),
        _spec(MidPlacement, "Reform: placement mid-move",
              spacing_in="mid_move_spacing_in", limit="max_file_change",
              musician_limit="max_file_change_musician", proper_rank_width="proper_rank_width"),
        _spec(CharactersFrontRank,
              "Characters leave the front rank"),
    ) + _END,
    # Not a Move Manoeuvre (docs/rules.md §11.9): no Valid Final Position; A13's spacing.
    "post_combat_pivot": (
        _spec(PostCombatUnengaged,
              "Post-Combat Pivot: still Engaged"),
        _spec(PostCombatModelDistance,
              "Post-Combat Pivot: a model moves too far", mob_factor="model_move_mob"),
        _spec(PostCombatSpacing,
              "Post-Combat Pivot: Unit Spacing", spacing_in="end_spacing_in"),
        _spec(TableEdgeEnd, "off the table at the end"),
    ),
}

_T9A_PARAMS: dict[str, ParamValue] = {
    "advance_mob": 1.0,            # Snaking distance of an Advance, x Mob
    "march_mob": 2.0,              # Snaking distance of a March, x Mob
    "final_position_mob": 2.0,     # Valid Final Position corner reach, x Mob
    "model_move_mob": 2.0,         # one model's Pivot / Reform move, x Mob
    "reform_centre_mob": 0.5,      # Reform centre travel, x Mob
    "light_troops_reform_centre_mob": 2.0,
    "heading_window_deg": 90.0,    # heading kept within this of the reference, inclusive
    "end_spacing_in": 1.0,         # Unit Spacing at the end of a move (strictly more than)
    "mid_move_spacing_in": 0.5,    # Unit Spacing during a move (strictly more than)
    "max_file_change": 3,          # Reform |files after - files before|
    "max_file_change_musician": 3,
    "proper_rank_width": (5, 5, 5, 3, 3, 1),  # models in a Proper Rank by Height 0-5
    "contact_tolerance": 0.001,    # Facings closer than this (gap or overlap) touch (A21)
}

T9A_PROFILES: tuple[RulesProfile, ...] = (
    RulesProfile("t9a", "The Ninth Age as the seeds state it (seed 000: file change up to 3)",
                 MappingProxyType(_T9A_MANOEUVRES), MappingProxyType(_T9A_PARAMS), "t9a"),
    RulesProfile("t9a-2025",
                 "The Ninth Age rulebook of June 2025 (file change 2, or 4 with a Musician)",
                 MappingProxyType(_T9A_MANOEUVRES),
                 MappingProxyType({**_T9A_PARAMS, "max_file_change": 2,
                                   "max_file_change_musician": 4}), "t9a"),
)
