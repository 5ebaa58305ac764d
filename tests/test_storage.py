"""Match files: write-then-read, problems with their place, atomic writes, and writers taking turns."""

from __future__ import annotations

import errno
import glob
import os
import signal
import subprocess
import sys
import textwrap
import unicodedata
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.errors import MatchFileError, RefusedError
from ginscore.files import folder, reading, storage
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.records import HandRecord, Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand, sheet_dict, tally, with_spreads

STANDARD, TOURNAMENT, OKLAHOMA = PRESETS["standard"], PRESETS["tournament"], PRESETS["oklahoma"]


def build(rules=STANDARD, hollywood=False, *hands: dict) -> Match:
    match = Match(("Ann", "Bob"), rules, "Bob", hollywood=hollywood, created="2024-05-01T20:00:00+00:00", preset="standard")
    for options in hands:
        match, _ = add_hand(match, make_record(match, HandEntry(**options), recorded="2024-05-01T20:05:00+00:00"))
    return match


STANDARD_HANDS = [
    {"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"},
    {"knocker": "ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "discard": "2d", "opponent_deadwood": 30},
    {"cancelled": True},
    {"knocker": "Bob", "cards": "Ad 2d 3d | 8h 8c 8s | 10s Js Qs | 5c", "opponent_cards": "9d 9h 9s 3s 4s 5s Kh Kd 4d 7c"},
    {"knocker": "Bob", "deadwood": 0, "opponent_deadwood": 12},
    {"knocker": "Ann", "deadwood": 7, "opponent_deadwood": 7},
]


def split_hands(text: str) -> list[str]:
    return text.split("[[hands]]")


def edit_hand(text: str, number: int, old: str, new: str) -> str:
    """Replace `old` by `new` inside hand `number` (from 1) of a match file's text."""
    parts = split_hands(text)
    assert old in parts[number], (old, parts[number])
    parts[number] = parts[number].replace(old, new, 1)
    return "[[hands]]".join(parts)


# --- write then read ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "match",
    [
        build(STANDARD, False, *STANDARD_HANDS),
        build(OKLAHOMA, False, {"knocker": "Bob", "upcard": "3s", "cards": "4d 5d 6d Jc Jh Js 8c 9c 10c 2d Qh",
                                "discard": "Qh", "opponent_cards": "Kd Kh Kc 3h 4h 5h Qs 9d 3c Ac"},
              {"knocker": "Ann", "upcard": "Kd", "deadwood": 9, "opponent_deadwood": 4}),
        build(TOURNAMENT, True, {"knocker": "Ann", "deadwood": 0, "opponent_deadwood": 20, "big_gin": True},
              {"knocker": "Bob", "deadwood": 3, "opponent_deadwood": 20}),
        build(replace(STANDARD, next_dealer="alternate", target=250, undercut_on_tie=False)),
    ],
    ids=["standard", "oklahoma", "tournament-hollywood", "custom-no-hands"],
)
def test_write_then_read_gives_back_the_same_match(match):
    """The same match, with each hand given by cards alone now carrying the spread it was scored with."""
    text = storage.dumps(match)
    loaded, sheet, problems = reading.loads(text)
    assert problems == []
    assert loaded == with_spreads(match, tally(match))
    assert sheet_dict(sheet) == sheet_dict(tally(match))
    assert storage.dumps(loaded) == text


def test_saved_file_loads_back(tmp_path):
    match = build(STANDARD, False, *STANDARD_HANDS)
    path = str(tmp_path / "m.toml")
    storage.save(path, match)
    loaded, sheet = reading.load(path)
    assert loaded == with_spreads(match, tally(match))
    assert sheet.summed("totals") == tally(match).summed("totals")


