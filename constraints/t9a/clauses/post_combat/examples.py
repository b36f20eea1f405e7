"""Builders for the Post-Combat Pivot's rule examples (the default unit of
constraints/t9a/examples.py: 5 x 2 on 1" bases at (36, 10) facing +y, x 33.5-38.5,
y 9-11; a quarter turn makes it 2 wide and 5 deep: x 35-37, y 7.5-12.5)."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def pcp(pivot: float = 0.0, uid: str = "u") -> Json:
    return {"unit": uid, "manoeuvre": "post_combat_pivot", "pivot": pivot}
