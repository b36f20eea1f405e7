"""Exposure of a route (docs/rules.md §13.10): for each enemy, the
stretches of the route (arc lengths, inches) where it can draw Line of Fire to the moving
trooper from its front 180°, and where the trooper is in its Zone of Control.

- Zone of Control (§5.9, .11): a cylinder 8" round the enemy's Silhouette's outer edge and 8"
  above and below it; the trooper is in it when its Silhouette touches or overlaps it.  Along
  a straight leg both the plane distance and the heights are closed forms in the leg's
  parameter, so the stretches are exact.
- Line of Fire (`lof`): asked at points every `spacing_in` along the route and at each of its
  corners (the moving trooper does not block, A23).  A stretch runs from the last point not
  seen before it to the first point not seen after it (the change is somewhere between):
  conservative, over by at most one spacing at each end; the answer says `"sampled":
  spacing`.

The enemies are the troopers of other players (markers neither react here nor block).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from constraints.core.scenario import Scenario
from constraints.infinity.lof import DEFAULT_MIN_VISIBLE_MM, Sight, blocking_volumes, silhouette
from constraints.infinity.route import AIRBORNE, Route, trooper_of
from constraints.infinity.scenery import Point3
from constraints.infinity.trooper import Trooper

ZONE_OF_CONTROL_IN = 8.0
DEFAULT_SPACING_IN = 0.25
Stretch = tuple[float, float]


@dataclass(frozen=True)
class EnemyExposure:
    enemy: str
    lof: tuple[Stretch, ...]
    zoc: tuple[Stretch, ...]
    all_around: bool           # the enemy has no facing: taken to see all around

    @property
    def exposed_in(self) -> float:
        return sum(b - a for a, b in self.lof)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"enemy": self.enemy, "lof": [[round(a, 6), round(b, 6)]
                                                            for a, b in self.lof],
                                  "zoc": [[round(a, 6), round(b, 6)] for a, b in self.zoc]}
        if self.all_around:
            out["all_around"] = True
        return out


@dataclass(frozen=True)
class Exposure:
    unit: str
    length_in: float
    enemies: tuple[EnemyExposure, ...]
    spacing_in: float
    min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM

    @property
    def aro_by(self) -> tuple[str, ...]:
        """The enemies with Line of Fire somewhere on the route."""
        return tuple(e.enemy for e in self.enemies if e.lof)

    @property
    def zoc_by(self) -> tuple[str, ...]:
        """The enemies that only sense it in their Zone of Control."""
        return tuple(e.enemy for e in self.enemies if e.zoc and not e.lof)

    @property
    def exposed_in(self) -> float:
        """The route's length in some enemy's Line of Fire, summed over the enemies."""
        return sum(e.exposed_in for e in self.enemies)

    def key(self) -> tuple[int, float, float]:
        """Safest first: fewest enemies able to ARO, least exposed length, shortest."""
        return (len(self.aro_by), round(self.exposed_in, 9), round(self.length_in, 9))

    def to_json(self) -> dict[str, object]:
        return {"exposure": [e.to_json() for e in self.enemies], "aro_by": list(self.aro_by),
                "zoc_by": list(self.zoc_by), "exposed": round(self.exposed_in, 6),
                "sampled": self.spacing_in, "min_visible_mm": self.min_visible_mm}

    def text(self) -> str:
        lines = [f"  exposure (LoF sampled every {self.spacing_in:g} in): "
                 f"ARO by {', '.join(self.aro_by) or 'nobody'}; Zone of Control only: "
                 f"{', '.join(self.zoc_by) or 'nobody'}; {self.exposed_in:.3f} in exposed"]
        for e in self.enemies:
            if e.lof or e.zoc:
                lof = ", ".join(f"{a:.2f}-{b:.2f}" for a, b in e.lof) or "none"
                zoc = ", ".join(f"{a:.2f}-{b:.2f}" for a, b in e.zoc) or "none"
                around = " (no facing: all around)" if e.all_around else ""
                lines.append(f"    {e.enemy}{around}: LoF {lof}; ZoC {zoc}")
        return "\n".join(lines)


def _leg_length(a: Point3, b: Point3, airborne: bool) -> float:
    """A walk is measured in the plane; a ladder (a change of level) and a Jump along it."""
    if airborne or abs(a[2] - b[2]) > 1e-9:
        return math.dist(a, b)
    return math.dist(a[:2], b[:2])


def _stations(path: tuple[Point3, ...], airborne: bool,
              spacing: float) -> list[tuple[float, Point3]]:
    """(arc length, point) every `spacing` along the path and at each corner."""
    out: list[tuple[float, Point3]] = [(0.0, path[0])]
    walked = 0.0
    for a, b in zip(path, path[1:], strict=False):
        length = _leg_length(a, b, airborne)
        if length > 0.0:
            k = math.floor(walked / spacing) + 1
            while k * spacing < walked + length - 1e-9:
                t = (k * spacing - walked) / length
                out.append((k * spacing, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]),
                                          a[2] + t * (b[2] - a[2]))))
                k += 1
        walked += length
        out.append((walked, b))
    return out


def stretch_points(path: tuple[Point3, ...], airborne: bool, s0: float,
                   s1: float) -> list[Point3]:
    """The part of the path between arc lengths s0 and s1 (to draw a stretch)."""
    out: list[Point3] = []
    walked = 0.0
    for a, b in zip(path, path[1:], strict=False):
        length = _leg_length(a, b, airborne)
        lo, hi = max(s0, walked), min(s1, walked + length)
        if lo <= hi and length > 0.0:
            for s in (lo, hi):
                t = (s - walked) / length
                p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]))
                if not out or math.dist(out[-1], p) > 1e-12:
                    out.append(p)
        walked += length
    return out


def _runs(stations: list[tuple[float, Point3]], seen: list[bool]) -> tuple[Stretch, ...]:
    """The seen runs, each widened to the unseen stations on either side of it."""
    found: list[Stretch] = []
    n = len(seen)
    k = 0
    while k < n:
        if not seen[k]:
            k += 1
            continue
        j = k
        while j + 1 < n and seen[j + 1]:
            j += 1
        start = stations[max(k - 1, 0)][0]
        end = stations[min(j + 1, n - 1)][0]
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], end)
        else:
            found.append((start, end))
        k = j + 1
    return tuple(found)


def zone_of_control(enemy: Trooper, mover: Trooper, path: tuple[Point3, ...],
                    airborne: bool) -> tuple[Stretch, ...]:
    """The exact stretches of the path where `mover`'s Silhouette touches `enemy`'s Zone of
    Control."""
    reach = enemy.radius_in + ZONE_OF_CONTROL_IN + mover.radius_in
    low = enemy.level_in - ZONE_OF_CONTROL_IN - mover.height_in   # the mover's z above this
    high = enemy.level_in + enemy.height_in + ZONE_OF_CONTROL_IN  # and below this
    found: list[Stretch] = []
    walked = 0.0
    for a, b in zip(path, path[1:], strict=False):
        length = _leg_length(a, b, airborne)
        span = _leg_span(a, b, enemy.centre, reach, low, high)
        if span is not None:
            s0, s1 = walked + span[0] * length, walked + span[1] * length
            if found and s0 <= found[-1][1] + 1e-9:
                found[-1] = (found[-1][0], max(found[-1][1], s1))
            else:
                found.append((s0, s1))
        walked += length
    if len(path) == 1 and _leg_span(path[0], path[0], enemy.centre, reach, low, high):
        found.append((0.0, 0.0))
    return tuple(found)


def _leg_span(a: Point3, b: Point3, centre: tuple[float, float], reach: float, low: float,
              high: float) -> tuple[float, float] | None:
    """[t0, t1] of the leg a -> b within `reach` of `centre` in the plane and with its
    height in [low, high]; None when nowhere."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - centre[0], a[1] - centre[1]
    qa, qb, qc = dx * dx + dy * dy, 2 * (dx * fx + dy * fy), fx * fx + fy * fy - reach * reach
    if qa <= 1e-24:
        if qc > 0:
            return None
        t0, t1 = 0.0, 1.0
    else:
        disc = qb * qb - 4 * qa * qc
        if disc < 0:
            return None
        root = math.sqrt(disc)
        t0, t1 = max(0.0, (-qb - root) / (2 * qa)), min(1.0, (-qb + root) / (2 * qa))
    dz = b[2] - a[2]
    if abs(dz) <= 1e-12:
        if not low <= a[2] <= high:
            return None
    else:
        z0, z1 = sorted(((low - a[2]) / dz, (high - a[2]) / dz))
        t0, t1 = max(t0, z0), min(t1, z1)
    return (t0, t1) if t0 <= t1 else None


