"""Pictures of Infinity routes and reachable areas: scenery shaded by height with its
height written on it, ladders, troopers by player, the route (levels marked where it
climbs), the first Move's end, the reachable area per level, and violations in red."""

from __future__ import annotations

import math
from pathlib import Path
from typing import BinaryIO

import matplotlib.cm as cm
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from constraints.core.scenario import Scenario
from constraints.infinity.checker import RouteVerdict
from constraints.infinity.exposure import Exposure, stretch_points
from constraints.infinity.route import Route
from constraints.infinity.scenery import Connector, Scenery
from optimizer.pictures.draw import BAD, FIELD, draw_geometry, polygon_patch
from optimizer.pictures.output import check_output, write_atomically
from optimizer.routes.area import ReachableArea

PLAYERS = ("tab:blue", "tab:red", "tab:green", "tab:orange")
ROUTE = "#1f1f1f"
MAX_LABELS = 40


def make_route_figure(scenario: Scenario, route: Route | None = None,
                      verdict: RouteVerdict | None = None,
                      area: ReachableArea | None = None, title: str = "",
                      exposure: Exposure | None = None) -> Figure:
    figure = Figure(figsize=(8, 8 * scenario.battlefield.depth_in / scenario.battlefield.width_in
                             + 0.6))
    ax = figure.add_subplot()
    draw_town(ax, scenario)
    if area is not None:
        _draw_area(ax, area)
    if route is not None:
        _draw_route(ax, route, verdict)
        if exposure is not None:
            _draw_exposure(ax, scenario, route, exposure)
    ax.set_title(title or _title(route, verdict, area), fontsize=10)
    ax.legend(loc="upper right", fontsize=7, framealpha=0.85)
    return figure


def render_route_to_file(scenario: Scenario, path: str | Path, route: Route | None = None,
                         verdict: RouteVerdict | None = None,
                         area: ReachableArea | None = None,
                         exposure: Exposure | None = None) -> None:
    out = check_output(path)
    figure = make_route_figure(scenario, route, verdict, area, exposure=exposure)

    def save(stream: BinaryIO) -> None:
        figure.savefig(stream, format=out.suffix.lower()[1:], dpi=150, bbox_inches="tight")
    write_atomically(out, save)


def draw_town(ax: Axes, scenario: Scenario) -> None:
    """The table, scenery shaded by its top's height, ladders and troopers."""
    w, d = scenario.battlefield.width_in, scenario.battlefield.depth_in
    ax.set_xlim(0, w)
    ax.set_ylim(0, d)
    ax.set_aspect("equal")
    ax.set_facecolor(FIELD)
    solids = [t for t in scenario.terrain if isinstance(t, Scenery)]
    top = max((s.top_in for s in solids), default=1.0)
    labels = len(solids) <= MAX_LABELS
    for s in sorted(solids, key=lambda s: s.top_in):
        shade = cm.Greys(0.25 + 0.6 * s.top_in / top)
        hatch = None if s.standable else "//"
        ax.add_patch(polygon_patch(s.shape, facecolor=shade, edgecolor="#303030", hatch=hatch,
                                   linewidth=0.6, zorder=1))
        if labels:
            x, y = s.shape.representative_point().coords[0]
            ax.text(x, y, f"{s.top_in:g}", ha="center", va="center", fontsize=6,
                    color="white" if s.top_in > top / 2 else "black", zorder=2)
    for c in (t for t in scenario.terrain if isinstance(t, Connector)):
        ax.plot([c.start[0], c.end[0]], [c.start[1], c.end[1]], color="#8c564b", linewidth=2.5,
                solid_capstyle="butt", zorder=3)
    players = sorted({u.player for u in scenario.units})
    for u in scenario.units:
        colour = PLAYERS[players.index(u.player) % len(PLAYERS)]
        ax.add_patch(Circle(u.centre, u.radius_in, facecolor=colour, edgecolor="black",
                            alpha=0.4 if u.marker else 0.8, linewidth=0.6, zorder=6,
                            linestyle="--" if u.marker else "-"))
        ax.text(u.centre[0], u.centre[1] + u.radius_in + 0.15, u.id, ha="center",
                va="bottom", fontsize=6, zorder=7)


