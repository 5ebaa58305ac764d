"""The result card (`sheets/result_card.py`) and its route, `/m/NAME/result.svg`: the card's texts against the
match's result as `show --json` and the command line give it, names that are markup kept as text, and the route
answering a finished match only, to holders of the token only."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pages import HOSTILE, PAD_TOKEN, QUOTED, SAMPLES, PageReader, signed_in, write_hostile_hollywood
from result_svg import read_card
from starlette.testclient import TestClient
from test_phone_words import COMMAND_WORDS, words
from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.files.served import Folder
from ginscore.sheets.result_card import CARD_WIDTH, card_svg, result_card


def run(*args: str) -> None:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.stderr


def gin_game(path: Path, winner: str, first: str = "Ann", second: str = "Bob", hour: int = 20) -> None:
    """A game of one hand: `winner` gins against 90 (standard: 110 points, 20 for the box, 200 for the shutout),
    started at `hour` o'clock, so that games made in one second still have their order."""
    run("new", str(path), first, second)
    run("record", str(path), "--knocker", winner, "--deadwood", "0", "--opponent-deadwood", "90")
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'created = "[^"]*"', f'created = "2026-12-01T{hour:02}:00:00+00:00"', text, count=1), encoding="utf-8")


def card_of(folder: Path, name: str) -> str:
    """The card the route draws: the series as it stood in that match."""
    served = Folder(str(folder))
    sheet = served.sheet(name)
    card = result_card(sheet, served.table.series(sheet))
    assert card is not None
    return card_svg(card)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(SAMPLES / "standard.toml", tmp_path / "standard.toml")
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with signed_in(folder) as client:
        yield client


def test_the_sample_s_card_says_its_finals_with_every_bonus_as_show_json_does(folder: Path):
    shown = Folder(str(folder)).show("standard.toml")
    card = read_card(card_of(folder, "standard.toml"))
    assert card.title == "Maria vs Tom (standard rules, target 100)"
    assert card.headline == f"{shown['winner']} wins by {shown['margin']}." == "Tom wins by 139."
    assert card.players == [("Maria", "144", "final total", "no"), ("Tom", "283", "winner", "yes")]
    assert card.caption == "Final totals, with every bonus" and card.columns == ["Maria", "Tom"]
    players = shown["players"]
    assert card.rows == {
        "points": [str(shown["totals"][p]) for p in players],
        "boxes": [str(shown["boxes"][p]) for p in players],
        "game bonus": [str(shown["bonuses"][p]["game"]) for p in players],
        "box bonus": [str(shown["bonuses"][p]["boxes"]) for p in players],
        "final": [str(shown["final"][p]) for p in players],
    }  # no shutout bonus line: nobody has one
    assert card.notes == ["Tom reached 100."]
    assert card.series == "Series: Maria 0 – Tom 1"
    assert card.width == CARD_WIDTH and 0 < card.lowest_text < card.height


def test_a_shutout_s_bonus_has_its_line_and_the_series_counts_the_games_before(tmp_path: Path):
    gin_game(tmp_path / "one.toml", "Bob", hour=18)
    gin_game(tmp_path / "two.toml", "Ann", hour=19)
    gin_game(tmp_path / "three.toml", "Bob", hour=20)
    assert read_card(card_of(tmp_path, "one.toml")).series == "Series: Ann 0 – Bob 1"  # not the games after it
    assert read_card(card_of(tmp_path, "two.toml")).series == "Series: Ann 1 – Bob 1"
    card = read_card(card_of(tmp_path, "three.toml"))
    assert card.headline == "Bob wins by 330."
    assert card.players == [("Ann", "0", "final total", "no"), ("Bob", "330", "winner", "yes")]
    # `ginscore record`'s words: Bob: 110 points + 200 shutout bonus + 20 for boxes = 330
    assert card.rows == {"points": ["0", "110"], "boxes": ["0", "1"], "game bonus": ["0", "0"], "box bonus": ["0", "20"],
                         "shutout bonus": ["0", "200"], "final": ["0", "330"]}
    assert card.series == "Series: Ann 1 – Bob 2"