def test_file_keeps_every_knob_and_each_hands_inputs():
    import tomllib

    data = tomllib.loads(storage.dumps(build(OKLAHOMA, False, {"knocker": "Ann", "upcard": "Kd", "deadwood": 9, "opponent_deadwood": 4})))
    assert data["format"] == 2
    assert data["rules"] == OKLAHOMA.to_dict()
    assert data["match"]["players"] == ["Ann", "Bob"]
    hand = data["hands"][0]
    assert hand["knocker"] == "Ann" and hand["upcard"] == "Kd"
    assert hand["knocker_deadwood"] == 9 and hand["opponent_deadwood"] == 4
    assert hand["recorded"] == "2024-05-01T20:05:00+00:00"
    assert hand["dealer"] == "Bob" and hand["totals"] == {"Ann": 0, "Bob": 30}  # 9-4+25 undercut


NAMES = (
    st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "Zs"]), min_size=1, max_size=8)
    .map(lambda name: unicodedata.normalize("NFC", name.strip()))  # names are stored composed
    .filter(bool)
)
COUNT_HAND = st.one_of(
    st.just(None),  # cancelled
    st.tuples(st.integers(0, 1), st.integers(0, 10), st.integers(0, 90), st.booleans()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.tuples(NAMES, NAMES).filter(lambda n: n[0].casefold() != n[1].casefold()),
    preset=st.sampled_from(["standard", "tournament"]),
    hollywood=st.booleans(),
    dealer=st.integers(0, 1),
    hands=st.lists(COUNT_HAND, max_size=25),
)
def test_write_then_read_over_random_count_only_matches(names, preset, hollywood, dealer, hands):
    match = Match(names, PRESETS[preset], names[dealer], hollywood=hollywood, created="2024", preset=preset)
    for hand in hands:
        if hand is None:
            record = HandRecord(cancelled=True, recorded="t")
        else:
            who, k, o, big = hand
            record = HandRecord(knocker=names[who], deadwood=k, opponent_deadwood=o,
                                big_gin=big and k == 0 and preset == "tournament", recorded="t")
        try:
            match, _ = add_hand(match, record)
        except RefusedError:
            break
    text = storage.dumps(match)
    loaded, sheet, problems = reading.loads(text)
    assert problems == []
    assert loaded == match
    assert sheet_dict(sheet) == sheet_dict(tally(match))


# --- problems and their place ---------------------------------------------------------------------------


@pytest.fixture
def good_text() -> str:
    return storage.dumps(build(STANDARD, False, *STANDARD_HANDS))


def problems_of(text: str) -> list[str]:
    match, sheet, problems = reading.loads(text)
    assert problems, "expected problems"
    return problems


def test_written_totals_that_disagree_are_reported_not_trusted(good_text, tmp_path):
    # hand 1: Ann knocks 2 against 45 = 43 (the file says so), changed by hand to 50
    assert "[hands.totals]\nAnn = 43\nBob = 0" in split_hands(good_text)[1]
    text = edit_hand(good_text, 1, "Ann = 43", "Ann = 50")
    assert problems_of(text) == ["hands[1].totals: the file says Ann 50, Bob 0 but the hands add up to Ann 43, Bob 0"]
    path = tmp_path / "m.toml"
    path.write_text(text)
    with pytest.raises(MatchFileError) as caught:
        reading.load(str(path))
    assert str(caught.value) == f"{path}: hands[1].totals: the file says Ann 50, Bob 0 but the hands add up to Ann 43, Bob 0"


def test_written_dealer_that_disagrees_is_reported(good_text):
    text = edit_hand(good_text, 2, 'dealer = "Ann"', 'dealer = "Bob"')
    [problem] = problems_of(text)
    assert problem.startswith("hands[2].dealer: the file says 'Bob'")


def test_a_changed_count_is_found_through_the_totals(good_text):
    # hand 5 is Bob's gin against 12 (20+12 = 32); someone edits the count to 13 but not the totals
    text = edit_hand(good_text, 5, "opponent_deadwood = 12", "opponent_deadwood = 13")
    problems = problems_of(text)
    assert problems[0].startswith("hands[5].totals: the file says")
    assert all(p.startswith(("hands[5].totals", "hands[6].totals")) for p in problems)


@pytest.mark.parametrize(
    "hand, old, new, place, message",
    [
        (1, 'opponent_cards = "Qh', 'opponent_cards = "Kx', "hands[1].opponent_cards", "'Kx' is not a card"),
        (4, 'knocker_cards = "Ad', 'knocker_cards = "Zd', "hands[4].knocker_cards", "'Zd' is not a card"),
        (2, 'discard = "2d"', 'discard = "2"', "hands[2].discard", "'2' is not a card"),
        (1, 'knocker = "Ann"', 'knocker = "Zed"', "hands[1]", "unknown player 'Zed'"),
        (5, "knocker_deadwood = 0", "knocker_deadwood = 14", "hands[5].knocker_deadwood", "illegal knock: 14 deadwood"),
        (5, "knocker_deadwood = 0", 'knocker_deadwood = "0"', "hands[5].knocker_deadwood", "expected a whole number without quotes, found '0'"),
        (3, "cancelled = true", 'cancelled = "yes"', "hands[3].cancelled", "expected true or false, found 'yes'"),
        (1, 'knocker = "Ann"', 'knocker = "Ann"\nwho_won = "Ann"', "hands[1].who_won", "unknown key"),
        (1, 'opponent_cards = "Qh', 'opponent_cards = "3h', "hands[1].opponent_cards", "3h cannot be in both hands"),
        (1, 'opponent_cards = "Qh Qd', 'opponent_cards = "Qd', "hands[1].opponent_cards", "needs 10"),
    ],
)
def test_hand_problems_are_reported_with_their_place(good_text, hand, old, new, place, message):
    problems = problems_of(edit_hand(good_text, hand, old, new))
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{place}: "), problems
    assert message in problems[0]


def test_every_bad_hand_is_reported(good_text):
    text = edit_hand(good_text, 1, 'opponent_cards = "Qh', 'opponent_cards = "Kx')
    text = edit_hand(text, 4, 'opponent_cards = "9d', 'opponent_cards = "9q')
    text = edit_hand(text, 6, "knocker_deadwood = 7", "knocker_deadwood = 12")
    problems = problems_of(text)
    assert [p.split(":")[0] for p in problems] == ["hands[1].opponent_cards", "hands[4].opponent_cards", "hands[6].knocker_deadwood"]
    assert "'Kx' is not a card" in problems[0] and "'9q' is not a card" in problems[1]
    assert "12 deadwood" in problems[2]


def test_a_type_error_in_one_hand_does_not_hide_a_bad_card_in_another(good_text):
    text = edit_hand(good_text, 5, "knocker_deadwood = 0", 'knocker_deadwood = "zero"')
    text = edit_hand(text, 1, 'opponent_cards = "Qh', 'opponent_cards = "Kx')
    places = [p.split(":")[0] for p in problems_of(text)]
    assert "hands[5].knocker_deadwood" in places
    assert "hands[1].opponent_cards" in places


def test_a_wrong_total_before_a_bad_hand_is_still_reported(good_text):
    text = edit_hand(good_text, 1, "Ann = 43", "Ann = 50")
    text = edit_hand(text, 6, "knocker_deadwood = 7", "knocker_deadwood = 12")
    places = [p.split(":")[0] for p in problems_of(text)]
    assert places == ["hands[1].totals", "hands[6].knocker_deadwood"]


def test_hollywood_that_is_not_a_boolean_is_reported(good_text):
    text = good_text.replace("hollywood = false", 'hollywood = "no"')
    match, sheet, problems = reading.loads(text)
    assert any(p.startswith("match.hollywood") for p in problems), (problems, match and match.hollywood)


CONTRADICTIONS = [
    # `record` refuses each of these ("give --cancelled alone", "not both", "--discard goes with --cards");
    # a hand-edited file with them loads without a word, and one of the two inputs is silently dropped.
    ('knocker = "Ann"', 'knocker = "Ann"\ncancelled = true'),
    ("knocker_deadwood = 7", 'knocker_deadwood = 9\nknocker_cards = "3h 4h 5h Ks Kc Kd 7c 8c 9c 7h"'),
    ("knocker_deadwood = 7", 'knocker_deadwood = 7\ndiscard = "Qs"'),
]


@pytest.mark.parametrize("old, new", CONTRADICTIONS, ids=["cancelled-with-knocker", "cards-and-count", "discard-without-cards"])
def test_a_contradictory_hand_is_reported(good_text, old, new):
    parts = split_hands(good_text)
    parts[6] = parts[6].split("[hands.totals]")[0]  # no written totals to give it away
    text = edit_hand("[[hands]]".join(parts), 6, old, new)
    match, sheet, problems = reading.loads(text)
    assert any(p.startswith("hands[6]") for p in problems), problems


def test_invalid_toml_gives_the_parsers_line(good_text):
    text = good_text.replace("target = 100", "target = = 100")
    line = text.splitlines().index("target = = 100") + 1
    [problem] = problems_of(text)
    assert problem.startswith("not valid TOML: ")
    assert f"line {line}" in problem


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda t: t.replace("format = 2", "format = 3"), "format: expected 1 or 2, found 3"),
        (lambda t: t.replace("format = 2\n", ""), "format: expected 1 or 2, found None"),
        (lambda t: t.replace('players = [\n    "Ann",\n    "Bob",\n]\n', ""), "match.players: give two different player names, e.g. Ann Bob (found None)"),
        (lambda t: t.replace('    "Bob",\n', ""), "match.players: give two different player names, e.g. Ann Bob (1 was given: 'Ann')"),
        (lambda t: t.replace('"Bob",\n]', '"ann",\n]'), "match.players: give two different player names, not 'Ann' twice"),
        (lambda t: t.replace('first_dealer = "Bob"', 'first_dealer = "Zed"'), "match.first_dealer: expected one of 'Ann' or 'Bob', found 'Zed'"),
        (lambda t: t.replace("gin_bonus = 20\n", ""), "rules.gin_bonus: missing"),
        (lambda t: t.replace("gin_bonus = 20", 'gin_bonus = "lots"'), "rules.gin_bonus: gin_bonus must be a whole number"),
        (lambda t: t.replace("gin_bonus = 20", "gin_bonus = 20\nginn_bonus = 25"), "rules.ginn_bonus: unknown knob"),
        (lambda t: t.replace('next_dealer = "winner"', 'next_dealer = "loser"'), "rules.next_dealer: next_dealer must be one of winner, alternate"),
    ],
)
def test_a_file_that_is_not_a_match_is_reported(good_text, change, expected):
    problems = problems_of(change(good_text))
    assert any(p.startswith(expected) for p in problems), problems


