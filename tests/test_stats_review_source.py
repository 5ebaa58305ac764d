"""`files.review_source` without a review made: the key a review is kept by, and the reviews kept in memory."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import weakref
from pathlib import Path

from pages import SAMPLES

from ginscore.files import review_source
from ginscore.files.review_source import KeptReviews, review_key, summed
from ginscore.files.table import table_of


def test_the_key_is_the_digest_of_the_match_and_the_model_as_the_cache_has_kept_it() -> None:
    sheets = []
    for name in ("standard.toml", "oklahoma.toml"):
        path = str(SAMPLES / name)
        table = table_of(path)
        sheet = table.sheet_at(path)
        sheets.append((sheet, table.model(sheet.match.rules).outcomes))
    (one, first), (other, second) = sheets
    for sheet, outcomes in sheets:
        expected = hashlib.sha256(repr((sheet.match, outcomes)).encode()).digest()
        assert review_key(sheet, outcomes) == review_key(sheet, outcomes, repr(outcomes)) == expected  # twice: kept
    assert review_key(one, first) != review_key(one, second) != review_key(other, second)
    hand = dataclasses.replace(one.match.hands[0], note="a note")  # the same match, one hand's note changed
    changed = dataclasses.replace(one, match=dataclasses.replace(one.match, hands=(hand, *one.match.hands[1:])))
    assert review_key(changed, first) == hashlib.sha256(repr((changed.match, first)).encode()).digest() != review_key(one, first)
    held, alive = id(changed.match), weakref.ref(changed.match)
    assert held in review_source._BEGUN
    del changed, hand
    gc.collect()
    assert alive() is None and held not in review_source._BEGUN  # forgotten with its match


def test_kept_reviews_keep_the_latest_and_hand_out_copies() -> None:
    kept = KeptReviews(most=2)
    for key in (b"a", b"b", b"c"):
        kept.remember_review(key, [("Ann", 1, 2.5)])
    assert kept.reviewed(b"a") is None and kept.reviewed(b"c") == [("Ann", 1, 2.5)]
    handed = kept.reviewed(b"b")
    assert handed is not None
    handed.append(("Bob", 9, 9.0))
    assert kept.reviewed(b"b") == [("Ann", 1, 2.5)]
    behind = KeptReviews()
    behind.remember_review(b"d", [("Cy", 2, 1.0)])
    both = kept.over(behind)
    assert both.reviewed(b"d") == [("Cy", 2, 1.0)] and kept.reviewed(b"d") == [("Cy", 2, 1.0)]  # kept in front too
    both.remember_review(b"e", [])
    assert behind.reviewed(b"e") == [] and kept.over(None) is kept


def test_one_person_however_typed_first_spelling_most_hands_first() -> None:
    sums = summed([[("Ann", 1, 4.0), ("Bob", 0, 0.0)], [("Cy", 3, 3.0), ("ANN", 1, 2.0)]])
    assert [(each.player, each.hands, each.total, each.mean) for each in sums] == [("Cy", 3, 3.0, 1.0), ("Ann", 2, 6.0, 3.0)]


def test_a_review_kept_by_an_earlier_method_is_not_believed(tmp_path: Path) -> None:
    from ginscore.files.cache_kinds import REVIEWS
    from ginscore.files.stats_cache import StatsCache

    rows = [("Ann", 1, 2.0)]
    with StatsCache(str(tmp_path)) as cache:
        cache._put(b"key", dataclasses.replace(REVIEWS, salt=b"reviews\0"), rows)  # as the method before common shuffles kept it
        cache.flush()
        assert cache.reviewed(b"key") is None
        cache.remember_review(b"key", rows)
        assert cache.reviewed(b"key") == rows
