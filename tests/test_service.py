"""The one service for every change (`files.changes`), with typed entries, tried without a terminal or a browser.

It starts a match, records, previews, edits and undoes; each refusal names its field as data and leaves the file
byte for byte as it was; what a write proves is remembered by the file's exact text, and any other text is read
afresh.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginscore.errors import ExistsError, GameOverError, GinscoreError, InputError, StaleError
from ginscore.files import changes
from ginscore.files.reading import REMEMBERED, load_file
from ginscore.game.rulebook import PRESETS, rules_from
from ginscore.match.entry import HAND_FIELDS, HandEntry, NewMatch

KNOCK = HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=23)
CARDS = HandEntry(knocker="Bob", cards="3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", opponent_cards="Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac")


@pytest.fixture
def game(tmp_path: Path) -> str:
    path = str(tmp_path / "game.toml")
    changes.start(path, NewMatch(["Ann", "Bob"], PRESETS["standard"]))
    return path


def test_start_builds_the_match_stamps_its_time_and_takes_the_dealer_by_initial(tmp_path: Path) -> None:
    path = str(tmp_path / "m.toml")
    sheet = changes.start(path, NewMatch([" Ann ", "Bob"], rules_from("tournament", ["target=50"]), "Tournament", "b", True, "Friday"))
    match = load_file(path).match
    assert match == sheet.match
    assert (match.players, match.first_dealer, match.preset, match.hollywood, match.note) == (("Ann", "Bob"), "Bob", "tournament", True, "Friday")
    assert match.rules.target == 50 and match.created.endswith("+00:00")


@pytest.mark.parametrize(
    ("new", "field"),
    [
        (NewMatch(["Ann"], PRESETS["standard"]), "players"),
        (NewMatch(["Ann", "ann"], PRESETS["standard"]), "players"),
        (NewMatch(["Ann", "Bob"], PRESETS["standard"], dealer="Zed"), "dealer"),
        (NewMatch(["Ann", "Bob"], PRESETS["standard"], note="a\x1bb"), "note"),
    ],
)
def test_a_refused_start_names_its_field_and_writes_nothing(tmp_path: Path, new: NewMatch, field: str) -> None:
    path = tmp_path / "m.toml"
    with pytest.raises(GinscoreError) as refused:
        changes.start(str(path), new)
    assert refused.value.field == field
    assert not path.exists()


def test_an_existing_file_is_refused_for_the_file_in_words_that_name_no_option(game: str) -> None:
    before = Path(game).read_bytes()
    with pytest.raises(ExistsError) as refused:
        changes.start(game, NewMatch(["Ann", "Bob"], PRESETS["standard"]))
    assert refused.value.field == "file" and "--" not in str(refused.value)
    assert Path(game).read_bytes() == before


def test_record_preview_edit_and_undo(game: str) -> None:
    before = Path(game).read_bytes()
    preview = changes.preview(game, CARDS)
    assert Path(game).read_bytes() == before  # a preview writes nothing
    recorded = changes.record(game, CARDS, expected_hands=0)
    assert recorded.sheet.lines[-1] == preview.sheet.lines[-1]
    assert recorded.match.hands[0].recorded  # the service stamps the time
    changes.record(game, KNOCK)
    edited = changes.edit(game, 2, HandEntry(knocker="Bob", deadwood=2, opponent_deadwood=30, note="fixed"))
    assert edited.match.hands[1].recorded == recorded.match.hands[0].recorded or edited.match.hands[1].knocker == "Bob"
    assert edited.match.hands[1].note == "fixed"
    kept = changes.edit(game, 2, HandEntry(knocker="Bob", deadwood=3, opponent_deadwood=30))
    assert kept.match.hands[1].note == "fixed"  # no note given: the hand keeps its own
    undone = changes.undo(game, expected_hands=2)
    assert len(undone.match.hands) == 1
    assert load_file(game).match == undone.match


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (HandEntry(deadwood=4, opponent_deadwood=20), "knocker"),
        (HandEntry(knocker="Zed", deadwood=4, opponent_deadwood=20), "knocker"),
        (HandEntry(knocker="Ann", deadwood=4), "opponent_deadwood"),
        (HandEntry(knocker="Ann", opponent_deadwood=4), "deadwood"),
        (HandEntry(knocker="Ann", deadwood=14, opponent_deadwood=20), "deadwood"),
        (HandEntry(knocker="Ann", deadwood=99, opponent_deadwood=20), "deadwood"),
        (HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=999), "opponent_deadwood"),
        (HandEntry(knocker="Ann", cards="3h 4h Qx", opponent_deadwood=20), "cards"),
        (HandEntry(knocker="Ann", cards="3h 4h 5h", opponent_deadwood=20), "cards"),
        (HandEntry(knocker="Ann", cards=CARDS.cards, opponent_cards="Qh Qd 5s 6s 7s Jc 4d 8h 2c Kx"), "opponent_cards"),
        (HandEntry(knocker="Ann", cards=CARDS.cards, opponent_cards="3h Qd 5s 6s 7s Jc 4d 8h 2c Ac"), "opponent_cards"),
        (HandEntry(knocker="Ann", cards=CARDS.cards, opponent_cards="Qh Qd 5s"), "opponent_cards"),
        (HandEntry(knocker="Ann", cards="3h 4h 5h Ks Kc Kd 7c 9c Jd Qh", opponent_deadwood=20), "cards"),
        (HandEntry(knocker="Ann", cards="3h 4h 5h | Ks Kc Kd | 7c 8c 9c | Qs Qh", opponent_deadwood=20), "discard"),
        (HandEntry(knocker="Ann", cards=CARDS.cards, discard="Qs", opponent_deadwood=20), "discard"),
        (HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=20, discard="2d"), "discard"),
        (HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=20, upcard="7h"), "upcard"),
        (HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=20, big_gin=True), "big_gin"),
        (HandEntry(knocker="Ann", deadwood=4, opponent_deadwood=20, note="bad\x07"), "note"),
        (HandEntry(cancelled=True, knocker="Ann"), "cancelled"),
        (HandEntry(knocker="Ann", opponent_cards="Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac", deadwood=3), "opponent_cards"),
    ],
)
def test_each_refused_hand_names_its_field_and_leaves_the_file_as_it_was(game: str, entry: HandEntry, field: str) -> None:
    before = Path(game).read_bytes()
    with pytest.raises(GinscoreError) as refused:
        changes.record(game, entry)
    assert refused.value.field == field, str(refused.value)
    assert field in HAND_FIELDS
    assert "--" not in str(refused.value) and "ginscore " not in str(refused.value)
    assert Path(game).read_bytes() == before


def test_oklahoma_without_an_up_card_is_about_the_up_card(tmp_path: Path) -> None:
    path = str(tmp_path / "ok.toml")
    changes.start(path, NewMatch(["Ann", "Bob"], PRESETS["oklahoma"], "oklahoma"))
    with pytest.raises(InputError) as refused:
        changes.record(path, KNOCK)
    assert refused.value.field == "upcard" and str(refused.value) == "these rules use the knock card: give the up-card"


def test_a_stale_count_and_a_finished_game_are_refused_with_data_to_act_on(game: str) -> None:
    changes.record(game, KNOCK)
    with pytest.raises(StaleError):
        changes.record(game, KNOCK, expected_hands=0)
    while not changes.record(game, HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=30)).sheet.finished:
        pass
    with pytest.raises(GameOverError) as over:
        changes.record(game, KNOCK)
    assert over.value.match.players == ("Ann", "Bob")  # type: ignore[attr-defined]
    assert "ginscore" not in str(over.value)


def test_what_a_write_proves_is_remembered_by_the_exact_text(game: str) -> None:
    changes.record(game, KNOCK)
    written = load_file(game)
    recalled = load_file(game)
    assert recalled.match is written.match  # the same text: parsed once
    assert recalled.sheet.games[0] is written.sheet.games[0]  # shared: no thread can change a game (read-only)
    with pytest.raises(TypeError):
        recalled.sheet.games[0].totals["Ann"] = 500  # type: ignore[index]
    Path(game).write_text(Path(game).read_text() + "# a comment\n")  # anyone, the CLI included, may change it
    again = load_file(game)
    assert again.match is not written.match and again.text.endswith("# a comment\n") and again.match == written.match
    assert REMEMBERED.recall(game, written.text) is None  # one text per file: the one it holds now


def test_an_appended_hand_is_proven_alone_and_agrees_with_a_whole_read(game: str) -> None:
    for entry in (KNOCK, CARDS, HandEntry(cancelled=True, note="phone rang")):
        change = changes.record(game, entry)
        fast = load_file(game)
        REMEMBERED.forget()
        whole = load_file(game)
        assert (fast.data, fast.match, fast.sheet, fast.plain) == (whole.data, whole.match, whole.sheet, whole.plain)
        assert whole.match == load_file(game).match and len(change.match.hands) == len(whole.match.hands)


def test_a_top_level_hands_list_is_not_taken_for_hand_tables(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    changes.start(str(path), NewMatch(["Ann", "Bob"], PRESETS["standard"]))
    text = path.read_text().replace("[match]", "hands = [\n]\n\n[match]", 1)
    path.write_text(text)
    change = changes.record(str(path), KNOCK)
    # not appended after the text as [[hands]] (that would be a second `hands`): the list itself is edited
    assert "[[hands]]" not in path.read_text() and "hands = [\n    {dealer = " in path.read_text()
    REMEMBERED.forget()
    assert load_file(str(path)).match == change.match  # a fresh load reads what was written


def test_the_plain_layout_is_said_of_the_text_written_whatever_way_wrote_it(game: str) -> None:
    changes.record(game, KNOCK)
    changes.record(game, CARDS)
    changes.undo(game)  # an edit through tomlkit: the text is still ginscore's plain layout
    remembered = load_file(game)
    REMEMBERED.forget()
    assert remembered.plain is load_file(game).plain is True


def test_a_crlf_file_gets_crlf_on_the_added_lines_only(game: str) -> None:
    lines = Path(game).read_bytes().split(b"\n")
    Path(game).write_bytes(lines[0] + b"\r\n" + b"\n".join(lines[1:]))  # the first line CRLF, the rest as typed
    before = Path(game).read_bytes()
    changes.record(game, KNOCK)
    after = Path(game).read_bytes()
    assert after.startswith(before) and b"\n" not in after[len(before):].replace(b"\r\n", b"")


def test_what_is_remembered_is_bounded_by_count_and_by_text() -> None:
    from ginscore.files.remembered import Remembered

    known: Remembered[int] = Remembered(most=2, most_text=10)
    known.remember("a", "xxxx", 1)
    known.remember("b", "yyyy", 2)
    known.remember("c", "zzzz", 3)  # the third file: the oldest goes
    assert (known.recall("a", "xxxx"), known.recall("b", "yyyy"), known.recall("c", "zzzz")) == (None, 2, 3)
    known.remember("d", "0123456789", 4)  # text enough for itself alone
    assert known.recall("b", "yyyy") is None and known.recall("d", "0123456789") == 4
    known.remember("e", "far too long to keep", 5)
    assert known.recall("e", "far too long to keep") is None


def test_a_cached_sheet_cannot_be_changed(game: str) -> None:
    """A sheet is shared by every reader of its file (the table's cache, `REMEMBERED`): nothing in it can change."""
    import dataclasses

    changes.record(game, KNOCK)
    sheet: Any = load_file(game).sheet
    played: Any = sheet.games[0]  # typed as anything, to try what the types forbid
    line: Any = sheet.lines[0]
    before = (dict(played.totals), played.hands, dict(line.totals))
    for attempt in (lambda: played.totals.update(Ann=500), lambda: played.bonuses["Ann"].update(game=1),
                    lambda: played.entries.__setitem__("Ann", 9), lambda: line.totals.__setitem__("Ann", 1)):
        with pytest.raises((TypeError, AttributeError)):
            attempt()
    with pytest.raises(dataclasses.FrozenInstanceError):
        played.reached = "Ann"
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.games = ()
    assert (dict(played.totals), played.hands, dict(line.totals)) == before
    assert load_file(game).sheet == sheet
