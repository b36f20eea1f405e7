"""Where the centre F of the Front Facing can be on a March whose headings all stay in a
window [lo, hi], kept clear of what the Front Facing must not sweep near (docs/rules.md §3.3;
the proof in docs/techniques.md §9, "The front's cone").  Geometry only, and not yet asked
by the search: alone it does not close a certificate (benchmarks/README.md, issue 31
eleventh session), and what would is its rows coupled with the budget.

The front's reach by heading (constraints.rank_and_file.front_reach) follows every heading
of the window on a raster, and each of its steps rounds F by a cell or two: over a long
March that adds up to inches sideways, and a sidestep through a gap it cannot refuse
(bench_solve's gap-sidestep and column-shuffle: even the fine reach, kept to headings within
19 deg of the start, reaches the target).  A box of the certificate knows more: every
heading of its ways lies in [p_lo, q_hi].  F moves along its heading on a leg and in a wheel
alike, so with headings in a window inside (0, pi) (start frame, the start facing pi/2) F's
y never falls and, between two heights, its x moves within dy x [cot hi, cot lo].  Rows of
fixed height then carry exact intervals of x: the reach of a row is the row below widened by
that range, less the x where the front, at every heading of the window, comes within its
limit of an obstacle, band of headings by band (a row's heading turns by at most the rows'
spacing over rho sin t: F moves up by at least that much per radian of wheel).  Nothing is
rounded but the barred set, which is inscribed.

Start frame: the start centre at the origin, the start facing pi/2, F starting at (0, D/2).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from constraints.geometry.intervals import Intervals, met, union_of, without
from constraints.rank_and_file.front_layers import barred_hulls

SAMPLE_DEG = 1.0      # the headings the barred set is made at (each bars within half of it)
BAND_DEG = 2.0        # the heading bands a state is kept in (fixed, start frame)
ROW_IN = 0.04         # the rows' spacing
EDGE_RAD = math.radians(2.0)  # windows must stay this far inside (0, pi): cot stays finite
ROOM_IN = 1e-6        # float room: barred only this far inside the limit


class FrontCone:
    """The front centre's reach of one March, window by window (the module docstring)."""

    def __init__(self, width: float, depth: float, reach: float,
                 obstacles: list[np.ndarray], limits: list[float]) -> None:
        self.rho, self.depth = width / 2.0, depth
        self.obstacles, self.limits = obstacles, limits
        self.y0 = depth / 2.0
        # F moves at most `reach` along its path, so no higher than y0 + reach.
        self.rows = self.y0 + ROW_IN * np.arange(math.ceil(reach / ROW_IN) + 2)
        self.sample, self.band = math.radians(SAMPLE_DEG), math.radians(BAND_DEG)
        # Each sample heading bars only what it bars with its limit less the most the front's
        # ends move turning half a sample about F (rho x that angle).
        self.slack = self.rho * self.sample / 2.0 + ROOM_IN
        self._barred: dict[int, list[Intervals]] = {}
        self._bands: dict[int, list[Intervals]] = {}
        self._reach: dict[tuple[int, int], shapely.Geometry] = {}

    def key(self, lo: float, hi: float) -> tuple[int, int] | None:
        """The bands the window touches, first and last (None: not inside (0, pi))."""
        key = (math.floor(lo / self.band + 1e-9), math.ceil(hi / self.band - 1e-9) - 1)
        if key[0] * self.band < EDGE_RAD or (key[1] + 1) * self.band > math.pi - EDGE_RAD:
            return None
        return key[0], max(key)

    def reach(self, lo: float, hi: float) -> shapely.Geometry | None:
        """Every F of a legal March whose headings stay in [lo, hi] (start frame radians),
        as a polygon (None: the window is not inside (0, pi), no cut)."""
        key = self.key(lo, hi)
        return None if key is None else self.reach_of(key)

    def reach_of(self, key: tuple[int, int]) -> shapely.Geometry:
        """`reach` of the window whose bands are `key` (`key`)."""
        if key not in self._reach:
            self._reach[key] = self._made(key)
        return self._reach[key]

    def _made(self, key: tuple[int, int]) -> shapely.Geometry:
        first, last = key
        bands = range(first, last + 1)
        w_lo, w_hi = first * self.band, (last + 1) * self.band
        # Within a row the heading turns by at most `turn`: a wheel of dt moves F by rho dt
        # along its heading, so up by at least rho dt sin(t) (legs do not turn).
        turn = ROW_IN / (self.rho * min(math.sin(w_lo), math.sin(w_hi)))
        moves = {}  # (b, b'): the slopes dx / dy of the headings a row may pass through
        for b in bands:
            for c in bands:
                lo = max(b * self.band - turn, c * self.band - turn, w_lo)
                hi = min((b + 1) * self.band + turn, (c + 1) * self.band + turn, w_hi)
                if lo <= hi:
                    moves[(b, c)] = (1.0 / math.tan(hi), 1.0 / math.tan(lo))
        wide = (1.0 / math.tan(w_hi), 1.0 / math.tan(w_lo))
        now: dict[int, Intervals] = {b: [(0.0, 0.0)] for b in bands
                                     if b * self.band <= math.pi / 2.0 <= (b + 1) * self.band}
        parts = []
        dy = ROW_IN
        for k in range(1, len(self.rows)):
            y = self.rows[k - 1]
            for x0, x1 in union_of([s for spans in now.values() for s in spans]):
                parts.append(shapely.Polygon([(x0, y), (x1, y), (x1 + dy * wide[1], y + dy),
                                              (x0 + dy * wide[0], y + dy)]))
            after: dict[int, Intervals] = {}
            for (b, c), (s_lo, s_hi) in moves.items():
                if b in now:
                    after.setdefault(c, []).extend((a + dy * s_lo, e + dy * s_hi)
                                                   for a, e in now[b])
            now = {c: left for c, spans in after.items()
                   if (left := without(union_of(spans), self._band_barred(c)[k]))}
            if not now:
                break
        return shapely.union_all(parts).buffer(ROOM_IN)

    def _band_barred(self, b: int) -> list[Intervals]:
        """Per row, the x barred at every heading of band b: at every sample within half a
        sample of the band."""
        if b not in self._bands:
            lo, hi = b * self.band, (b + 1) * self.band
            samples = range(math.ceil((lo - self.sample / 2.0) / self.sample - 1e-9),
                            math.floor((hi + self.sample / 2.0) / self.sample + 1e-9) + 1)
            out = self._sample_barred(samples[0])
            for j in samples[1:]:
                out = [met(a, c) for a, c in zip(out, self._sample_barred(j), strict=True)]
            self._bands[b] = out
        return self._bands[b]

    def _sample_barred(self, j: int) -> list[Intervals]:
        """Per row, the x where the front at heading j x sample comes within its limit (less
        the slack) of an obstacle."""
        if j not in self._barred:
            heading = j * self.sample
            limits = [own - self.slack for own in self.limits]
            hulls = [h for h in barred_hulls(self.obstacles, heading, self.rho, limits)
                     if h.geom_type == "Polygon"]
            spans = [_row_spans(np.asarray(h.exterior.coords), self.rows) for h in hulls]
            self._barred[j] = [union_of([span for s in spans if (span := s[k]) is not None])
                               for k in range(len(self.rows))]
        return self._barred[j]


def _row_spans(ring: np.ndarray, rows: np.ndarray) -> list[tuple[float, float] | None]:
    """Per row, the open span of x inside a convex ring (None: none)."""
    a, b = ring[:-1], ring[1:]
    y = rows[:, None]
    lo_y, hi_y = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    crosses = (y >= lo_y) & (y <= hi_y) & (hi_y > lo_y)
    t = np.where(crosses, (y - a[:, 1]) / np.where(hi_y > lo_y, b[:, 1] - a[:, 1], 1.0), 0.0)
    x = a[:, 0] + t * (b[:, 0] - a[:, 0])
    left = np.where(crosses, x, np.inf).min(axis=1)
    right = np.where(crosses, x, -np.inf).max(axis=1)
    return [(float(lo), float(hi)) if lo < hi else None for lo, hi in zip(left, right, strict=True)]
