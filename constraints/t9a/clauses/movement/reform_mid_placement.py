"""A Reform's placement mid-move (seed 000, "Mid-Reform Move Actions"; RULES §2.5.6;
docs/rules.md §5.6).

"If, for any reasons, a model's position is relevant during a mid-Reform Move, such as during
a Sweeping Attack or Dangerous Terrain Tests, the unit must be placed in a viable formation
and following the Unit Spacing rule (0.5") at the point where it becomes relevant, before
continuing the move.  If it cannot be placed, the move cannot be performed."

A move file states that placement (`mid`: centre, facing, files); this clause judges it.  What
makes a position relevant here is Dangerous Terrain (Sweeping Attack is not modelled): only
a Light Troops Reform beyond Mob counts as a March and takes the test (RULES §2.13.2), and the
position is relevant where the unit touches the terrain.  So the placement must
- be relevant: the Reform counts as a March, and the placed unit touches Dangerous Terrain;
- be a viable formation "as described above": files changed by at most the Reform's limit
  from the start, no more ranks than files by choice unless a Proper Rank wide;
- keep Unit Spacing for a move in progress: more than 0.5" from other units and Impassable
  Terrain (A20 towards what the unit started closer to), and be on the table.
The models' walks through it are `t9a.reform.model_path`'s (mid_walks.py).  A Reform that
states no placement is not judged here (docs/rules.md §5.6 says what is then reported).
"""

from __future__ import annotations

import math

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.limits import more_than, within
from constraints.core.verdict import ClauseResult, Violation
from constraints.rank_and_file.start_close import StartClose, nearest_limit
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.clauses.movement.dangerous_terrain import TOUCH_IN, light_troops_march
from constraints.t9a.clauses.movement.reform_viable_formation import formation_problem
from constraints.t9a.clauses.movement.table_edge import overhang
from constraints.t9a.clauses.movement.unit_spacing import clearance
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, reform, unit


def _marsh(y0: float = 15.0, y1: float = 16.0) -> dict:
    return {"id": "marsh", "kind": "dangerous", "polygon": [[34, y0], [38, y0], [38, y1],
                                                           [34, y1]], "test": 4}


def light_by_marsh(*others: dict) -> dict:
    """The default unit as Light Troops (Mob 4: its centre may travel 8", beyond 4" a Reform
    counts as a March) behind a marsh from y = 15 to 16 (the unit's front edge is y = 11)."""
    return field(unit(light_troops=True), *others, terrain=(_marsh(),))


def reform_through(centre: tuple[float, float] = (36.0, 14.5), facing: float = 90.0,
             files: int | None = None, end: tuple[float, float] = (36.0, 17.5)) -> dict:
    """A Reform 7.5" forward, past the marsh, placed mid-move at `centre`."""
    mid: dict = {"centre": list(centre), "facing": facing}
    if files is not None:
        mid["files"] = files
    return reform(centre=end, mid=mid)


def _friend(x: float) -> dict:
    """A friend one rank deep (y 14-15) whose left edge is at x."""
    return unit("f", models=5, files=5, centre=(x + 2.5, 14.5))


