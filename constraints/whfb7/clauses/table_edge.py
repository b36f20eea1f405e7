"""The table edge (RULES §4.9 with the 1" rule; docs/rules.md §14): the whole unit stays on
the battlefield throughout a move or march (the area it covers, `unit_sweep`), and a reform
ends on it.  Measured as the overhang past the edge (0 when on the table); touching the edge
is on the table."""

from __future__ import annotations

import math

from constraints.core.clause import Clause, Judges, RuleExample
from constraints.core.limits import within
from constraints.core.scenario import Battlefield
from constraints.core.verdict import ClauseResult
from constraints.geometry.parts import Parts, reach_past
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, fw, march, move, reform, tn, unit, wh
from constraints.whfb7.way_rows import encode_way_table
from constraints.whfb7.ways import reform_failing


def overhang(parts: Parts, table: Battlefield) -> float:
    """How far any of the parts (never their union) reaches past the battlefield's edges
    (0 when on the table)."""
    return reach_past(parts, table.width_in, table.depth_in)


class _TableEdge(Clause):
    what = ""

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        over = overhang(ctx.covered, ctx.scenario.battlefield)
        message = f"{self.what} reaches {over:.3f}\" past the table edge, limit 0\""
        return self.result("overhang", over, 0.0, within(over, 0.0), message)


class TableEdge(_TableEdge):
    judges = Judges.WAY

    examples = (
        RuleExample("touching the far edge is on the table", field(depth=19.0),
                    march(fw(8.0)), False, ("overhang", 0.0)),
        RuleExample("a hair past it is not", field(depth=18.99), march(fw(8.0)), True,
                    ("overhang", 0.01)),
        RuleExample("the whole unit stays on the table on its way: wheeling right, the "
                    "rear-left corner swings past the left edge",
                    field(unit(centre=(2.6, 10.0))), march(wh(-90.0)), True,
                    ("overhang", math.sqrt(29.0) - 5.1)),
        RuleExample("the same wheel from further in stays on",
                    field(unit(centre=(2.9, 10.0))), march(wh(-90.0)), False,
                    ("overhang", 0.0)),
        RuleExample("a unit against the rear edge cannot turn: its models' corners swing "
                    "past it", field(unit(centre=(36.0, 1.0))), move(tn(180.0)), True),
        RuleExample("0.3\" from it, they clear it", field(unit(centre=(36.0, 1.3))),
                    move(tn(180.0)), False, ("overhang", 0.0)),
    )
    what = "the unit, on its way or at the end,"

    def encode(self, ectx: EncodeContext) -> None:
        """The whole way's area on the table (constraints.whfb7.way_rows)."""
        encode_way_table(ectx, self.id)


class ReformTableEdge(_TableEdge):
    judges = Judges.END_POSE

    examples = (
        RuleExample("a reform must end on the table",
                    field(unit(files=10, centre=(36.0, 0.5))), reform(2, 0.0), True,
                    ("overhang", 0.5)),
        RuleExample("a reform that keeps the unit's footprint stays on it",
                    field(unit(files=10, centre=(36.0, 0.5))), reform(10, 270.0), False,
                    ("overhang", 0.0)),
    )
    what = "the reformed unit"

    def encode(self, ectx: EncodeContext) -> None:
        """A reform option's pose is fixed (the centre kept): forbid those it refuses."""
        for index in reform_failing(self, ectx):
            ectx.enc.forbid(index, self.id)