def _draw_area(ax: Axes, area: ReachableArea) -> None:
    colours = cm.viridis
    levels = list(area.levels)
    for k, (level, geometry) in enumerate(area.levels.items()):
        draw_geometry(ax, geometry, facecolor=colours(k / max(1, len(levels))), alpha=0.35,
                      edgecolor="none", zorder=4, label=f"reachable at level {level:g} in")
    for geometry in area.outer.values():
        draw_geometry(ax, geometry, facecolor="none", edgecolor="#555555", linewidth=0.4,
                      linestyle=":", zorder=4)


def _draw_route(ax: Axes, route: Route, verdict: RouteVerdict | None) -> None:
    xs, ys = [p[0] for p in route.path], [p[1] for p in route.path]
    colour = BAD if verdict is not None and not verdict.legal else ROUTE
    ax.plot(xs, ys, color=colour, linewidth=1.6, zorder=8, label="route")
    ax.plot(xs[-1:], ys[-1:], marker="o", color=colour, zorder=9)
    for a, b in zip(route.path, route.path[1:], strict=False):
        if abs(a[2] - b[2]) > 1e-6:
            ax.annotate(f"{a[2]:g}→{b[2]:g}", ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2),
                        fontsize=6, color="#8c564b", zorder=9)
    if route.midpoint is not None:
        m = route.path[route.midpoint]
        ax.plot([m[0]], [m[1]], marker="s", color="tab:purple", zorder=9,
                label="first Move ends")
    if verdict is not None:
        for v in verdict.violations:
            for x, y in v.witness[:1]:
                ax.plot([x], [y], marker="x", color=BAD, markersize=8, zorder=10)


EXPOSED = ("tab:red", "tab:orange", "tab:pink", "tab:brown", "tab:olive", "tab:cyan")


def _draw_exposure(ax: Axes, scenario: Scenario, route: Route, exposure: Exposure) -> None:
    """Each enemy's Line of Fire stretches along the route, in its own colour, with a thin
    line from the enemy to each stretch; its facing as an arrow; its Zone of Control dotted."""
    airborne = route.skill in ("jump", "climb")
    for k, e in enumerate(exposure.enemies):
        colour = EXPOSED[k % len(EXPOSED)]
        enemy = scenario.unit(e.enemy)
        facing = getattr(enemy, "facing_deg", None)
        if facing is not None:
            ax.annotate("", xy=(enemy.centre[0] + 1.2 * math.cos(math.radians(facing)),
                                enemy.centre[1] + 1.2 * math.sin(math.radians(facing))),
                        xytext=enemy.centre, zorder=7,
                        arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 1.2})
        for n, (s0, s1) in enumerate(e.lof):
            pts = stretch_points(route.path, airborne, s0, s1)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, linewidth=5,
                    alpha=0.6, solid_capstyle="butt", zorder=7,
                    label=f"LoF of {e.enemy}" if n == 0 else None)
            mid = pts[len(pts) // 2]
            ax.plot([enemy.centre[0], mid[0]], [enemy.centre[1], mid[1]], color=colour,
                    linewidth=0.6, linestyle="--", zorder=7)
        for s0, s1 in e.zoc:
            pts = stretch_points(route.path, airborne, s0, s1)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour, linewidth=1.0,
                    linestyle=":", zorder=8)


def _title(route: Route | None, verdict: RouteVerdict | None, area: ReachableArea | None) -> str:
    parts = []
    if route is not None and verdict is not None:
        word = "legal" if verdict.legal else "illegal: " + ", ".join(verdict.clauses())
        parts.append(f"{route.unit} {route.skill}, {verdict.length_in:.3f} in, {word}")
    if area is not None:
        parts.append(f"{area.unit} within {area.mov_in:g} in: {area.area_in2:.1f} sq in "
                     f"({area.status})")
    return "; ".join(parts)
