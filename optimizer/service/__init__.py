"""`manoeuvre serve`: the referee and the searches over HTTP and JSON, for game engines in
any language (docs/formats.md "HTTP service").  FastAPI and uvicorn are imported only here,
so the command line's other commands start without them."""

from optimizer.service.app import create_app
from optimizer.service.queries import Settings

__all__ = ["Settings", "create_app"]
