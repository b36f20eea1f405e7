"""Line of Fire between two Silhouettes (docs/rules.md §13.10, decision A23).

A trooper is a vertical cylinder (its base, its Silhouette's height).  The viewer draws LoF
to the target when a straight segment joins a point of its cylinder to a point of the
target's crossing no blocking volume (`sightlines`): scenery prisms, and the Silhouettes of
every other trooper; markers do not block, nor does a trooper that is moving.  The target's
end must lie in the viewer's front 180° (the half-space ahead of the base's centre, from its
`facing`); a viewer without a facing sees all around, and the answer says so.  "At least
3x3 mm of the target seen" (A23) is read as a beam: the segment moved `min_visible_mm` / 2
to each side and up and down (across its direction) still meets the target's cylinder, and
each moved segment is clear until it does.  So a gap or a wall top that leaves less than
3 mm hides the target.

How it is decided (sampled, each sample exact): a segment that is clear between two points
inside the cylinders is clear between the points where it leaves the one and enters the
other, so only the cylinders' surfaces are sampled: SIDE_ANGLES directions round each side
(only those whose outward normal can face the other cylinder), at HEIGHT_FRACTIONS of the
Silhouette's height and `min_visible_mm` / 2 below its top and above its underside, and the
top's centre.  Every pair of samples is tested exactly (`sightlines`) against every blocking
volume over the plane hull of the two bases, then the clear ones' beams (4 more segments
each, exact).  So LoF found comes with a witness checked exactly; LoF not found means no
sampled segment is the axis of a clear beam: a view through a sliver narrower than the
sampling can be missed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.infinity.scenery import Point3, prisms
from constraints.infinity.sightlines import Cylinder, Prism, clear
from constraints.infinity.silhouettes import MM_PER_IN
from constraints.infinity.trooper import Trooper

DEFAULT_MIN_VISIBLE_MM = 3.0   # A23: the "3x3 mm" of the rule
SIDE_ANGLES = 32               # directions sampled around a Silhouette's side (11.25° apart)
HEIGHT_FRACTIONS = (1.0, 0.875, 0.75, 0.5, 0.25, 0.0)  # of the Silhouette's height, top first
BATCH = 512                    # clear segments whose beams are tested at once
SAMPLING = {"side_angles": SIDE_ANGLES, "height_fractions": list(HEIGHT_FRACTIONS),
            "top_centre": True, "beam": "4 moved segments"}


@dataclass(frozen=True)
class LineOfFire:
    viewer: str
    target: str
    lof: bool
    in_arc: bool                   # some of the target is in the viewer's front 180°
    all_around: bool               # the viewer has no facing: seen as looking all around
    witness: tuple[Point3, Point3] | None
    min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM

    def to_json(self) -> dict[str, object]:
        return {"from": self.viewer, "to": self.target, "lof": self.lof, "in_arc": self.in_arc,
                "all_around": self.all_around,
                "witness": None if self.witness is None
                else [[round(v, 6) for v in p] for p in self.witness],
                "min_visible_mm": self.min_visible_mm, "sampled": SAMPLING}

    def text(self) -> str:
        word = "has" if self.lof else "has no"
        lines = [f"{self.viewer} {word} Line of Fire to {self.target}"]
        if self.all_around:
            lines.append(f"  {self.viewer} has no facing: it is taken to see all around")
        elif not self.in_arc:
            lines.append(f"  {self.target} is outside {self.viewer}'s front 180°")
        if self.witness is not None:
            a, b = self.witness
            lines.append("  witness: (" + ", ".join(f"{v:.3f}" for v in a) + ") -> ("
                         + ", ".join(f"{v:.3f}" for v in b) + ")")
        lines.append(f"  sampled: {SIDE_ANGLES} directions x {len(HEIGHT_FRACTIONS) + 2} "
                     f"heights and the top's centre on each Silhouette; a beam "
                     f"{self.min_visible_mm:g} mm wide must reach the target")
        return "\n".join(lines)


def silhouette(t: Trooper, at: Point3 | None = None) -> Cylinder:
    """The trooper's Silhouette cylinder, where it stands or at `at` (x, y, level)."""
    x, y, z = at if at is not None else (*t.centre, t.level_in)
    return Cylinder(t.id, (float(x), float(y)), t.radius_in, float(z), float(z) + t.height_in)


def blocking_volumes(scenario: Scenario, skip: Iterable[str]) -> tuple[Prism | Cylinder, ...]:
    """Scenery prisms and the Silhouettes of the troopers not in `skip` (markers never)."""
    left = set(skip)
    found: list[Prism | Cylinder] = [Prism(s.id, s.shape, s.level_in, s.top_in)
                                     for s in prisms(scenario.terrain)]
    found += [silhouette(u) for u in scenario.units
              if isinstance(u, Trooper) and not u.marker and u.id not in left]
    return tuple(found)


