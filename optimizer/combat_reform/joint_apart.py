"""Whether candidates of two units reformed jointly can stand together: room on one line,
extents apart, the checker's penetration depth otherwise; and which pairs can reach a value
(docs/rules.md §12.2; used by `joint.py`)."""

from __future__ import annotations

import numpy as np

from constraints.rank_and_file.contact import CONTACT_IN
from optimizer.combat_reform.joint_levels import Level


def worth(a: Level, rows: np.ndarray, b: Level, cols: np.ndarray, base: np.uint64,
           need: np.uint64, own: int, least: int, top: int
           ) -> tuple[np.ndarray, np.ndarray, int]:
    """The rows and columns that may make a best pair, when both levels stand on one line
    and side: a pair apart stays apart when each is replaced by the candidate touching the
    same enemy models farthest out on its side (the least right end, the greatest left
    end), so those extremes give every pair of enemy sets two candidates apart can touch;
    the best value among them (at least `least`) keeps the rows and columns of its sets."""
    sides = np.concatenate([a.side[rows], b.side[cols]])
    if (sides != sides[0]).any():
        return rows, cols, top
    ra, rb = extremes(a, rows), extremes(b, cols)
    fit = apart_pairs(a, ra, b, rb)
    union = a.masks[ra][:, None] | b.masks[rb][None, :] | base
    fit &= (union & need) == need
    value = np.where(fit, own + np.bitwise_count(union).astype(np.int64), -1)
    top = int(value.max())
    best = int(value.max())
    if best < least or best < 0:
        return rows[:0], cols[:0], best
    x, y = np.nonzero(value == best)
    return (rows[np.isin(a.masks[rows], a.masks[ra[x]])],
            cols[np.isin(b.masks[cols], b.masks[rb[y]])], best)


def extremes(lv: Level, idx: np.ndarray) -> np.ndarray:
    """Per set of enemy models touched, the candidates of `idx` with the least right end
    and the greatest left end."""
    masks = lv.masks[idx]
    found = []
    for m in np.unique(masks):
        mine = idx[masks == m]
        found += [int(mine[np.argmin(lv.hi[mine])]), int(mine[np.argmax(lv.lo[mine])])]
    return np.unique(np.array(found, dtype=np.int64))


def alive_heads(first: Level, a: Level, b: Level, need: np.uint64) -> np.ndarray:
    """The first unit's candidates (of three) that may head a tuple: apart from some of
    each other unit's, those leaving room for a pair apart and touching every enemy model
    kept between them (judged for all at once when the three stand on one line and side)."""
    heads = np.flatnonzero(first.alive())
    sides = np.concatenate([first.side[heads], a.side[a.alive()], b.side[b.alive()]])
    if not len(heads) or (sides != sides[0]).any():
        return heads
    lo, hi = first.lo[heads], first.hi[heads]
    ends = [apart_ends(lv, lo, hi) for lv in (a, b)]
    (a_hi, a_lo, a_cover), (b_hi, b_lo, b_cover) = ends
    room = (a_hi <= b_lo + CONTACT_IN) | (b_hi <= a_lo + CONTACT_IN)
    cover = first.masks[heads] | a_cover | b_cover
    return heads[room & ((cover & need) == need)]


def apart_ends(lv: Level, lo: np.ndarray, hi: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For intervals [lo, hi] on the level's line: over the level's live candidates apart
    from each (wholly left of it or wholly right, to the contact tolerance), the least right
    end, the greatest left end and the enemy models any touches (sorted prefixes)."""
    live = np.flatnonzero(lv.alive())
    m = len(live)
    least, most = np.full(len(lo), np.inf), np.full(len(lo), -np.inf)
    cover = np.zeros(len(lo), dtype=np.uint64)
    if not m:
        return least, most, cover
    by_hi = live[np.argsort(lv.hi[live], kind="stable")]
    his = lv.hi[by_hi]
    left = np.searchsorted(his, lo + CONTACT_IN, side="right")  # these many lie left
    has = left > 0
    at = np.maximum(left - 1, 0)
    least = np.where(has, his[0], least)
    most = np.where(has, np.maximum.accumulate(lv.lo[by_hi])[at], most)
    cover = np.where(has, np.bitwise_or.accumulate(lv.masks[by_hi])[at], cover)
    by_lo = live[np.argsort(lv.lo[live], kind="stable")]
    los = lv.lo[by_lo]
    right = np.searchsorted(los, hi - CONTACT_IN, side="left")  # from here on they lie right
    has = right < m
    at = np.minimum(right, m - 1)
    least = np.where(has, np.minimum(least, np.minimum.accumulate(lv.hi[by_lo][::-1])[::-1][at]),
                     least)
    most = np.where(has, np.maximum(most, los[-1]), most)
    cover = np.where(has, cover | np.bitwise_or.accumulate(lv.masks[by_lo][::-1])[::-1][at],
                     cover)
    return least, most, cover


def room(a: Level, rows: np.ndarray, b: Level, cols: np.ndarray) -> bool:
    """Whether some pair may stand apart: on one line and side, only when one's leftmost
    right end is left of the other's rightmost left end (else all overlap)."""
    sides = np.concatenate([a.side[rows], b.side[cols]])
    if (sides != sides[0]).any():
        return True
    return bool(a.hi[rows].min() <= b.lo[cols].max() + CONTACT_IN
                or b.hi[cols].min() <= a.lo[rows].max() + CONTACT_IN)


def apart_pairs(a: Level, rows: np.ndarray, b: Level, cols: np.ndarray) -> np.ndarray:
    """`apart` for every pair of `a`'s candidates `rows` and `b`'s `cols`."""
    same = a.side[rows][:, None] == b.side[cols][None, :]
    ok = (np.minimum(a.hi[rows][:, None], b.hi[cols][None, :])
          - np.maximum(a.lo[rows][:, None], b.lo[cols][None, :])) <= CONTACT_IN
    if not same.all():
        sub = Level(0, 0, 0, b.line[cols], b.k[cols], b.index[cols], b.low[cols],
                    b.exact[cols], b.masks[cols], b.corners[cols], b.normals[cols],
                    b.side[cols], b.lo[cols], b.hi[cols], b.bounded[cols])
        for x in np.flatnonzero(~same.all(axis=1)):
            ok[x] = np.where(same[x], ok[x], apart(a, int(rows[x]), sub))
    return ok




def apart(one: Level, i: int, many: Level) -> np.ndarray:
    """Whether candidate i of `one` overlaps each candidate of `many` by no more than the
    contact tolerance.  Flush on one line on the same side, both extend the same way from
    it: the overlap along the line; else the separating-axis penetration depth over both
    rectangles' edge normals (`geometry.overlap.penetration`, for many at once)."""
    ok = np.minimum(many.hi, one.hi[i]) - np.maximum(many.lo, one.lo[i]) <= CONTACT_IN
    other = many.side != one.side[i]
    if other.any():
        a, an = one.corners[i], one.normals[i]
        corners, normals = many.corners[other], many.normals[other]
        axes = np.concatenate([np.broadcast_to(an[None], normals.shape), normals], axis=1)
        pa = np.einsum("kd,mad->mak", a, axes)
        pb = np.einsum("mkd,mad->mak", corners, axes)
        depth = np.minimum(pa.max(axis=2), pb.max(axis=2)) - np.maximum(pa.min(axis=2),
                                                                        pb.min(axis=2))
        ok[other] = depth.min(axis=1) <= CONTACT_IN
    return ok


# -- the units' data --------------------------------------------------------------------------
