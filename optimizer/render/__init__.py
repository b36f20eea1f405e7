"""Pictures of scenarios, moves and verdicts.

The package is callable as `render` (optimizer.render.picture.render): the public API
exports a function `optimizer.render`, and Python sets the attribute `optimizer.render` to
this package when it is first imported, so whichever of the two a caller gets draws the same.
"""

import sys
import types
from typing import Any

from optimizer.render.draw import draw, draw_geometry, make_figure, render_to_file, zoom_to_move
from optimizer.render.output import check_output

__all__ = ["check_output", "draw", "draw_geometry", "make_figure", "render_to_file",
           "zoom_to_move"]


class _CallablePackage(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> None:
        from optimizer.render.picture import render

        render(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
