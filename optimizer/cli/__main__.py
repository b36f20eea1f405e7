"""`python -m optimizer.cli`: the same as the `manoeuvre` command."""

import sys

from optimizer.cli.main import main

# Guarded: a worker process of `serve --processes` (spawned) imports this module again.
if __name__ == "__main__":
    sys.exit(main())
