"""How units look in every picture: each player's colour, and each model's base (characters
darker, models in contact outlined), so a picture shows who is whose and what stands where."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from constraints.rank_and_file.unit import Unit

PLAYER_COLOURS = ("#1f5fa8", "#b02a2a", "#2a8a3e", "#8a5a00")
# Players named after a colour are drawn in it; others take the palette in order.
NAMED = {"blue": "#1f5fa8", "red": "#b02a2a", "green": "#2a8a3e", "yellow": "#8a5a00"}
UNKNOWN = "#505050"
CONTACT = "#f0a000"


def player_colour(player: str, players: Sequence[str]) -> str:
    """The colour of `player` among `players` (the scenario's, in order of appearance)."""
    if player.lower() in NAMED:
        return NAMED[player.lower()]
    if player in players:
        return PLAYER_COLOURS[list(players).index(player) % len(PLAYER_COLOURS)]
    return UNKNOWN


def draw_models(ax: Axes, unit: Unit, colour: str, in_contact: Collection[str] = (),
                zorder: float = 2) -> None:
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
                               linewidth=1.6 if touching else 0.5, zorder=zorder))
