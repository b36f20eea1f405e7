"""A route's exposure to the enemies' AROs and the safest route (docs/rules.md §13.10;
docs/rules.md §13.10): Zone of Control exact, Line of Fire stretches sampled, `aro_by`/`zoc_by`,
the safest route never less safe than the shortest, and the commands and the service."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.infinity.clauses.examples import rect, town, trooper, walk
from constraints.infinity.exposure import zone_of_control
from constraints.infinity.route import route_from_json
from optimizer import line_of_fire, route_exposure
from optimizer.cli import main
from optimizer.routes import shortest_route
from optimizer.routes.safest import safest_route


def _enemy(ident, x, y, facing=None):
    out = trooper(ident, x, y, player="red")
    if facing is not None:
        out["facing"] = facing
    return out


def test_an_enemy_facing_away_cannot_react_but_senses_in_its_zone_of_control():
    data = town(troopers=(_enemy("away", 10, 12, facing=0.0),))
    scenario = scenario_from_json(data)
    exposed = route_exposure(scenario, route_from_json(walk((4, 12, 0), (7, 12, 0))))
    assert exposed.aro_by == () and exposed.zoc_by == ("away",)
    (e,) = exposed.enemies
    assert e.lof == () and e.zoc == ((0.0, 3.0),)
    assert not line_of_fire(scenario, "away", "fusilier").lof
    facing = scenario_from_json(town(troopers=(_enemy("near", 10, 12, facing=180.0),)))
    seen = route_exposure(facing, route_from_json(walk((4, 12, 0), (7, 12, 0))))
    assert seen.aro_by == ("near",) and seen.zoc_by == ()
    assert seen.enemies[0].lof == ((0.0, 3.0),)


def test_the_zone_of_control_ends_8_in_from_the_silhouettes_edges():
    scenario = scenario_from_json(town(troopers=(_enemy("far", 22, 12),), width=30))
    mover, enemy = scenario.unit("fusilier"), scenario.unit("far")
    path = ((4.0, 12.0, 0.0), (16.0, 12.0, 0.0))
    (stretch,) = zone_of_control(enemy, mover, path, False)
    edge = 22 - 8 - 2 * mover.radius_in   # centre distance 8" + both radii
    assert stretch == pytest.approx((edge - 4, 12.0))
    # 8" above: an enemy on a roof 10" up does not sense it
    high = scenario_from_json(town(rect("tower", 9, 14, 11, 16, 10.0),
                                   troopers=(trooper("up", 10, 15, player="red", level=10.0),)))
    assert zone_of_control(high.unit("up"), high.unit("fusilier"), path, False) == ()


def test_a_building_hides_the_stretch_behind_it():
    house = rect("house", 9, 13, 11, 20, 3.0)
    data = town(house, troopers=(_enemy("red1", 10, 22, facing=270.0),))
    scenario = scenario_from_json(data)
    exposed = route_exposure(scenario, route_from_json(walk((4, 12, 0), (8, 12, 0))),
                             spacing_in=0.25)
    (e,) = exposed.enemies
    # seen at the start (x 4, left of the house's shadow), hidden behind it later
    assert e.lof and e.lof[0][0] == 0.0 and e.lof[-1][1] < 4.0
    assert exposed.to_json()["sampled"] == 0.25


def test_the_safest_route_is_no_less_safe_than_the_shortest_and_is_legal():
    red = _enemy("red1", 14, 4, facing=90.0)
    scenario = scenario_from_json(town(rect("house", 7, 8, 9, 14, 3.0), troopers=(red,)))
    shortest = shortest_route(scenario, "fusilier", (9.8, 15), "move_move")
    before = route_exposure(scenario, shortest.route())
    result, exposed = safest_route(scenario, "fusilier", (9.8, 15), "move_move",
                                   time_limit_s=60)
    assert result.status == Status.FEASIBLE and result.legal
    assert "one waypoint" in result.reason
    assert exposed is not None and exposed.key() <= before.key()


def test_lof_command_exit_status_and_json(tmp_path, capsys):
    data = town(rect("house", 9, 9, 11, 15, 3.0),
                troopers=(_enemy("behind", 16, 12), _enemy("open", 4, 20, facing=270.0)))
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert main(["lof", str(path), "--from", "behind", "--to", "fusilier"]) == 1
    capsys.readouterr()
    assert main(["lof", str(path), "--from", "open", "--to", "fusilier", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lof"] is True and out["in_arc"] is True and len(out["witness"]) == 2
    assert main(["lof", str(path), "--from", "nobody", "--to", "fusilier"]) == 2


def test_check_and_route_report_exposure(tmp_path, capsys):
    data = town(troopers=(_enemy("near", 10, 12, facing=180.0),))
    scenario, route = tmp_path / "s.json", tmp_path / "r.json"
    scenario.write_text(json.dumps(data))
    route.write_text(json.dumps(walk((4, 12, 0), (7, 12, 0))))
    capsys.readouterr()
    assert main(["check", str(scenario), str(route), "--exposure", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] and out["aro_by"] == ["near"] and out["sampled"] == 0.25
    assert main(["route", str(scenario), "--unit", "fusilier", "--to", "7,12", "--exposure",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["aro_by"] == ["near"] and out["exposure"][0]["lof"] == [[0.0, 3.0]]


def test_render_draws_the_exposure_of_a_route_answer(tmp_path, capsys):
    data = town(troopers=(_enemy("near", 10, 12, facing=180.0),))
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(data))
    assert main(["route", str(scenario), "--unit", "fusilier", "--to", "7,12", "--exposure",
                 "--json"]) == 0
    answer = tmp_path / "a.json"
    answer.write_text(capsys.readouterr().out)
    plain = json.loads(answer.read_text())
    del plain["aro_by"]
    bare = tmp_path / "b.json"
    bare.write_text(json.dumps(plain))
    assert main(["render", str(scenario), str(answer), "-o", str(tmp_path / "a.png")]) == 0
    assert main(["render", str(scenario), str(bare), "-o", str(tmp_path / "b.png")]) == 0
    # the same route, drawn with and without the enemy's stretches
    assert (tmp_path / "a.png").read_bytes() != (tmp_path / "b.png").read_bytes()
