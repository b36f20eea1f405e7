"""Queries for AI opponents and apps: legality, a lazy legal-move view, legal regions, "why
not" and "nearest legal".

Like python-chess's `board.legal_moves`, `LegalMoves` generates lazily: iteration yields
distinct legal end poses (as moves) one option at a time, `in` answers whether iteration
would yield a move's end pose (so the two never disagree), and `count()` counts them.
Views default to a 0.1" / 1 deg lattice (`VIEW_LATTICE`); searches use the solver's finer
default.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely

from constraints.core.jsonread import number, whole
from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.core.verdict import Violation
from constraints.errors import InvalidInputError
from constraints.geometry.frame import Frame
from constraints.geometry.plane import Point, angle_between_deg, normalise_deg
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from optimizer.batch import BatchJudge
from optimizer.batch.judge import validate_request
from optimizer.dispatch import check_move, is_legal, require, system_of
from optimizer.families.base import family_for, options_for
from optimizer.search.objectives import Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.request import MAX_WHEELS
from optimizer.search.solve import SearchResult, best_move

__all__ = ["VIEW_LATTICE", "LegalMoves", "check_move", "is_legal", "judge_for", "legal_moves",
           "legal_region", "nearest_legal", "violations"]

VIEW_LATTICE = Lattice(inch=0.1, degree=1.0, advance_wheel_deg=15.0)
# Lattice points per side of the tiles a view judges at once: a view holds about TILE**2
# points (a few MB) whatever the size of a region, so memory does not grow with Mobility.
TILE = 256


def violations(scenario: Scenario, move: Any) -> tuple[Violation, ...]:
    """Every broken clause of `move`, measured (empty when legal)."""
    return tuple(check_move(scenario, move).violations)


def judge_for(scenario: Scenario, unit_id: str, manoeuvre: str) -> Any:
    """The batch judge of the manoeuvre's family: T9A's `BatchJudge`, or the family's own
    (whfb7's `constraints.whfb7.masks.WarhammerJudge`, the checker's verdict on each pose's
    way: turns on the spot as `turns`)."""
    kind = family_for(scenario.profile, manoeuvre).judge_kind or BatchJudge
    return kind(scenario, unit_id, manoeuvre)


@dataclass(frozen=True)
class Candidates:
    """Lattice end poses of one option: start-frame and world centres."""

    option: Option
    frame_centres: np.ndarray  # (N, 2) start-frame inches
    centres: np.ndarray        # (N, 2) world inches


class LegalMoves:
    """The legal end poses of one unit's manoeuvre on a lattice, generated lazily."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str,
                 lattice: Lattice = VIEW_LATTICE) -> None:
        validate_manoeuvre(scenario, unit_id, manoeuvre, "unit_id", "manoeuvre")
        self.scenario = scenario
        self.unit_id = unit_id
        self.manoeuvre = manoeuvre
        self.lattice = lattice
        unit = scenario.unit(unit_id)
        self.frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        self.judge = judge_for(scenario, unit_id, manoeuvre)
        self.family = family_for(scenario.profile, manoeuvre)
        self.options, self.regions = options_for(scenario, scenario.unit(unit_id), manoeuvre,
                                                 lattice)

    @property
    def searched(self) -> dict[str, Any]:
        """The ways the view holds, where fewer than the rules allow: an Advance or March
        with one wheel ({"max_wheels": 1}, and for whfb7 `ways`, the family's words: a move's
        turn on the spot only at the start); empty for a Reform (every one on the
        lattice)."""
        holds_all = self.family.holds_ways(MAX_WHEELS, self.lattice) and \
            self.family.holds_every_way
        if holds_all:
            return {}
        if self.family.description is None:
            return {"max_wheels": 1}
        return {"max_wheels": 1, "ways": self.family.description}

    def __contains__(self, move: object) -> bool:
        """Whether the view holds the move's end pose: the checker finds the move legal, its
        end pose lies on the view's lattice (centre, facing and, for an Advance, Pivot), and
        the batch mask passes it, as iteration would.  Membership is by end pose: a move
        with other steps to the same end is in the view when the view's own move is (for
        whfb7, the move of any option, whatever its turn, that ends there)."""
        kind = system_of(self.scenario).move_type
        if kind is None or not isinstance(move, kind):
            return False
        given: Any = move  # the system's move value: each has a unit and a manoeuvre
        if given.unit != self.unit_id or given.manoeuvre != self.manoeuvre:
            return False
        verdict = check_move(self.scenario, move)
        if not verdict.legal:
            return False
        centre = np.asarray(self.frame.point(verdict.end_centre)) / self.lattice.inch
        if np.abs(centre - np.round(centre)).max() > 1e-6:
            return False
        pivot = normalise_deg(getattr(move, "pivot_deg", 0.0))
        pivot = pivot - 360.0 if pivot > 180.0 else pivot  # the options' (-180, 180]
        any_way = self.family.many_ways_per_end
        point = np.round(centre) * self.lattice.inch
        for k, option in enumerate(self.options):
            if option.files == verdict.end_files \
                    and (any_way or abs(option.pivot_deg - pivot) < 1e-9) \
                    and angle_between_deg(option.facing_deg, verdict.end_facing_deg) < 1e-6:
                if not shapely.dwithin(shapely.Point(point), self.regions[k], 1e-9):
                    continue
                if not self.judge.way_passes(option.facing_deg, option.pivot_deg,
                                             option.files) and any_way:
                    continue
                world = self.frame.world_array(point[None])
                held = bool(self.family.mask(self.judge, world, [option],
                                             np.zeros(1, dtype=int))[0])
                if held or not any_way:
                    return held
        return False

    def __iter__(self) -> Iterator[Any]:
        """The moves, plainest ways first: the unit's own files, then the least wheel, the
        least Pivot, the least change of facing (docs/formats.md "Legal moves"); within a
        way, by end centre."""
        files = self.scenario.unit(self.unit_id).files
        plainest = sorted(range(len(self.options)), key=lambda k: (
            self.options[k].files != files, abs(self.options[k].wheel_deg),
            abs(self.options[k].pivot_deg),
            abs((self.options[k].frame_facing_deg + 90.0) % 360.0 - 180.0), k))
        for k in plainest:
            option = self.options[k]
            for legal in self._legal_points(k):
                for centre in legal.frame_centres:
                    yield self.family.move(self.unit_id, self.frame, option,
                                           (float(centre[0]), float(centre[1])))

    def __len__(self) -> int:
        """Refused, on purpose: counting runs the batch mask over the whole view (a Reform's
        takes a minute), and `list(view)` would pay it twice (list asks for a length
        first).  `view.count()` counts; `bool(view)` stops at the first legal move."""
        raise TypeError("a LegalMoves view has no len(): counting judges every pose on the "
                        "lattice; call view.count() (or len(list(view)))")

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def count(self) -> int:
        """How many legal end poses the lattice holds."""
        return sum(len(legal.centres) for k in range(len(self.options))
                   for legal in self._legal_points(k))

    def _legal_points(self, k: int) -> Iterator[Candidates]:
        """Option k's legal lattice end centres, a tile at a time (so memory stays bounded
        whatever the size of the option's region)."""
        option = self.options[k]
        if not self.judge.way_passes(option.facing_deg, option.pivot_deg, option.files):
            return  # a formation, Pivot or turn that no end centre can make legal
        # The relaxed region (optimizer.search.regions) holds every legal end centre and is
        # often far smaller than the option's reach (a long Reform's travel disc clipped to
        # the table, say).
        region = self._relaxed.of(option)
        for frame_pts in self._lattice_tiles(region):
            world = self.frame.world_array(frame_pts)
            ok = self.family.mask(self.judge, world, [option],
                                  np.zeros(len(frame_pts), dtype=int))
            if ok.any():
                yield Candidates(option, frame_pts[ok], world[ok])

    @cached_property
    def _relaxed(self) -> CentreRegions:
        unit = self.scenario.unit(self.unit_id)
        return CentreRegions(self.scenario, unit, self.manoeuvre, outer=True)

    def _lattice_tiles(self, region: shapely.Geometry) -> Iterator[np.ndarray]:
        """The region's lattice points (frame inches), in tiles of at most TILE x TILE."""
        if region.is_empty:
            return
        step = self.lattice.inch
        # Within 1e-9 of the region (points on its edge count), tested without making a
        # shapely point per lattice point.
        grown = region.buffer(1e-9, quad_segs=2)
        shapely.prepare(grown)
        minx, miny, maxx, maxy = region.bounds
        i0, i1 = int(np.floor(minx / step)), int(np.ceil(maxx / step))
        j0, j1 = int(np.floor(miny / step)), int(np.ceil(maxy / step))
        for i in range(i0, i1 + 1, TILE):
            xs = np.arange(i, min(i + TILE, i1 + 1)) * step
            for j in range(j0, j1 + 1, TILE):
                ys = np.arange(j, min(j + TILE, j1 + 1)) * step
                grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
                inside = grid[shapely.intersects_xy(grown, grid[:, 0], grid[:, 1])]
                if len(inside):
                    yield inside

    def regions_by_facing(self, only: Callable[[Option], bool] | None = None) \
            -> dict[tuple[float, int], shapely.Geometry]:
        """Legal end centres per (end facing, files), as unions of lattice cells (world);
        `only` picks the options to look at."""
        half = self.lattice.inch / 2
        found: dict[tuple[float, int], list] = {}
        for k, option in enumerate(self.options):
            if only is not None and not only(option):
                continue
            key = (round(normalise_deg(option.facing_deg), 6), option.files)
            for cands in self._legal_points(k):
                legal = cands.centres
                found.setdefault(key, []).extend(shapely.box(legal[:, 0] - half,
                                                             legal[:, 1] - half,
                                                             legal[:, 0] + half,
                                                             legal[:, 1] + half))
        return {key: shapely.union_all(cells) for key, cells in found.items()}


