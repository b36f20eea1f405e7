"""What the documentation shows is what the program does.

Every JSON example of docs/formats.md that names its command is today's output of that
command, compared by value at the precision shown (`"..."` stands for what is left out;
elapsed times are not compared); every command in README.md's shell and text blocks runs as
printed, in a folder holding the examples and `.venv/bin` (PATH as the README says), and
prints what the README shows; notebook 02 calls every query the README says it shows."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT

FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def json_block_after(heading: str) -> Any:
    """The first ```json block after `heading` in docs/formats.md."""
    rest = FORMATS[FORMATS.index(heading):]
    return json.loads(re.search(r"```json\n(.*?)```", rest, re.S).group(1))


# docs/formats.md's JSON examples: the heading over each, and the command shown before it.
JSON_EXAMPLES = {
    "## Search result": "manoeuvre solve examples/flank_march.json --unit knights --manoeuvre "
                        "march --target 42,18.5 --front --json",
    "## Nudge result": "manoeuvre nudge examples/melee.json --casualties "
                       "examples/melee_casualties.json --json",
    "## Combat Reform proposal": "manoeuvre combat-reform examples/combat.json --result "
                                 "examples/combat_result.json --json",
    "**Route result**": "manoeuvre route examples/ruins.json --unit fusilier --to 9.3,16.3 "
                        "--skill move_move --json",
}
NOT_COMPARED = {"elapsed_s"}  # a time: differs run to run


def decimals(value: float) -> int:
    text = repr(value)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def mismatch(shown: Any, real: Any, path: str = "$") -> str | None:
    """Where `real` differs from the example `shown`, or None.  A number agrees when it
    rounds to the shown one at the shown precision; `"..."` as a list's last item or as a
    key allows more, and a text ending in "..." is the start of the real one."""
    if shown == "...":
        return None
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return f"{path}: expected an object, got {real!r}"
        keys = set(shown) - {"..."}
        if "..." not in shown and keys != set(real):
            return f"{path}: keys {sorted(keys)} shown, {sorted(real)} output"
        for key in sorted(keys - NOT_COMPARED):
            if key not in real:
                return f"{path}.{key}: not in the output"
            found = mismatch(shown[key], real[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(shown, list):
        if not isinstance(real, list):
            return f"{path}: expected a list, got {real!r}"
        open_ended = bool(shown) and shown[-1] == "..."
        items = shown[:-1] if open_ended else shown
        if len(real) < len(items) or (not open_ended and len(real) != len(items)):
            return f"{path}: {len(items)} items shown, {len(real)} output"
        for i, item in enumerate(items):
            found = mismatch(item, real[i], f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(shown, float) or (isinstance(shown, int) and not isinstance(shown, bool)
                                    and isinstance(real, float)):
        ok = isinstance(real, (int, float)) and not isinstance(real, bool) and \
            abs(real - shown) <= 0.5 * 10.0 ** -decimals(float(shown)) + 1e-9
        return None if ok else f"{path}: {shown!r} shown, {real!r} output"
    if isinstance(shown, str) and shown.endswith("...") and isinstance(real, str):
        ok = real.startswith(shown[:-3])  # a message cut short
        return None if ok else f"{path}: {shown!r} shown, {real!r} output"
    return None if shown == real else f"{path}: {shown!r} shown, {real!r} output"


def test_the_matcher_finds_a_difference() -> None:
    assert mismatch({"a": [1.25, "..."]}, {"a": [1.254, 3]}) is None
    assert mismatch({"a": 1.25}, {"a": 1.26}) == "$.a: 1.25 shown, 1.26 output"
    assert mismatch({"a": 1}, {"a": 1, "b": 2}) is not None
    assert mismatch({"a": 1, "...": "..."}, {"a": 1, "b": 2}) is None
    assert mismatch([1, 2], [1, 2, 3]) is not None


@pytest.mark.parametrize("heading", list(JSON_EXAMPLES))
def test_a_json_example_is_todays_output(heading: str, capsys) -> None:
    from optimizer.cli import main
    command = JSON_EXAMPLES[heading]
    rest = FORMATS[FORMATS.index(heading):]
    block = rest.index("```json")
    assert command in " ".join(rest[:block].split()), f"the text before {heading} changed"
    status = main(command.split()[1:])
    assert status == 0
    real = json.loads(capsys.readouterr().out)
    assert mismatch(json_block_after(heading), real) is None, \
        mismatch(json_block_after(heading), real)


