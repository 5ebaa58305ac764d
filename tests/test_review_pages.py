"""serve's Review page: progress while the review runs in its thread, then the review; the match page's line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pages import signed_in

ROOT = Path(__file__).resolve().parent.parent


def test_progress_then_the_review_then_the_match_pages_sums(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginscore.web import review_pages

    monkeypatch.setattr(review_pages, "WAIT_S", 0.0)
    shutil.copy(ROOT / "sample_matches" / "oklahoma.toml", tmp_path / "evening.toml")
    with signed_in(tmp_path) as client:
        line = client.get("/m/evening.toml").text
        assert ": 4 knocks with the knocker&#39;s eleven cards to judge.</p>" in line
        first = client.get("/m/evening.toml/review")
        assert first.status_code == 200
        assert '<meta http-equiv="refresh" content="1">' in first.text and "Reviewing: hand " in first.text
        jobs = list(review_pages._JOBS.values())
        assert jobs and jobs[-1].finished.wait(60)
        done = client.get("/m/evening.toml/review").text
        assert "http-equiv" not in done
        assert "Worst: hand 6: knocking with 5 gave away 7 points of game chance; playing on, discarding the 8♣, was best." in done
        summary = client.get("/m/evening.toml").text
        assert "Raj lost 10.2 points of game chance over 3 knocks; Ines lost 3.5 points of game chance over 1 knock." in summary
        assert client.get("/m/counts_only.toml/review").status_code == 404


def test_without_threads_each_visit_reviews_a_turn_and_the_last_gives_the_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app (Pyodide, no threads): a visit reviews for a turn, a knock at least, and offers to go on; the visits
    together give the review one made at once, and the match page its sums."""
    from ginscore.web import review_pages

    monkeypatch.setattr(review_pages, "INLINE", True)
    monkeypatch.setattr(review_pages, "TURN_S", 0.0)  # a knock a visit
    shutil.copy(ROOT / "sample_matches" / "oklahoma.toml", tmp_path / "evening.toml")
    with signed_in(tmp_path) as client:
        said = []
        for _ in range(20):
            page = client.get("/m/evening.toml/review").text
            said.append(page)
            if "Go on with the review" not in page:
                break
        assert "http-equiv" not in "".join(said)  # the app shows no page that reloads itself
        assert len(said) == 7  # a visit for each of the 7 knocks, the last giving the review
        assert "Reviewed to hand 1 of 7 so far." in said[0] and "Reviewed to hand 6 of 7 so far." in said[-2]
        assert "Worst: hand 6: knocking with 5 gave away 7 points of game chance; playing on, discarding the 8♣, was best." in said[-1]
        summary = client.get("/m/evening.toml").text
        assert "Raj lost 10.2 points of game chance over 3 knocks; Ines lost 3.5 points of game chance over 1 knock." in summary