def legal_moves(scenario: Scenario, unit_id: str, manoeuvre: str,
                lattice: Lattice = VIEW_LATTICE) -> LegalMoves:
    """The legal end poses of a unit's manoeuvre on `lattice`, as a lazy view.

    Parameters
    ----------
    scenario, unit_id, manoeuvre
        The unit and what it does (`advance`, `march`, `reform`).
    lattice : Lattice
        The view's grid of end centres and facings (default 0.1" and 1 deg).

    Returns
    -------
    LegalMoves
        Iterate for moves, `move in view`, `view.count()`; the poses of the searched family
        (one wheel; see optimizer.families) that the batch mask passes.
    """
    require(scenario, "legal_moves")
    _check_view(scenario, unit_id, manoeuvre, lattice)
    return LegalMoves(scenario, unit_id, manoeuvre, lattice)


def legal_region(scenario: Scenario, unit_id: str, manoeuvre: str, facing_deg: float,
                 files: int | None = None, lattice: Lattice = VIEW_LATTICE) -> shapely.Geometry:
    """Where the unit's centre may legally end facing `facing_deg`.

    Parameters
    ----------
    scenario, unit_id, manoeuvre
        The unit and what it does.
    facing_deg : float
        The end facing (degrees, counter-clockwise from +x).
    files : int, optional
        The end files (default: the unit's own).
    lattice : Lattice
        The grid the region is sampled on.

    Returns
    -------
    shapely.Geometry
        The union of the lattice cells about the legal lattice centres (empty when none).
    """
    require(scenario, "legal_region")
    _check_view(scenario, unit_id, manoeuvre, lattice)
    facing_deg = number(facing_deg, "facing_deg")
    files = None if files is None else whole(files, "files", minimum=1, maximum=MAX_MODELS)
    view = LegalMoves(scenario, unit_id, manoeuvre, lattice)
    wanted = files if files is not None else scenario.unit(unit_id).files
    parts = list(view.regions_by_facing(
        lambda o: o.files == wanted and angle_between_deg(o.facing_deg, facing_deg) < 1e-6)
        .values())
    return shapely.union_all(parts) if parts else shapely.Polygon()


def nearest_legal(scenario: Scenario, unit_id: str, manoeuvre: str, centre: Point,
                  facing_deg: float, *, time_limit_s: float | None = None) -> SearchResult:
    """The legal end pose closest to a requested one (the request need not be legal).

    Parameters
    ----------
    scenario, unit_id, manoeuvre
        The unit and what it does.
    centre, facing_deg
        The requested end pose (world inches, degrees).
    time_limit_s : float, optional
        The search's wall-clock limit (default: `best_move`'s).

    Returns
    -------
    SearchResult
        `best_move` for the objective `target_pose` (1 deg counts as 0.1").
    """
    require(scenario, "nearest_legal")
    validate_request(scenario, unit_id, manoeuvre)
    return best_move(scenario, unit_id, manoeuvre,
                     Objective("target_pose", centre, facing_deg), time_limit_s=time_limit_s)


def _check_view(scenario: Scenario, unit_id: str, manoeuvre: str, lattice: Lattice) -> None:
    """The arguments of a view, as `InvalidInputError` naming the bad one."""
    validate_request(scenario, unit_id, manoeuvre)
    if not isinstance(lattice, Lattice):
        raise InvalidInputError(f"expected a Lattice, got {type(lattice).__name__}",
                                path="lattice")
