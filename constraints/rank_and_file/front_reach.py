"""Where the centre F of the Front Facing can be, heading band by heading band, on a legal
Advance or March of any number of Snaking Forward Moves, kept clear of what the Front Facing
must not sweep near (docs/rules.md §3.3; the proof in docs/techniques.md §9, "The front's
reach by heading").  Geometry only: optimizer.search.end_cut intersects it with the end
centres that could beat an answer.

State (F, theta).  A forward step moves F along u(theta) by its cost; a wheel about a front
corner moves F along u(theta) too, rho = W/2 per radian.  Each wheel's cost W c(x) spread
evenly over its angle x <= R = 90 deg is at least W c(R)/R and rho per radian, so a stretch of
cost s turns by at most s R / (W c(R)), and it is a way of the Snaking relaxation with psi = 0
(front_layers.snaking_region).  An Advance's free Pivot starts it at (D/2 u(phi), phi).

Steps of cost Delta: A_(n+1)[j] = (union over moves (k, j) of A_n[k] moved by the move's
stencil) less the cells barred for band j, within the whole way's trim (a March) and the cells
(n + 1) Delta from a start, plus A_0.  Every state of a legal way at a time t <= n Delta has F
in a cell of A_n at a band holding its heading; a way of cost at most B ends in A_N.

The work is fixed by the request (cells, bands, moves, steps: counted), and it stops, giving
nothing, past a deadline (time.perf_counter).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import shapely
import shapely.affinity

from constraints.rank_and_file.front_layers import Bands, barred, runs_to_boxes, snaking_region

WHEEL_MAX = math.pi / 2.0   # the largest wheel (RULES: at most 90 deg)
BAND_DEG = 5.0              # heading bands at most this wide
# The raster's side, in cells (about).  At 180 (0.21" cells for a March of 15") the front of
# bench_random 170 passed beside a wall's end through the cells' rounding; at 270 it does
# not (benchmarks/README.md, issue 31 fifth session).
CELLS_ACROSS = 270
MIN_CELL_IN = 0.06          # ... with cells no smaller than this
STEP_CELLS = 25.0           # a step's cost, in cells (its rounding: a cell a step)
STEP_IN = 1.0               # ... and in inches, at most
TURN_DEG = 20.0             # ... and turning by this much, at most
SLACK_IN = 0.05             # of the limit kept for the bands' and cells' widths, at least
FFT_SMOOTH = (2, 3, 5)
STEP_BOX_DEG = 2.0          # a step's boxes of (h, p, q), at most this wide
TRIM_BOX_DEG = 8.0          # the whole way's, at most this wide
TRIM_BANDS = 2              # bands sharing a region of the whole way


class FrontReach:
    """The front centre's reach of one request (the module docstring), start frame."""

    def __init__(self, width: float, depth: float, budget: float, window: float | None,
                 pivots: bool, psi: Callable[[np.ndarray], np.ndarray],
                 obstacles: list[np.ndarray], limit: float,
                 deadline: float | None = None) -> None:
        self.width, self.depth, self.budget = width, depth, budget
        self.pivots, self.limit = pivots, limit
        rho = width / 2.0
        cost = width * float(WHEEL_MAX / 2.0 + psi(np.array(WHEEL_MAX))) / WHEEL_MAX
        self.speed = max(1.0, rho / cost)  # F's move per inch of cost, at most
        self.half = depth / 2.0 + budget * self.speed + 1.0  # every state lies within
        self.cell = max(MIN_CELL_IN, 2.0 * self.half / CELLS_ACROSS)
        self.count = math.ceil(2.0 * self.half / self.cell)
        self.origin = -self.count * self.cell / 2.0
        # Cost per step: a few cells (their rounding), at most STEP_IN and at most what
        # turns by TURN_DEG (the band moves a step may make).
        self.step = min(STEP_CELLS * self.cell, STEP_IN, cost * math.radians(TURN_DEG))
        self.turn = self.step / cost        # radians a step turns, at most
        self.steps = max(1, math.ceil(budget / self.step - 1e-12))
        # Bands narrow enough that a cell stays barred across the band and the cell.
        spare = limit - self.cell / math.sqrt(2.0) - SLACK_IN
        most = 4.0 * math.asin(min(spare / (2.0 * rho), 1.0)) if spare > 0 else 0.0
        self.bands = Bands.of(window, min(math.radians(BAND_DEG), most) if most > 0
                              else math.radians(BAND_DEG))
        self.margin = limit - self.cell / math.sqrt(2.0) \
            - 2.0 * rho * math.sin(self.bands.width / 4.0) - ROOM
        self.obstacles = obstacles
        self.layers: np.ndarray | None = None
        self.finished = False
        self.deadline = deadline
        try:
            self._build(deadline)
        except _Late:
            self.layers = None

    def _check(self) -> None:
        """Past the deadline nothing more is made (the reach is then not usable)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Late

    @property
    def usable(self) -> bool:
        return self.finished and self.layers is not None

    # --- the raster -------------------------------------------------------------------

    def _centres(self) -> tuple[np.ndarray, np.ndarray]:
        axis = self.origin + (np.arange(self.count) + 0.5) * self.cell
        return np.meshgrid(axis, axis)

    def _square_distance(self, point: tuple[float, float]) -> np.ndarray:
        """Per cell, the distance from `point` to its closed square."""
        xs, ys = self._centres()
        dx = np.maximum(np.abs(xs - point[0]) - self.cell / 2.0, 0.0)
        dy = np.maximum(np.abs(ys - point[1]) - self.cell / 2.0, 0.0)
        return np.hypot(dx, dy)

    def _starts(self) -> np.ndarray:
        """A_0: the start (a March) or the ring of Pivots (an Advance), per band."""
        out = np.zeros((self.bands.count, self.count, self.count), dtype=bool)
        for k in range(self.bands.count):
            lo = self.bands.lo + k * self.bands.width
            if self.pivots:
                # Samples g/2 apart or closer: each point of the arc is within g/2 of one,
                # so in its cell or a neighbour of it.
                points = max(2, math.ceil(self.depth / 2.0 * self.bands.width / self.cell * 2) + 1)
                angles = np.linspace(lo, lo + self.bands.width, points)
            elif lo - 1e-12 <= math.pi / 2.0 <= lo + self.bands.width + 1e-12:
                angles = np.array([math.pi / 2.0])
            else:
                continue
            xy = self.depth / 2.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)
            idx = np.floor((xy - self.origin) / self.cell).astype(int)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    ix = np.clip(idx[:, 0] + dx, 0, self.count - 1)
                    iy = np.clip(idx[:, 1] + dy, 0, self.count - 1)
                    out[k, iy, ix] = True
        return out

    def _barred(self) -> np.ndarray:
        out = np.zeros((self.bands.count, self.count, self.count), dtype=bool)
        if not self.obstacles or self.margin < 0:
            return out
        xs, ys = self._centres()
        for k in range(self.bands.count):
            self._check()
            out[k] = barred(self.obstacles, self.bands.mid(k), self.width / 2.0, self.margin,
                            xs, ys)
        return out

    @property
    def _never_back(self) -> bool:
        """A March in a window of at most 90 deg: every heading has u(theta).y >= 0, so F,
        moving along u(theta), never moves back (F' y >= F y, and F' lies in a closed cell of
        F's row or a later one)."""
        return not self.pivots and self.bands.lo >= -1e-12

    def _kept(self, n: int) -> np.ndarray:
        """Cells some state at cost up to n Delta may lie in: within n Delta x speed of a
        start and, for a March in a window of at most 90 deg, not behind the start front."""
        reach = n * self.step * self.speed + 1e-9
        if self.pivots:
            return self._square_distance((0.0, 0.0)) <= self.depth / 2.0 + reach
        kept = self._square_distance((0.0, self.depth / 2.0)) <= reach
        if self._never_back:
            _, ys = self._centres()
            kept &= ys + self.cell / 2.0 >= self.depth / 2.0 - 1e-9
        return kept

    def _kernels(self, size: int) -> dict[tuple[int, int], np.ndarray]:
        """Per move (k, j) of `Bands.moves`, the transform of its stencil: every offset o (in
        cells) whose closed square of side 2 g about o g meets the step's region turned to
        some heading of band k (`front_layers.snaking_region` at band k's middle, grown by
        its farthest point x half the band's width, how far turning within the band moves
        it; a square lies in the disc of radius g sqrt 2 about its centre)."""
        span = math.ceil(self.step * self.speed / self.cell) + 2
        grid_x, grid_y = np.meshgrid(np.arange(-span, span + 1), np.arange(-span, span + 1))
        ox, oy = grid_x.ravel(), grid_y.ravel()
        points = np.stack([ox, oy], axis=1) * self.cell
        regions: dict[int, shapely.Geometry] = {}
        out = {}
        for k, j, m in self.bands.moves(self.turn):
            self._check()
            if m not in regions:
                width = self.bands.width
                low = max((m - 1) * width, -self.turn)
                high = min((m + 1) * width, self.turn)
                core = shapely.affinity.translate(snaking_region(
                    self.width, self.depth, self.step, self.turn, low, high,
                    math.radians(STEP_BOX_DEG)), 0.0, -self.depth / 2.0)
                far = max((float(np.hypot(*np.asarray(r.coords).T).max())
                           for r in _rings_of(core)), default=0.0)
                room = far * width / 2.0 + self.cell * math.sqrt(2.0)
                grown = core.buffer(room / math.cos(math.pi / 32) + 1e-9, quad_segs=8) \
                    if not core.is_empty else core
                shapely.prepare(grown)
                regions[m] = grown
            turn = -(self.bands.mid(k) - math.pi / 2.0)
            c, s = math.cos(turn), math.sin(turn)
            turned = points @ np.array([[c, s], [-s, c]])
            region = regions[m]
            hit = np.zeros(len(points), dtype=bool) if region.is_empty else \
                shapely.contains_xy(region, turned[:, 0], turned[:, 1])
            if self._never_back:  # F's y never falls: nor does its cell's row (about 1%
                hit &= oy >= 0     # fewer cells on bench_random's boxed-in Marches)
            kernel = np.zeros((size, size))
            kernel[oy[hit] % size, ox[hit] % size] = 1.0
            out[(k, j)] = np.fft.rfft2(kernel)
        return out

    def _trim(self) -> np.ndarray | None:
        """A March's cells per band that its whole way may reach (`front_layers.
        snaking_region` over the budget and the window, the band's end headings; a cell
        kept when its square, within g sqrt 2 of its centre, meets it); None for an
        Advance."""
        if self.pivots or self.bands.cyclic:
            return None
        xs, ys = self._centres()
        window = self.bands.count * self.bands.width / 2.0
        out = np.zeros((self.bands.count, self.count, self.count), dtype=bool)
        room = self.cell * math.sqrt(2.0) / math.cos(math.pi / 32) + 1e-9
        for first in range(0, self.bands.count, TRIM_BANDS):  # a region for a few bands
            self._check()
            last = min(first + TRIM_BANDS, self.bands.count)
            lo = self.bands.lo + first * self.bands.width - math.pi / 2.0
            region = snaking_region(self.width, self.depth, self.budget, window, lo,
                                    lo + (last - first) * self.bands.width,
                                    math.radians(TRIM_BOX_DEG))
            if region.is_empty:
                continue
            grown = region.buffer(room, quad_segs=8)
            x0, y0, x1, y1 = grown.bounds
            near = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
            shapely.prepare(grown)
            out[first:last, near] = shapely.contains_xy(grown, xs[near], ys[near])
        return out

    def _build(self, deadline: float | None) -> None:
        size = _smooth(self.count + 2 * (math.ceil(self.step * self.speed / self.cell) + 3))
        kernels = self._kernels(size)
        starts, bars, trim = self._starts(), self._barred(), self._trim()
        layers = starts.copy()
        into: dict[int, list[int]] = {}
        for k, j in kernels:
            into.setdefault(j, []).append(k)
        for n in range(1, self.steps + 1):
            if deadline is not None and time.perf_counter() > deadline:
                return
            spectra = {k: np.fft.rfft2(layers[k], s=(size, size))
                       for k in range(self.bands.count) if layers[k].any()}
            free = np.zeros_like(layers)  # the step's cells before the distance bound
            for j, sources in into.items():
                live = [k for k in sources if k in spectra]
                if not live:
                    continue
                total = sum(spectra[k] * kernels[(k, j)] for k in live)
                moved = np.fft.irfft2(total, s=(size, size))[:self.count, :self.count] > 0.5
                free[j] = moved & ~bars[j]
                if trim is not None:
                    free[j] &= trim[j]
            free |= starts
            # A fixed point before the distance bound: every later step gives it again
            # (the bound only grows, and these cells already passed the earlier one).
            if np.array_equal(free, layers):
                break
            layers = free & self._kept(n) | starts
        self.layers = layers
        self.finished = True

    # --- asking it ----------------------------------------------------------------------

    def fronts(self, low: float, high: float) -> np.ndarray:
        """Cells F may lie in at the end of a legal way whose end heading is in [low, high]
        (radians, start frame)."""
        assert self.layers is not None
        out = np.zeros((self.count, self.count), dtype=bool)
        for k in self.bands.touching(low, high):
            out |= self.layers[k]
        return out

    def end_centres(self, low: float, high: float,
                    bounds: tuple[float, float, float, float] | None = None
                    ) -> shapely.Geometry:
        """End centres (start frame) of a legal way ending at a heading in [low, high]
        (at most pi wide): F - D/2 u(h), the offset within D/2 x half the width of the
        middle's (boxes grown by that much); only near `bounds` if given."""
        mid, half = (low + high) / 2.0, (high - low) / 2.0
        shift = -self.depth / 2.0 * np.array([math.cos(mid), math.sin(mid)])
        grow = self.depth / 2.0 * half + 1e-9
        mask = self.fronts(low, high)
        if bounds is not None:  # keep only cells whose grown, moved box may meet `bounds`
            xs, ys = self._centres()
            room = self.cell / 2.0 + grow
            x0, y0, x1, y1 = bounds
            cx, cy = xs + shift[0], ys + shift[1]
            mask = mask & (cx >= x0 - room) & (cx <= x1 + room) & (cy >= y0 - room) \
                & (cy <= y1 + room)
        boxes = runs_to_boxes(mask, self.origin + shift[0], self.origin + shift[1], self.cell,
                              grow)
        # Fewer vertices, still holding every box: grown by half a cell (its round chords
        # stay at least cos(pi/8) of that beyond them), then simplified by less than that.
        # ROOM more keeps its edges off the grid's, which the callers' regions may share:
        # an overlay of near-coincident edges is where a sliver could be dropped.
        room = self.cell / 2.0
        return boxes.buffer(room + ROOM, quad_segs=2).simplify(
            0.9 * room * math.cos(math.pi / 8))


ROOM = 1e-6


class _Late(Exception):
    """The deadline passed while the reach was being made."""


def _rings_of(geometry: shapely.Geometry) -> list[shapely.LineString]:
    return [p.exterior for p in shapely.get_parts(geometry)
            if p.geom_type == "Polygon" and not p.is_empty]


def _smooth(n: int) -> int:
    """The least 2-3-5-smooth size at least n (fast transforms)."""
    while True:
        m = n
        for p in FFT_SMOOTH:
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1
