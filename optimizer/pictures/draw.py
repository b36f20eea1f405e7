"""Pictures of scenarios, moves and verdicts (docs/architecture.md).

`draw` paints onto any matplotlib Axes: the battlefield, terrain, every unit and its Front
Facing, the moving unit before (dashed) and after (filled), the area its front swept, its
corners, each violation's witness in red (labelled with the rule's name), and a search's
target.  `render_to_file` writes a PNG or SVG whole or not at all.  No pyplot state is
touched: figures are plain `matplotlib.figure.Figure` objects.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import shapely
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path as MplPath
from shapely.geometry import LineString, Polygon
from shapely.geometry.polygon import orient

from constraints.core.jsonread import point as checked_point
from constraints.core.profile import rule_name
from constraints.core.scenario import Feature, Scenario
from constraints.core.system import find_system
from constraints.core.verdict import Verdict, Violation
from constraints.geometry.plane import Point
from optimizer.pictures.labels import witness_line
from optimizer.pictures.output import check_output, write_atomically
from optimizer.pictures.sketch import MoveSketch
from optimizer.pictures.sketchers import sketch
from optimizer.pictures.units import draw_models, player_colour

Overlay = tuple[shapely.Geometry, dict[str, Any]]
Move = Any  # a move of the scenario's system (its `unit` is the moving unit's id)

FIELD = "#f1f5ea"
BAD = "#d62728"
GOOD = "#2ca02c"
TERRAIN_STYLE: dict[str, dict[str, Any]] = {
    "impassable": {"facecolor": "#5a5a5a", "edgecolor": "#2b2b2b", "hatch": "///"},
    "dangerous": {"facecolor": "#d8bf96", "edgecolor": "#8b6a3e", "hatch": ".."},
}
TARGET = "#9467bd"
# Terrain is labelled by id only when there is little of it; beyond, labels would cover the
# field, and the legend names each kind.
MAX_TERRAIN_LABELS = 12
# Style keys only areas have: lines and points drawn with an area's style drop them.
AREA_ONLY = ("facecolor", "edgecolor", "hatch", "fill")


def draw(ax: Axes, scenario: Scenario, move: Move | None = None,
         verdict: Verdict | None = None, overlays: Sequence[Overlay] = (), *,
         annotate: bool = True, target: Point | None = None) -> None:
    """Draw `scenario` (and `move` with its `verdict`, judged here when not given) onto `ax`.

    `overlays` are (shapely geometry, style kwargs) pairs drawn under the units: areas are
    filled (alpha 0.3 unless styled), lines drawn as lines, points as dots.  `target` (a
    search's target point) is marked.  With `annotate=False` violations are drawn without
    their text labels and without a legend.  The legend goes beside the axes when the
    figure has a layout engine to make room for it, else inside them (never off the canvas).
    """
    _draw_field(ax, scenario)
    _draw_terrain(ax, scenario.terrain)
    for geometry, style in overlays:
        draw_geometry(ax, geometry, **style)
    if move is not None and verdict is None:
        verdict = check_move(scenario, move)
    moving = move.unit if move is not None else None
    players = list(dict.fromkeys(u.player for u in scenario.units))
    _draw_units(ax, scenario, moving, players)
    if move is not None and verdict is not None:
        drawn = sketch(scenario, move, verdict)
        _draw_move(ax, drawn, annotate, player_colour(scenario.unit(move.unit).player, players))
        _draw_violations(ax, drawn, verdict, annotate)
        _set_title(ax, verdict)
    if target is not None:
        x, y = checked_point(target, "target")
        ax.plot([x], [y], marker="X", markersize=9, color=TARGET, markeredgecolor="white",
                linestyle="none", zorder=9, label="search target")
    if annotate and (move is not None or overlays or target is not None
                     or len(scenario.terrain) > MAX_TERRAIN_LABELS):
        _legend(ax)


def _draw_units(ax: Axes, scenario: Scenario, moving: str | None,
                players: list[str]) -> None:
    """Every unit's models and boundary in its player's colour, one legend entry a player
    (the moving unit's boundaries are the move's, drawn by `_draw_move`)."""
    named: set[str] = set()
    for unit in scenario.units:
        colour = player_colour(unit.player, players)
        draw_models(ax, unit, colour)
        if unit.id == moving:
            continue
        label = None if unit.player in named else f"{unit.player}'s units"
        named.add(unit.player)
        _draw_boundary(ax, unit.corners(), edgecolor=colour, front=colour, label=label)
        x, y = unit.pose.centre
        ax.text(x, y, unit.id, ha="center", va="center", fontsize=8, color="black",
                clip_on=True, zorder=6)


def _legend(ax: Axes) -> None:
    figure = ax.get_figure()
    if figure is not None and figure.get_layout_engine() is not None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, framealpha=0.85)
    else:
        ax.legend(loc="upper right", fontsize=7, framealpha=0.85)


def draw_geometry(ax: Axes, geometry: shapely.Geometry, **style: Any) -> None:
    """Draw any shapely geometry: areas as patches, lines as lines, points as dots."""
    if geometry.is_empty:
        return
    if isinstance(geometry, Polygon):
        ax.add_patch(polygon_patch(geometry, **{"alpha": 0.3, **style}))
    elif isinstance(geometry, LineString | shapely.LinearRing):
        xs, ys = geometry.xy
        ax.plot(xs, ys, **_line_style(style))
    elif isinstance(geometry, shapely.Point):
        ax.plot([geometry.x], [geometry.y],
                **{"marker": "o", "linestyle": "none", **_line_style(style)})
    else:  # Multi* and collections: draw each part, labelling only the first
        for i, part in enumerate(shapely.get_parts(geometry)):
            draw_geometry(ax, part, **(style if i == 0 else _unlabelled(style)))


def polygon_patch(polygon: Polygon, **style: Any) -> PathPatch:
    """A patch for a polygon with holes (exterior counter-clockwise, holes clockwise)."""
    shaped = orient(polygon, sign=1.0)
    rings = [shaped.exterior, *shaped.interiors]
    path = MplPath.make_compound_path(*(MplPath(list(r.coords), closed=True) for r in rings))
    return PathPatch(path, **style)


def render_to_file(scenario: Scenario, path: str | Path, move: Move | None = None,
                   verdict: Verdict | None = None, overlays: Sequence[Overlay] = (), *,
                   target: Point | None = None) -> None:
    """Write a picture to `path` (.png or .svg), whole or not at all.

    Parameters
    ----------
    scenario : Scenario
        What to draw.
    path : str or Path
        The picture file; its folder must exist.  It is written to a temporary file there
        and renamed into place, so a failure leaves no partial file.
    move, verdict : optional
        A move and its verdict (judged here when not given): then there are two panels,
        the whole battlefield and a close-up of the move.
    overlays : sequence of (shapely geometry, style)
        Drawn under the units (see `draw`).
    target : (x, y), optional
        A search's target point, marked.

    Raises
    ------
    InvalidInputError
        The name does not end in .png or .svg, or the file cannot be written (naming it).
    """
    out = check_output(path)  # before drawing, which takes a while
    figure = make_figure(scenario, move, verdict, overlays, target=target)

    def save(stream: BinaryIO) -> None:
        figure.savefig(stream, format=out.suffix.lower()[1:], dpi=150, bbox_inches="tight")
    write_atomically(out, save)


def make_figure(scenario: Scenario, move: Move | None = None, verdict: Verdict | None = None,
                overlays: Sequence[Overlay] = (), *, target: Point | None = None) -> Figure:
    """A figure: the battlefield, and beside it a close-up of the move when there is one."""
    if move is not None and verdict is None:
        verdict = check_move(scenario, move)
    if move is None or verdict is None:
        figure = Figure(figsize=(10, 7), layout="constrained")
        draw(figure.add_subplot(), scenario, overlays=overlays, target=target)
        return figure
    figure = Figure(figsize=(15, 7), layout="constrained")
    whole, close = figure.subplots(1, 2, width_ratios=(1.2, 1))
    draw(whole, scenario, move, verdict, overlays, annotate=False, target=target)
    whole.set_title(f"battlefield {scenario.battlefield.width_in:g}\" x "
                    f"{scenario.battlefield.depth_in:g}\"", fontsize=10, color="black",
                    fontweight="normal")
    whole.indicate_inset_zoom(close, edgecolor="black")
    draw(close, scenario, move, verdict, overlays, target=target)
    zoom_to_move(close, scenario, move, verdict, target=target)
    return figure


def zoom_to_move(ax: Axes, scenario: Scenario, move: Move, verdict: Verdict,
                 margin_in: float = 2.0, near_in: float = 3.0, *,
                 target: Point | None = None) -> None:
    """Limit `ax` to the move (start, end, witnesses, the target) and anything within
    `near_in` of it."""
    points: list[Point] = [*scenario.unit(move.unit).corners(), *verdict.end_corners]
    points += [p for v in verdict.violations for p in v.witness]
    points += [] if target is None else [target]
    hull = shapely.MultiPoint(points).convex_hull
    nearby = [u.boundary() for u in scenario.others(move.unit)]
    nearby += [t.shape for t in scenario.terrain]
    shapes = [hull, *(shape for shape in nearby if shape.distance(hull) <= near_in)]
    x0, y0, x1, y1 = shapely.union_all(shapes).bounds
    half = max(x1 - x0, 0.75 * (y1 - y0)) / 2.0 + margin_in  # not too narrow for labels
    ax.set_xlim((x0 + x1) / 2.0 - half, (x0 + x1) / 2.0 + half)
    ax.set_ylim(y0 - margin_in, y1 + margin_in)


def _draw_field(ax: Axes, scenario: Scenario) -> None:
    width, depth = scenario.battlefield.width_in, scenario.battlefield.depth_in
    ax.add_patch(Rectangle((0.0, 0.0), width, depth, facecolor=FIELD, edgecolor="black",
                           linewidth=1.2, zorder=0))
    for spine in ax.spines.values():  # the field's own edge is the border
        spine.set_visible(False)
    ax.set_xlim(-1.0, width + 1.0)
    ax.set_ylim(-1.0, depth + 1.0)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x (inches)", fontsize=8)
    ax.set_ylabel("y (inches)", fontsize=8)
    ax.tick_params(labelsize=7)


def _draw_terrain(ax: Axes, terrain: Sequence[Feature]) -> None:
    """Each feature in its kind's style, one legend entry per kind; ids only when few."""
    seen: set[str] = set()
    for feature in terrain:
        style = TERRAIN_STYLE.get(feature.kind, TERRAIN_STYLE["dangerous"])
        label = None if feature.kind in seen else f"{feature.kind} terrain"
        seen.add(feature.kind)
        ax.add_patch(polygon_patch(feature.shape, linewidth=1.0, zorder=1, label=label, **style))
    if len(terrain) <= MAX_TERRAIN_LABELS:
        _label_terrain(ax, terrain)


def _label_terrain(ax: Axes, terrain: Iterable[Feature]) -> None:
    for feature in terrain:
        x, y = feature.shape.representative_point().coords[0]
        colour, back = ("white", "none") if feature.impassable else ("#4d3a1f", "#f3e9d8")
        ax.text(x, y, feature.id, ha="center", va="center", fontsize=7, color=colour, zorder=6,
                clip_on=True, bbox={"boxstyle": "round,pad=0.15", "facecolor": back,
                                    "edgecolor": "none", "alpha": 0.8})


def _draw_boundary(ax: Axes, corners: Sequence[Point], *, edgecolor: str, front: str,
                   facecolor: str = "none", linestyle: str = "-", alpha: float = 1.0,
                   label: str | None = None) -> None:
    """A Unit Boundary and a thick line along its Front Facing (corners FL, FR, RR, RL)."""
    ax.add_patch(polygon_patch(Polygon(corners), facecolor=facecolor, edgecolor=edgecolor,
                               linestyle=linestyle, linewidth=1.2, alpha=alpha, zorder=3,
                               label=label))
    (lx, ly), (rx, ry) = corners[0], corners[1]
    ax.plot([lx, rx], [ly, ry], color=front, linewidth=3.0, solid_capstyle="butt", zorder=4)


def check_move(scenario: Scenario, move: Move) -> Verdict:
    """The scenario's system's verdict on `move`."""
    return find_system(scenario.rules).check(scenario, move)


def _draw_move(ax: Axes, drawn: MoveSketch, arrows: bool, colour: str) -> None:
    if drawn.swept is not None and not drawn.swept.is_empty:
        draw_geometry(ax, drawn.swept, facecolor=colour, edgecolor="none", alpha=0.15, zorder=2,
                      label=drawn.swept_label)
    if arrows and drawn.centre_path:
        ax.plot(*zip(*drawn.centre_path, strict=True), color=colour, linewidth=0.8,
                linestyle="--", zorder=4, label="centre's path")
    for where, text in drawn.steps if arrows else ():
        ax.plot([where[0]], [where[1]], marker="o", markersize=3, color=colour, zorder=6)
        ax.annotate(text, xy=where, xytext=(6, -4), textcoords="offset points", fontsize=6,
                    color="#0b3d66", zorder=8, bbox={"boxstyle": "round,pad=0.15",
                                                     "facecolor": "white", "alpha": 0.8,
                                                     "edgecolor": "none"})
    for i, arc in enumerate(drawn.arcs):
        ax.plot(*zip(*arc, strict=True), color="#0b3d66", linewidth=1.0, linestyle=":",
                zorder=4, label="outer corner's arc" if i == 0 else None)
    for i, (where, angle) in enumerate(drawn.turns):
        ax.annotate(f"turn {angle:+g}°", xy=where, xytext=(0, 8), textcoords="offset points",
                    fontsize=7, color="#0b3d66", zorder=6, ha="center", va="bottom")
        ax.plot([where[0]], [where[1]], marker="o", markersize=9, markerfacecolor="none",
                markeredgecolor="#0b3d66", linestyle="none", zorder=6,
                label="turn on the spot" if i == 0 else None)
    start, end = drawn.start, drawn.end
    _draw_boundary(ax, start, edgecolor=colour, front=colour, linestyle="--",
                   label=f"{drawn.unit} start")
    _draw_boundary(ax, end, edgecolor=colour, front="#0b3d66", facecolor=colour, alpha=0.4,
                   label=f"{drawn.unit} end ({drawn.end_files} files)")
    if arrows:
        _draw_facing_arrow(ax, start, colour)
        _draw_facing_arrow(ax, end, colour)
    x, y = sum(c[0] for c in start) / 4.0, sum(c[1] for c in start) / 4.0
    ax.text(x, y, drawn.unit, ha="center", va="center", fontsize=8, color=colour,
            zorder=6, clip_on=True)
    ax.plot(*zip(*start, strict=True), "o", markerfacecolor="white", markeredgecolor=colour,
            markersize=4, linestyle="none", zorder=5, label="start corners")
    ax.plot(*zip(*end, strict=True), "o", color="#0b3d66", markersize=4, linestyle="none",
            zorder=5, label="end corners")


def _draw_facing_arrow(ax: Axes, corners: Sequence[Point], colour: str) -> None:
    """A short arrow from the middle of the Front Facing, the way the unit looks."""
    (lx, ly), (rx, ry) = corners[0], corners[1]
    mx, my = (lx + rx) / 2.0, (ly + ry) / 2.0
    cx, cy = sum(c[0] for c in corners) / 4.0, sum(c[1] for c in corners) / 4.0
    scale = 0.6 / max(((mx - cx) ** 2 + (my - cy) ** 2) ** 0.5, 1e-9)
    ax.annotate("", xy=(mx + (mx - cx) * scale, my + (my - cy) * scale), xytext=(mx, my),
                arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.2}, zorder=5)


