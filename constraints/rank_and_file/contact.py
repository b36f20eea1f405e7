"""Contact between units and between models (docs/rules.md §11.1).

    "Two objects are in contact if they touch along a line or at a single point (corner to
    corner counts), or if one overlaps the other.  Units are in contact when their Unit
    Boundaries touch.  Models are in contact when their bases touch, including across empty
    gaps inside a unit."  [T9A3 "Contact between Objects"]

Touching is measured with the contact tolerance, the rule option `contact_tolerance`
(A21, default `CONTACT_IN` = 0.001", 25 µm): Facings closer than it, a gap or an overlap,
are in base contact, since positions measured at a table are never exact.  Every reader
below takes the tolerance (`tolerance=`); `contact_tolerance(scenario)` gives a scenario's.
Decisions taken here (each also said where it is applied):

* A Facing is touched *along a line* when more than `line_in` (10 x the tolerance) of its
  edge lies within the tolerance of the other object.  It cannot be the tolerance itself: a
  bare corner-to-corner touch already brings about the tolerance (more at shallow angles) of
  each edge within reach.
* A contact at a single point on one of the unit's corners touches both Facings that meet
  there (a corner is on both edges: a unit that fought with its Front and is nudged back
  corner to corner still touches with its Front, seed 001).  Where one Facing must be named
  (`engaged_facing`), it is the one whose Arc holds the other object's centre (§2.1.8, ties
  by A9: Front on a front/flank line, Flank on a flank/rear line).  A single point inside an
  edge counts on that edge.
* An object overlapping the unit without reaching any edge (wholly inside it) is in the
  Facing nearest its centre, which is what the Arcs' 135° lines give when drawn inwards.
* Contact across a gap (§2.6.2) is judged on the *corridor*: the part of the plane between
  the two models that a line perpendicular to both engaged Facings can cross while joining
  them.  Other models of either unit in the corridor remove the lines they cut (a model
  whose whole Facing is covered has no line left); any blocker inside the corridor blocks
  the contact, since "the extended base may not pass" it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from constraints.core.scenario import Scenario
from constraints.geometry.plane import Point, rectangle_corners, unit_vector
from constraints.rank_and_file.unit import Unit

CONTACT_IN = 1e-3  # the default of the rule option `contact_tolerance` (A21)
# A geometric hair: a contact point this close to a corner is at the corner, and a corridor
# across a gap (or what is left of it) needs more width than this.  Contact "along a line"
# needs more edge within the tolerance than a corner touch brings: `line_in`.
LINE_IN = 1e-5
HAIR_IN = 1e-6  # float room in the corridors' geometry (not a contact: see `CONTACT_IN`)
FACINGS = ("front", "right", "rear", "left")
# Two Facings are parallel when the sine of the angle between them is below this: the
# bases of the two units are then aligned to within 1e-6" over a 1000" frontage.
PARALLEL_SIN = 1e-9

Segment = tuple[Point, Point]
Box = tuple[float, float, float, float]  # (lo_u, hi_u, lo_v, hi_v) in a facing's frame
Frame = tuple[np.ndarray, np.ndarray, np.ndarray]  # origin, along the facing, outwards


def contact_tolerance(scenario: Scenario) -> float:
    """The scenario's contact tolerance: its rule option `contact_tolerance` (A21)."""
    return scenario.contact_tolerance


def line_in(tolerance: float) -> float:
    """How much edge within `tolerance` makes a contact "along a line" (10 x tolerance)."""
    return max(LINE_IN, 10.0 * tolerance)


def in_contact(a: BaseGeometry, b: BaseGeometry, tolerance: float = CONTACT_IN) -> bool:
    """Whether two objects touch or overlap: "Two objects are in contact if they touch along
    a line or at a single point (corner to corner counts), or if one overlaps the other."
    [T9A3 "Contact between Objects"]; touching is a distance of at most `tolerance`."""
    return bool(a.distance(b) <= tolerance)


def facing_edges(unit: Unit) -> dict[str, Segment]:
    """Each Facing's edge of the Unit Boundary, in `FACINGS` order, going clockwise.

    "A unit has 4 Facings, the edges of its Unit Boundary: Front, Rear, two Flanks."
    [T9A3 "Models and Units"]"""
    fl, fr, rr, rl = unit.corners()
    return {"front": (fl, fr), "right": (fr, rr), "rear": (rr, rl), "left": (rl, fl)}


