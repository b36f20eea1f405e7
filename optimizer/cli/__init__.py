"""The `manoeuvre` command line."""

from optimizer.cli.main import main

__all__ = ["main"]
