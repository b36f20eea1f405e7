"""The Ninth Age: its moves, kinematics, profiles and rule clauses.  Importing it registers the
system (`constraints.core.system`) with its profiles `t9a` and `t9a-2025`."""

from constraints.core.system import System, register_system
from constraints.t9a.checker import check_move
from constraints.t9a.move_io import move_from_json
from constraints.t9a.profiles import T9A_PROFILES
from constraints.t9a.unit_io import TERRAIN_KINDS, named_ids, read_unit, unit_to_json

SYSTEM = System("t9a", T9A_PROFILES, TERRAIN_KINDS, read_unit, unit_to_json, named_ids,
                move_from_json, check_move)
register_system(SYSTEM)