def arc_of(unit: Unit, point: Point) -> str:
    """The Facing whose Arc holds `point` (docs/rules.md §2; ties by A9).

    "Its Arcs are the regions in front of each Facing, bounded by straight lines drawn from
    each corner at 135° to both adjacent Facings."  [T9A3 "Models and Units"]"""
    fx, fy = unit_vector(unit.pose.facing_deg)
    dx, dy = point[0] - unit.pose.centre[0], point[1] - unit.pose.centre[1]
    right = dx * fy - dy * fx
    ahead = dx * fx + dy * fy - unit.depth_in / 2.0  # 0 on the front edge
    return local_arc(right, ahead, unit.width_in, unit.depth_in)


def local_arc(x: float, y: float, width: float, depth: float) -> str:
    """The Arc of (x, y) in the local frame of docs/rules.md §2: x to the right, the front
    edge on y = 0 with x in [-width/2, width/2], the rear edge on y = -depth.

    Front Arc iff y >= 0 and |x| - W/2 <= y; Rear Arc iff y <= -D and |x| - W/2 <= -D - y;
    otherwise a Flank Arc by the sign of x.  A9: a point on a front/flank line is Front, on a
    flank/rear line Flank (hence the strict test for the Rear).  Inside the boundary: the
    nearest Facing, Front before Flank before Rear on ties, as the 135° lines drawn inwards
    split it."""
    side = "left" if x < 0 else "right"  # x = 0 only inside a unit narrower than deep
    past = abs(x) - width / 2.0  # how far beyond the flank's line
    if y >= 0 and past <= y:
        return "front"
    if y <= -depth and past < -depth - y:
        return "rear"
    if y >= 0 or y <= -depth or past >= 0:
        return side
    nearest = min((-y, 0, "front"), (-past, 1, side), (depth + y, 2, "rear"))
    return nearest[2]


def touched_facings(unit: Unit, other_boundary: BaseGeometry,
                    tolerance: float = CONTACT_IN) -> frozenset[str]:
    """The Facings of `unit` that `other_boundary` touches: "Engaged in a Facing" is "the
    enemy boundary touches that Facing of the unit" (docs/rules.md §11.1).

    Along a line (more than `line_in` of the edge within the tolerance): every such Facing.
    At a single point: the edge holding it, or, at a corner, both Facings meeting there.
    Empty when the two do not touch."""
    boundary = unit.boundary()
    if not in_contact(boundary, other_boundary, tolerance):
        return frozenset()
    reach = other_boundary.buffer(tolerance)
    edges = facing_edges(unit)
    along = frozenset(f for f in FACINGS
                      if LineString(edges[f]).intersection(reach).length > line_in(tolerance))
    if along:
        return along
    return _point_facings(unit, boundary, other_boundary, edges, tolerance)


def _point_facings(unit: Unit, boundary: Polygon, other: BaseGeometry,
                   edges: dict[str, Segment], tolerance: float) -> frozenset[str]:
    """The Facings of a contact at a single point (two at a corner), or of an object wholly
    inside (the Facing whose Arc holds its centre)."""
    centre = other.centroid
    ring = boundary.exterior
    if ring.distance(other) > tolerance:  # wholly inside: no edge is touched
        return frozenset({arc_of(unit, (centre.x, centre.y))})
    spot = nearest_points(ring, other)[0]
    if min(spot.distance(shapely.Point(c)) for c in unit.corners()) <= LINE_IN:
        return frozenset(f for f in FACINGS if LineString(edges[f]).distance(spot) <= LINE_IN)
    return frozenset({min(FACINGS, key=lambda f: LineString(edges[f]).distance(spot))})


def engaged_facing(unit: Unit, enemy: Unit, tolerance: float = CONTACT_IN) -> str | None:
    """The Facing of `unit` in which `enemy` engages it: "Engaged in a Facing" = the enemy
    boundary touches that Facing (docs/rules.md §11.1).  None when they do not touch; when the
    enemy wraps a corner (along a line on two edges), the first in `FACINGS` order; at a
    single corner point, the one whose Arc holds the enemy's centre (see `touched_facings`
    for all)."""
    return named_facing(unit, enemy.boundary(),
                        touched_facings(unit, enemy.boundary(), tolerance), tolerance)


