"""The scenes of benchmarks/bench_nudge.py: units in contact before a round of combat's
casualties, and the casualties that take them out of it (flanks, lines of pairs, chains cut
in several places), each with what it shows."""

from __future__ import annotations

from collections.abc import Callable

from constraints.core.scenario import Battlefield, Pose, Scenario, Terrain
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Base, Unit
from optimizer.nudge import Loss

INCH = Base(25.4, 25.4)

Built = tuple[Scenario, tuple[Loss, ...]]


# -- scenes ----------------------------------------------------------------------------------

def _unit(uid: str, player: str, files: int, models: int, centre: tuple[float, float],
          facing: float, base: Base = INCH) -> Unit:
    return Unit(uid, player, base, Formation(files, models), Pose(centre, facing), 4.0)


def _rock(tid: str, x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain(tid, "impassable", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def _scene(units: list[Unit], active: str = "red", terrain: tuple[Terrain, ...] = ()
           ) -> Scenario:
    return Scenario(Battlefield(72.0, 48.0), tuple(units), terrain, "t9a", (), active)


def flank(left: bool = False, front: bool = False, count: int = 4,
          active: str = "blue") -> Built:
    """A: 3 x 2 at (36, 10) facing +y (x 34.5-37.5, y 9-11).  B (blue) in A's right flank:
    2 x 1 facing -x, touching A's rear rank only (y 7.5-9.5).  `front`: F (blue, 3 x 1) fights
    A front to front.  `left`: C (blue, 2 x 1 facing +x) in A's left flank, its top 0.8" up
    A's rear rank.  A loses `count` models: its rear rank (3), then front-rank models."""
    units = [_unit("A", "red", 3, 6, (36.0, 10.0), 90.0),
             _unit("B", "blue", 2, 2, (38.0, 8.5), 180.0)]
    if front:
        units.append(_unit("F", "blue", 3, 3, (36.0, 11.5), 270.0))
    if left:
        units.append(_unit("C", "blue", 2, 2, (34.0, 8.8), 0.0))
    return _scene(units, active), (Loss("A", count=count),)


def flank_20mm(left: bool = False) -> Built:
    """As `flank`, A on 20 mm bases (3 x 2, 2.362" x 1.575"), so B's nudge is off the
    0.05" grid in both legs: B's front is on A's right flank, its right flank (its top,
    y 9.63) 0.37" up A's rear rank; A loses 4, so B must go forward 0.787" (one 20 mm base)
    and sideways 0.37".  `left`: C (2 x 1 facing +x, 1" bases) in A's left flank, its top
    0.23" up the rear rank, and F (blue, 3 x 1 of 20 mm) front to front with A."""
    base = Base(20.0, 20.0)
    w = 20.0 / 25.4
    units = [_unit("A", "red", 3, 6, (36.0, 10.0), 90.0, base),
             _unit("B", "blue", 2, 2, (36.0 + 1.5 * w + 0.5, 8.63), 180.0)]
    if left:
        units += [_unit("F", "blue", 3, 3, (36.0, 10.0 + 1.5 * w), 270.0, base),
                  _unit("C", "blue", 2, 2, (36.0 - 1.5 * w - 0.5, 9.0 - w + 0.23), 0.0)]
    return _scene(units, "red" if left else "blue"), (Loss("A", count=4),)


def line(kinds: tuple[str, ...], overlap: float = 0.4, pitch: float = 10.0) -> Built:
    """Pairs front to front: A_i (red, 4 x 1, facing +y, front at y 10.5) and B_i (blue,
    4 x 1, facing -y) overlapping A_i's right end by `overlap`.  Per pair:
    "slide": A_i loses its right model (the gap opens to 1 - overlap);
    "both": B_i loses its model there too (2 - overlap);
    "blocked": as "both", and a rock just right of A_i's old right edge, 0.02" below the
    front line, stops A_i after 1" (B_i passes above it);
    "kept": A_i loses its left model and stays in contact."""
    units: list[Unit] = []
    terrain: list[Terrain] = []
    losses: list[Loss] = []
    for i, kind in enumerate(kinds, 1):
        xa = 8.0 + (i - 1) * pitch
        a = _unit(f"A{i}", "red", 4, 4, (xa, 10.0), 90.0)
        b = _unit(f"B{i}", "blue", 4, 4, (xa + 4.0 - overlap, 11.0), 270.0)
        units += [a, b]
        right_a, near_b = ((0, 3),), ((0, 3),)   # A's file 3 is at +x; B faces -y: at -x
        if kind == "slide":
            losses.append(Loss(a.id, slots=right_a))
        elif kind in ("both", "blocked"):
            losses += [Loss(a.id, slots=right_a), Loss(b.id, slots=near_b)]
            if kind == "blocked":
                terrain.append(_rock(f"rock{i}", xa + 2.0, 9.0, xa + 3.0, 10.48))
        elif kind == "kept":
            losses.append(Loss(a.id, slots=((0, 0),)))
        else:
            raise ValueError(kind)
    return _scene(units, terrain=tuple(terrain)), tuple(losses)


def chain(spans: list[tuple[str, float]], losses: dict[str, tuple[tuple[int, int], ...]]
          ) -> Built:
    """5 x 1 units alternating red (facing +y, y 9.5-10.5) and blue (facing -y, y 10.5-11.5),
    given by their left x: each touches its neighbours in the chain front to front or
    corner to corner.  `losses`: slots per unit (file 0 is a red unit's left end, -x, and a
    blue unit's left end, +x)."""
    units = []
    for uid, left in spans:
        red = uid.startswith("A")
        units.append(_unit(uid, "red" if red else "blue", 5, 5,
                           (left + 2.5, 10.0 if red else 11.0), 90.0 if red else 270.0))
    return _scene(units), tuple(Loss(u, slots=s) for u, s in losses.items())


def split_4() -> Built:
    """A1-B1 and A2-B2 front to front, A2's front-left corner on B1's front-right corner:
    one combat of four.  A2 loses its left model (the chain breaks) and B2 its three models
    nearest A2, so A2 is 0.5" from B2 and 1" from B1: it goes back to B2, two combats."""
    return chain([("A1", 27.5), ("B1", 27.5), ("A2", 32.5), ("B2", 35.0)],
                 {"A2": ((0, 0),), "B2": ((0, 4), (0, 3), (0, 2))})


def split_6() -> Built:
    """A chain of six: A1=B1 overlapping, B1/A2 corners, A2-B2 overlapping 0.8", B2/A3
    corners, A3-B3 overlapping 0.6".  A2 loses its left model and B2 its two nearest A2
    (A2: 1" from B1, 1.2" from B2); B3 loses its model nearest A3 (0.4" gap); A3 keeps B2."""
    return chain([("A1", 25.0), ("B1", 25.0), ("A2", 30.0), ("B2", 34.2), ("A3", 39.2),
                  ("B3", 43.6)],
                 {"A2": ((0, 0),), "B2": ((0, 4), (0, 3)), "B3": ((0, 4),)})


def split_8() -> Built:
    """A chain of eight, links by corners and overlaps of 0.6-0.8"; casualties cut it in
    four places: A2 and A3 lose their left models (A2 1" from B1, A3 0.4" from B3), B2 its
    two models nearest A2 (so it touches nobody), B3 one, A4 its right model (B4 0.3" off)."""
    return chain([("A1", 10.0), ("B1", 10.0), ("A2", 15.0), ("B2", 19.2), ("A3", 24.2),
                  ("B3", 28.6), ("A4", 33.6), ("B4", 37.9)],
                 {"A2": ((0, 0),), "B2": ((0, 4), (0, 3)), "A3": ((0, 0),),
                  "B3": ((0, 4),), "A4": ((0, 4),)})


SCENES: dict[str, tuple[Callable[[], Built], str]] = {
    "flank-2": (lambda: flank(), "A (3 x 2) loses 4; B had its rear-rank flank: forward 1, "
                "sideways 0.5"),
    "flank-2b": (flank_20mm, "flank-2 on 20 mm bases: B's least nudge off the grid "
                 "(forward 0.787, sideways 0.37)"),
    "line-2": (lambda: line(("slide",)), "a pair front to front; A loses its right model"),
    "flank-3": (lambda: flank(front=True, count=3, active="red"),
                "A fights F frontally and B in its flank; A loses its rear rank"),
    "flank-4": (lambda: flank(left=True, front=True, active="red"),
                "as flank-3 with C in A's left flank too; A loses 4"),
    "flank-4b": (lambda: flank_20mm(left=True),
                 "flank-2b with F in front and C in the left flank, off the grid too"),
    "line-4": (lambda: line(("slide", "blocked")),
               "2 pairs: A1 slides back; A2 stopped by a rock, so B2 comes"),
    "split-4": (split_4, "two against two; a casualty breaks the chain, A2 goes back to B2"),
    "line-6": (lambda: line(("slide", "blocked", "both")), "3 pairs: slide, blocked, both lose"),
    "split-6": (split_6, "chain of 6 split in three; A2 and B3 nudged"),
    "line-8": (lambda: line(("slide", "both", "slide", "both")),
               "4 pairs, all lose contact: 4 red and 4 blue units to nudge"),
    "line-8b": (lambda: line(("slide", "blocked", "both", "kept")),
                "4 pairs: slide, blocked, both lose, one stays in contact"),
    "split-8": (split_8, "chain of 8 cut in four places; 2 red, 2 blue to nudge"),
}
