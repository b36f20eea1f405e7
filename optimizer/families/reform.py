"""The Reform family: files (within the rules' file change) and end facing (lattice degree);
the end centre anywhere in the centre's travel disc."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.frame import Frame
from constraints.geometry.plane import normalise_deg
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import ReformPoses
from constraints.rank_and_file.regions import unit_circle
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from constraints.t9a.moves import Manoeuvre, Move
from optimizer.families.base import Family, PoseJudge
from optimizer.families.snaking import angles


class ReformFamily(Family):
    manoeuvre = "reform"
    # A move is an option and an end centre; the checker judges the model paths the regions
    # leave out: the search starts from the sound regions' best points (docs/techniques.md §8).
    answers_by_geometry = True
    judges_within_step = True
    groups_facings = True

    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        radius = limits.centre_reach_or(2.0 * unit.mobility_in)
        count = unit.formation.model_count
        reach = count if limits.file_change is None else limits.file_change
        found: list[Option] = []
        for f in (f for f in range(1, count + 1) if abs(f - unit.files) <= reach):
            end = unit.formation.reformed(f)
            width, depth = f * unit.base.width_in, end.ranks * unit.base.depth_in
            for turn in angles(lattice.degree, 180.0)[1:]:
                found.append(Option(len(found), unit.pose.facing_deg + turn, 90.0 + turn, f,
                                    width, depth))
        # Circumscribed: it holds every centre the travel clause's inscribed polygon allows.
        # The relaxed regions' own travel disc (optimizer.search.regions), so that an option
        # whose region the other rules leave uncut near its best point has its reach's bound
        # exactly: the best-first search then judges its point before cutting the others.
        disc = Polygon(unit_circle(outer=True) * radius)
        return found, [disc] * len(found)

    def reach(self, option: Option, travel_disc: shapely.Geometry) -> shapely.Geometry:
        return travel_disc

    def move(self, unit_id: str, frame: Frame, option: Option, centre: tuple[float, float]) -> Move:
        return Move(unit_id, Manoeuvre.REFORM, files=option.files, centre=frame.world(centre),
                    facing_deg=normalise_deg(option.facing_deg))

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        """The unit's own files and facing."""
        return next((o.index for o in options if o.files == unit.files
                     and o.frame_facing_deg == 90.0), None)

    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[ReformPoses, np.ndarray]:
        chosen = np.full(len(facings), unit.files) if files is None else files
        return ReformPoses.of(unit, centres, facings, chosen.astype(int), tol)

    def mask(self, judge: PoseJudge, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        facings = np.array([o.facing_deg for o in chosen])[inverse]
        return judge.mask(world, facings, files=np.array([o.files for o in chosen])[inverse])
