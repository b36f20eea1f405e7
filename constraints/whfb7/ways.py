"""A searched Warhammer way as one option (optimizer.families.whfb7): an optional wheel w and
an optional turn on the spot (its fixed prefix, in that order), forward a, one wheel t,
forward b; and the move a reform option stands for.

The option (constraints.sat.option) carries the way in the unit's start frame: the end centre
d = wheel_shift + a first_dir + b end_dir, a = a_map . (d, 1), b = b_map . (d, 1) (from the
unit after its prefix); the prefix wheel w is its `pivot_deg` (whfb7 has no Pivot), and the
turn is what its end facing has beyond the two wheels (0, 90, -90 or 180).
"""

from __future__ import annotations

from constraints.core.clause import Clause
from constraints.geometry.plane import normalise_deg
from constraints.rank_and_file.steps import Step, forward, turn, wheel
from constraints.rank_and_file.sweeps import step_sweep
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.sat.option import Option
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.moves import Manoeuvre, WarhammerMove

TURNS_DEG = (0.0, 90.0, -90.0, 180.0)
# Reform options judged between looks at the search's limits (a check is about 5 ms under load).
REFORM_WATCH = 64


def option_turn(option: Option) -> float:
    """The option's turn on the spot before its way (degrees: 0, 90, -90 or 180)."""
    rest = normalise_deg(option.frame_facing_deg - 90.0 - option_pre_wheel(option) -
                         option.wheel_deg)
    signed = rest - 360.0 if rest > 180.0 + 1e-6 else rest
    return min(TURNS_DEG, key=lambda t: abs(t - signed))


def option_pre_wheel(option: Option) -> float:
    """The option's wheel before its turn and its first leg (degrees; 0: none)."""
    return option.pivot_deg


def prefix_steps(turn_deg: float, pre_wheel_deg: float = 0.0) -> tuple[Step, ...]:
    """The fixed steps before the way's first leg: the wheel, then the turn."""
    return tuple(s for s in (wheel(pre_wheel_deg) if pre_wheel_deg else None,
                             turn(turn_deg) if turn_deg else None) if s is not None)


def way_start(unit: Unit, turn_deg: float, pre_wheel_deg: float = 0.0) -> Unit:
    """The unit at the start of the way's first leg: after its wheel and turn, if any."""
    if not pre_wheel_deg:
        return turned(unit, turn_deg) if turn_deg else unit
    for step in prefix_steps(turn_deg, pre_wheel_deg):
        unit = step_sweep(unit, step)[1]
    return unit


def way_steps(turn_deg: float, a_in: float, wheel_deg: float, b_in: float,
              pre_wheel_deg: float = 0.0) -> tuple[Step, ...]:
    """The steps of a way, its zero steps left out."""
    steps = [*prefix_steps(turn_deg, pre_wheel_deg), forward(a_in) if a_in > 0 else None,
             wheel(wheel_deg) if wheel_deg else None, forward(b_in) if b_in > 0 else None]
    return tuple(s for s in steps if s is not None)


def reform_move(unit_id: str, option: Option) -> WarhammerMove:
    """The reform an option stands for: its files and facing, the centre kept."""
    return WarhammerMove(unit_id, Manoeuvre.REFORM, files=option.files,
                         facing_deg=normalise_deg(option.facing_deg))


def reform_failing(clause: Clause, ectx: EncodeContext) -> list[int]:
    """The indexes of the reform options a clause refuses (each option's pose is fixed: the
    centre is kept, so the clause's own check decides it exactly).  Each option's context is
    made once per build and shared by every clause, as the checker shares one context among
    its clauses (its end unit and what it covers are computed once); the search's limits are
    looked at every REFORM_WATCH options."""
    contexts: dict[int, WarhammerContext] = ectx.shared.setdefault("reform_failing", {})
    failing = []
    for option in ectx.watched(ectx.options, REFORM_WATCH):
        ctx = contexts.get(option.index)
        if ctx is None:
            ctx = WarhammerContext(ectx.scenario, reform_move(ectx.unit.id, option))
            contexts[option.index] = ctx
        if clause.check(ctx).violations:
            failing.append(option.index)
    return failing
