"""Bad input an Infinity scenario may hold (exit status 2, one line naming it): scenery that
overlaps or stands on nothing, a ladder that touches no level, a trooper inside scenery or
inside another trooper, or off the table."""

from __future__ import annotations

import math

import shapely

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.infinity.scenery import Connector, Scenery
from constraints.infinity.surfaces import LEVEL_TOL_IN, Surfaces, standing_on, table_of
from constraints.infinity.trooper import Trooper

INSIDE_IN = 1e-6  # a base reaching this far into taller scenery is inside it


def check_placement(scenario: Scenario) -> None:
    _scenery(scenario)
    surfaces = Surfaces(scenario, 0.0)
    for i, feature in enumerate(scenario.terrain):
        if isinstance(feature, Connector):
            _connector(surfaces, feature, f"$.terrain[{i}]")
    units: list[Trooper] = list(scenario.units)
    for i, trooper in enumerate(units):
        _trooper(scenario, surfaces, trooper, f"$.units[{i}]")
        for other in units[:i]:
            if _overlap(trooper, other, _tolerance(scenario)):
                raise InvalidInputError(f"trooper {trooper.id!r} overlaps trooper "
                                        f"{other.id!r}", path=f"$.units[{i}]")


def _scenery(scenario: Scenario) -> None:
    solids = [(i, t) for i, t in enumerate(scenario.terrain) if isinstance(t, Scenery)]
    table = table_of(scenario)
    for i, s in solids:
        where = f"$.terrain[{i}]"
        if not table.covers(s.shape):
            raise InvalidInputError(f"scenery {s.id!r} is off the battlefield", path=where)
        if s.level_in > LEVEL_TOL_IN and not any(standing_on(s, o) for _, o in solids):
            raise InvalidInputError(f"scenery {s.id!r} stands at level {s.level_in:g} in "
                                    f"on no roof of that height", path=where)
        for j, o in solids:
            if j >= i or standing_on(s, o) or standing_on(o, s):
                continue
            if o.shape.relate_pattern(s.shape, "2********"):
                raise InvalidInputError(f"scenery {s.id!r} overlaps {o.id!r}", path=where)


def _connector(surfaces: Surfaces, c: Connector, where: str) -> None:
    for key, end in (("from", c.start), ("to", c.end)):
        k = surfaces.piece_at(*end)
        if k is None or not surfaces.pieces[k].standable:
            raise InvalidInputError(f"{c.kind} {c.id!r} touches no level at "
                                    f"({end[0]:g}, {end[1]:g}, {end[2]:g})", path=f"{where}.{key}")


def _trooper(scenario: Scenario, surfaces: Surfaces, t: Trooper, where: str) -> None:
    if not table_of(scenario).covers(t.boundary()):
        raise InvalidInputError(f"trooper {t.id!r} is off the battlefield", path=where)
    under = surfaces.top_under(*t.centre)
    if abs(under.top_in - t.level_in) > LEVEL_TOL_IN:
        name = "the ground" if under.scenery is None else f"{under.id!r}"
        raise InvalidInputError(f"trooper {t.id!r} at level {t.level_in:g} in is not on a "
                                f"surface: under it is {name} at {under.top_in:g} in",
                                path=where)
    disc = shapely.Point(t.centre).buffer(t.radius_in - INSIDE_IN)
    for p in surfaces.pieces:
        if p.top_in > t.level_in + t.height_in + LEVEL_TOL_IN and p.polygon.intersects(disc):
            raise InvalidInputError(f"trooper {t.id!r} is inside scenery {p.id!r}", path=where)


def _tolerance(scenario: Scenario) -> float:
    """The contact tolerance (A21): bases overlapping by no more than it are in contact."""
    return scenario.contact_tolerance


def _overlap(a: Trooper, b: Trooper, tolerance: float) -> bool:
    """Bases overlapping in the plane by more than the contact tolerance (A21: less is
    contact, not an error), their Silhouettes overlapping in height."""
    apart = math.dist(a.centre, b.centre) - a.radius_in - b.radius_in
    low, high = max(a.level_in, b.level_in), min(a.level_in + a.height_in,
                                                    b.level_in + b.height_in)
    return apart < -max(tolerance, INSIDE_IN) and low < high