def test_the_verdict_example_is_todays_output(tmp_path, capsys) -> None:
    from optimizer.cli import main
    heading = "## Verdict"
    move = '{"unit": "spears", "manoeuvre": "march", "steps": [{"forward": 9.01}]}'
    rest = FORMATS[FORMATS.index(heading):]
    assert f"`{move}` in\n`examples/spears.json`" in rest[:rest.index("```json")]
    path = tmp_path / "move.json"
    path.write_text(move, encoding="utf-8")
    assert main(["check", str(ROOT / "examples" / "spears.json"), str(path), "--json"]) == 1
    real = json.loads(capsys.readouterr().out)
    found = mismatch(json_block_after(heading), real)
    assert found is None, found


def readme_commands() -> list[tuple[str, str | None]]:
    """Every command of README.md's blocks with the output shown after it (None: no output
    shown), the set-up and the test suite left out (they are how this test runs)."""
    found: list[tuple[str, str | None]] = []
    for kind, body in re.findall(r"```(sh|text)\n(.*?)```", README, re.S):
        if kind == "sh":  # a block's lines run in turn (a later one reads what one wrote)
            lines = []
            for line in body.strip().splitlines():
                parts = [p.strip() for p in line.split("&&")]
                kept = [p for p in parts if not p.startswith(("python3 -m venv", ".venv/bin/pip"))
                        and "pytest" not in p]
                if kept:
                    lines.append(" && ".join(kept))
            if lines:
                found.append((" && ".join(lines), None))
            continue
        if not body.startswith("$ "):
            continue
        first, _, shown = body.partition("\n")
        found.append((first[2:], shown.rstrip("\n")))
    return found


def same_text(shown: str, real: str) -> bool:
    """Line by line; a shown line ending in "..." is a prefix of the real one."""
    real_lines = real.rstrip("\n").splitlines()
    shown_lines = shown.splitlines()
    if len(real_lines) != len(shown_lines):
        return False
    return all(r.startswith(s[:-3]) if s.endswith("...") else r == s
               for s, r in zip(shown_lines, real_lines, strict=True))


@pytest.mark.parametrize("command, shown", readme_commands(),
                         ids=lambda v: (v or "")[:60])
def test_a_readme_command_runs_as_printed(command: str, shown: str | None,
                                          tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    venv_bin = Path(sys.executable).parent
    if not (venv_bin / "manoeuvre").exists():
        pytest.skip("the manoeuvre script is not installed beside this Python")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "bin").symlink_to(venv_bin)
    env = dict(os.environ, PATH=f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}",
               MPLBACKEND="Agg")
    done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, (command, done.stderr)
    if shown is not None:
        assert same_text(shown, done.stdout), (shown, done.stdout)


def test_notebook_02_calls_what_the_readme_promises() -> None:
    promised = re.search(r"02_searching_moves\.ipynb` walks through it, with the queries an AI "
                         r"opponent uses\s*\(([^)]*)\)", README)
    assert promised is not None
    names = re.findall(r"`([\w.]+)`", promised.group(1))
    cells = json.loads((ROOT / "notebooks" / "02_searching_moves.ipynb")
                       .read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for name in names:
        called = name.split(".")[-1]
        assert re.search(rf"\b{called}\(", code), f"notebook 02 never calls {name}"


def test_the_infinity_examples_are_todays(capsys) -> None:
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.cli import main
    heading = "## Infinity N4 scenario"
    scenario_from_json(json_block_after(heading))       # the example scenario loads
    rest = FORMATS[FORMATS.index(heading):]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", rest, re.S)[:3]]
    declared, shown = blocks[1], blocks[2]
    bundled = json.loads((ROOT / "examples" / "ruins_route.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in declared.items() if k != "prone"} == bundled
    assert main(["route", str(ROOT / "examples" / "ruins.json"), "--unit", "fusilier", "--to",
                 "9.3,16.3", "--skill", "move_move", "--json"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert set(shown) == set(real)
    assert shown["path"] == real["path"] and shown["status"] == real["status"]
    assert shown["length"] == pytest.approx(real["length"])
