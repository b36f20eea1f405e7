"""What every bench's command line shares: the cases chosen and the repeats."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence


def choose(parser: argparse.ArgumentParser, args: argparse.Namespace, wanted: str | None,
           known: Sequence[str], quick: Iterable[str], what: str) -> argparse.Namespace:
    """`args` with `names` (the cases asked for, checked against `known`; the quick ones
    with --quick, else all) and `repeats` (default 3, 1 with --quick, at least 1)."""
    names = wanted.split(",") if wanted else list(quick if args.quick else known)
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown {what}(s) {', '.join(unknown)} (known: {', '.join(known)})")
    args.names = names
    args.repeats = args.repeats or (1 if args.quick else 3)
    if args.repeats < 1:
        parser.error("--repeats must be >= 1")
    return args
