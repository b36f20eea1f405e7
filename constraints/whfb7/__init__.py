"""Warhammer Fantasy Battle 7th edition: moves with turns on the spot, marches, reforms about
the centre, and their rule clauses (seed 003, docs/rules.md §14).  Importing it registers the
system (`constraints.core.system`) with its profile `whfb7`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from constraints.core.system import System, register_system
from constraints.core.verdict import Verdict
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.moves import WarhammerMove
from constraints.whfb7.profiles import WHFB7_PROFILES
from constraints.whfb7.unit_io import TERRAIN_KINDS, named_ids, read_unit, unit_to_json

if TYPE_CHECKING:
    from constraints.core.scenario import Scenario


# The checker is imported when a move is first read or judged (a Ninth Age check never).
def move_from_json(data: object) -> WarhammerMove:
    from constraints.whfb7.move_io import move_from_json as read

    return read(data)


def check_move(scenario: Scenario[Unit], move: WarhammerMove) -> Verdict:
    from constraints.whfb7.checker import check_move as check

    return check(scenario, move)


# The public queries (docs/api.md): moves judged, viewed, masked, searched and explained.
# Combat Reforms and nudges are The Ninth Age's.
QUERIES = frozenset({"check_move", "is_legal", "legal_moves", "legal_region", "legal_mask",
                     "best_move", "why_not", "reach", "nearest_legal", "render"})

SYSTEM = System[Unit, WarhammerMove, Verdict](
    "whfb7", WHFB7_PROFILES, TERRAIN_KINDS, read_unit, unit_to_json, named_ids, move_from_json,
    check_move, move_type=WarhammerMove, queries=QUERIES)
register_system(SYSTEM)
