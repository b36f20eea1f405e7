"""The hostile-input fuzz of tests/optimizer/cli/test_fuzz.py on Infinity: mutated towns,
declared routes and `manoeuvre route` command lines give an answer or one line with exit
status 2, never a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.optimizer.cli.test_fuzz import assert_answer_or_one_line, document, fuzz, run_cli
from tests.support import ROOT

RUINS = json.loads((ROOT / "examples" / "ruins.json").read_text(encoding="utf-8"))
ROUTE = json.loads((ROOT / "examples" / "ruins_route.json").read_text(encoding="utf-8"))
TARGETS = st.sampled_from(["9.3,16.3", "12,18", "5,5,0", "nan,1", "1e400,2", "-1,-1", "x",
                           "1,2,3,4", "20,17,3", "31.9,23.9", ""])


@fuzz(2.0)
@given(scenario=document(RUINS), route=document(ROUTE), as_json=st.booleans())
def test_fuzz_check_a_route(scenario: bytes, route: bytes, as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = Path(folder, "town.json"), Path(folder, "route.json")
        paths[0].write_bytes(scenario)
        paths[1].write_bytes(route)
        status, out, err = run_cli(["check", *map(str, paths)] + (["--json"] if as_json else []))
    assert_answer_or_one_line(status, out, err)


@fuzz(2.0)
@given(scenario=document(RUINS), target=TARGETS,
       extra=st.lists(st.sampled_from(["--skill", "move_move", "--prone", "--stand", "--json",
                                       "--reach", "--mov", "3", "-1", "nan", "--tolerance",
                                       "0", "--unit", "zhanshi", "--bogus"]), max_size=3))
def test_fuzz_route(scenario: bytes, target: str, extra: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "town.json")
        path.write_bytes(scenario)
        status, out, err = run_cli(["route", str(path), "--unit", "fusilier", "--to", target,
                                    *extra])
    assert_answer_or_one_line(status, out, err)