class MidPlacement(Clause):
    id = "t9a.reform.mid_placement"
    judges = Judges.END_POSE

    examples = (
        RuleExample("a Light Troops Reform beyond Mob placed in a viable formation where it "
                    "enters Dangerous Terrain", light_by_marsh(), reform_through(), False,
                    ("mid_terrain_gap", 0.0)),
        RuleExample("placed as it touches the terrain's edge", light_by_marsh(),
                    reform_through(centre=(36.0, 16.0 + 1.0)), False, ("mid_terrain_gap", 0.0)),
        RuleExample("a Reform that states no placement is not judged here", light_by_marsh(),
                    reform(centre=(36.0, 17.5)), False),
        RuleExample("\"following the Unit Spacing rule (0.5\")\": 0.5\" from a friend cannot "
                    "be placed", light_by_marsh(_friend(39.0)), reform_through(), True,
                    ("mid_clearance", 0.5)),
        RuleExample("0.51\" can", light_by_marsh(_friend(39.01)), reform_through(), False,
                    ("mid_clearance", 0.51)),
        RuleExample("\"a viable formation\": not 10 ranks of 1 file", light_by_marsh(),
                    reform_through(files=1), True),
        RuleExample("\"as described above\": files change by 3 at most, so 8 files",
                    light_by_marsh(), reform_through(files=8), False, ("mid_file_change", 3.0)),
        RuleExample("but not 9", light_by_marsh(), reform_through(files=9), True,
                    ("mid_file_change", 4.0)),
        RuleExample("placed off the table", field(unit(light_troops=True), width=38.5,
                                                  terrain=(_marsh(),)),
                    reform_through(centre=(36.2, 14.5)), True, ("mid_overhang", 0.2)),
        RuleExample("placed where it touches no Dangerous Terrain, nothing is relevant there",
                    light_by_marsh(), reform_through(centre=(36.0, 13.0)), True,
                    ("mid_terrain_gap", 1.0)),
        RuleExample("a Light Troops Reform within Mob does not count as a March: no test, "
                    "no placement",
                    field(unit(light_troops=True), terrain=(_marsh(12.5, 13.5),)),
                    reform_through(centre=(36.0, 12.0), end=(36.0, 13.5)), True),
        RuleExample("nor does any other unit's Reform",
                    field(unit(), terrain=(_marsh(12.5, 13.5),)),
                    reform_through(centre=(36.0, 12.0), end=(36.0, 11.5)), True),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        mid = ctx.mid_unit
        if mid is None:
            return ClauseResult()
        parts = (self._relevant(ctx, mid), self._formation(ctx, mid), self._spacing(ctx, mid),
                 self._table(ctx, mid))
        return ClauseResult({k: v for p in parts for k, v in p.measurements.items()},
                            tuple(v for p in parts for v in p.violations),
                            tuple(r for p in parts for r in p.readings))

    def _relevant(self, ctx: MoveContext, mid: Unit) -> ClauseResult:
        """A March's test makes the position relevant where the unit touches the terrain."""
        travel = math.dist(ctx.unit.pose.centre, ctx.end_unit.pose.centre)
        if not light_troops_march(ctx.unit, travel):
            who = "Light Troops" if ctx.unit.light_troops else "a unit not of Light Troops"
            message = (f"a Reform of {who} whose centre travels {travel:.3f}\" does not count "
                       f"as a March (Light Troops beyond Mob {ctx.mobility_in:.3f}\"): no "
                       "model's position is relevant mid-move, so it is not placed")
            return ClauseResult({"mid_march": travel}, (
                Violation(self.id, travel, ctx.mobility_in, "in", message),))
        gaps = [float(mid.boundary().distance(f.shape)) for f in ctx.scenario.terrain
                if f.kind == "dangerous"]
        gap = min(gaps, default=math.inf)
        message = (f"the mid-move placement is {gap:.3f}\" from the nearest Dangerous Terrain: "
                   "no model's position is relevant there, so the unit is not placed there")
        return self.result("mid_terrain_gap", gap, 0.0, gap <= TOUCH_IN, message)

    def _formation(self, ctx: MoveContext, mid: Unit) -> ClauseResult:
        change = abs(mid.files - ctx.unit.files)
        limit = self.whole("musician_limit" if ctx.unit.musician else "limit")
        found = self.result("mid_file_change", change, limit, change <= limit,
                            f"files change from {ctx.unit.files} to {mid.files} mid-move "
                            f"({change}), limit {limit}", dimension="files")
        widths = self.counts("proper_rank_width")
        width = int(widths[min(ctx.unit.height, len(widths) - 1)])
        problem, measured, bound = formation_problem(mid.formation, width, ctx.unit.files)
        if not problem:
            return found
        message = (f"{mid.files} files x {mid.formation.ranks} ranks mid-move is not a viable "
                   f"formation: {problem}")
        return ClauseResult(found.measurements, (*found.violations, Violation(
            self.id, measured, bound, "models", message)), found.readings)

    def _spacing(self, ctx: MoveContext, mid: Unit) -> ClauseResult:
        spacing = self.number("spacing_in")
        shape = mid.boundary()
        close = StartClose.of(ctx.scenario, ctx.unit.id)
        if not close.any_close(spacing):
            gap, label, witness = clearance(shape, ctx.obstacles)
            return self.result("mid_clearance", gap, spacing, more_than(gap, spacing),
                               f"placed mid-move {gap:.3f}\" from {label}, must be more "
                               f"than {spacing:.3f}\"", witness)
        found = nearest_limit(shape, ctx.obstacles, close, spacing, "placed mid-move, it")
        if found is None:
            return self.result("mid_clearance", math.inf, spacing, True, "")
        gap, limit, legal, why, witness = found
        return self.result("mid_clearance", gap, limit, legal, why, witness)

    def _table(self, ctx: MoveContext, mid: Unit) -> ClauseResult:
        over = overhang(mid.boundary(), ctx.scenario.battlefield)
        return self.result("mid_overhang", over, 0.0, within(over, 0.0),
                           f"placed mid-move it reaches {over:.3f}\" past the table edge, "
                           "limit 0\"")

    def masker(self, setting: object) -> Masker | None:
        """A search places no unit mid-move, so this clause refuses none of its poses."""
        return None

    def encode(self, ectx: EncodeContext) -> None:
        """No rows: a searched Reform states no mid-move placement, which passes here."""

