"""Closed intervals of a line, as sorted lists of (lo, hi): their union, meet and difference."""

from __future__ import annotations

Intervals = list[tuple[float, float]]


def union_of(spans: Intervals) -> Intervals:
    """The union of closed intervals, as disjoint ones in order (merged where they meet)."""
    out: Intervals = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def met(first: Intervals, second: Intervals) -> Intervals:
    """Where both hold (each sorted and disjoint), less single points."""
    out = []
    for a, b in first:
        for c, d in second:
            lo, hi = max(a, c), min(b, d)
            if lo < hi:
                out.append((lo, hi))
    return out


def without(spans: Intervals, barred: Intervals) -> Intervals:
    """Closed spans less open barred ones (both sorted and disjoint)."""
    out = []
    for a, b in spans:
        pieces = [(a, b)]
        for c, d in barred:
            pieces = [p for lo, hi in pieces
                      for p in ((lo, min(hi, c)), (max(lo, d), hi)) if p[0] <= p[1]]
        out += pieces
    return out