def _footprint(b: Prism | Cylinder) -> shapely.Geometry:
    return b.footprint if isinstance(b, Prism) else shapely.Point(b.centre).buffer(b.radius)


class Sight:
    """What one viewer sees past a fixed set of blocking volumes (prepared once: an
    exposure asks it about many positions of one target)."""

    def __init__(self, viewer: Cylinder, facing_deg: float | None,
                 blockers: tuple[Prism | Cylinder, ...],
                 min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM, coarse: bool = False) -> None:
        self.viewer, self.facing_deg = viewer, facing_deg
        # coarse: a quarter of the samples (a route search's screening, not an answer)
        self.angles: int = SIDE_ANGLES // 2 if coarse else SIDE_ANGLES
        self.fractions: tuple[float, ...] = (1.0, 0.5, 0.0) if coarse else HEIGHT_FRACTIONS
        self.blockers = blockers
        self.shapes = np.asarray([_footprint(b) for b in blockers], dtype=object)
        self.half_patch = min_visible_mm / MM_PER_IN / 2.0
        self.min_visible_mm = min_visible_mm
        self.front = None if facing_deg is None else np.asarray(
            [math.cos(math.radians(facing_deg)), math.sin(math.radians(facing_deg))])

    def in_arc(self, target: Cylinder) -> bool:
        """Some of the target's base is in the viewer's front 180° (always, all around)."""
        if self.front is None:
            return True
        ahead = float(np.dot(np.asarray(target.centre) - self.viewer.centre, self.front))
        return ahead + target.radius > 0.0

    def _near(self, target: Cylinder) -> tuple[Prism | Cylinder, ...]:
        """The blocking volumes over the plane hull of both bases, grown by the beam's half
        width and a margin for the polygons standing for the discs (no other can block)."""
        if not len(self.shapes):
            return ()
        hull = shapely.union(shapely.Point(self.viewer.centre).buffer(self.viewer.radius, 8),
                             shapely.Point(target.centre).buffer(target.radius, 8)).convex_hull
        hits = shapely.intersects(self.shapes, hull.buffer(self.half_patch + 0.01))
        return tuple(b for b, h in zip(self.blockers, hits, strict=True)
                     if h and b.ident not in (self.viewer.ident, target.ident))

    def _ahead(self, pts: np.ndarray) -> np.ndarray:
        if self.front is None:
            return np.ones(pts.shape[:-1], dtype=bool)
        found: np.ndarray = (pts[..., :2] - self.viewer.centre) @ self.front >= -1e-9
        return found

    def witness(self, target: Cylinder) -> tuple[Point3, Point3] | None:
        """A clear segment from the viewer to the target, its target end in the front 180°
        with its beam seen whole; None when no sampled segment is."""
        if not self.in_arc(target):
            return None
        near = self._near(target)
        vp = surface_samples(self.viewer, target, self.half_patch, self.angles, self.fractions)
        tq = surface_samples(target, self.viewer, self.half_patch, self.angles, self.fractions)
        tq = tq[self._ahead(tq)]
        if not len(tq) or not len(vp):
            return None
        grid_i, grid_j = np.meshgrid(np.arange(len(vp)), np.arange(len(tq)), indexing="ij")
        ii, jj = grid_i.ravel(), grid_j.ravel()
        seen = clear(vp[ii], tq[jj], near)
        ii, jj = ii[seen], jj[seen]
        for start in range(0, len(ii), BATCH):
            pi, pj = ii[start:start + BATCH], jj[start:start + BATCH]
            good = beam_seen(vp[pi], tq[pj], target, near, self.half_patch)
            if good.any():
                k = int(np.argmax(good))
                return (_point(vp[pi[k]]), _point(tq[pj[k]]))
        return None


def beam_seen(p: np.ndarray, q: np.ndarray, target: Cylinder,
              near: tuple[Prism | Cylinder, ...], half: float) -> np.ndarray:
    """Whether each clear segment p -> q is the axis of a beam `2 half` wide that the target
    stops whole: the segment moved `half` to each side and up and down (across its
    direction) still meets the target's cylinder, clear of every volume until it does."""
    d = q - p
    lat = np.stack([-d[:, 1], d[:, 0], np.zeros(len(d))], axis=1)
    size = np.linalg.norm(lat, axis=1)
    lat = np.where(size[:, None] > 1e-12, lat / np.maximum(size, 1e-300)[:, None],
                   np.asarray([1.0, 0.0, 0.0]))
    up = np.cross(d, lat)
    up /= np.maximum(np.linalg.norm(up, axis=1), 1e-300)[:, None]
    good = np.ones(len(p), dtype=bool)
    for o in (lat, -lat, up, -up):
        start = p + half * o
        s = entry(start, d, target)
        hits = np.isfinite(s)
        end = start + np.where(hits, s, 1.0)[:, None] * d
        good &= hits & clear(start, end, near)
    return good


