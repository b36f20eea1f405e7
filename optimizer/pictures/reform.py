"""Pictures of a player's Combat Reforms: before and after, models in base contact with an
enemy outlined, characters darker."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import BinaryIO

import shapely
from matplotlib.figure import Figure

from constraints.core.scenario import Scenario
from constraints.rank_and_file.contact import model_contacts
from optimizer.combat_reform.output import status_of
from optimizer.combat_reform.reforms import PlayerReforms
from optimizer.pictures.output import check_output, write_atomically
from optimizer.pictures.panels import draw_panel


def make_reform_figure(before: Scenario, found: PlayerReforms) -> Figure:
    return make_placed_figure(before, found.after,
                              f"after {found.player}'s reforms: {status_of(found)}")


def make_placed_figure(before: Scenario, after: Scenario, title: str) -> Figure:
    """Before and after side by side, `title` over the after panel."""
    figure = Figure(figsize=(14, 6.5), layout="constrained")
    left, right = figure.subplots(1, 2)
    players = list(dict.fromkeys(u.player for u in before.units))
    draw_panel(left, before, players, "before the Combat Reforms", _touching(before))
    draw_panel(right, after, players, title, _touching(after))
    shapes = [u.boundary() for u in (*before.units, *after.units)]
    x0, y0, x1, y1 = shapely.union_all(shapes).bounds
    half = max(x1 - x0, y1 - y0) / 2.0 + 2.0
    for ax in (left, right):
        ax.set_xlim((x0 + x1) / 2.0 - half, (x0 + x1) / 2.0 + half)
        ax.set_ylim((y0 + y1) / 2.0 - half, (y0 + y1) / 2.0 + half)
    return figure


def render_reforms_to_file(before: Scenario, found: PlayerReforms, path: str | Path) -> None:
    _save(make_reform_figure(before, found), path)


def render_placed_to_file(before: Scenario, after: Scenario, title: str,
                          path: str | Path) -> None:
    _save(make_placed_figure(before, after, title), path)


def _save(figure: Figure, path: str | Path) -> None:
    out = check_output(path)

    def save(stream: BinaryIO) -> None:
        figure.savefig(stream, format=out.suffix.lower()[1:], dpi=150, bbox_inches="tight")
    write_atomically(out, save)


def _touching(scenario: Scenario) -> set[str]:
    """Every model in base contact with an enemy model."""
    found: set[str] = set()
    for a, b in combinations(scenario.units, 2):
        if a.player != b.player:
            for x, y in model_contacts(a, b):
                found.update((x, y))
    return found
