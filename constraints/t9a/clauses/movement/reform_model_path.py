"""Reform model paths (seed 000; docs/rules.md §5.5, §8.4, §8.9).

"Each model is considered to have moved from its starting position to end position, around
obstructions where needed, and no single model can move further than twice its Mobility."
Each model moves on its own, ignoring its own unit but not other units, and its base keeps
more than 0.5" from other units and Impassable Terrain (a model is treated as a unit in a
move); turning as it walks, its centre keeps that plus half the base's smaller side.  The
measure is the longest shortest path (base centre) under the best assignment of models to
end slots.  Paths are found among the obstacles within reach of a walk of 2 x Mob (so a path
longer than that may be measured among those only: still longer than the limit).
"""

from __future__ import annotations

import math
from typing import Any

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
from constraints.rank_and_file.obstacles import walking_paths
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.sat.lattice import inscribed_polygon
from constraints.sat.option import Option
from constraints.t9a.clauses.movement.mid_walks import relay_walk
from constraints.t9a.clauses.movement.model_moves import allowed_pairs, assign
from constraints.t9a.clauses.movement.reform_mid_placement import light_by_marsh, reform_through
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, gap_wall, reform, rock, unit, wall

Point2 = tuple[float, float]


def _hop(mobility: float) -> dict:
    """Light Troops in one rank hopping 8" over a short wall: the middle models walk round.

    1" bases keep their centres 0.5 + 0.5 = 1" from the wall (x 19-21, y 13.5-14.5), so the
    models at x = 18 and 22 pass its sides straight, and under the best assignment the
    longest walk is from (18, 10) up the side and round the corner (19, 14.5) to (20, 18):
    4.5 + (pi - 2 atan 3.5) + 3.5 = 8.5566" (0.0004" more round the grown outline's corners).
    """
    return field(unit(models=5, files=5, centre=(20.0, 10.0), mobility=mobility,
                      light_troops=True), terrain=(wall("wall", 19.0, 13.5, 21.0, 14.5),))


def _stuck() -> dict:
    """The default unit (front edge y = 11) with a wall 0.3" ahead of its left files (after a
    failed charge, say: RULES §2.3.2.4)."""
    return field(terrain=(wall("wall", 33.0, 11.3, 35.0, 12.0),))


def _rock() -> dict:
    """The default unit (front edge y = 11) 1.2" from a 30-degree rock pointing at it: its
    front models' centres stand 1.7" from the tip, clear of the 1" their bases need."""
    return field(terrain=(rock("rock", (36.0, 12.2), 30.0, 270.0),))


def _gap(base: tuple[float, float], gap: float, models: int = 1) -> dict:
    """Light Troops (Mob 3) in one rank 1.5" behind a 0.5" wall with a gap `gap` wide, about
    to Reform 5.5" forward through it (the wall's ends are 30" away either side)."""
    return field(unit(models=models, files=models, centre=(36.0, 10.0), mobility=3.0,
                      base=base, light_troops=True), terrain=gap_wall(36.0, 12.5, 13.0, gap))


_BIG, _LONG = (50.0, 50.0), (25.0, 50.0)  # mm: a 50 mm square base, a 25 x 50 mm one
_HAIR = 0.01  # well above the grown outline's 0.001" and far below any measure
_THROUGH = reform(centre=(36.0, 15.5))


