"""Combats: groups of enemy units held together by contact (docs/rules.md §11.1).

    "They stay Engaged as long as their Unit Boundaries touch an enemy Unit Boundary."
    [T9A3 "Engaged in Combat"]

A combat is a connected group of units in which each unit touches at least one enemy of the
group: the connected components, of two units or more, of the graph whose edges join enemy
units in contact.  Units of the same player touching do not fight and make no edge.
Everything is sorted by unit id, so the answers do not depend on the order of the units.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from constraints.rank_and_file.contact import (
    CONTACT_IN,
    in_contact,
    named_facing,
    touched_facings,
)
from constraints.rank_and_file.unit import Unit

if TYPE_CHECKING:  # networkx is loaded when a graph is built: a move's check never needs it
    import networkx as nx

Combat = tuple[str, ...]


def contact_graph(units: Iterable[Unit], tolerance: float = CONTACT_IN) -> nx.Graph:
    """Every unit id as a node; an edge joins two units of different players whose Unit
    Boundaries touch (docs/rules.md §11.1), within the contact tolerance (A21).

    Edge attributes, keyed by the unit id of each side: `facing`, the side's Facing in which
    the other engages it (`engaged_facing`), and `touched`, all its Facings the other
    touches (`touched_facings`)."""
    import networkx as nx

    ordered = sorted(units, key=lambda u: u.id)
    graph = nx.Graph()
    graph.add_nodes_from(u.id for u in ordered)
    boundaries = {u.id: u.boundary() for u in ordered}
    for a, b in combinations(ordered, 2):
        if a.player == b.player \
                or not in_contact(boundaries[a.id], boundaries[b.id], tolerance):
            continue
        touched = {a.id: touched_facings(a, boundaries[b.id], tolerance),
                   b.id: touched_facings(b, boundaries[a.id], tolerance)}
        facing = {a.id: named_facing(a, boundaries[b.id], touched[a.id], tolerance),
                  b.id: named_facing(b, boundaries[a.id], touched[b.id], tolerance)}
        graph.add_edge(a.id, b.id, touched=touched, facing=facing)
    return graph


def combats(units: Iterable[Unit], tolerance: float = CONTACT_IN) -> list[Combat]:
    """The combats: each group of two or more units joined by enemy contact, its unit ids
    sorted, the list sorted."""
    import networkx as nx

    graph = contact_graph(units, tolerance)
    found = (tuple(sorted(part)) for part in nx.connected_components(graph))
    return sorted(c for c in found if len(c) >= 2)


def engagements(units: Iterable[Unit],
                tolerance: float = CONTACT_IN) -> dict[str, dict[str, str]]:
    """For each Engaged unit: enemy id -> the unit's own Facing in which that enemy engages
    it ("Engaged in a Facing", docs/rules.md §11.1).  Unengaged units are left out."""
    graph = contact_graph(units, tolerance)
    found: dict[str, dict[str, str]] = {}
    for uid in sorted(graph.nodes):
        enemies = sorted(graph.neighbors(uid))
        if enemies:
            found[uid] = {e: graph.edges[uid, e]["facing"][uid] for e in enemies}
    return found


def engaged_ids(units: Iterable[Unit], tolerance: float = CONTACT_IN) -> frozenset[str]:
    """The units touching at least one enemy unit (the Facings not measured: cheaper than
    `engagements` where only who is Engaged matters)."""
    ordered = list(units)
    boundaries = [u.boundary() for u in ordered]
    found: set[str] = set()
    for (i, a), (j, b) in combinations(enumerate(ordered), 2):
        if a.player != b.player and (a.id not in found or b.id not in found) \
                and in_contact(boundaries[i], boundaries[j], tolerance):
            found.update((a.id, b.id))
    return frozenset(found)


def split(before: Sequence[Combat], after: Sequence[Combat]) -> dict[Combat, list[Combat]]:
    """The combats of `before` that fell apart into several combats of `after`, each with
    those parts (sorted).  A combat that only lost units, keeping one group, did not split."""
    found: dict[Combat, list[Combat]] = {}
    for combat in before:
        members = set(combat)
        parts = sorted(c for c in after if members.intersection(c))
        if len(parts) >= 2:
            found[combat] = parts
    return found
