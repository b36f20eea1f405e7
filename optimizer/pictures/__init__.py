"""Pictures of scenarios, moves and verdicts (the public `optimizer.render` draws one:
optimizer.pictures.picture.render; the package has another name, so that importing it never
replaces that function)."""

from optimizer.pictures.draw import draw, draw_geometry, make_figure, render_to_file, zoom_to_move
from optimizer.pictures.output import check_output

__all__ = ["check_output", "draw", "draw_geometry", "make_figure", "render_to_file",
           "zoom_to_move"]
