"""Reform model paths (seed 000; docs/rules.md §5.5, §8.4, §8.9).

"Each model is considered to have moved from its starting position to end position, around
obstructions where needed, and no single model can move further than twice its Mobility."
Each model moves on its own, ignoring its own unit but not other units, and keeps more than
0.5" from other units and Impassable Terrain (a model is treated as a unit in a move).  The
measure is the longest shortest path (base centre) under the best assignment of models to
end slots.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point

from constraints.core.clause import Clause, Masker, RuleExample, Stage
from constraints.core.limits import FLOAT_NOISE, within
from constraints.core.scenario import Pose
from constraints.core.verdict import ClauseResult
from constraints.geometry.assignment import bottleneck_assignment, quick_assignment
from constraints.geometry.frame import Frame
from constraints.geometry.paths import PathFinder
from constraints.rank_and_file.obstacles import path_finder
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.sat.lattice import inscribed_polygon
from constraints.sat.option import Option
from constraints.t9a.clauses.movement.model_moves import allowed_pairs, assign
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, reform, unit, wall

Point2 = tuple[float, float]


def _hop(mobility: float) -> dict:
    """Light Troops in one rank hopping 8" over a short wall: the middle models walk round."""
    return field(unit(models=5, files=5, centre=(20.0, 10.0), mobility=mobility,
                      light_troops=True), terrain=(wall("wall", 19.0, 13.5, 21.0, 14.5),))


