"""The web board (docs/board.md): static files served by `manoeuvre serve` at `/`.

The board is HTML, CSS and plain JavaScript modules in optimizer/service/static/, with no
build step; it asks the public /v1/ endpoints everything and judges nothing itself.  The one
thing it reads from here besides its files is the rule names of the clause ids (the names
players know, from the rules profiles), so no table of them is copied into JavaScript."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"
# What the board serves without a token (its files hold no data; the /v1/ calls need one).
PUBLIC_PREFIXES = ("/board/",)
PUBLIC_PATHS = ("/",)


def is_public(method: str, path: str) -> bool:
    """A GET of the board's own files."""
    return method in ("GET", "HEAD") and (path in PUBLIC_PATHS
                                          or path.startswith(PUBLIC_PREFIXES))


def rule_names() -> dict[str, str]:
    """Every registered clause id -> the rule's name (constraints.core.profile.rule_name)."""
    from constraints.core.profile import registered_clauses, rule_name

    return {clause: rule_name(clause) for clause in sorted(registered_clauses())}


def add_board(app: FastAPI) -> None:
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def names() -> dict[str, str]:
        return rule_names()

    app.get("/", include_in_schema=False)(index)
    app.get("/board/rule-names.json", include_in_schema=False)(names)
    app.mount("/board", StaticFiles(directory=STATIC), name="board")
