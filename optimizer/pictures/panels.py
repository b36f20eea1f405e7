"""Panels of whole combats: every unit's models, characters darker, players in their colours,
models in contact outlined (the before and after pictures of nudges and Combat Reforms)."""

from __future__ import annotations

from collections.abc import Collection

from matplotlib.axes import Axes

from constraints.core.scenario import Scenario
from optimizer.pictures.draw import _draw_boundary, _draw_field, _draw_terrain
from optimizer.pictures.units import draw_models, player_colour


def draw_panel(ax: Axes, scenario: Scenario, players: list[str], title: str,
               in_contact: Collection[str] = ()) -> None:
    """The battlefield with every unit and model; `in_contact` model ids outlined."""
    _draw_field(ax, scenario)
    _draw_terrain(ax, scenario.terrain)
    for unit in scenario.units:
        colour = player_colour(unit.player, players)
        draw_models(ax, unit, colour, in_contact)
        _draw_boundary(ax, unit.corners(), edgecolor=colour, front=colour)
        x, y = unit.pose.centre
        ax.text(x, y, unit.id, ha="center", va="center", fontsize=8, color="black", zorder=8,
                clip_on=True)
    ax.set_title(title, fontsize=10)
