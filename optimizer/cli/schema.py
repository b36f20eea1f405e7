"""`manoeuvre schema NAME [--out FILE]`: the JSON Schema (draft 2020-12) of a file the tool
reads or a result it writes (docs/formats.md "JSON Schemas"; the same as docs/schemas/)."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

# The names, spelt here so that building the parser loads no model (constraints.schema's
# SCHEMAS holds the same; tests/optimizer/cli/test_schema_cli.py checks they agree).
NAMES = ("scenario", "move", "route", "casualties", "combat-result", "combat-reform", "nudges",
         "verdict", "search-result", "nudge-result", "combat-reform-result", "route-result",
         "lof-result")


def add_schema_command(sub: Any, epilog: str | None = None) -> None:
    schema = sub.add_parser("schema", help="print the JSON Schema of a file or a result",
                            epilog=epilog,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    schema.add_argument("name", choices=NAMES, metavar="NAME",
                        help=f"one of: {', '.join(NAMES)}")
    schema.add_argument("--out", metavar="FILE",
                        help="write it to FILE (whole or not at all) instead of printing it")


def schema_text(name: str) -> str:
    """The JSON Schema of `name`, as written to docs/schemas/NAME.json."""
    from constraints.schema import json_schema

    return json.dumps(json_schema(name), indent=2, ensure_ascii=False) + "\n"


def cmd_schema(args: argparse.Namespace) -> int:
    text = schema_text(args.name)
    if args.out is None:
        print(text, end="")
        return 0
    write_whole(Path(args.out), text)
    return 0


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file beside it: never a partial file."""
    from constraints.errors import InvalidInputError

    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".",
                                             prefix=f".{path.name}.", suffix=".tmp")
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"cannot write file: {_reason(exc)}", source=str(path)) \
            from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 is for secrets; a schema is not one
        os.replace(temporary, path)
    except (OSError, ValueError) as exc:
        Path(temporary).unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write file: {_reason(exc)}", source=str(path)) \
            from None


def _reason(exc: Exception) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
