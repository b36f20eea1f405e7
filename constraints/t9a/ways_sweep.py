"""Rows about the area the Front Facing sweeps on a way of the K-wheel model
(constraints.t9a.ways_model): every point of a part (a leg's parallelogram, a wheel's sector)
on the far side of a line, for Front Facing spacing and the table edge.

A part lies beyond the line normal . x >= bound when all its extreme points do:
- leg k: the two front corners at its start and end, F +- rho left(PHI_k);
- wheel k about the front corner P (left wheel: the front-left, F + rho left(PHI_{k-1});
  right wheel: the front-right): P, the outer corner at its start and end, and, when the
  wheel sweeps past the heading x* where the outer corner goes furthest against the normal,
  P - W normal (the sector's extreme there).  Each is linear in the model's variables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from shapely.geometry import Point

from constraints.geometry.convex import ConvexPiece
from constraints.sat.context import EncodeContext
from constraints.sat.separation import STRICT_IN, unique_axes
from constraints.t9a.ways_model import Term, WayModel


@dataclass(frozen=True)
class WayContext:
    """What a clause's `encode_ways` needs: the end pose's encoding and the way model; and,
    when known, a region (start frame) holding every position of the front's centre on the
    model's ways (every swept point is within rho of one)."""

    ectx: EncodeContext
    way: WayModel
    front_reach: Any = None

    def may_come_near(self, piece: ConvexPiece, gap: float) -> bool:
        """Whether the front may come within `gap` of the piece on some way."""
        shape = self.way.shape
        if self.front_reach is not None:
            return bool(piece.shape.distance(self.front_reach) <= shape.rho + gap + 1e-6)
        reach = shape.budget + shape.width + shape.depth + gap + 1e-6
        return bool(piece.shape.distance(Point(0.0, 0.0)) <= reach)


def parts(way: WayModel) -> list[tuple[str, int]]:
    """The swept parts: ("leg", k) for k = 0..K and ("wheel", k) for k = 1..K."""
    wheels = len(way.stages) - 1
    return [("leg", k) for k in range(wheels + 1)] + [("wheel", k) for k in range(1, wheels + 1)]


def beyond(way: WayModel, part: tuple[str, int], normal: Sequence[float], bound: float,
           enforce: Sequence[Any] = ()) -> None:
    """Rows: every point x of the part has normal . x >= bound (frame inches)."""
    kind, k = part
    n = np.asarray(normal, dtype=float)
    if kind == "leg":
        for point in (way.starts[k], way.ends[k]):
            for side in (1.0, -1.0):
                way.row(_at_corner(way, point, k, n, side * way.shape.rho), -bound, enforce)
        return
    for side, lit in ((1.0, way.left_turn[k]), (-1.0, way.left_turn[k].Not())):
        _wheel_rows(way, k, n, bound, side, [*enforce, lit])


def _at_corner(way: WayModel, point: tuple[Any, Any], k: int, n: np.ndarray,
               shift: float) -> list[Term]:
    """-normal . (point + shift left(PHI_k)) as row terms."""
    return way.position_terms(point, -n) + way.left_terms(k, -n, shift)


def _wheel_rows(way: WayModel, k: int, n: np.ndarray, bound: float, side: float,
                enforce: list[Any]) -> None:
    """A left (side +1) or right (side -1) wheel k's sector beyond the line."""
    rho, width = way.shape.rho, way.shape.width
    end = way.ends[k - 1]
    pivot = _at_corner(way, end, k - 1, n, side * rho)
    way.row(pivot, -bound, enforce)
    way.row(_at_corner(way, end, k - 1, n, -side * rho), -bound, enforce)
    way.row(pivot + way.left_terms(k, -n, -side * width), -bound, enforce)
    for lit in _extreme_slices(way, k, n, side):
        way.row(pivot, -bound - width, enforce if lit is True else [*enforce, lit])


def _extreme_slices(way: WayModel, k: int, n: np.ndarray, side: float) -> list[Any]:
    """Coverage literals (True when always swept) of the slices holding x*, the heading at
    which the outer corner P - side W left(x) goes furthest against the normal:
    side n . left(x) = 1, i.e. x = alpha + 180 deg (left wheel) or alpha (right wheel)."""
    alpha = math.degrees(math.atan2(n[1], n[0])) + (180.0 if side > 0 else 0.0)
    step = way.shape.step_deg
    cover = way.cover[k]
    if not cover:
        return []
    lo, hi = min(cover), max(cover)
    found: list[Any] = []
    m = math.floor((lo * step - alpha) / 360.0)
    while alpha + 360.0 * m <= (hi + 1) * step:
        g = math.floor((alpha + 360.0 * m) / step + 1e-12)
        if g in cover:  # a constant slice (int) is swept whatever the headings
            found.append(True if isinstance(cover[g], int) else cover[g])
        m += 1
    return found


SWEEP_FAN_DEG = 15.0  # corner fans of the grown obstacle: sound, gives up gap x 0.9% at most


def keep_clear(way: WayModel, piece: ConvexPiece, gap: float) -> None:
    """Every part more than `gap` from the convex piece: for each part, one of the piece's
    axes (edge normals both ways, corner fans outwards) with the part beyond the piece grown
    by the gap along it (separating axes; the parts' own axes are left out, which only
    refuses more)."""
    axes = [(n, sign) for n in unique_axes(piece) for sign in (1.0, -1.0)] + \
        [(n, 1.0) for n in piece.corner_fans(SWEEP_FAN_DEG)]
    for part in parts(way):
        sides = []
        for n, sign in axes:
            normal = (sign * n[0], sign * n[1])
            side = way.model.new_bool_var(f"clear_{piece.label}_{part[0]}_{part[1]}")
            beyond(way, part, normal, piece.support(normal)[1] + gap + STRICT_IN, [side])
            sides.append(side)
        way.model.add_bool_or(sides)


def keep_inside(way: WayModel, normal: Sequence[float], rhs: float) -> None:
    """Every part in normal . x <= rhs."""
    for part in parts(way):
        beyond(way, part, (-normal[0], -normal[1]), -rhs)