def test_an_empty_or_unrelated_toml_file_is_not_a_match():
    assert problems_of("") == ["format: expected 1 or 2, found None; is this a ginscore match file?"]
    assert problems_of('[tool.poetry]\nname = "x"\n')[0].startswith("format:")


def test_rules_problems_are_all_collected(good_text):
    text = good_text.replace("gin_bonus = 20", "gin_bonus = -3").replace("box_bonus = 20\n", "")
    problems = problems_of(text)
    assert [p.split(":")[0] for p in problems] == ["rules.gin_bonus", "rules.box_bonus"]


def test_load_reports_a_missing_file_and_bytes_that_are_not_text(tmp_path):
    with pytest.raises(MatchFileError, match="no such file"):
        reading.load(str(tmp_path / "nope.toml"))
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(MatchFileError, match="cannot read"):
        reading.load(str(path))


# --- atomic writes ------------------------------------------------------------------------------------------

KILLED_WRITER = textwrap.dedent(
    """
    import os, sys, time
    from ginscore.files import reading, storage
    from ginscore.match.entry import HandEntry
    from ginscore.match.scored import make_record
    from ginscore.match.tally import add_hand

    path, slow = sys.argv[1], sys.argv[2]
    real = getattr(os, slow)

    def stall(*args):
        print("stalled", flush=True)
        time.sleep(60)
        return real(*args)

    setattr(os, slow, stall)
    match, _ = reading.load(path)
    match, sheet = add_hand(match, make_record(match, HandEntry(knocker="Bob", deadwood=3, opponent_deadwood=30)))
    storage.save(path, match, sheet)
    """
)


