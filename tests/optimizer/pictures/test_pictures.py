"""What pictures show: rule names, the measured path, the search target, terrain labels only
when few, a legend on the canvas, lines drawn in an area's style, files written whole."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import shapely
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from constraints.core.profile import registered_clauses, rule_name
from constraints.core.scenario import Terrain
from constraints.errors import InvalidInputError
from constraints.t9a.move_io import load_move
from optimizer import Move, check_move, forward, load_scenario, wheel
from optimizer.pictures import draw, draw_geometry, make_figure, render_to_file
from optimizer.pictures.sketchers import sketch
from tests.support import ROOT, scenario, unit, wall

SPEARS = load_scenario(ROOT / "examples" / "spears.json")
TOO_FAR = Move("spears", "march", (forward(6.0), wheel(-30.0), forward(4.0)))
MEASURED = "what was measured"


def lines_labelled(figure: Figure, label: str) -> list:
    return [line for ax in figure.axes for line in ax.get_lines() if line.get_label() == label]


def test_titles_name_the_rules_and_keep_the_ids() -> None:
    figure = make_figure(SPEARS, TOO_FAR)
    title = figure.axes[1].get_title()
    assert "March distance" in title and "(t9a.march.distance)" in title
    labels = [t.get_text() for t in figure.axes[1].texts]
    assert any(t.startswith("March distance\n") and "t9a.march.distance" in t for t in labels)


def test_rule_names() -> None:
    assert rule_name("t9a.valid_final_position") == "Valid Final Position"
    assert rule_name("t9a.reform.model_path") == "Reform: model path"
    assert rule_name("toy.some_rule.part") == "Some rule: part"
    # Every clause of the T9A profiles has its name in the profile data.
    assert all(spec.name for cid, spec in registered_clauses().items() if cid.startswith("t9a."))


def test_a_snaking_distance_is_drawn_along_the_path() -> None:
    """The clause's witness is the chord from start to end centre; the picture follows the
    steps (the wheel as an arc) instead."""
    verdict = check_move(SPEARS, TOO_FAR)
    figure = make_figure(SPEARS, TOO_FAR, verdict)
    chord = next(v for v in verdict.violations if v.clause == "t9a.march.distance").witness
    path = sketch(SPEARS, TOO_FAR, verdict).centre_path
    drawn = [list(zip(*line.get_data(), strict=True)) for line in lines_labelled(figure,
                                                                                 MEASURED)]
    assert drawn and len(path) > 3
    first = drawn[0]
    assert len(first) == len(path)
    assert first[0] == pytest.approx(chord[0]) and first[-1] == pytest.approx(chord[-1])


def test_a_reform_model_path_is_drawn_as_its_polyline() -> None:
    """Light Troops hopping a short wall: the model walks round it (docs/rules.md 5.5)."""
    s = scenario(unit("u", models=5, files=5, centre=(20.0, 10.0), mobility=4.15,
                      light_troops=True), terrain=(wall("wall", 19.0, 13.5, 21.0, 14.5),))
    move = Move("u", "reform", centre=(20.0, 18.0))
    verdict = check_move(s, move)
    violation = next(v for v in verdict.violations if v.clause == "t9a.reform.model_path")
    assert len(violation.witness) > 2
    figure = Figure()
    draw(figure.add_subplot(), s, move, verdict)
    (line,) = [ln for ln in figure.axes[0].get_lines() if ln.get_label() == MEASURED]
    assert list(zip(*line.get_data(), strict=True)) == pytest.approx(list(violation.witness))


def test_the_target_is_marked() -> None:
    figure = make_figure(SPEARS, TOO_FAR, target=(40.0, 30.0))
    assert len(lines_labelled(figure, "search target")) == 2  # both panels
    alone = make_figure(SPEARS, target=(40.0, 30.0))
    assert lines_labelled(alone, "search target")
    with pytest.raises(InvalidInputError):
        make_figure(SPEARS, target=(float("nan"), 1.0))


def crowded(count: int) -> object:
    rows = [Terrain(f"t{i}", "dangerous" if i % 2 else "impassable",
                    ((2.0 + 3 * (i % 20), 20.0 + 2 * (i // 20)),
                     (3.0 + 3 * (i % 20), 20.0 + 2 * (i // 20)),
                     (3.0 + 3 * (i % 20), 21.0 + 2 * (i // 20)))) for i in range(count)]
    return scenario(unit("u"), terrain=tuple(rows))


def test_many_terrain_features_are_not_labelled_one_by_one() -> None:
    figure = Figure(layout="constrained")
    ax = figure.add_subplot()
    draw(ax, crowded(200))
    assert not any(t.get_text().startswith("t") for t in ax.texts)
    legend = ax.get_legend()
    assert legend is not None
    assert sorted(t.get_text() for t in legend.get_texts()) == ["dangerous terrain",
                                                               "impassable terrain",
                                                               "red's units"]
    few = Figure()
    draw(few.add_subplot(), crowded(3))
    assert {"t0", "t1", "t2"} <= {t.get_text() for t in few.axes[0].texts}


def test_the_legend_stays_on_a_plain_figure() -> None:
    """A figure without a layout engine (as a notebook makes one) keeps the legend inside."""
    figure = Figure(figsize=(8, 6))
    draw(figure.add_subplot(), SPEARS, TOO_FAR)
    figure.savefig(io.BytesIO(), format="png", dpi=50)
    box = figure.axes[0].get_legend().get_window_extent()
    canvas = figure.bbox
    assert box.x0 >= canvas.x0 and box.x1 <= canvas.x1
    assert box.y0 >= canvas.y0 and box.y1 <= canvas.y1


@pytest.mark.parametrize("geometry", [shapely.LineString([(1, 1), (2, 2)]),
                                      shapely.Point(3, 3),
                                      shapely.MultiLineString([[(0, 0), (1, 0)],
                                                               [(2, 0), (3, 0)]])])
def test_lines_and_points_take_an_area_style(geometry: shapely.Geometry) -> None:
    """A zero-area sweep is a line; drawn with the sweep's face colour, not an error."""
    figure = Figure()
    ax = figure.add_subplot()
    draw_geometry(ax, geometry, facecolor="tab:blue", edgecolor="none", alpha=0.15,
                  hatch="//", label="front sweep")
    assert ax.get_lines()[0].get_color() == "tab:blue"