def named_facing(unit: Unit, other: BaseGeometry, touched: frozenset[str],
                 tolerance: float = CONTACT_IN) -> str | None:
    """One Facing of `touched` to name the contact by: a corner point's by the Arc, else the
    first in `FACINGS` order."""
    if len(touched) == 2 and not _along_a_line(unit, other, tolerance):
        centre = other.centroid
        by_arc = arc_of(unit, (centre.x, centre.y))
        if by_arc in touched:
            return by_arc
    return next((f for f in FACINGS if f in touched), None)


def _along_a_line(unit: Unit, other: BaseGeometry, tolerance: float) -> bool:
    reach = other.buffer(tolerance)
    return any(LineString(edge).intersection(reach).length > line_in(tolerance)
               for edge in facing_edges(unit).values())


def model_bases(unit: Unit) -> list[Polygon]:
    """Every model's base, in `unit.model_ids()` order."""
    return [Polygon(rectangle_corners(unit.slot_centre(slot), unit.pose.facing_deg,
                                      unit.base.width_in, unit.base.depth_in))
            for _, slot in unit.formation.layout()]


def model_contacts(unit: Unit, enemy: Unit, blockers: Sequence[BaseGeometry] = (),
                   tolerance: float = CONTACT_IN) -> frozenset[tuple[str, str]]:
    """Pairs (model of `unit`, model of `enemy`) in contact, by `Unit.model_ids()`.

    "Models are in contact when their bases touch, including across empty gaps inside a
    unit."  [T9A3 "Contact between Objects"]  Across a gap: "two opposing models count as
    in contact if a straight line perpendicular to both engaged Facings joins them.  The
    extended base may not pass Impassable Terrain or another unit's boundary.  A model whose
    whole Facing toward the enemy is covered by a friendly model is not in contact across
    the gap."  [T9A3 "Contact between Objects", "Which Models can Attack"]

    `blockers`: impassable terrain and the boundaries of units other than these two
    (`gap_blockers` gathers them from a scenario)."""
    if not in_contact(unit.boundary(), enemy.boundary(), tolerance):
        return frozenset()  # every base lies inside its Unit Boundary
    return frozenset(_touching(unit, enemy, tolerance)
                     | _across_gaps(unit, enemy, blockers, tolerance))


def models_in_contact(unit: Unit, enemies: Iterable[Unit],
                      blockers: Sequence[BaseGeometry] = ()) -> int:
    """How many of `unit`'s models are in contact with a model of any of `enemies`: "A model
    is in contact with a unit if it touches at least one of that unit's models."
    [T9A3 "Contact between Objects"]"""
    ours: set[str] = set()
    for enemy in enemies:
        ours.update(own for own, _ in model_contacts(unit, enemy, blockers))
    return len(ours)


def gap_blockers(scenario: Scenario, unit_id: str, enemy_id: str) -> tuple[BaseGeometry, ...]:
    """What an extended base may not pass between these two units: "Impassable Terrain or
    another unit's boundary" (docs/rules.md §11.1)."""
    others = tuple(u.boundary() for u in scenario.units if u.id not in (unit_id, enemy_id))
    return others + tuple(t.shape for t in scenario.impassable())


def _touching(unit: Unit, enemy: Unit, tolerance: float) -> set[tuple[str, str]]:
    """Pairs whose bases touch (a corner counts), by one vectorised distance table."""
    ours, theirs = np.array(model_bases(unit)), np.array(model_bases(enemy))
    if ours.size == 0 or theirs.size == 0:
        return set()
    close = shapely.distance(ours[:, None], theirs[None, :]) <= tolerance
    own_ids, their_ids = unit.model_ids(), enemy.model_ids()
    return {(own_ids[i], their_ids[j]) for i, j in zip(*np.nonzero(close), strict=True)}


def _across_gaps(unit: Unit, enemy: Unit, blockers: Sequence[BaseGeometry],
                 tolerance: float) -> set[tuple[str, str]]:
    """Pairs joined across a gap, for every pair of touching Facings that are parallel."""
    found: set[tuple[str, str]] = set()
    theirs = [_frame(facing_edges(enemy)[f])
              for f in sorted(touched_facings(enemy, unit.boundary(), tolerance))]
    for own in sorted(touched_facings(unit, enemy.boundary(), tolerance)):
        frame = _frame(facing_edges(unit)[own])
        if any(_opposed(frame, their) for their in theirs):
            found |= _joined(unit, enemy, frame, blockers)
    return found


