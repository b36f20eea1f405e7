"""`python -m optimizer.cli`: the same as the `manoeuvre` command."""

import sys

from optimizer.cli.main import main

sys.exit(main())