def _draw_violations(ax: Axes, drawn: MoveSketch, verdict: Verdict, annotate: bool) -> None:
    """Each violation's measurement in red (a polyline, dots at its ends), labelled with
    its rule, measurement and clause id."""
    for i, violation in enumerate(verdict.violations):
        line = witness_line(drawn, violation)
        if line:
            xs, ys = zip(*line, strict=True)
            ax.plot(xs, ys, color=BAD, linewidth=2.0, marker="o", markersize=4, zorder=7,
                    markevery=[0, len(line) - 1],
                    label="what was measured" if i == 0 else None)
        if annotate:
            anchor = line[-1] if line else verdict.end_centre
            _label_violation(ax, violation, anchor, i)


def _label_violation(ax: Axes, violation: Violation, anchor: Point, index: int) -> None:
    text = (f"{rule_name(violation.clause)}\nmeasured {violation.measured:.3f}, "
            f"limit {violation.limit:.3f} {violation.dimension}\n({violation.clause})")
    ax.annotate(text, xy=anchor, xytext=(14, -18 - 30 * index), textcoords="offset points",
                color=BAD, fontsize=7, zorder=8, va="top",
                bbox={"boxstyle": "round,pad=0.25", "facecolor": "white", "alpha": 0.85,
                      "edgecolor": BAD},
                arrowprops={"arrowstyle": "-", "color": BAD, "lw": 0.8})