def test_names_that_are_markup_stay_text_and_a_hollywood_card_says_each_game(tmp_path: Path):
    write_hostile_hollywood(tmp_path / "hollywood.toml")
    svg = card_of(tmp_path, "hollywood.toml")
    assert "<script" not in svg and 'Tom & "' not in svg and "&lt;script&gt;" in svg and "Tom &amp; &quot;Jerry&quot;" in svg
    card = read_card(svg)
    assert card.title.startswith(f"{HOSTILE} vs {QUOTED} (Hollywood")
    assert card.headline == f"{HOSTILE} wins by 620 over the three games."
    assert [name for name, *_ in card.players] == ["<script>alert(1)</…", QUOTED]  # cut to fit its box
    assert card.caption == "Final totals over the three games, with every bonus"
    assert card.rows["final"] == ["670", "50"] and card.rows["shutout bonus"] == ["200", "0"]
    assert card.notes == [f"Game {number}: {HOSTILE} reached 50." for number in (1, 2, 3)]
    assert card.series == f"Series: {HOSTILE} 3 – {QUOTED} 0"
    assert 0 < card.lowest_text < card.height


def test_a_match_in_play_has_no_card(tmp_path: Path):
    run("new", str(tmp_path / "open.toml"), "Ann", "Bob")
    run("record", str(tmp_path / "open.toml"), "--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "25")
    assert result_card(Folder(str(tmp_path)).sheet("open.toml")) is None


# --- the route -------------------------------------------------------------------------------------------------


def test_a_finished_match_s_picture_is_its_card_as_svg(folder: Path, client: TestClient):
    answer = client.get("/m/standard.toml/result.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert answer.text == card_of(folder, "standard.toml")
    assert COMMAND_WORDS.search(words(answer.text)) is None
    assert "img-src 'self' blob:;" in answer.headers["content-security-policy"]  # the page draws it from a blob: URL


def test_the_game_over_screen_offers_the_share_and_the_card_agrees_with_it(folder: Path, client: TestClient):
    page = PageReader(client.get("/m/standard.toml").text)
    button = next(attrs for tag, attrs in page.tags if tag == "button" and "data-share" in attrs)
    assert button["data-share"] == "/m/standard.toml/result.svg" and button["data-file"] == "standard.toml"
    assert button["data-text"] == "Tom wins by 139. Series: Maria 0 – Tom 1"
    link = next(attrs for tag, attrs in page.tags if tag == "a" and attrs.get("class") == "share-link")
    assert link["href"] == "/m/standard.toml/result.svg"
    assert page.text("share-button") == "Share the result" and page.text("share-link") == "The result as a picture"
    table = page.table("final-totals fold")
    shown = {row[0].text: [cell.text for cell in row[1:]] for row in table.sections["tbody"]}
    card = read_card(client.get(button["data-share"]).text)
    assert card.rows == shown
    assert card.series in page.text("result-series") and card.headline == page.text("result-title")


def test_a_match_in_play_has_no_picture_nor_a_share_button(folder: Path, client: TestClient):
    run("new", str(folder / "open.toml"), "Ann", "Bob")
    answer = client.get("/m/open.toml/result.svg")
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    page = PageReader(answer.text)
    assert page.text("h1") == "No result yet"
    assert page.text("error") == "This match is still in play: its result can be shared once the game is won."
    assert COMMAND_WORDS.search(words(answer.text)) is None
    assert "data-share" not in client.get("/m/open.toml").text
    missing = client.get("/m/nothing.toml/result.svg")
    assert missing.status_code == 404 and PageReader(missing.text).text("h1") == "No such match"


def test_the_picture_is_refused_without_the_token(folder: Path):
    from ginscore.web.asgi import create_app

    with TestClient(create_app(str(folder), PAD_TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as stranger:
        answer = stranger.get("/m/standard.toml/result.svg")
        assert answer.status_code == 401 and "svg" not in answer.headers["content-type"]
        assert "Tom" not in answer.text