def route_exposure(scenario: Scenario, route: Route, spacing_in: float = DEFAULT_SPACING_IN,
                   min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM,
                   coarse: bool = False) -> Exposure:
    """Each enemy's Line of Fire and Zone of Control stretches along the route (see the
    module's text).  Bad input (an unknown unit, a path not starting where it stands) raises
    InvalidInputError.  `coarse`: Line of Fire with a quarter of the samples (screening a
    route search's candidates; never an answer)."""
    mover = trooper_of(scenario, route)
    airborne = route.skill in AIRBORNE
    stations = _stations(route.path, airborne, spacing_in)
    enemies = [u for u in scenario.units if isinstance(u, Trooper) and not u.marker
               and u.player != mover.player]
    found = []
    for enemy in enemies:
        sight = Sight(silhouette(enemy), enemy.facing_deg,
                      blocking_volumes(scenario, {enemy.id, mover.id}), min_visible_mm, coarse)
        seen = [sight.witness(silhouette(mover, p)) is not None for _, p in stations]
        found.append(EnemyExposure(enemy.id, _runs(stations, seen),
                                   zone_of_control(enemy, mover, route.path, airborne),
                                   enemy.facing_deg is None))
    length = stations[-1][0]
    return Exposure(mover.id, length, tuple(found), spacing_in, min_visible_mm)