def _frame(edge: Segment) -> Frame:
    """A facing's frame: its first corner, the unit vector along it, the outward normal.

    `facing_edges` goes clockwise, so outwards is the edge direction turned a quarter
    anticlockwise."""
    start, end = np.asarray(edge[0], dtype=float), np.asarray(edge[1], dtype=float)
    along = (end - start) / np.linalg.norm(end - start)
    return start, along, np.array([-along[1], along[0]])


def _opposed(a: Frame, b: Frame) -> bool:
    """Parallel Facings looking at each other: a perpendicular to one is one to the other."""
    cross = a[1][0] * b[1][1] - a[1][1] * b[1][0]
    return bool(abs(cross) <= PARALLEL_SIN and float(np.dot(a[2], b[2])) < 0.0)


def _boxes(unit: Unit, frame: Frame) -> list[Box]:
    """Each base as (lo_u, hi_u, lo_v, hi_v) in `frame`, where the bases are axis-aligned
    because the engaged Facings are parallel."""
    origin, along, out = frame
    fwd = np.asarray(unit_vector(unit.pose.facing_deg))
    right = np.array([fwd[1], -fwd[0]])
    half_w, half_d = unit.base.width_in / 2.0, unit.base.depth_in / 2.0
    half_u = abs(float(right @ along)) * half_w + abs(float(fwd @ along)) * half_d
    half_v = abs(float(right @ out)) * half_w + abs(float(fwd @ out)) * half_d
    boxes = []
    for _, slot in unit.formation.layout():
        rel = np.asarray(unit.slot_centre(slot)) - origin
        u, v = float(rel @ along), float(rel @ out)
        boxes.append((u - half_u, u + half_u, v - half_v, v + half_v))
    return boxes


def _joined(unit: Unit, enemy: Unit, frame: Frame,
            blockers: Sequence[BaseGeometry]) -> set[tuple[str, str]]:
    """Pairs with a clear corridor between them across the Facing of `frame`."""
    ours, theirs = _boxes(unit, frame), _boxes(enemy, frame)
    everyone = ours + theirs
    own_ids, their_ids = unit.model_ids(), enemy.model_ids()
    found = set()
    for i, own in enumerate(ours):
        for j, their in enumerate(theirs):
            corridor = _corridor(own, their)
            if corridor is None:
                continue
            others = [b for k, b in enumerate(everyone) if k not in (i, len(ours) + j)]
            if _open_length(corridor, others) > LINE_IN \
                    and not _blocked(corridor, frame, blockers):
                found.add((own_ids[i], their_ids[j]))
    return found


def _corridor(own: Box, their: Box) -> Box | None:
    """The box between `own`'s outward face and `their`'s facing one, over the width both
    bases share; None when they share no width or do not stand apart (touching bases are
    in contact already)."""
    lo_u, hi_u = max(own[0], their[0]), min(own[1], their[1])
    if hi_u - lo_u <= LINE_IN or their[2] - own[3] <= HAIR_IN:
        return None
    return (lo_u, hi_u, own[3], their[2])


def _open_length(corridor: Box, others: list[Box]) -> float:
    """How much of the corridor's width no other base cuts: the lines left to join them."""
    cuts = sorted((max(b[0], corridor[0]), min(b[1], corridor[1])) for b in others
                  if min(b[1], corridor[1]) - max(b[0], corridor[0]) > HAIR_IN
                  and min(b[3], corridor[3]) - max(b[2], corridor[2]) > HAIR_IN)
    free, reached = 0.0, corridor[0]
    for lo, hi in cuts:
        free += max(0.0, lo - reached)
        reached = max(reached, hi)
    return free + max(0.0, corridor[1] - reached)


def _blocked(corridor: Box, frame: Frame, blockers: Sequence[BaseGeometry]) -> bool:
    """Whether a blocker reaches inside the corridor (merely touching its sides does not)."""
    if not blockers:
        return False
    origin, along, out = frame
    lo_u, hi_u = corridor[0] + HAIR_IN, corridor[1] - HAIR_IN
    lo_v, hi_v = corridor[2] + HAIR_IN, corridor[3] - HAIR_IN
    corners = [origin + u * along + v * out
               for u, v in ((lo_u, lo_v), (hi_u, lo_v), (hi_u, hi_v), (lo_u, hi_v))]
    inner = Polygon([(float(p[0]), float(p[1])) for p in corners])
    return any(inner.intersects(b) for b in blockers)