@pytest.mark.parametrize("slow", ["fsync", "replace"])
def test_a_process_killed_mid_write_leaves_the_old_file_whole(tmp_path, slow):
    path = tmp_path / "m.toml"
    storage.save(str(path), build(STANDARD, False, *STANDARD_HANDS[:2]))
    before = path.read_bytes()
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path), slow], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout.readline() == "stalled\n", writer.stderr.read()
        # the new text is (being) written to a temporary file beside the match
        assert glob.glob(str(tmp_path / ".m.toml.*.tmp"))
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    assert writer.returncode == -signal.SIGKILL
    assert path.read_bytes() == before
    match, sheet = reading.load(str(path))
    assert len(match.hands) == 2


@pytest.mark.parametrize("failing", ["replace", "fsync", "write"])
def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, failing):
    path = tmp_path / "m.toml"
    storage.save(str(path), build(STANDARD, False, *STANDARD_HANDS[:2]))
    before = path.read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if failing == "write":
        monkeypatch.setattr(folder.os, "fdopen", lambda fd, mode: _FullFile(fd))
    else:
        monkeypatch.setattr(folder.os, failing, full_disk)
    with pytest.raises(MatchFileError) as caught:
        storage.save(str(path), build(STANDARD, False, *STANDARD_HANDS))
    monkeypatch.undo()
    assert str(caught.value) == f"{path}: cannot write: the disk is full; nothing was changed"
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["m.toml"]


