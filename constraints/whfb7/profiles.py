"""The whfb7 rules profile as data: which clauses apply to which manoeuvre, and the
parameters they read (docs/rules.md §14).  A scenario's `rule_options` override them by name
(e.g. `{"wheel_chord": true}`)."""

from __future__ import annotations

from types import MappingProxyType

from constraints.core.clause import Clause
from constraints.core.profile import ClauseSpec, ParamValue, RulesProfile
from constraints.whfb7.clauses.distance import MarchDistance, MoveDistance
from constraints.whfb7.clauses.march_blocked import MarchBlocked
from constraints.whfb7.clauses.march_no_turn import NoTurnInMarch
from constraints.whfb7.clauses.move_turn_front_rank import TurnFrontRank
from constraints.whfb7.clauses.reform_front_rank import FrontRank
from constraints.whfb7.clauses.reform_model_distance import ModelDistance
from constraints.whfb7.clauses.spacing import ReformSpacing, UnitSpacing
from constraints.whfb7.clauses.table_edge import ReformTableEdge, TableEdge


def _spec(clause: type[Clause], name: str, **bind: str) -> ClauseSpec:
    return ClauseSpec(clause, MappingProxyType(bind), name)


# Every move and march: the 1" rule and the table edge, throughout the move (RULES §4.9).
_ON_THE_WAY = (
    _spec(UnitSpacing, 'The 1" rule', spacing_in="spacing_in"),
    _spec(TableEdge, "Off the table"),
)
_COSTS = {"turn_mob": "turn_mob", "wheel_chord": "wheel_chord"}

_MANOEUVRES: dict[str, tuple[ClauseSpec, ...]] = {
    "move": (
        _spec(MoveDistance, "Move distance", mob_factor="move_mob",
              **_COSTS),
        _spec(TurnFrontRank,
              "Turn: command group in the new front rank"),
    ) + _ON_THE_WAY,
    "march": (
        _spec(MarchDistance, "March distance", mob_factor="march_mob",
              **_COSTS),
        _spec(NoTurnInMarch, "March: no turn"),
        _spec(MarchBlocked, "March: enemy within 8\"",
              block_in="march_block_in"),
    ) + _ON_THE_WAY,
    "reform": (
        _spec(FrontRank, "Reform: command group in front"),
        _spec(ModelDistance, "Reform: a model moves too far",
              mob_factor="reform_model_mob"),
        _spec(ReformSpacing, 'Reform: the 1" rule',
              spacing_in="spacing_in"),
        _spec(ReformTableEdge, "Reform: off the table"),
    ),
}

_PARAMS: dict[str, ParamValue] = {
    "move_mob": 1.0,          # a move's distance, x M
    "march_mob": 2.0,         # a march's distance, x M
    "turn_mob": 0.25,         # one turn on the spot (90 or 180 deg), x M
    "wheel_chord": False,     # a wheel costs the outer corner's chord instead of its arc
    "spacing_in": 1.0,        # the 1" rule: strictly more than this from others
    "march_block_in": 8.0,    # a non-fleeing enemy this close (inclusive) forbids marching
    "reform_model_mob": 2.0,  # the longest move of one model in a reform, x M
    "contact_tolerance": 0.001,  # Facings closer than this (gap or overlap) touch (A21)
}

WHFB7_PROFILES: tuple[RulesProfile, ...] = (
    RulesProfile("whfb7", "Warhammer Fantasy Battle 7th edition movement (seed 003)",
                 MappingProxyType(_MANOEUVRES), MappingProxyType(_PARAMS), "whfb7"),
)