class ModelPath(Clause):
    """Reform model paths: each model's shortest walk round obstacles, at most 2 x Mob.

    The centre of a walking model keeps more than 0.5" plus half its base's smaller side
    from other units and Impassable Terrain (docs/rules.md §5.5, §8.9): its base keeps more
    than 0.5", turning as it walks.  The zone it must stay out of (the obstacles grown by
    that clearance, round at the corners) is replaced by a polygon containing it whose
    corners reach at most 0.001" further (constraints/geometry/paths.py): so a path that
    does not keep more than the clearance is always refused, and the only legal paths
    refused, or measured longer than they are, are those coming within 0.001" of the
    clearance (tests/constraints/geometry/test_paths.py).  A path that keeps exactly the
    clearance from one obstacle is measured as the infimum of the legal paths beside it.
    """
    id = "t9a.reform.model_path"

    examples = (
        RuleExample("a Reform in place moves nobody", field(), reform(), False,
                    ("model_path", 0.0)),
        RuleExample("with nothing in the way every model walks straight", field(),
                    reform(centre=(36.0, 12.0)), False, ("model_path", 2.0)),
        RuleExample("Light Troops hopping 8\" walk round a short wall: 8.5566\" passes "
                    "8.56\"", _hop(4.28), reform(centre=(20.0, 18.0)), False),
        RuleExample("the path, not the straight line, is limited: not 8.54\", though every "
                    "straight line is 8\"", _hop(4.27), reform(centre=(20.0, 18.0)), True),
        RuleExample("standing still 1.2\" from a 30-degree rock is legal", _rock(), reform(),
                    False, ("model_path", 0.0)),
        RuleExample("three 50 mm bases do not fit through a 1.05\" gap",
                    _gap(_BIG, 1.05, models=3), _THROUGH, True),
        RuleExample("nor does one through a gap of exactly its side + 1\"",
                    _gap(_BIG, 50.0 / 25.4 + 1.0), _THROUGH, True),
        RuleExample("but it does through its side + 1\" and a hair",
                    _gap(_BIG, 50.0 / 25.4 + 1.0 + _HAIR), _THROUGH, False, ("model_path", 5.5)),
        RuleExample("a 25 x 50 mm base turns to pass a gap of 25 mm + 1\" and a hair",
                    _gap(_LONG, 25.0 / 25.4 + 1.0 + _HAIR), _THROUGH, False,
                    ("model_path", 5.5)),
        RuleExample("but no narrower one", _gap(_LONG, 25.0 / 25.4 + 1.0 - _HAIR), _THROUGH,
                    True),
        # RULES §2.3.2.4: "A unit that ended within 1\" through an uncontrolled move or
        # unintended event may stay within 1\" until the units are more than 1\" apart"; A20:
        # its models keep the unit's start distance from the wall (0.3\") instead of 0.5\".
        RuleExample("a unit 0.3\" behind a wall (\u00a72.3.2.4, A20) may Reform in place",
                    _stuck(), reform(), False, ("model_path", 0.0)),
        RuleExample("and away from the wall", _stuck(), reform(centre=(36.0, 8.0)), False,
                    ("model_path", 2.0)),
        RuleExample("and along it at the same distance", _stuck(),
                    reform(centre=(37.0, 10.0)), False, ("model_path", 1.0)),
        RuleExample("but not closer to it: the front models would walk nearer than 0.3\"",
                    _stuck(), reform(centre=(36.0, 10.2)), True),
        # Seed 000, "Mid-Reform Move Actions": "measure from starting position, to the
        # position it is placed mid-move, and then finally to its ending position".
        RuleExample("Light Troops placed mid-move in a marsh: 4.5\" there and 3\" on",
                    light_by_marsh(), reform_through(), False, ("model_path", 7.5)),
        RuleExample("4.5\" and 3.5\": exactly 2 x Mob", light_by_marsh(),
                    reform_through(end=(36.0, 18.0)), False, ("model_path", 8.0)),
        RuleExample("placed beyond the end and walking back: the mid front rank's models walk "
                    "7\" and 2.5\", though the end is 4.5\" away", light_by_marsh(),
                    reform_through(centre=(36.0, 17.0), end=(36.0, 14.5)), True,
                    ("model_path", 9.5)),
    )

    def refuses_every_move(self, scenario: Any, unit: Any) -> bool:
        """A model that starts inside the zone its centre must stay out of has no path
        anywhere, not even standing still: the checker refuses every Reform (`stranded`).  By
        A20 the zone keeps a model only the unit's start distance from what it started close
        to, so a model stands inside it only where it overlaps something."""
        finder = walking_paths(scenario, unit, self.number("spacing_in"), self.limit_in(unit))
        return stranded(finder, unit.model_positions())

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.end_unit
        limit = self.number("mob_factor") * ctx.mobility_in
        finder = walking_paths(ctx.scenario, ctx.unit, self.number("spacing_in"), limit)
        if ctx.mid_unit is not None:  # seed 000: measured start -> mid-move place -> end
            walk = relay_walk(ctx, ctx.mid_unit, finder, limit)
            if isinstance(walk, str):  # neither within the limit nor beyond it, proved
                return ClauseResult(undecided=(f"{self.id}: {walk}",))
            bound = "" if walk.exact else "at least " if walk.longest_in > limit else \
                "at most "
            message = (f"under the best assignment the longest walk through the mid-move "
                       f"places, around obstructions, is {bound}{walk.longest_in:.3f}\" "
                       f"(model {walk.model}), limit {limit:.3f}\"")
            return self.result("model_path", walk.longest_in, limit,
                               within(walk.longest_in, limit), message, walk.path)
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        cost = finder.lengths(start_pts, end_pts)
        found = assign(ctx, end, cost)
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
        finder = walking_paths(setting.scenario, unit, self.number("spacing_in"), limit)
        needed = setting.limits.centre_reach_or(2 * unit.mobility_in) / math.cos(math.pi / 64) ** 2
        nowhere = stranded(finder, unit.model_positions())

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            if nowhere:
                return np.zeros_like(ok)
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
        """Per option, where the centre may go with every path still <= 2 x Mob (where the
        discs do not cover the option's whole travel, the rows are inexact: `enc.inexact`).

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
        finder = walking_paths(ectx.scenario, ectx.unit, self.number("spacing_in"), limit)
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
            if not any(p == (0.0, 0.0) and r >= needed for p, r in discs):
                ectx.enc.inexact.setdefault(option.index, self.id)  # a legal centre may lie out
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
    if stranded(finder, start):
        return -math.inf
    slots = end.model_positions()
    clearance = finder.clearance_of(slots)
    cost = finder.lengths(start, slots)
    mask = allowed_pairs(unit, end)
    rough = quick_assignment(cost, mask)
    if limit - rough - FLOAT_NOISE < min(needed, clearance):
        rough = bottleneck_assignment(cost, mask).bottleneck
    return min(limit - rough - FLOAT_NOISE, clearance)


def stranded(finder: PathFinder, start: np.ndarray) -> bool:
    """Whether a model starts inside the grown obstacles: it has no path anywhere, not even
    one standing still, so no Reform is legal (remembered per start)."""
    key = ("stranded", start.tobytes())
    if key not in finder.memo:
        finder.memo[key] = any(finder.inside((float(x), float(y))) for x, y in start)
    return bool(finder.memo[key])


def in_discs(discs: list[tuple[Point2, float]], pts: np.ndarray, tol: float) -> np.ndarray:
    """Whether each point lies in one of the discs (with `tol` at the rim)."""
    inside = np.zeros(len(pts), dtype=bool)
    for (px, py), radius in discs:
        inside |= np.hypot(pts[:, 0] - px, pts[:, 1] - py) <= radius + tol
    return inside
