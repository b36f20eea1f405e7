"""Positions as a combat leaves them: how many units that start within 0.5" of something can
still Advance, March and Reform (docs/rules.md, units that start close, A20).

    .venv/bin/python benchmarks/bench_start_close.py [--count 500] [--tree DIR] [--json OUT]

Positions: seeded random tables (random_requests.random_scenario, "close" draws: a wall
0.2-0.9" from one side of the moving unit), kept when the unit stands within 0.5" of terrain,
another unit or the table edge.  Each manoeuvre is tried with a fixed set of probe moves
(PROBES), judged by the exact checker; a position "can" make a manoeuvre when a probe is
legal.  That is a lower bound on what the rules allow (a move outside the probes may be
legal too), the same probes for every tree.

`--tree DIR` judges with another source tree's packages (e.g. a worktree of the commit
before A20): run it once per tree, the same seed gives the same positions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _probes(mobility: float, files: int, facing: float) -> dict[str, list[dict]]:
    """Move JSON of the probes (the move file format, so every tree reads them alike)."""
    advance = [{"manoeuvre": "advance", "pivot": p, "steps": []} for p in (90, -90, 180)]
    advance += [{"manoeuvre": "advance", "pivot": p, "steps": [{"forward": d}]}
                for p in (0, 45, -45, 90, -90, 135, -135, 180)
                for d in (0.5, 1.0, mobility) if d <= mobility]
    march = [{"manoeuvre": "march", "steps": [{"forward": d}]}
             for d in (0.5, 1.0, 2.0 * mobility)]
    march += [{"manoeuvre": "march", "steps": [{"wheel": w}, {"forward": 0.5}]}
              for w in (15, -15, 45, -45, 90, -90)]
    reform = [{"manoeuvre": "reform", "facing": (facing + turn) % 360, "files": f}
              for turn in (180, 90, 270, 0) for f in (files, files - 1, files + 1)
              if f >= 1 and (turn or f != files)]
    return {"advance": advance, "march": march, "reform": reform}


def _positions(count: int, seed: int) -> list:
    """`count` seeded positions with the mover within 0.5" of something."""
    import numpy as np
    import shapely
    from random_requests import random_scenario

    found = []
    draw = 0
    while len(found) < count:
        rng = np.random.default_rng([seed, draw])
        draw += 1
        scenario, uid = random_scenario(rng, close=True)
        unit = scenario.unit(uid)
        body = unit.boundary()
        others = [u.boundary() for u in scenario.units if u.id != uid]
        others += [t.shape for t in scenario.terrain]
        field = scenario.battlefield
        edge = shapely.box(0, 0, field.width_in, field.depth_in).exterior
        nearest = min([body.distance(o) for o in others] + [body.distance(edge)])
        if nearest < 0.5:
            found.append((scenario, uid, nearest))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--tree", type=Path, default=HERE.parent)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sys.path[:0] = [str(args.tree.resolve()), str(HERE)]
    from constraints.t9a.checker import check_move
    from constraints.t9a.move_io import move_from_json

    started = time.perf_counter()
    can = {"advance": 0, "march": 0, "reform": 0}
    rows = []
    positions = _positions(args.count, args.seed)
    for scenario, uid, nearest in positions:
        unit = scenario.unit(uid)
        row = {"nearest_in": round(nearest, 3)}
        for manoeuvre, probes in _probes(unit.mobility_in, unit.files,
                                         unit.pose.facing_deg).items():
            row[manoeuvre] = any(
                check_move(scenario, move_from_json({"unit": uid, **probe})).legal
                for probe in probes)
            can[manoeuvre] += row[manoeuvre]
        rows.append(row)
    n = len(positions)
    print(f"tree {args.tree.resolve()}: {n} positions within 0.5\" of something; "
          + ", ".join(f"{m} {k} ({100 * k / n:.0f}%)" for m, k in can.items())
          + f"; {time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"tree": str(args.tree), "can": can, "rows": rows}))


if __name__ == "__main__":
    main()
