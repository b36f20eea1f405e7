"""Per option, the region of end centres (start-frame inches) left by the end-position rules.

With the option fixed (heading, wheel, files), every end-position rule is a region of the
centre plane (docs/techniques.md §8): the option's reach (triangle, segment or travel disc),
the table (each end corner on it), Valid Final Position (some start corner within the limit
of each end corner: a union of discs) and Unit Spacing (per convex obstacle piece, the
centres whose rectangle comes within the gap: piece (+) -rectangle, grown by the gap).

Each clause gives its own part (`Clause.region`, constraints.rank_and_file.regions); the
family gives the base (the reach of the option's way, or the travel disc).
`CentreRegions(..., outer=False)` is *sound*: discs inscribed, spacing zones enlarged, so each
of its points passes those rules (the per-heading geometry baseline confirms them).
`outer=True` is a *relaxation*: discs circumscribed, spacing zones inscribed in the true zone,
so it holds every legal end centre of the option, and its best point bounds the option's
objective (the search prunes with it).  Neither judges the Pivot or a Reform's model paths;
with `sweeps=True` they also lose what the way's sweep surely refuses (`sweep_cut`: only
illegal centres; a sound region so cut is still judged by the checker).
"""

from __future__ import annotations

import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.regions import RegionQuery, RegionSetting
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option
from optimizer.families.base import family_for

VERTEX_NOISE_IN = 1e-7  # a kept vertex this near what is left is on it (float noise)


class CentreRegions:
    """Regions of end centres of one unit's manoeuvre options, in its start frame."""

    def __init__(self, scenario: Scenario, unit: Unit, manoeuvre: str, outer: bool,
                 sweeps: bool = False) -> None:
        self.unit, self.manoeuvre, self.outer, self.sweeps = unit, manoeuvre, outer, sweeps
        self.clauses = scenario.profile.clauses(manoeuvre)
        self.setting = RegionSetting.of(scenario, unit, outer)
        self._sweep_cuts: dict[Option, shapely.Geometry] = {}
        # Options a clause leaves no centre whatever the base (a formation the rules refuse)
        self.refused: set[Option] = set()
        self.frame = self.setting.frame
        travel = family_limits(self.clauses, unit).centre_reach_or(2.0 * unit.mobility_in)
        self.family = family_for(scenario.profile, manoeuvre)
        self.travel_disc = Polygon(self.setting.circle * travel)

    def of(self, option: Option, clip: shapely.Geometry | None = None) -> shapely.Geometry:
        """The option's region (possibly empty), within `clip` if given (the region's part
        in it, computed on small shapes)."""
        base = self.family.reach(option, self.travel_disc)
        if clip is not None:
            base = base.intersection(clip)
            if base.is_empty:
                return base
        return self.within(option, base)

    def within(self, option: Option, base: shapely.Geometry) -> shapely.Geometry:
        """The part of `base` (centres of the option's end facing and formation) the
        end-position rules leave."""
        query = RegionQuery.of(self.setting, option, base)
        parts = []
        for clause in self.clauses:
            part = clause.region(query)
            if part is not None and part.keep and any(g.is_empty for g in part.keep):
                self.refused.add(option)  # no centre at all (a formation): no overlay made
                return shapely.Polygon()
            parts.append(part)
        keep = [base] + [g for part in parts if part is not None and part.keep
                         for g in part.keep]
        region = shapely.intersection_all(keep)
        for part in parts:
            if part is not None and part.cut is not None and not region.is_empty:
                region = self._less(region, part.cut())
        return self.less_swept(option, region) if self.sweeps else region

    def less_swept(self, option: Option, region: shapely.Geometry) -> shapely.Geometry:
        """`region` less what the option's way surely sweeps into a breach (`sweep_cut`).
        Nothing to cut leaves it as it is: an overlay would drop a degenerate region (a
        wheel that spends the whole budget ends on one point)."""
        cut = self.sweep_cut(option)
        return region if cut.is_empty or region.is_empty else self._less(region, cut)

    def _less(self, region: shapely.Geometry, cut: shapely.Geometry) -> shapely.Geometry:
        """`region` less `cut`.  A relaxation must hold every legal centre, so its difference
        is checked (`kept_outside`) and left uncut when GEOS's overlay lost a piece
        (docs/techniques.md §10); a sound region may lose one (the checker judges its
        points)."""
        left = region.difference(cut)
        if not self.outer or kept_outside(region, cut, left):
            return left
        return region

    def sweep_cut(self, option: Option) -> shapely.Geometry:
        """The end centres of the option's reach that its way surely sweeps into a clause's
        breach (the clauses' `sweep_cut`: the option alone decides it, so it is kept per
        option)."""
        if option not in self._sweep_cuts:
            query = RegionQuery.of(self.setting, option,
                                   self.family.reach(option, self.travel_disc))
            cuts = [clause.sweep_cut(query) for clause in self.clauses]
            self._sweep_cuts[option] = shapely.union_all([c for c in cuts if c is not None])
        return self._sweep_cuts[option]


def kept_outside(region: shapely.Geometry, cut: shapely.Geometry,
                 left: shapely.Geometry) -> bool:
    """Whether `left` (region less cut, an overlay's answer) keeps every vertex of the region
    outside the cut and every vertex of the cut inside the region, to VERTEX_NOISE_IN: a
    piece an overlay loses has such a vertex unless all its corners are crossings of the
    two outlines.  Predicates and distances only, no overlay."""
    checks = ((region, ~shapely.intersects_xy(cut, *_xy(region))),
              (cut, shapely.contains_xy(region, *_xy(cut))))
    for shape, wanted in checks:
        points = shapely.points(shapely.get_coordinates(shape)[wanted])
        if len(points) and float(shapely.distance(left, points).max()) > VERTEX_NOISE_IN:
            return False
    return True


def _xy(shape: shapely.Geometry) -> tuple:
    coords = shapely.get_coordinates(shape)
    return coords[:, 0], coords[:, 1]
