"""Where the centre F of the Front Facing can be, heading band by heading band, on a legal
Advance or March of any number of Snaking Forward Moves, kept clear of what the Front Facing
must not sweep near (docs/rules.md §3.3; the proof in docs/techniques.md §9, "The front's
reach by heading").  Geometry only: optimizer.search.end_cut intersects it with the end
centres that could beat an answer.

State (F, theta).  A forward step moves F along u(theta) by its cost; a wheel about a front
corner moves F along u(theta) too, rho = W/2 per radian.  Each wheel's cost W c(x) spread
evenly over its angle x <= R = 90 deg is at least W c(R)/R and rho per radian, so a stretch of
cost s turns by at most s R / (W c(R)), and it is a way of the Snaking relaxation with the
linear psi(x) = psi(R) x / R, W c(R) / R per radian of turn (front_layers.snaking_region).
An Advance's free Pivot starts it at (D/2 u(phi), phi).

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

from constraints.rank_and_file.front_layers import (
    COARSE,
    Bands,
    Resolution,
    barred,
    rings,
    runs_to_boxes,
    smooth,
    snaking_region,
    stretch_slope,
)

WHEEL_MAX = math.pi / 2.0   # the largest wheel (RULES: at most 90 deg)
# The raster's side, in cells (about).  At 180 (0.21" cells for a March of 15") the front of
# bench_random 170 passed beside a wall's end through the cells' rounding; at 270 it does
# not (benchmarks/README.md, issue 31 fifth session).
CELLS_ACROSS = 270
MIN_CELL_IN = 0.06          # ... with cells no smaller than this
STEP_CELLS = 25.0           # a step's cost, in cells (its rounding: a cell a step)
STEP_IN = 1.0               # ... and in inches, at most
SLACK_IN = 0.05             # of the limit kept for the bands' and cells' widths, at least
WINDOW_SIZES = (48, 96, 192, 384)  # the transforms' sizes for a step's window (then any)
STEP_BOX_DEG = 2.0          # a step's boxes of (h, p, q), at most this wide
TRIM_BOX_DEG = 8.0          # the whole way's, at most this wide
TRIM_BANDS = 2              # bands sharing a region of the whole way


class FrontReach:
    """The front centre's reach of one request (the module docstring), start frame."""

    def __init__(self, width: float, depth: float, budget: float, window: float | None,
                 pivots: bool, psi: Callable[[np.ndarray], np.ndarray],
                 obstacles: list[np.ndarray], limit: float,
                 deadline: float | None = None,
                 limits: list[float] | None = None, resolution: Resolution | None = None,
                 within: FrontReach | None = None) -> None:
        self.width, self.depth, self.budget = width, depth, budget
        self.pivots, self.limit = pivots, limit
        self.resolution = resolution or COARSE
        # A reach of the same request and raster every state lies in (a coarser one): each
        # step's cells are kept within it, band by band (sound: both hold every state).
        self.within = within
        # Each obstacle's own limit (A20: the start distance towards an object the unit
        # starts close to, minus the contact tolerance towards one it touches), `limit` else.
        self.limits = [limit] * len(obstacles) if limits is None else list(limits)
        rho = width / 2.0
        cost = width * float(WHEEL_MAX / 2.0 + psi(np.array(WHEEL_MAX))) / WHEEL_MAX
        self.speed = max(1.0, rho / cost)  # F's move per inch of cost, at most
        # Every stretch of a wheel costs W c(R) / R per radian or more: psi(R) / R beyond rho.
        self.slope = stretch_slope(psi, WHEEL_MAX)
        self.half = depth / 2.0 + budget * self.speed + 1.0  # every state lies within
        self.cell = max(MIN_CELL_IN, 2.0 * self.half / CELLS_ACROSS)
        self.count = math.ceil(2.0 * self.half / self.cell)
        self.origin = -self.count * self.cell / 2.0
        # Cost per step: a few cells (their rounding), at most STEP_IN and at most what
        # turns by the resolution's turn_deg (the band moves a step may make).
        self.step = min(STEP_CELLS * self.cell, STEP_IN,
                        cost * math.radians(self.resolution.turn_deg))
        self.turn = self.step / cost        # radians a step turns, at most
        self.steps = max(1, math.ceil(budget / self.step - 1e-12))
        # Bands narrow enough that a cell stays barred across the band and the cell.
        spare = limit - self.cell / math.sqrt(2.0) - SLACK_IN
        most = 4.0 * math.asin(min(spare / (2.0 * rho), 1.0)) if spare > 0 else 0.0
        band = math.radians(self.resolution.band_deg)
        self.bands = Bands.of(window, min(band, most) if most > 0 else band)
        self.margin = limit - self.cell / math.sqrt(2.0) \
            - 2.0 * rho * math.sin(self.bands.width / 4.0) - ROOM
        self.obstacles = obstacles
        self.layers: np.ndarray | None = None
        self.finished = False
        self.deadline = deadline
        self._made: dict[int, dict[tuple[int, int], np.ndarray]] = {}
        self._masks: dict[int, np.ndarray] = {}
        if within is not None and (within.layers is None or within.count != self.count
                                   or within.cell != self.cell):
            raise ValueError("a reach is kept within a finished one on the same raster")
        try:
            self.stencils = self._stencils()
            self._build(deadline)
        except _Late:
            self.layers = None
        except _TooWide:  # finished, and not usable: not made again
            self.layers, self.finished = None, True
        finally:  # the transforms are hundreds of MB, and the reach is kept with its table
            self._made.clear()
            self._masks.clear()

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
        """Per band, the cells where every point, at every heading of the band, brings the
        front within an obstacle's limit: its reference segment (the cell's centre, the
        band's middle) within that limit less the rounding (`limit - margin`)."""
        out = np.zeros((self.bands.count, self.count, self.count), dtype=bool)
        if not self.obstacles:
            return out
        rounding = self.limit - self.margin
        margins = [own - rounding for own in self.limits]
        xs, ys = self._centres()
        for k in range(self.bands.count):
            self._check()
            heading = self.bands.mid(k)
            if self.within is None:
                out[k] = barred(self.obstacles, heading, self.width / 2.0, margins, xs, ys)
                continue
            ask = self._within(k)  # (within a coarser reach: its cells only, the rest dropped)
            out[k][ask] = barred(self.obstacles, heading, self.width / 2.0, margins,
                                 xs[ask], ys[ask])
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

    def _stencils(self) -> dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]:
        """Per move (k, j) of `Bands.moves`, its stencil's offsets (ox, oy): every offset o (in
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
                    math.radians(STEP_BOX_DEG), self.slope), 0.0, -self.depth / 2.0)
                far = max((float(np.hypot(*np.asarray(r.coords).T).max())
                           for r in rings(core)), default=0.0)
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
            out[(k, j)] = (ox[hit], oy[hit])
        return out

    def _transforms(self, size: int) -> dict[tuple[int, int], np.ndarray]:
        """The stencils' transforms on a square of `size` (made once per size)."""
        if size not in self._made:
            self._made.clear()  # (a window only grows: the smaller sizes' are done with)
            out = {}
            for key, (ox, oy) in self.stencils.items():
                self._check()
                kernel = np.zeros((size, size))
                kernel[oy % size, ox % size] = 1.0
                out[key] = np.fft.rfft2(kernel)
            self._made[size] = out
        return self._made[size]

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
                                    math.radians(TRIM_BOX_DEG), self.slope)
            if region.is_empty:
                continue
            grown = region.buffer(room, quad_segs=8)
            x0, y0, x1, y1 = grown.bounds
            near = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
            shapely.prepare(grown)
            out[first:last, near] = shapely.contains_xy(grown, xs[near], ys[near])
        return out

    def _within(self, j: int) -> np.ndarray:
        """The cells of the coarser reach at the headings of band j."""
        assert self.within is not None and self.within.layers is not None
        if j not in self._masks:
            lo = self.bands.lo + j * self.bands.width
            self._masks[j] = self.within.fronts(lo, lo + self.bands.width)
        return self._masks[j]

    def _window(self, layers: np.ndarray, span: int) -> tuple[slice, slice, int]:
        """The rows and columns a step can reach (the live cells' bounds grown by a stencil's
        reach) and the transforms' size for them: at least the window and a stencil's reach
        (so that no offset wraps onto it), from a few sizes (their transforms kept)."""
        rows, cols = np.nonzero(layers.any(axis=0))
        r0, r1 = max(rows.min() - span, 0), min(rows.max() + span + 1, self.count)
        c0, c1 = max(cols.min() - span, 0), min(cols.max() + span + 1, self.count)
        need = max(r1 - r0, c1 - c0) + span
        full = smooth(self.count + span)  # the whole raster's
        size = next((z for z in WINDOW_SIZES if need <= z < full), full)
        if self.resolution.max_size is not None and size > self.resolution.max_size:
            raise _TooWide
        return slice(r0, r1), slice(c0, c1), size

    def _build(self, deadline: float | None) -> None:
        span = max(max(np.abs(o).max(initial=0) for o in pair)
                   for pair in self.stencils.values()) if self.stencils else 0
        starts, bars, trim = self._starts(), self._barred(), self._trim()
        layers = starts.copy()
        into: dict[int, list[int]] = {}
        for k, j in self.stencils:
            into.setdefault(j, []).append(k)
        for n in range(1, self.steps + 1):
            if deadline is not None and time.perf_counter() > deadline:
                return
            # Transforms on the window the live cells can reach this step: the cells outside
            # it stay empty (no stencil reaches them), and a boxed-in unit's is small.
            rows, cols, size = self._window(layers, span)
            kernels = self._transforms(size)
            spectra = {k: np.fft.rfft2(layers[k][rows, cols], s=(size, size))
                       for k in range(self.bands.count) if layers[k].any()}
            free = np.zeros_like(layers)  # the step's cells before the distance bound
            high, wide = rows.stop - rows.start, cols.stop - cols.start
            for j, sources in into.items():
                live = [k for k in sources if k in spectra]
                if not live:
                    continue
                total = sum(spectra[k] * kernels[(k, j)] for k in live)
                moved = np.fft.irfft2(total, s=(size, size))[:high, :wide] > 0.5
                free[j][rows, cols] = moved & ~bars[j][rows, cols]
                if self.within is not None:
                    free[j][rows, cols] &= self._within(j)[rows, cols]
                if trim is not None:
                    free[j][rows, cols] &= trim[j][rows, cols]
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


class _TooWide(Exception):
    """The live cells spread wider than the resolution's window allows."""
