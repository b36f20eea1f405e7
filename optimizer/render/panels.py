"""Panels of whole combats: every unit's models, characters darker, players in their colours,
models in contact outlined (the before and after pictures of nudges and Combat Reforms)."""

from __future__ import annotations

from collections.abc import Collection

from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from constraints.core.scenario import Scenario
from constraints.rank_and_file.unit import Unit
from optimizer.render.draw import _draw_boundary, _draw_field, _draw_terrain

PLAYER_COLOURS = ("#1f5fa8", "#b02a2a", "#2a8a3e", "#8a5a00")
# Players named after a colour are drawn in it; others take the palette in order.
NAMED = {"blue": "#1f5fa8", "red": "#b02a2a", "green": "#2a8a3e", "yellow": "#8a5a00"}
CONTACT = "#f0a000"


def draw_panel(ax: Axes, scenario: Scenario, players: list[str], title: str,
               in_contact: Collection[str] = ()) -> None:
    """The battlefield with every unit and model; `in_contact` model ids outlined."""
    _draw_field(ax, scenario)
    _draw_terrain(ax, scenario.terrain)
    for unit in scenario.units:
        colour = NAMED.get(unit.player.lower(), PLAYER_COLOURS[
            players.index(unit.player) % len(PLAYER_COLOURS)] if unit.player in players
            else "#505050")
        _draw_models(ax, unit, colour, in_contact)
        _draw_boundary(ax, unit.corners(), edgecolor=colour, front=colour)
        x, y = unit.pose.centre
        ax.text(x, y, unit.id, ha="center", va="center", fontsize=8, color="black", zorder=8,
                clip_on=True)
    ax.set_title(title, fontsize=10)


def _draw_models(ax: Axes, unit: Unit, colour: str, in_contact: Collection[str]) -> None:
    """Each model's base, characters darker, models in contact outlined; empty slots are
    not drawn (gaps show)."""
    chars = unit.formation.character_slots()
    w, d = unit.base.width_in, unit.base.depth_in
    for mid, (_, slot) in zip(unit.model_ids(), unit.formation.layout(), strict=True):
        x, y = unit.slot_centre(slot)
        touching = mid in in_contact
        ax.add_patch(Rectangle((x - w / 2.0, y - d / 2.0), w, d,
                               angle=unit.pose.facing_deg - 90.0, rotation_point="center",
                               facecolor=colour, alpha=0.55 if slot in chars else 0.2,
                               edgecolor=CONTACT if touching else colour,
                               linewidth=1.6 if touching else 0.5, zorder=2))


