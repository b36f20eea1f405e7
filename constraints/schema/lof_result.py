"""Line of Fire answers (`manoeuvre lof --json`; docs/formats.md "Infinity N4")."""

from __future__ import annotations

from pydantic import Field

from constraints.schema.common import XYZ, ResultModel


class Sampling(ResultModel):
    side_angles: int
    height_fractions: list[float]
    top_centre: bool
    beam: str


class LineOfFireAnswer(ResultModel):
    """Whether one trooper draws Line of Fire to another (RULES §5.12, A23)."""

    from_: str = Field(alias="from")
    to: str
    lof: bool
    in_arc: bool = Field(description="some of the target is in the viewer's front 180°")
    all_around: bool = Field(description="the viewer has no facing: taken to see all around")
    witness: tuple[XYZ, XYZ] | None = Field(description="a clear segment, viewer to target")
    min_visible_mm: float
    sampled: Sampling
    warnings: list[str] | None = None