def _set_title(ax: Axes, verdict: Verdict) -> None:
    head = f"{verdict.unit} {verdict.manoeuvre}: "
    if verdict.legal:
        ax.set_title(head + "LEGAL" + _budget(verdict), color=GOOD, fontsize=11,
                     fontweight="bold")
    else:
        # Rule names for players, each clause id beside its name for reference.
        broken = ", ".join(f"{rule_name(c)} ({c})" for c in dict.fromkeys(verdict.clauses()))
        text = textwrap.fill(head + "ILLEGAL: " + broken, width=80, break_on_hyphens=False)
        ax.set_title(text, color=BAD, fontsize=10, fontweight="bold")


def _budget(verdict: Verdict) -> str:
    """How much of its distance a move used ("7.78 of 8\""), from the reading that measured
    the move's distance; nothing for a move without one (a Reform)."""
    distance = verdict.measurements.get("distance")
    for reading in verdict.readings:
        if distance is not None and reading.dimension == "in" and \
                math.isclose(reading.measured, distance, abs_tol=1e-9):
            return f" ({rule_name(reading.clause)}: {reading.measured:.2f} of " \
                   f"{reading.limit:g}\")"
    return ""


def _unlabelled(style: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in style.items() if k != "label"}


def _line_style(style: dict[str, Any]) -> dict[str, Any]:
    """An area's style for a line or a point (a sweep of zero area is a line): its edge or
    face colour as the colour, the area-only keys dropped."""
    line = {k: v for k, v in style.items() if k not in AREA_ONLY}
    if "color" not in line:
        colour = style.get("edgecolor", "none")
        colour = style.get("facecolor") if colour in ("none", None) else colour
        if colour not in ("none", None):
            line["color"] = colour
    return line
