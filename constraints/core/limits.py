"""Comparing a measurement with a rule's limit.

"Within X" is inclusive and "more than X" is strict (docs/rules.md §1.2-1.3).  Measurements
are floats computed from decimal inputs (37.2 - 36 is 1.2000000000000028), so a value that is
exactly at the limit in decimal arithmetic may land a few ulps either side of it.  A
measurement within FLOAT_NOISE_IN of its limit is taken to be *at* the limit.  This is a
representation allowance, nine orders of magnitude below any tape measure, not a rules
tolerance: at the limit, "within" still passes and "more than" still fails.
"""

from __future__ import annotations

FLOAT_NOISE = 1e-9


def within(measured: float, limit: float) -> bool:
    """measured <= limit, with float noise at the limit counted as at the limit."""
    return measured <= limit + FLOAT_NOISE


def more_than(measured: float, limit: float) -> bool:
    """measured > limit, with float noise at the limit counted as at the limit."""
    return measured > limit + FLOAT_NOISE
