"""Which corners of a path finder's outline a point could ever see: those on the same
connected part of the free space.

A crowded table falls apart into dozens of free parts (an Infinity town of 200 pieces into
about 40); a corner on another part is never visible, so a visibility test need not look at
it.  Parts that touch (at a pinch point, say) form one group, so that a line through a pinch
(which enters no interior, and so counts as clear) is still tried: restricting the
candidates to the point's group never changes an answer.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box

TOUCH_IN = 1e-9    # parts this close are one group
ON_PART_IN = 1e-7  # a corner this close to a part belongs to its group
MARGIN_IN = 1.0    # the free space is cut out of the outline's box grown by this


class FreeParts:
    """The free space's parts round `region`, grouped, and the corners of each group."""

    def __init__(self, region: shapely.Geometry, corners: np.ndarray) -> None:
        minx, miny, maxx, maxy = region.bounds
        frame = box(minx - MARGIN_IN, miny - MARGIN_IN, maxx + MARGIN_IN, maxy + MARGIN_IN)
        free = frame.difference(region)
        self.parts = np.asarray([p for p in getattr(free, "geoms", [free]) if not p.is_empty],
                                dtype=object)
        self.tree = shapely.STRtree(self.parts)
        self.group = self._groups()
        n_groups = int(self.group.max()) + 1 if len(self.group) else 0
        self.member = np.zeros((n_groups + 1, len(corners)), dtype=bool)
        self.member[n_groups] = True  # points on no part: every corner
        c, p = self.tree.query(shapely.points(corners), predicate="dwithin",
                               distance=ON_PART_IN)
        self.member[self.group[p], c] = True

    def _groups(self) -> np.ndarray:
        i, j = self.tree.query(self.parts, predicate="dwithin", distance=TOUCH_IN)
        import networkx as nx  # loaded when first needed: a move's check never is

        graph = nx.Graph()
        graph.add_nodes_from(range(len(self.parts)))
        graph.add_edges_from(zip(i.tolist(), j.tolist(), strict=True))
        group = np.empty(len(self.parts), dtype=int)
        for k, component in enumerate(sorted(nx.connected_components(graph), key=min)):
            group[list(component)] = k
        return group

    def candidates(self, points: np.ndarray) -> np.ndarray:
        """(len(points), corners) mask of the corners each point could see."""
        where = np.full(len(points), self.member.shape[0] - 1)
        pt, part = self.tree.query(shapely.points(points), predicate="intersects")
        where[pt] = self.group[part]
        return self.member[where]