class ModelPath(Clause):

    examples = (
        RuleExample("a Reform in place moves nobody", field(), reform(), False,
                    ("model_path", 0.0)),
        RuleExample("with nothing in the way every model walks straight", field(),
                    reform(centre=(36.0, 12.0)), False, ("model_path", 2.0)),
        RuleExample("Light Troops hopping 8\" walk round a short wall", _hop(5.0),
                    reform(centre=(20.0, 18.0)), False),
        RuleExample("the path, not the straight line, is limited: 8\" would pass 8.3\"",
                    _hop(4.15), reform(centre=(20.0, 18.0)), True),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.end_unit
        finder = path_finder(ctx.scenario, ctx.unit.id, self.params["spacing_in"])
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        cost = finder.lengths(start_pts, end_pts)
        found = assign(ctx, end, cost)
        limit = self.params["mob_factor"] * ctx.mobility_in
        worst = found.worst_model
        model = ctx.unit.model_ids()[worst]
        src, dst = tuple(start_pts[worst]), tuple(end_pts[found.slots[worst]])
        path = finder.path(src, dst)
        message = (f"model {model} must walk {found.bottleneck:.3f}\" around obstructions "
                   f"under the best assignment, limit {limit:.3f}\"")
        return self.result("model_path", found.bottleneck, limit, within(found.bottleneck, limit),
                           message, tuple(path.coords))

    def masker(self, setting: MaskSetting) -> Masker:
        """The encoding's safe discs (below), per formation and facing of the batch: the same
        reference points, as the encoding's region is the travel disc grown by
        1 / cos(pi / 64), measured with the same allowance."""
        unit, frame, limit = setting.unit, setting.frame, self.limit_in(setting.unit)
        finder = path_finder(setting.scenario, unit.id, self.params["spacing_in"])
        needed = setting.limits.centre_reach_or(2 * unit.mobility_in) / math.cos(math.pi / 64) ** 2

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            ok = ok.copy()
            pts = frame.point_array(poses.centres)
            for k in np.unique(poses.inv[ok]):
                rows = np.flatnonzero(ok & (poses.inv == k))
                files, facing = poses.groups[k]
                discs = travel_discs(finder, unit, int(files), float(facing), limit, needed,
                                     frame)
                ok[rows] &= in_discs(discs, pts[rows], poses.tol)
            return ok
        return Masker(self.id, Stage.PATHS, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """Per option, where the centre may go with every path still <= 2 x Mob.

        With the centre at a reference point p the end slots are fixed; B(p) is the
        bottleneck of the path lengths there.  Moving the centre by t moves every slot by t,
        and a path can append that straight step when the slot's disc of radius t is clear of
        the grown obstacles, so every path stays <= B(p) + t.  So the disc about p of radius
        min(2 x Mob - B(p), slot clearance) is safe.  The start centre is tried first; when its
        disc does not cover the travel region, discs about 8 points on a ring are added
        (travel_discs) and the centre must lie in one of them (inscribed 64-gons).  Sound;
        tight when paths are straight and nothing is near.
        """
        limit = self.limit_in(ectx.unit)
        finder = path_finder(ectx.scenario, ectx.unit.id, self.params["spacing_in"])
        origin = Point(0.0, 0.0)
        for option, region in zip(ectx.options, ectx.centre_regions, strict=True):
            if option.index in ectx.enc.forbidden:
                continue  # another clause already rules it out
            ectx.check_time()
            focused = _focused_disc(ectx, finder, option, limit)
            if focused is not None:
                post_discs(ectx, option.index, [focused], math.inf, self.id)
                continue
            needed = shapely.hausdorff_distance(origin, region) / math.cos(math.pi / 64)
            discs = travel_discs(finder, ectx.unit, option.files, option.facing_deg, limit,
                                 needed, ectx.frame)
            post_discs(ectx, option.index, discs, needed, self.id)


def _focused_disc(ectx: EncodeContext, finder: PathFinder, option: Option,
                  limit: float) -> tuple[Point2, float] | None:
    """When the search needs the option only within a small disc (ectx.focus), the safe disc
    about that disc's centre, if it covers all of it (as its inscribed 64-gon): restricting
    the option to it loses nothing the search needs, and costs one path search, not nine."""
    if option.index not in ectx.focus:
        return None
    centre, radius = ectx.focus[option.index]
    unit = ectx.unit
    end = unit.with_formation(unit.formation.reformed(option.files)).with_pose(
        Pose(ectx.frame.world(centre), option.facing_deg))
    safe = allowed_travel(finder, unit.model_positions(), unit, end, limit,
                          radius / math.cos(math.pi / 64))
    return (centre, safe) if safe * math.cos(math.pi / 64) >= radius else None


def post_discs(ectx: EncodeContext, option: int, discs: list[tuple[Point2, float]],
               needed: float, clause_id: str) -> None:
    """The centre in one of the discs (nothing to post when one covers `needed`)."""
    enc = ectx.enc
    if not discs:
        enc.forbid(option, clause_id)
        return
    if any(p == (0.0, 0.0) and r >= needed for p, r in discs):
        return
    lit, choices = enc.option_vars[option], []
    for k, ((px, py), radius) in enumerate(discs):
        inside = enc.sat_model.new_bool_var(f"paths_o{option}_disc{k}")
        sides = inscribed_polygon(radius, 64)
        normals = np.array([hp.normal for hp in sides])
        enc.centre_rows(normals, np.array([hp.rhs for hp in sides]) + normals @ (px, py),
                        [lit, inside])
        choices.append(inside)
    enc.bool_or(choices, [lit])


def travel_discs(finder: PathFinder, unit: Unit, files: int, facing_deg: float, limit: float,
                 needed: float, frame: Frame) -> list[tuple[Point2, float]]:
    """Safe discs of end centres (frame inches, radius) for one formation and facing,
    remembered by the path finder (the batch mask and the encoding ask for the same ones)."""
    key = ("travel_discs", unit.id, unit.pose, unit.formation.files, files, facing_deg,
           round(limit, 9), round(needed, 9), frame)
    if key not in finder.memo:
        finder.memo[key] = _travel_discs(finder, unit, files, facing_deg, limit, needed, frame)
    return list(finder.memo[key])  # type: ignore[call-overload]


def _travel_discs(finder: PathFinder, unit: Unit, files: int, facing_deg: float, limit: float,
                  needed: float, frame: Frame) -> list[tuple[Point2, float]]:
    start = unit.model_positions()
    formation = unit.formation.reformed(files)
    discs: list[tuple[Point2, float]] = []
    for ref in reference_points(needed):
        if discs and ref == (0.0, 0.0):
            continue
        end = unit.with_formation(formation).with_pose(Pose(frame.world(ref), facing_deg))
        radius = allowed_travel(finder, start, unit, end, limit, needed)
        if radius >= 0:
            discs.append((ref, radius))
        if ref == (0.0, 0.0) and radius >= needed:
            break  # the start centre's disc covers everything
    return discs


def reference_points(needed: float) -> list[Point2]:
    """The start centre, then 8 points on a ring halfway out."""
    points: list[Point2] = [(0.0, 0.0)]
    for fraction in (0.5,):
        for k in range(8):
            angle = 2 * math.pi * k / 8
            points.append((fraction * needed * math.cos(angle),
                           fraction * needed * math.sin(angle)))
    return points


def allowed_travel(finder: PathFinder, start: np.ndarray, unit: Unit, end: Unit, limit: float,
                   needed: float) -> float:
    """How far the end centre may move from the start centre (negative: nowhere).

    The assignment minimising the sum of squared paths gives an upper bound on the
    bottleneck in one solve; the exact bottleneck is computed only when that bound would cut
    the travel below `needed`.
    """
    slots = end.model_positions()
    clearance = finder.clearance_of(slots)
    cost = finder.lengths(start, slots)
    mask = allowed_pairs(unit, end)
    rough = quick_assignment(cost, mask)
    if limit - rough - FLOAT_NOISE < min(needed, clearance):
        rough = bottleneck_assignment(cost, mask).bottleneck
    return min(limit - rough - FLOAT_NOISE, clearance)


def in_discs(discs: list[tuple[Point2, float]], pts: np.ndarray, tol: float) -> np.ndarray:
    """Whether each point lies in one of the discs (with `tol` at the rim)."""
    inside = np.zeros(len(pts), dtype=bool)
    for (px, py), radius in discs:
        inside |= np.hypot(pts[:, 0] - px, pts[:, 1] - py) <= radius + tol
    return inside
