"""A turn on the spot (Warhammer 7th, seed 003; docs/rules.md §14): every model turns a
quarter or a half turn where it stands, the command group and characters step into the new
front rank, and the models of an incomplete rear rank go to the back.

Decision: the block of full ranks keeps its centre (for square bases it keeps its very
footprint); its old ranks become files, and the leftovers of an incomplete rear rank form
new rear ranks behind it.  For non-square bases the block's shape changes (7th FAQ: turn the
front rank about its centre models, then close the ranks up), its centre still kept.
"""

from __future__ import annotations

from constraints.core.scenario import Pose
from constraints.geometry.plane import local_to_world
from constraints.rank_and_file.unit import Unit


def turned(unit: Unit, angle_deg: float) -> Unit:
    """`unit` after turning `angle_deg` (90 left, -90 right, 180) on the spot."""
    formation, base = unit.formation, unit.base
    files, models = formation.files, formation.model_count
    full = models // files  # ranks of `files` models; the rest is an incomplete rear rank
    # The block of full ranks: its centre lies forward of the unit's by the missing depth.
    block_fwd = (formation.ranks - full) * base.depth_in / 2.0
    block = local_to_world(unit.pose.centre, unit.pose.facing_deg, 0.0, block_fwd)
    new_files = files if abs(angle_deg) == 180.0 else full
    new = formation.reformed(new_files)
    block_ranks = full if abs(angle_deg) == 180.0 else files
    facing = unit.pose.facing_deg + angle_deg
    # The new unit reaches back past the block by its extra ranks.
    back = (new.ranks - block_ranks) * base.depth_in / 2.0
    return unit.with_formation(new).with_pose(Pose(local_to_world(block, facing, 0.0, -back),
                                                   facing))
