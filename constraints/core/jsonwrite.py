"""Answers written as strict JSON (RFC 8259): JSON has no infinity and no NaN, and strict
readers (a browser's JSON.parse) refuse the `Infinity` Python would write.  Every answer the
command line prints and the service sends goes through `dumps`: a number that is not finite
is written null, as the verdicts already write their measurements (docs/formats.md)."""

from __future__ import annotations

import json
import math
from typing import Any


def json_number(value: float) -> float | None:
    """A measurement as JSON writes it: to a millionth, and null where it is not finite
    (a distance to nothing: JSON has no infinity, and strict readers refuse `Infinity`)."""
    return round(value, 6) if math.isfinite(value) else None


def finite(data: Any) -> Any:
    """`data` with every float that is not finite replaced by None (dicts, lists, tuples)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [finite(v) for v in data]
    return data


def dumps(data: Any, **options: Any) -> str:
    """`json.dumps` of `data` as strict JSON (see above)."""
    try:
        return json.dumps(data, allow_nan=False, **options)
    except ValueError:  # a non-finite number somewhere: written null
        return json.dumps(finite(data), allow_nan=False, **options)
