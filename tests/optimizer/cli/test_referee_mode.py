"""Referee mode (A21): `manoeuvre check --referee T` and `check_move(..., referee=T)`.

The exact verdict (`legal`) never changes; the referee's reading adds the close calls (a
clause measured in inches within T of its limit, either side, with its signed margin) and
says `within_tolerance` when every broken clause is a close call."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from constraints.t9a.move_io import move_from_json
from optimizer import check_move
from optimizer.cli import main
from tests.support import ROOT

SPEARS = str(ROOT / "examples" / "spears.json")


def _march(forward: float) -> dict:
    return {"unit": "spears", "manoeuvre": "march", "steps": [{"forward": forward}]}


def _check(move: dict, referee: float | None):
    return check_move(load_scenario(SPEARS), move_from_json(move), referee=referee)


def test_a_march_a_hair_too_long_is_within_tolerance():
    verdict = _check(_march(8.005), 0.01)
    assert not verdict.legal  # the exact verdict is unchanged
    call = verdict.referee
    assert call.verdict == "within_tolerance"
    broken = {c.clause: c for c in call.close_calls if c.margin < 0}
    assert set(broken) == {v.clause for v in verdict.violations}
    assert broken["t9a.march.distance"].margin == pytest.approx(-0.005)


def test_a_smaller_tolerance_keeps_it_illegal():
    verdict = _check(_march(8.005), 0.001)
    assert verdict.referee.verdict == "illegal"
    assert all(c.margin >= 0 for c in verdict.referee.close_calls)


def test_a_legal_move_near_its_limit_is_legal_with_a_close_call():
    verdict = _check(_march(7.995), 0.01)
    assert verdict.legal and verdict.referee.verdict == "legal"
    [call] = [c for c in verdict.referee.close_calls if c.clause == "t9a.march.distance"]
    assert call.margin == pytest.approx(0.005) and call.limit == pytest.approx(8.0)


def test_degrees_are_never_close_calls():
    """Wheeling 90.5 degrees in all breaks the heading window, measured in degrees: not a close
    call, however large the tolerance."""
    move = {"unit": "spears", "manoeuvre": "march",
            "steps": [{"wheel": -45.0}, {"forward": 0.1}, {"wheel": -45.5}]}
    verdict = _check(move, 1.0)
    assert "t9a.march.heading_window" in verdict.clauses()
    assert verdict.referee.verdict == "illegal"
    assert "t9a.march.heading_window" not in {c.clause for c in verdict.referee.close_calls}


def test_referee_off_leaves_the_verdict_as_it_was():
    verdict = _check(_march(8.005), None)
    assert verdict.referee is None and "referee" not in verdict.to_json()


@pytest.mark.parametrize("bad", [-0.1, 2.0, float("nan")])
def test_a_tolerance_out_of_range_is_bad_input(bad):
    with pytest.raises(InvalidInputError):
        _check(_march(8.0), bad)


def test_cli_within_tolerance_exits_0_with_a_referee_line(tmp_path, capsys):
    path = tmp_path / "move.json"
    path.write_text(json.dumps(_march(8.005)), encoding="utf-8")
    assert main(["check", SPEARS, str(path)]) == 1
    capsys.readouterr()
    assert main(["check", SPEARS, str(path), "--referee", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "ILLEGAL" in out and "referee (0.01): WITHIN TOLERANCE" in out
    assert main(["check", SPEARS, str(path), "--referee", "0.01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False
    assert data["referee"]["tolerance"] == 0.01
    assert data["referee"]["verdict"] == "within_tolerance"
    assert {"clause", "measured", "limit", "margin"} <= set(data["referee"]["close_calls"][0])


def test_cli_out_of_tolerance_exits_1(tmp_path, capsys):
    path = tmp_path / "move.json"
    path.write_text(json.dumps(_march(8.5)), encoding="utf-8")
    assert main(["check", SPEARS, str(path), "--referee", "0.01"]) == 1
    assert "referee (0.01): ILLEGAL" in capsys.readouterr().out


def test_cli_bad_tolerance_is_one_line_of_bad_input(tmp_path, capsys):
    path = tmp_path / "move.json"
    path.write_text(json.dumps(_march(8.0)), encoding="utf-8")
    assert main(["check", SPEARS, str(path), "--referee", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--referee" in err


def test_a_nudge_check_takes_the_referee_too():
    """Seed 001's nudge back into contact: 0.5" sideways regains it; 0.495" stops 0.005"
    short of the enemy, a close call of `nudge.contact` inside 0.01"."""
    from constraints.core.scenario_io import scenario_from_json
    from constraints.t9a.clauses.nudge.checker import check_nudge
    from constraints.t9a.clauses.nudge.context import Leg
    from constraints.t9a.clauses.nudge.examples import foe, line, scene

    scn = scenario_from_json(scene(line(), foe(5.5)))
    exact = check_nudge(scn, "u", {"e": "front"}, [Leg("sideways", 0.495)])
    verdict = check_nudge(scn, "u", {"e": "front"}, [Leg("sideways", 0.495)], referee=0.01)
    assert not exact.legal and exact.referee is None
    assert not verdict.legal and verdict.referee.verdict == "within_tolerance"
    assert check_nudge(scn, "u", {"e": "front"}, [Leg("sideways", 0.4)],
                       referee=0.01).referee.verdict == "illegal"
