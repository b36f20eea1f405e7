"""The batch mask over the wire: poses in, one legality bit each out (optimizer.batch).

JSON: `{"poses": [[x, y, facing, files], ...]}` and the scenario, unit and manoeuvre beside
them, answered by a JSON list of booleans.  Binary (`application/octet-stream`): the body is
rows of four little-endian float64 (x, y, facing, files), the scenario id, unit and
manoeuvre are query parameters, and the answer is the bits packed eight to a byte (numpy
`packbits`, little bit order: pose i is bit i % 8 of byte i // 8) with the count in
`X-Count`.  The judge of each (scenario, unit, manoeuvre) is built once and kept with the
registered scenario."""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.jsonread import text
from optimizer.dispatch import require
from optimizer.service import requests
from optimizer.service.problems import Problem
from optimizer.service.queries import Service
from optimizer.service.requests import read
from optimizer.service.scenarios import Entry, scenario_of

ROW_BYTES = 4 * 8  # x, y, facing, files: four float64


def judged(service: Service, entry: Entry, unit: str, manoeuvre: str,
           poses: np.ndarray) -> np.ndarray:
    """Whether each pose (rows x, y, facing, files) is legal: the batch judge's sound mask."""
    require(entry.scenario, "legal_mask")
    judge = service.cache.judge(entry, unit, manoeuvre)
    if len(poses) == 0:
        return np.zeros(0, dtype=bool)
    mask: np.ndarray = judge.mask(poses[:, :2], poses[:, 2], files=poses[:, 3])
    return mask


def mask_json(service: Service, body: Any) -> list[bool]:
    given = read(requests.Mask, body)
    poses = np.asarray(given.poses, dtype=float).reshape(-1, 4)
    entry = scenario_of(service.cache, body)
    return [bool(v) for v in judged(service, entry, given.unit, given.manoeuvre, poses)]


def mask_binary(service: Service, body: bytes, query: dict[str, str]) -> tuple[bytes, int]:
    """The packed bits and the count, for a body of float64 rows."""
    for key in ("scenario_id", "unit", "manoeuvre"):
        if key not in query:
            raise Problem(422, f"?{key}: missing query parameter {key!r} (a binary mask "
                          "names the scenario id, unit and manoeuvre in the query)", f"?{key}")
    unknown = sorted(set(query) - {"scenario_id", "unit", "manoeuvre"})
    if unknown:
        raise Problem(422, f"?{unknown[0]}: unknown query parameter", f"?{unknown[0]}")
    if len(body) % ROW_BYTES:
        raise Problem(422, f"$: expected rows of {ROW_BYTES} bytes (four little-endian "
                      f"float64: x, y, facing, files), got {len(body)} bytes", "$")
    poses = np.frombuffer(body, dtype="<f8").reshape(-1, 4)
    entry = service.cache.get(query["scenario_id"], "?scenario_id")
    # Query parameters are text already: checked as the JSON body's are (printable).
    unit, manoeuvre = (text(query[key], f"$.{key}") for key in ("unit", "manoeuvre"))
    ok = judged(service, entry, unit, manoeuvre, poses)
    return np.packbits(ok, bitorder="little").tobytes(), len(ok)

