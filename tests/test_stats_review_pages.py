"""The Players page's mean chance lost a knock (issue 57): `stats --json --review`'s figures, made only when asked
(in a thread under serve, a few seconds a visit in the app), shown at once while every review is kept."""

from __future__ import annotations

import html
import json
import re
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import RunCli
from pages import SAMPLES, signed_in
from typer.testing import CliRunner

from ginscore.cli import app as cli
from ginscore.files.review_source import KeptReviews
from ginscore.web import stats_pages

THROWN_RUN = "4c 5c 6c 7c 9d 9h 9s Qd Qh Qs Kh"  # Ann throws the end of her run: a blunder (tests/test_review.py)
GIN = "3h 4h 5h 6h 8c 8d 8s Jc Jd Jh 2d"
ASK = "/stats?review=1"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two matches with a knock recorded with the eleven cards (Ann's name typed two ways, one person), one of
    counts only, and a broken file, which `stats` leaves out."""
    runner = CliRunner()
    folder = tmp_path_factory.mktemp("evening")
    for args in (
        ("new", folder / "evening.toml", "Ann", "Bob", "--dealer", "Bob"),
        ("record", folder / "evening.toml", "--knocker", "Ann", "--cards", THROWN_RUN, "--discard", "4c",
         "--opponent-cards", "2c 3d 5d 8h Js Ah 2h 3s 6s 10c"),
        ("record", folder / "evening.toml", "--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"),
        ("new", folder / "late.toml", "ann", "Cy", "--dealer", "Cy"),
        ("record", folder / "late.toml", "--knocker", "Cy", "--cards", GIN, "--discard", "2d",
         "--opponent-cards", "Kc Ks Kd 7h 7d Ad 4s 5s 10h 10d"),
    ):
        result = runner.invoke(cli, [str(arg) for arg in args])
        assert result.exit_code == 0, result.stderr
    shutil.copy(SAMPLES / "counts_only.toml", folder)
    (folder / "broken.toml").write_text("[match\nplayers = 1\n", encoding="utf-8")
    return folder


@pytest.fixture
def folder(made: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of `made`, with nothing kept: a memory of serve's own and an empty cache on disk."""
    monkeypatch.setattr(stats_pages, "KEPT", KeptReviews())
    monkeypatch.setattr(stats_pages, "_JOBS", {})
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "cache"))
    return Path(shutil.copytree(made, tmp_path / "matches"))


@pytest.fixture(scope="module")
def expected(made: Path) -> list[dict[str, str]]:
    """`stats --json --review`'s figures for the folder, made afresh, as the page words them."""
    result = CliRunner().invoke(cli, ["stats", str(made), "--json", "--review", "--no-cache"])
    assert result.exit_code == 1  # broken.toml is skipped, and said so
    figures = json.loads(result.stdout)["review"]
    assert [each["player"] for each in figures] == ["Ann", "Cy"] and figures[0]["mean_lost"] > 2
    return [{"player": each["player"], "mean": f"{each['mean_lost']:.1f}", "hands": str(each["hands"])} for each in figures]


def shown(page: str) -> list[dict[str, str]]:
    """Each player's line in the page's chance lost."""
    lines = re.findall(r'<li class="match-entry lost-entry"><a class="players" href="[^"]*">(.*?)</a>\s*'
                       r'<span class="score"><b>(.*?)</b> points lost a knock</span>\s*'
                       r'<span class="status">(\d+) knocks? reviewed</span></li>', page)
    return [{"player": html.unescape(player), "mean": mean, "hands": hands} for player, mean, hands in lines]


NOT_REVIEWED = ("2 knocks recorded with cards, in 2 matches, not reviewed as they stand now. A review weighs each knock "
                "for the game, as a match's check page does: a few tenths of a second each.</p>\n"
                f'<p><a class="button" href="{ASK}">Review their knocks</a></p>')


def test_serve_reviews_in_a_thread_once_asked_then_shows_the_figures_of_stats_review(
        folder: Path, expected: list[dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    go = threading.Event()
    reviewed = stats_pages.reviewed_sums

    def held(*args: Any, **options: Any) -> Any:  # the review waits until the page under way has been seen
        go.wait(60)
        return reviewed(*args, **options)

    monkeypatch.setattr(stats_pages, "reviewed_sums", held)
    monkeypatch.setattr(stats_pages, "WAIT_S", 0.0)
    with signed_in(folder) as client:
        first = client.get("/stats")
        assert first.status_code == 200 and NOT_REVIEWED in first.text
        assert shown(first.text) == [] and stats_pages._JOBS == {}  # a visit alone starts nothing
        asked = client.get(ASK)
        assert asked.status_code == 200
        assert '<meta http-equiv="refresh" content="1">' in asked.text
        assert "<p role=\"status\">Reviewing the knocks of 2 matches: " in asked.text
        assert "Follow the review" in client.get("/stats").text and len(stats_pages._JOBS) == 1  # one review a folder
        go.set()
        (job,) = stats_pages._JOBS.values()
        assert job.finished.wait(60) and not job.failed
        done = client.get("/stats").text
        assert shown(done) == expected and "http-equiv" not in done
        assert shown(client.get(ASK).text) == expected and stats_pages._JOBS == {str(folder): job}  # not made again
    monkeypatch.setattr(stats_pages, "KEPT", KeptReviews())  # serve started again: the disk's cache has them
    with signed_in(folder) as client:
        assert shown(client.get("/stats").text) == expected and stats_pages._JOBS == {str(folder): job}


def test_what_stats_review_kept_shows_at_once_until_a_new_hand_changes_the_model(
        folder: Path, expected: list[dict[str, str]], run: RunCli) -> None:
    result = run("stats", folder, "--review", "--json")
    assert result.exit_code == 1
    with signed_in(folder) as client:
        assert shown(client.get("/stats").text) == expected and stats_pages._JOBS == {}
        recorded = run("record", folder / "late.toml", "--knocker", "Cy", "--deadwood", "2", "--opponent-deadwood", "30")
        assert recorded.exit_code == 0, recorded.stderr
        page = client.get("/stats").text  # the model of both matches changed with the hand: their reviews too
        assert NOT_REVIEWED in page and shown(page) == []


def test_the_app_reviews_a_few_seconds_a_visit_and_offers_to_go_on(
        folder: Path, expected: list[dict[str, str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats_pages, "INLINE", True)
    monkeypatch.setattr(stats_pages, "TURN_S", 0.0)  # one match a visit
    with signed_in(folder) as client:
        assert NOT_REVIEWED in client.get("/stats").text
        first = client.get(ASK).text
        assert ('<p role="status">Reviewed 1 of 2 matches with knocks recorded with cards.</p>\n'
                f'<p><a class="button" href="{ASK}">Go on with the review</a></p>') in first
        assert shown(first) == []
        assert shown(client.get(ASK).text) == expected
        assert shown(client.get("/stats").text) == expected
    assert stats_pages._JOBS == {}  # no thread under Pyodide


def test_a_folder_without_cards_says_what_to_record(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "counts_only.toml", tmp_path)
    with signed_in(tmp_path) as client:
        page = client.get(ASK).text
    assert "<p class=\"muted\">No knock here has the knocker's eleven cards recorded. Record them, with the card " in page
    assert ASK not in page
