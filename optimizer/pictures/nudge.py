"""Pictures of a nudge resolution: the combat before (as it stood when the boundaries froze)
and after (re-formed units, each nudge as arrows along its legs)."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import numpy as np
import shapely
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.unit import Unit
from optimizer.nudge.least import NudgeFound
from optimizer.nudge.resolve import NudgeResult
from optimizer.pictures.draw import _draw_boundary
from optimizer.pictures.output import check_output, write_atomically
from optimizer.pictures.panels import draw_panel

ARROW = "#e07b00"


def make_nudge_figure(result: NudgeResult) -> Figure:
    figure = Figure(figsize=(14, 6.5), layout="constrained")
    before, after = figure.subplots(1, 2)
    players = list(dict.fromkeys(u.player for u in result.before.units))
    draw_panel(before, result.before, players, "before: as the boundaries froze "
           "(casualties crossed)")
    if result.frozen is not None:
        _cross_casualties(before, result.before, result.frozen)
    draw_panel(after, result.after, players, f"after: {result.status}, "
           f"{len(result.nudges)} nudge(s)")
    for found in result.nudges:
        _draw_legs(after, result.after.unit(found.unit), found)
    bounds = _combat_bounds(result)
    for ax in (before, after):
        ax.set_xlim(bounds[0], bounds[2])
        ax.set_ylim(bounds[1], bounds[3])
    return figure


def render_nudge_to_file(result: NudgeResult, path: str | Path) -> None:
    out = check_output(path)
    figure = make_nudge_figure(result)

    def save(stream: BinaryIO) -> None:
        figure.savefig(stream, format=out.suffix.lower()[1:], dpi=150, bbox_inches="tight")
    write_atomically(out, save)


def _cross_casualties(ax: Axes, before: Scenario, frozen: Scenario) -> None:
    """A cross on every model the casualties removed."""
    for unit in before.units:
        left = set(frozen.unit(unit.id).formation.occupied_slots())
        for _, slot in unit.formation.layout():
            if slot not in left:
                x, y = unit.slot_centre(slot)
                ax.plot([x], [y], marker="x", markersize=9, color="black", zorder=7)


def _draw_legs(ax: Axes, unit: Unit, found: NudgeFound) -> None:
    """Arrows along the legs, ending where the unit now stands."""
    total = np.sum([leg.shift(unit.pose.facing_deg) for leg in found.legs], axis=0)
    point = np.asarray(unit.pose.centre) - total
    start = unit.with_pose(Pose((float(point[0]), float(point[1])), unit.pose.facing_deg))
    _draw_boundary(ax, start.corners(), edgecolor=ARROW, front=ARROW, linestyle="--",
                   alpha=0.8)
    for leg in found.legs:
        step = leg.shift(unit.pose.facing_deg)
        ax.annotate("", xy=tuple(point + step), xytext=tuple(point),
                    arrowprops={"arrowstyle": "->", "color": ARROW, "linewidth": 2.0},
                    zorder=9)
        point = point + step
    x, y = unit.pose.centre
    ax.text(x, y, f"\n\n{found.distance_in:.3f}\"", ha="center", va="top", fontsize=7,
            color=ARROW, zorder=9, clip_on=True)


def _combat_bounds(result: NudgeResult, margin_in: float = 2.0) -> tuple[float, ...]:
    """The units engaged before, both panels, with a margin; square enough for labels."""
    shapes = [u.boundary() for u in (*result.before.units, *result.after.units)]
    x0, y0, x1, y1 = shapely.union_all(shapes).bounds
    half = max(x1 - x0, y1 - y0) / 2.0 + margin_in
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    return (cx - half, cy - half, cx + half, cy + half)
