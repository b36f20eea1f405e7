"""Pictures: PNG and SVG files for legal and illegal moves, overlays, and the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
import shapely
from matplotlib.figure import Figure

from constraints.errors import InvalidInputError
from optimizer import Move, check_move, forward, load_scenario, wheel
from optimizer.cli import main
from optimizer.pictures import draw, make_figure, render_to_file
from tests.support import ROOT

SCENARIO = ROOT / "examples" / "spears.json"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

LEGAL = Move("spears", "march", (forward(1.0),))
TOO_FAR = Move("spears", "march", (forward(6.0), wheel(-30.0), forward(4.0)))
REFORM = Move("spears", "reform", files=7, centre=(36.0, 10.5), facing_deg=90.0)


@pytest.fixture(scope="module")
def spears():
    return load_scenario(SCENARIO)


def test_the_moves_judged_as_the_pictures_claim(spears) -> None:
    assert check_move(spears, LEGAL).legal
    assert "t9a.march.distance" in check_move(spears, TOO_FAR).clauses()


@pytest.mark.parametrize("move", [LEGAL, TOO_FAR, REFORM], ids=["legal", "illegal", "reform"])
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_render_writes_a_picture(spears, tmp_path: Path, move: Move, suffix: str) -> None:
    out = tmp_path / f"move{suffix}"
    render_to_file(spears, out, move=move, verdict=check_move(spears, move))
    data = out.read_bytes()
    assert data
    if suffix == ".png":
        assert data.startswith(PNG_MAGIC)
    else:
        assert b"<svg" in data


def test_render_judges_a_move_given_without_a_verdict(spears, tmp_path: Path) -> None:
    figure = make_figure(spears, TOO_FAR)
    titles = " ".join(ax.get_title() for ax in figure.axes)
    assert "ILLEGAL" in titles and "t9a.march.distance" in titles
    out = tmp_path / "judged.svg"
    render_to_file(spears, out, move=TOO_FAR)
    assert "<svg" in out.read_text(encoding="utf-8")


def test_render_scenario_alone(spears, tmp_path: Path) -> None:
    out = tmp_path / "scenario.png"
    render_to_file(spears, str(out))
    assert out.read_bytes().startswith(PNG_MAGIC)


def test_render_end_pose_move_uses_the_steps_found(spears, tmp_path: Path) -> None:
    reached = check_move(spears, Move("spears", "march", (wheel(-30.0), forward(3.0))))
    move = Move("spears", "march", centre=reached.end_centre, facing_deg=reached.end_facing_deg)
    verdict = check_move(spears, move)
    assert verdict.steps is not None
    out = tmp_path / "end_pose.png"
    render_to_file(spears, out, move=move, verdict=verdict)
    assert out.read_bytes().startswith(PNG_MAGIC)


@pytest.mark.parametrize("name", ["picture.jpg", "picture", "picture.png.txt"])
def test_bad_suffix_is_invalid_input(spears, tmp_path: Path, name: str) -> None:
    with pytest.raises(InvalidInputError, match="must end in .png or .svg"):
        render_to_file(spears, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_draw_on_any_axes_with_overlays(spears) -> None:
    figure = Figure()
    ax = figure.add_subplot()
    holed = shapely.box(0, 0, 10, 10).difference(shapely.box(4, 4, 6, 6))
    overlays = [
        (holed, {"facecolor": "green", "label": "legal region"}),
        (shapely.MultiPolygon([shapely.box(20, 20, 22, 22), shapely.box(30, 30, 31, 31)]), {}),
        (shapely.LineString([(36, 10), (40, 20)]), {"color": "purple", "label": "path"}),
        (shapely.Point(5, 5), {"color": "black"}),
        (shapely.GeometryCollection([shapely.Point(1, 1), shapely.LineString([(0, 0), (1, 2)])]),
         {}),
        (shapely.Polygon(), {}),
    ]
    draw(ax, spears, TOO_FAR, check_move(spears, TOO_FAR), overlays)
    assert "ILLEGAL" in ax.get_title()
    assert "t9a.march.distance" in ax.get_title()
    assert ax.get_legend() is not None
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "t9a.march.distance" in texts
    labels = ax.get_legend_handles_labels()[1]
    assert "legal region" in labels and "path" in labels


def test_draw_titles_a_legal_move_in_green(spears) -> None:
    ax = Figure().add_subplot()
    draw(ax, spears, LEGAL, check_move(spears, LEGAL))
    assert ax.get_title().endswith("LEGAL (March distance: 1.00 of 8\")")
    assert ax.title.get_color() != "black"


def test_cli_render_writes_the_file(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cli.png"
    move = ROOT / "examples" / "spears_march.json"
    assert main(["render", str(SCENARIO), str(move), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(PNG_MAGIC)
    assert "wrote" in capsys.readouterr().out


def test_cli_render_bad_suffix_exits_2(tmp_path: Path, capsys) -> None:
    assert main(["render", str(SCENARIO), "-o", str(tmp_path / "x.gif")]) == 2
    assert "-o" in capsys.readouterr().err
    assert not (tmp_path / "x.gif").exists()