def entry(start: np.ndarray, d: np.ndarray, c: Cylinder) -> np.ndarray:
    """The least s >= 0 where start + s d is in the (closed) cylinder; nan where never."""
    f = start[:, :2] - np.asarray(c.centre)
    a = (d[:, :2] ** 2).sum(axis=1)
    b = 2.0 * (f * d[:, :2]).sum(axis=1)
    cc = (f ** 2).sum(axis=1) - c.radius ** 2
    disc = b * b - 4.0 * a * cc
    flat = a <= 1e-24
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        s0 = np.where(flat, np.where(cc <= 1e-12, -np.inf, np.nan), (-b - root) / (2 * a))
        s1 = np.where(flat, np.where(cc <= 1e-12, np.inf, np.nan), (-b + root) / (2 * a))
        s0 = np.where(~flat & (disc < -1e-12), np.nan, s0)
        dz = d[:, 2]
        level = np.abs(dz) <= 1e-15
        z = start[:, 2]
        within = (z >= c.low - 1e-9) & (z <= c.high + 1e-9)
        za, zb = (c.low - z) / dz, (c.high - z) / dz
        z0 = np.where(level, np.where(within, -np.inf, np.nan), np.minimum(za, zb))
        z1 = np.where(level, np.where(within, np.inf, np.nan), np.maximum(za, zb))
    lo = np.maximum(np.maximum(s0, z0), 0.0)
    hi = np.minimum(s1, z1)
    found: np.ndarray = np.where(lo <= hi + 1e-9, lo, np.nan)
    return found


def _point(a: np.ndarray) -> Point3:
    return (float(a[0]), float(a[1]), float(a[2]))


def surface_samples(c: Cylinder, other: Cylinder, half: float, count: int = SIDE_ANGLES,
                    fractions: tuple[float, ...] = HEIGHT_FRACTIONS) -> np.ndarray:
    """Points of `c`'s surface that can face `other`: side directions whose outward normal
    is within 90° plus the bases' angular half-width of the way to it, at HEIGHT_FRACTIONS
    of the height and `half` below the top and above the underside; the top's centre."""
    dx, dy = other.centre[0] - c.centre[0], other.centre[1] - c.centre[1]
    dist = math.hypot(dx, dy)
    angles = np.arange(count) * (2.0 * math.pi / count)
    if dist > c.radius + other.radius:
        towards = math.atan2(dy, dx)
        span = math.pi / 2.0 + math.asin((c.radius + other.radius) / dist) + 1e-9
        off = np.angle(np.exp(1j * (angles - towards)))
        angles = angles[np.abs(off) <= span + math.pi / count]
    tall = c.high - c.low
    heights = [c.low + f * tall for f in fractions]
    if tall > 2.0 * half:
        heights[1:1] = [c.high - half]
        heights.append(c.low + half)
    zs = np.repeat(np.asarray(heights), len(angles))
    aa = np.tile(angles, len(heights))
    side = np.stack([c.centre[0] + c.radius * np.cos(aa), c.centre[1] + c.radius * np.sin(aa),
                     zs], axis=1)
    found: np.ndarray = np.concatenate([side, [[c.centre[0], c.centre[1], c.high]]])
    return found


def _trooper(scenario: Scenario, ident: str, where: str) -> Trooper:
    if not isinstance(ident, str) or not scenario.has_unit(ident):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown trooper {ident!r} (units: {known})", path=where)
    found = scenario.unit(ident)
    if not isinstance(found, Trooper):
        raise InvalidInputError(f"{ident!r} is not an Infinity trooper", path=where)
    return found


def line_of_fire(scenario: Scenario, viewer: str, target: str,
                 min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM,
                 moving: Iterable[str] = (), target_at: Point3 | None = None) -> LineOfFire:
    """Whether `viewer` draws Line of Fire to `target` (see the module's text).  `moving`:
    troopers moving now (they do not block); `target_at`: the target at another spot (x, y,
    level), as along its route."""
    if not isinstance(min_visible_mm, int | float) or not 0.0 <= min_visible_mm <= 25.0:
        raise InvalidInputError("min_visible_mm is a size of 0 to 25 mm",
                                path="min_visible_mm")
    v = _trooper(scenario, viewer, "from")
    t = _trooper(scenario, target, "to")
    if v.id == t.id:
        raise InvalidInputError("a trooper's Line of Fire to itself is not a question",
                                path="to")
    if v.marker:
        raise InvalidInputError(f"{viewer!r} is a marker: it draws no Line of Fire",
                                path="from")
    sight = Sight(silhouette(v), v.facing_deg,
                  blocking_volumes(scenario, {v.id, t.id, *moving}), float(min_visible_mm))
    goal = silhouette(t, target_at)
    seen = sight.witness(goal)
    return LineOfFire(v.id, t.id, seen is not None, sight.in_arc(goal), v.facing_deg is None,
                      seen, float(min_visible_mm))