class _FullFile:
    """A file whose writes fail half way, as on a full disk."""

    def __init__(self, fd: int):
        self.handle = open(fd, "wb")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()

    def write(self, data: bytes) -> int:
        self.handle.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self):
        self.handle.flush()

    def fileno(self):
        return self.handle.fileno()


def test_write_atomic_keeps_the_files_permissions(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text("old")
    os.chmod(path, 0o600)
    folder.write_atomic(str(path), b"new")
    assert path.read_bytes() == b"new"
    assert os.stat(path).st_mode & 0o777 == 0o600


# --- writers take turns --------------------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from ginscore.files import folder
    from ginscore.files import reading, storage
    from ginscore.match.entry import HandEntry
    from ginscore.match.scored import make_record
    from ginscore.match.tally import add_hand

    path, who, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
    while time.time() < start:
        time.sleep(0.001)
    for n in range(10):
        with folder.locked(path):
            match, _ = reading.load(path)
            record = make_record(match, HandEntry(knocker=who, deadwood=1, opponent_deadwood=2 + n))
            match, sheet = add_hand(match, record)
            storage.save(path, match, sheet)
    """
)


def test_two_writers_at_once_lose_no_hand(tmp_path):
    import time

    path = tmp_path / "m.toml"
    storage.save(str(path), Match(("Ann", "Bob"), replace(STANDARD, target=100000), "Ann"))
    start = str(time.time() + 0.5)
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), who, start], stderr=subprocess.PIPE, text=True)
        for who in ("Ann", "Bob")
    ]
    for writer in writers:
        assert writer.wait(timeout=60) == 0, writer.stderr.read()
    match, sheet = reading.load(str(path))
    assert len(match.hands) == 20
    for who in ("Ann", "Bob"):
        counts = [h.opponent_deadwood for h in match.hands if h.knocker == who]
        assert counts == list(range(2, 12))  # each writer's 10 hands, in its own order
    # each hand scores opponent-1: 1+2+...+10 = 55 each
    assert sheet.summed("totals") == {"Ann": 55, "Bob": 55}
