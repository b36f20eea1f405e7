"""Derived data of a scenario, kept beside it (never on the frozen value).

Path finders and a search's options cost tens of milliseconds to build and are asked for
again and again about one scenario (an AI querying the same position, a brute force
confirming moves).  `derived(scenario)` is the cache of one scenario object: a plain dict
keyed by what was derived, dropped when the scenario is garbage collected.  Everything in it
is a pure function of the scenario and the key.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_CACHES: dict[int, dict[Any, Any]] = {}


def derived(scenario: object) -> dict[Any, Any]:
    """The cache of this scenario object (by identity)."""
    key = id(scenario)
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = {}
        weakref.finalize(scenario, _CACHES.pop, key, None)
    return cache


def remembered(scenario: object, key: Any, build: Callable[[], T]) -> T:
    """`build()` once per (scenario, key)."""
    cache = derived(scenario)
    if key not in cache:
        cache[key] = build()
    found: T = cache[key]
    return found
