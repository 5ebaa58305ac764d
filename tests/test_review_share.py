"""The app's Review page with helpers (`web.review_share`): the knocks of a visit shared between the worker, from
the first, and its helpers, from the last (`pocket.reviewer` answering each from the match's text, the model and
the solved table it was handed); the review is the one made in one go, in one visit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pages import signed_in

from ginscore.pocket import reviewer

ROOT = Path(__file__).resolve().parent.parent
WORST = "Worst: hand 6: knocking with 5 gave away 7 points of game chance; playing on, discarding the 8♣, was best."


class InProcess:
    """Helpers answering in this process: each time the worker collects, a helper has finished the last knock left
    (or, `silent`, never answers, as one that could not start)."""

    def __init__(self, silent: bool = False) -> None:
        self.silent = silent
        self.woken = 0
        self.left: list[int] = []
        self.took: list[int] = []
        self.mine: list[int] = []

    def count(self) -> int:
        return 1

    async def wake(self, wait: float) -> None:
        self.woken += 1

    def share(self, text: str, model: bytes, table: bytes, knocks: list[int]) -> None:
        assert table, "the worker hands over the table it solved"
        reviewer.start(text, model, table)
        self.left = list(knocks)

    def next(self) -> int | None:
        if not self.left:
            return None
        self.mine.append(self.left.pop(0))
        return self.mine[-1]

    def collect(self) -> list[tuple[int, bytes]]:
        if self.silent or not self.left:
            return []
        self.took.append(self.left.pop())
        return [(self.took[-1], reviewer.knock(self.took[-1]))]

    async def finish(self) -> None:
        return None


@pytest.fixture()
def evening(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from ginscore.web import review_pages

    monkeypatch.setattr(review_pages, "INLINE", True)
    monkeypatch.setattr(review_pages, "_TURNS", type(review_pages._TURNS)())
    monkeypatch.setattr(review_pages, "_JOBS", type(review_pages._JOBS)())
    shutil.copy(ROOT / "sample_matches" / "oklahoma.toml", tmp_path / "evening.toml")
    return tmp_path


def _review_with(folder: Path, helpers: InProcess) -> str:
    with signed_in(folder) as client:
        client.app.state.review_helpers = helpers
        page = client.get("/m/evening.toml/review")
        assert page.status_code == 200
        return page.text


def _made_at_once(folder: Path) -> object:
    from ginscore.files.table import table_of
    from ginscore.match.review import review

    path = str(folder / "evening.toml")
    table = table_of(path)
    sheet = table.sheet_at(path)
    return review(sheet, table.model(sheet.match.rules).outcomes)


def test_one_visit_shares_the_knocks_from_both_ends_and_gives_the_review_made_at_once(evening: Path) -> None:
    from ginscore.web import review_pages

    helpers = InProcess()
    page = _review_with(evening, helpers)
    assert "Go on with the review" not in page and WORST in page
    assert helpers.woken == 1
    assert helpers.mine[0] == 0 and helpers.took and helpers.took[0] == 6  # the worker from the first, the helper the last
    assert sorted(helpers.mine + helpers.took) == [0, 1, 2, 3, 4, 5, 6]
    (job,) = review_pages._JOBS.values()
    assert job.found == _made_at_once(evening)


def test_a_helper_that_never_answers_leaves_every_knock_to_the_worker(evening: Path) -> None:
    helpers = InProcess(silent=True)
    page = _review_with(evening, helpers)
    assert WORST in page and helpers.took == [] and helpers.mine == [0, 1, 2, 3, 4, 5, 6]


def test_too_few_knocks_to_share_wake_no_helper(evening: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ginscore.web import review_share

    monkeypatch.setattr(review_share, "FEWEST_KNOCKS", 8)  # the match has 7
    helpers = InProcess()
    page = _review_with(evening, helpers)
    assert WORST in page and helpers.woken == 0 and helpers.mine == []


def test_serve_shares_nothing_it_has_threads(tmp_path: Path) -> None:
    shutil.copy(ROOT / "sample_matches" / "oklahoma.toml", tmp_path / "evening.toml")
    helpers = InProcess()
    with signed_in(tmp_path) as client:
        client.app.state.review_helpers = helpers
        assert client.get("/m/evening.toml/review").status_code == 200
    assert helpers.woken == 0


def test_a_review_made_is_shown_again_without_reviewing_again(evening: Path) -> None:
    helpers = InProcess()
    first = _review_with(evening, helpers)
    again = InProcess()
    second = _review_with(evening, again)
    assert WORST in first and WORST in second
    assert again.woken == 0 and again.mine == [] and again.took == []
