"""The Ninth Age: its moves, kinematics, profiles and rule clauses.  Importing it registers the
system (`constraints.core.system`) with its profiles `t9a` and `t9a-2025`."""

from constraints.core.system import System, register_system
from constraints.core.verdict import Verdict
from constraints.rank_and_file.unit import Unit
from constraints.t9a.checker import check_move
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import Move
from constraints.t9a.profiles import T9A_PROFILES
from constraints.t9a.unit_io import TERRAIN_KINDS, named_ids, read_unit, unit_to_json

# The public queries (docs/api.md): moves judged, viewed, searched and explained, the batch
# mask, and what follows a round of combat (Combat Reforms, casualties and nudges); and
# `avoiding`, the search kept out of Dangerous Terrain (`solve --avoid`).
QUERIES = frozenset({"check_move", "is_legal", "legal_moves", "legal_region", "legal_mask",
                     "best_move", "why_not", "reach", "nearest_legal", "render",
                     "best_reform", "check_combat_reform", "least_nudge", "check_nudge",
                     "resolve", "avoiding"})

SYSTEM = System[Unit, Move, Verdict](
    "t9a", T9A_PROFILES, TERRAIN_KINDS, read_unit, unit_to_json, named_ids, move_from_json,
    check_move, move_type=Move, queries=QUERIES,
    clause_kinds=("constraints.t9a.clauses.nudge.judged",
                  "constraints.t9a.clauses.combat_reform.judged"))
register_system(SYSTEM)
