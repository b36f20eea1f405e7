"""The stretch's region of the front's reach (constraints.rank_and_file.front_layers): a part
of a wheel, charged W c(R) / R per radian (docs/techniques.md §9, "A stretch is a way of the
relaxation with a linear psi").

Rule examples: a wheel of x turns the Front Facing about its inner front corner and costs W
c(x): T9A's projection W sin x, Warhammer's arc W x, or its chord 2 W sin(x / 2).  The part y
of it costs W c(x) y / x.  Its front centre must lie in the stretch's region at that cost; the
90 deg wheel, whose W c(R) is exactly what the region charges, shows the charge is not more.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from constraints.rank_and_file.front_layers import snaking_region, stretch_slope
from constraints.rank_and_file.snaking_reach import psi_arc, psi_chord, psi_projected

WIDTH, DEPTH = 4.921, 2.953     # 5 files and 3 ranks of 25 mm
RHO = WIDTH / 2.0
BOX = math.radians(2.0)
COSTS = {  # c(x): a wheel of x costs W c(x)
    "projected": (psi_projected, math.sin),
    "arc": (psi_arc, lambda x: x),
    "chord": (psi_chord, lambda x: 2.0 * math.sin(x / 2.0)),
}


def front_after(y: float, side: int) -> tuple[float, float]:
    """F after turning y (radians) of a wheel, left (side 1) or right (-1), from F = (0, D/2)
    facing pi/2: it turns about the inner front corner (-side rho, D/2)."""
    return (-side * RHO + side * RHO * math.cos(y), DEPTH / 2.0 + RHO * math.sin(y))


@pytest.mark.parametrize("rule", COSTS)
@pytest.mark.parametrize("wheel_deg, share", [(90.0, 1.0), (90.0, 0.5), (60.0, 1.0),
                                              (60.0, 0.25), (30.0, 1.0), (10.0, 0.5)])
@pytest.mark.parametrize("side", [1, -1])
def test_a_part_of_a_wheel_ends_in_the_region_at_its_cost(rule, wheel_deg, share, side):
    psi, c = COSTS[rule]
    x = math.radians(wheel_deg)
    y = x * share
    cost = WIDTH * c(x) * share + 1e-9
    region = snaking_region(WIDTH, DEPTH, cost, math.pi / 2.0, side * y, side * y, BOX,
                            stretch_slope(psi))
    assert shapely.distance(region, shapely.Point(*front_after(y, side))) <= 1e-6


@pytest.mark.parametrize("rule", COSTS)
def test_the_charge_is_no_more_than_a_90_deg_wheel_costs(rule):
    """At cost W c(R) a whole 90 deg wheel is made: the region holds its end, and charging
    a tenth more per radian of psi (or plain more) leaves it out."""
    psi, c = COSTS[rule]
    y = math.pi / 2.0
    cost = WIDTH * c(y) + 1e-9
    end = shapely.Point(*front_after(y, 1))
    slope = stretch_slope(psi)
    region = snaking_region(WIDTH, DEPTH, cost, math.pi / 2.0, y, y, BOX, slope)
    assert shapely.distance(region, end) <= 1e-6
    more = snaking_region(WIDTH, DEPTH, cost, math.pi / 2.0, y, y, BOX, slope + 0.1)
    assert more.is_empty or shapely.distance(more, end) > 1e-3


def test_the_slopes_of_the_rules():
    """kappa = psi(R) / R: (1 - pi/4) / (pi/2) for T9A, 1/2 for the arc (psi is linear)."""
    assert stretch_slope(psi_projected) == pytest.approx((1.0 - math.pi / 4.0) / (math.pi / 2.0))
    assert stretch_slope(psi_arc) == pytest.approx(0.5)
    assert stretch_slope(psi_chord) == pytest.approx(
        (2.0 * math.sin(math.pi / 4.0) - math.pi / 4.0) / (math.pi / 2.0))
    assert np.isclose(stretch_slope(psi_projected, math.pi / 4.0),
                      (math.sin(math.pi / 4.0) - math.pi / 8.0) / (math.pi / 4.0))