def test_render_to_file_refuses_a_bad_name_before_drawing(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="png or .svg"):
        render_to_file(SPEARS, tmp_path / "picture.jpg")
    with pytest.raises(InvalidInputError, match="no such folder"):
        render_to_file(SPEARS, tmp_path / "nowhere" / "picture.png")
    assert list(tmp_path.iterdir()) == []


def test_units_show_their_players_models_and_a_legal_move_its_budget() -> None:
    """Each player's units in its colour with one legend entry a player, every model's base
    drawn, the move's distance against its allowance in the title, one border."""
    spears = load_scenario(ROOT / "examples" / "spears.json")
    move = load_move(ROOT / "examples" / "spears_march.json")
    figure = make_figure(spears, move)
    whole, close = figure.axes
    labels = [t.get_text() for t in close.get_legend().get_texts()]
    assert "blue's units" in labels
    bases = sum(len(u.model_ids()) for u in spears.units)
    assert sum(isinstance(p, Rectangle) and p.get_width() < 2 for p in whole.patches) >= bases
    assert close.get_title().endswith('LEGAL (March distance: 7.78 of 8")')
    texts = [t.get_text() for t in close.texts]
    assert [t for t in texts if t[:1].isdigit()] == \
        ['1 forward 2.00"', "2 wheel -45°", '3 forward 3.00"']
    assert not any(t.get_text()[:1].isdigit() for t in whole.texts)  # the close-up only
    assert not any(spine.get_visible() for spine in whole.spines.values())
