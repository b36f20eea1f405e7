"""`manoeuvre serve`: the HTTP service (optimizer/service).  This module only adds the
command and checks its options: FastAPI and uvicorn are imported when it runs."""

from __future__ import annotations

import argparse
from typing import Any

from constraints.errors import InvalidInputError
from optimizer.cli.options import finite

LOOPBACK_NAMES = ("localhost",)


def add_serve_command(sub: Any, epilog: str | None = None) -> None:
    serve = sub.add_parser("serve", help="answer the queries over HTTP (JSON; OpenAPI at "
                           "/openapi.json)", epilog=epilog,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to bind (default 127.0.0.1; any other than a "
                       "loopback address needs --token)")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument("--token", metavar="T",
                       help="require `Authorization: Bearer T` on every request")
    serve.add_argument("--cors-origin", action="append", default=[], metavar="URL",
                       help="let a browser page from this origin call the service (repeat; "
                       "default: none)")
    serve.add_argument("--max-time-limit", type=finite, default=60.0, metavar="S",
                       help="the most seconds (and effort) any request's search may take "
                       "(default 60)")
    serve.add_argument("--cache-size", type=int, default=64, metavar="N",
                       help="registered scenarios kept (default 64; the least recently "
                       "used go first)")
    serve.add_argument("--workers", type=int, default=2, metavar="N",
                       help="searches run at once (threads; default 2)")
    serve.add_argument("--processes", action="store_true",
                       help="run the searches in N worker processes instead of threads")
    serve.add_argument("--queue", type=int, default=32, metavar="N",
                       help="searches that may wait for a worker (default 32); past that a "
                       "search answers 503 with Retry-After")


def settings_of(args: argparse.Namespace) -> Any:
    """The service's settings, or InvalidInputError naming the option."""
    from optimizer.service.queries import Settings

    if not _is_loopback(args.host) and not args.token:
        raise InvalidInputError(f"--host {args.host} is reachable from other machines: give "
                                "--token T too (or bind 127.0.0.1)", path="--host")
    if args.token is not None and (not args.token.isascii() or not args.token.isprintable()
                                   or " " in args.token or not args.token):
        raise InvalidInputError("expected printable ASCII without spaces", path="--token")
    if not 0 <= args.port <= 65535:
        raise InvalidInputError(f"expected 0 <= P <= 65535, got {args.port}", path="--port")
    if not 0 < args.max_time_limit <= 3600:
        raise InvalidInputError(f"expected 0 < S <= 3600, got {args.max_time_limit:g}",
                                path="--max-time-limit")
    for option, value, least in (("--cache-size", args.cache_size, 1),
                                 ("--workers", args.workers, 1), ("--queue", args.queue, 0)):
        if not least <= value <= 10_000:
            raise InvalidInputError(f"expected {least} <= N <= 10000, got {value}",
                                    path=option)
    return Settings(max_time_limit=args.max_time_limit, cache_size=args.cache_size,
                    workers=args.workers, queue=args.queue, processes=args.processes,
                    token=args.token, cors_origins=list(args.cors_origin))


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    import uvicorn

    from optimizer.service import create_app

    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level="warning",
                server_header=False)
    return 0
