"""route.table: the base stays on the table (docs/rules.md §13.4).

Decision: a trooper's base never leaves the battlefield, so its centre keeps its radius
from every table edge.  Measured: the least distance from the centre's path to the edge.
"""

from __future__ import annotations

import math

import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, EVERY_SKILL, RouteClause, RouteExample
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import town, walk
from constraints.infinity.surfaces import table_of


class Table(RouteClause):
    id = "route.table"
    skills = EVERY_SKILL

    def check(self, ctx: RouteContext) -> ClauseResult:
        r = ctx.trooper.radius_in
        table = table_of(ctx.scenario)
        least, worst = math.inf, None
        for leg in ctx.legs:
            line = leg.line
            gap = float(shapely.distance(line, table.exterior)) if table.covers(line) else 0.0
            if gap < least:
                least, worst = gap, leg
        if worst is None:
            return ClauseResult({"table_margin": least})
        return self.result("table_margin", least, r, least >= r - CLEAR_TOL_IN,
                           f"the base leaves the table: its centre comes {least:.3f} in from "
                           f"the edge, less than its radius {r:.3f} in",
                           (worst.start[:2], worst.end[:2]))

    examples = (
        RouteExample("well inside the table", town(), walk((4, 12, 0), (4, 8, 0)), False,
                     ("table_margin", 4.0)),
        RouteExample("up to the edge: the base would hang off", town(),
                     walk((4, 12, 0), (0.3, 12, 0)), True, ("table_margin", 0.3)),
        RouteExample("the base just on the table (0.5 in from the edge)", town(),
                     walk((4, 12, 0), (0.5, 12, 0)), False, ("table_margin", 0.5)),
    )
