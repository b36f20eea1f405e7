"""Pictures of scenarios, moves and verdicts."""

from optimizer.render.draw import draw, draw_geometry, make_figure, render_to_file, zoom_to_move

__all__ = ["draw", "draw_geometry", "make_figure", "render_to_file", "zoom_to_move"]
