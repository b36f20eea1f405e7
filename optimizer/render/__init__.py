"""Pictures of scenarios, moves and verdicts."""

from optimizer.render.draw import draw, draw_geometry, make_figure, render_to_file, zoom_to_move
from optimizer.render.output import check_output

__all__ = ["check_output", "draw", "draw_geometry", "make_figure", "render_to_file",
           "zoom_to_move"]
