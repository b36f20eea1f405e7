"""The flush-line geometry of benchmarks/reform_baselines.py's exhaustive search: the enemy bases
on a line, the unit's front bases at each offset and the base contacts they make, and each
enemy Facing's line merged with the lines colinear with it."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import shapely
from shapely.geometry import LineString

from constraints.rank_and_file.contact import (
    CONTACT_IN,
    model_bases,
)
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.placement import FlushLine, Interval, Option


def edge_bases(enemies: list[Unit], line: FlushLine
                ) -> tuple[list[Interval], list[str], np.ndarray]:
    """The enemy models whose bases reach the line (within the contact tolerance): their
    spans along it (for the events), their ids and their bases."""
    spans, ids, bases = [], [], []
    for enemy in enemies:
        for mid, base in zip(enemy.model_ids(), model_bases(enemy), strict=True):
            coords = np.asarray(base.exterior.coords[:-1])
            off = (coords - line.a) @ line.out
            if off.min() > CONTACT_IN or off.max() < -CONTACT_IN:
                continue
            along = (coords - line.a) @ line.right
            spans.append((float(along.min()), float(along.max())))
            ids.append(mid)
            bases.append(base)
    return spans, ids, np.array(bases, dtype=object)


def gappy(enemy: Unit, line: FlushLine) -> bool:
    """Whether part of the enemy's edge on the line is not covered by its own bases."""
    span = next(s for e, _, s in line.spans if e == enemy.id)
    edge = LineString([tuple(line.a + span[0] * line.right), tuple(line.a + span[1] * line.right)])
    covered = shapely.union_all([b.buffer(CONTACT_IN) for b in model_bases(enemy)])
    return float(edge.difference(covered).length) > 10.0 * CONTACT_IN


def front_bases(option: Option, xs: np.ndarray) -> np.ndarray:
    """(len(xs), files) polygons: the front-rank bases at each offset."""
    line, base = option.line, option.unit.base
    w, d = base.width_in, base.depth_in
    f = np.arange(option.files)
    left = xs[:, None] + f[None, :] * w                      # along the line
    corners = np.stack([left, left + w, left + w, left], axis=-1)   # (n, F, 4)
    depth = np.array([0.0, 0.0, d, d])
    pts = line.a + corners[..., None] * line.right + depth[None, None, :, None] * line.out
    return shapely.polygons(pts)


def base_contacts(option: Option, xs: np.ndarray, theirs: np.ndarray,
                   their_ids: list[str]) -> list[tuple[frozenset[int], frozenset[str]]]:
    """Per offset: the front-rank files whose base touches an enemy base, and the enemy
    models touched (one distance table per chunk of offsets)."""
    if not their_ids:
        return [(frozenset(), frozenset())] * len(xs)
    found = []
    for chunk in range(0, len(xs), 256):
        part = xs[chunk:chunk + 256]
        close = shapely.distance(front_bases(option, part)[:, :, None],
                                 theirs[None, None, :]) <= CONTACT_IN
        for row in close:
            files_in = frozenset(int(f) for f in np.flatnonzero(row.any(axis=1)))
            models = frozenset(their_ids[j] for j in np.flatnonzero(row.any(axis=0)))
            found.append((files_in, models))
    return found


def merged_lines(lines: list[FlushLine]) -> Iterator[FlushLine]:
    """Each enemy Facing's line once, merged with the lines colinear with it."""
    seen: set[str] = set()
    for line in lines:
        if line.enemy in seen:
            continue
        line = line.with_colinear(lines)
        seen.update(e for e, _, _ in line.spans)
        yield line
