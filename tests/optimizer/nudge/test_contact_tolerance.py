"""A21: Facings closer than the contact tolerance (the rule option `contact_tolerance`,
default 0.001") are in base contact, a gap or an overlap, and such an overlap is contact,
not an input error.  `manoeuvre nudge` then reports the combat."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json, scenario_to_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.combats import combats
from optimizer.cli import main
from tests.support import scenario, unit


def _facing_off(apart_in: float, **options):
    """Two 5 x 2 units on 1" bases face each other, their Fronts `apart_in` apart (negative:
    overlapping)."""
    a = unit("a", centre=(36.0, 10.0))
    b = unit("b", centre=(36.0, 12.0 + apart_in), facing=270.0, player="blue")
    return scenario(a, b, **options)


@pytest.mark.parametrize("apart", [0.0001, -0.0001, 0.0, 0.00099])
def test_units_closer_than_the_tolerance_are_in_combat(apart):
    assert combats(_facing_off(apart).units, 0.001) == [("a", "b")]


@pytest.mark.parametrize("apart", [0.0011, 0.01])
def test_units_farther_than_the_tolerance_are_not(apart):
    assert combats(_facing_off(apart).units, 0.001) == []


def test_an_overlap_within_the_tolerance_is_read_not_refused():
    data = scenario_to_json(_facing_off(-0.0001))
    assert scenario_from_json(data).unit("b").pose.centre[1] == pytest.approx(11.9999)


def test_a_deeper_overlap_is_still_an_input_error():
    with pytest.raises(InvalidInputError, match="overlaps unit"):
        scenario_from_json(scenario_to_json(_facing_off(-0.01)))


def test_the_tolerance_is_a_rule_option():
    """contact_tolerance 0 reads positions exactly: a 0.0001" gap is no contact, and a
    0.0001" overlap an input error."""
    assert combats(_facing_off(0.0001).units, 0.0) == []
    with pytest.raises(InvalidInputError, match="overlaps unit"):
        scenario_from_json(scenario_to_json(_facing_off(-0.0001, contact_tolerance=0.0)))


@pytest.mark.parametrize("apart", [0.0001, -0.0001])
def test_nudge_reports_the_combat(tmp_path, capsys, apart):
    path = tmp_path / "close.json"
    path.write_text(json.dumps(scenario_to_json(_facing_off(apart))), encoding="utf-8")
    assert main(["nudge", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["combats"] == [["a", "b"]]


def test_nudge_with_the_tolerance_off_reports_no_combat(tmp_path, capsys):
    path = tmp_path / "close.json"
    data = scenario_to_json(_facing_off(0.0001, contact_tolerance=0.0))
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["nudge", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["combats"] == []
