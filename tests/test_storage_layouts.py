"""A differential property test of writes on files edited by hand: match files made by ginscore, then changed as
a person editing by hand would (comments everywhere, quoted keys and table names, inline and dotted totals,
a multi-line string holding a `[[hands]]` line, other spellings of numbers, the tables in another order, an
older format spelled oddly). `record`, `edit` and `undo` then run on each, and the result must load to exactly
the intended match, keep every comment (but those inside a hand `undo` removes), and change nothing else.

The default run is short, for CI. `GINSCORE_DEEP=1` searches far deeper (see `DEEP`).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginscore.files import changes, reading, storage
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.tally import add_hand, with_spreads

DEEP = os.environ.get("GINSCORE_DEEP") == "1"
EXAMPLES = int(os.environ.get("GINSCORE_DEEP_EXAMPLES", "3000")) if DEEP else 40
NOW = "2026-01-02T03:04:05+00:00"
CARDS = {"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"}
tried: list[int] = []
"""Mutated files tried in this run (the deep run prints its count)."""


def base_text(card_hand: bool, counts: list[tuple[str, int, int]]) -> str:
    """A match file as ginscore writes it: perhaps a hand by cards, then count-only hands."""
    match = Match(("Ann", "Bob"), replace(PRESETS["standard"], target=1000), "Ann", created=NOW, preset="standard")
    sheet = None
    typed = ([CARDS] if card_hand else []) + [{"knocker": k, "deadwood": d, "opponent_deadwood": o} for k, d, o in counts]
    for entry in typed:
        match, sheet = add_hand(match, make_record(match, HandEntry(**entry), recorded=NOW), sheet)
    return storage.dumps(match, sheet)


@dataclass
class Piece:
    """Lines of one part of the file; `hand` is the hand's number for a hand's block, else 0."""

    lines: list[str]
    hand: int = 0
    comments: list[str] = field(default_factory=list)


def pieces_of(text: str) -> list[Piece]:
    """The preamble, `[match]`, `[rules]` and each hand (with its totals) as pieces, each ending in a blank line."""
    chunks = re.split(r"\n(?=\[)", text)
    pieces: list[Piece] = []
    for chunk in chunks:
        lines = chunk.rstrip("\n").split("\n") + [""]
        if chunk.startswith("[hands.totals]"):
            pieces[-1].lines += lines
        elif chunk.startswith("[[hands]]"):
            pieces.append(Piece(lines, hand=sum(1 for p in pieces if p.hand) + 1))
        else:
            pieces.append(Piece(lines))
    return pieces


NUMBERS = {
    "knock_limit = 10": ["knock_limit = +10", "knock_limit = 0xa", "knock_limit = 0o12", "knock_limit = 1_0"],
    "target = 1000": ["target = 1_000", "target = 0x3e8", "target = +1000"],
    "gin_bonus = 20": ["gin_bonus = 0b10100", "gin_bonus = 2_0"],
}
SEPARATED = ["", " \u2028 Ann = 1", " \u0085 x", " \u2029"]


@st.composite
def hand_edited_files(draw: st.DrawFn) -> tuple[str, list[Piece]]:
    """A match file's text after a person's edits, and its pieces (with the comments put in each)."""
    counts = draw(st.lists(st.tuples(st.sampled_from(["Ann", "Bob"]), st.integers(0, 4), st.integers(5, 20)), min_size=1, max_size=3))
    pieces = pieces_of(base_text(draw(st.booleans()), counts))
    serial = iter(range(10_000))
    for piece in pieces:
        _edit_lines(draw, piece, serial)
    preamble, tables, hands = pieces[0], [p for p in pieces[1:] if not p.hand], [p for p in pieces if p.hand]
    groups = draw(st.permutations([tables[0:1], tables[1:2], hands]))
    ordered = [preamble] + [piece for group in groups for piece in group]
    return "".join(line + "\n" for piece in ordered for line in piece.lines), ordered


def _edit_lines(draw: st.DrawFn, piece: Piece, serial) -> None:
    lines = piece.lines
    for index, line in enumerate(lines):
        if line in NUMBERS and draw(st.booleans()):
            lines[index] = draw(st.sampled_from(NUMBERS[line]))
        elif line.startswith("format = 2"):
            lines[index] = draw(st.sampled_from(["format = 2", "format = 0x2", '"format" = 2', "format = 1", "format = +1", "'format' = 1"]))
        elif line.startswith("created = ") and draw(st.booleans()):
            lines[index] = 'created = """\n[[hands]]\n' + line[len('created = "') : -1] + '"""'
        elif line == "[[hands]]":
            lines[index] = draw(st.sampled_from(["[[hands]]", '[["hands"]]', "[[ hands ]]", "[['hands']]"]))
        elif re.match(r"(knocker|note|recorded|dealer) = ", line) and draw(st.booleans()):
            key, _, value = line.partition(" = ")
            lines[index] = draw(st.sampled_from(['"', "'"])).join(["", key, ""]) + " = " + value
        elif re.match(r"(knocker_deadwood|opponent_deadwood) = \d+$", line) and draw(st.booleans()):
            key, _, value = line.partition(" = ")
            lines[index] = f"{key} = " + draw(st.sampled_from([f"+{value}", f"0x{int(value):x}", f"0o{int(value):o}"]))
    if piece.hand and "[hands.totals]" in lines:
        start = lines.index("[hands.totals]")
        totals = lines[start + 1 : start + 3]
        style = draw(st.sampled_from(["table", "inline", "dotted", "quoted"]))
        if style == "inline":
            lines[start : start + 3] = ["totals = { " + ", ".join(totals) + " }"]
        elif style == "dotted":
            lines[start : start + 3] = ["totals." + total for total in totals]
        elif style == "quoted":
            lines[start] = '["hands".totals]'
    # Comments: on lines of their own anywhere between lines, and after values.
    for _ in range(draw(st.integers(0, 3))):
        text = f"# C{next(serial)}" + draw(st.sampled_from(SEPARATED))
        at = draw(st.integers(1 if piece.hand else 0, len(lines)))
        lines.insert(at, text)
        piece.comments.append(text)
    if draw(st.booleans()):
        candidates = [i for i, line in enumerate(lines) if re.match(r"""["']?[a-z_.A-Z]+["']? = [^\n{]*$""", line)]
        if candidates:
            at = draw(st.sampled_from(candidates))
            text = f"# C{next(serial)}"
            lines[at] += "  " + text
            piece.comments.append(text)


OPERATIONS = st.one_of(
    st.tuples(st.just("record"), st.sampled_from(["Ann", "Bob"]), st.integers(0, 5)),
    st.tuples(st.just("edit"), st.integers(1, 4), st.integers(0, 5)),
    st.tuples(st.just("undo"), st.just(0), st.just(0)),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(edited=hand_edited_files(), operation=OPERATIONS)
def test_writes_on_hand_edited_files_keep_everything_typed(tmp_path_factory, edited, operation):
    text, pieces = edited
    tried.append(1)
    path = Path(tmp_path_factory.mktemp("layout")) / "m.toml"
    path.write_text(text)
    before = reading.load_file(str(path))  # every mutation is a valid match file
    data = tomllib.loads(text)
    count = len(before.match.hands)
    kind, who, value = operation
    typed = HandEntry(knocker=who if kind == "record" else "Bob", deadwood=value, opponent_deadwood=12)
    if kind == "record":
        change = changes.record(str(path), typed)
    elif kind == "edit":
        number = min(who, count)
        change = changes.edit(str(path), number, typed)
    else:
        change = changes.undo(str(path))
    after_text = path.read_text()
    after = reading.load_file(str(path))
    # Exactly the intended match.
    assert after.match == with_spreads(change.match, change.sheet)
    assert [line.totals for line in after.sheet.lines] == [line.totals for line in change.sheet.lines]
    assert len(after.match.hands) == count + {"record": 1, "edit": 0, "undo": -1}[kind]
    # Every comment survives (but those inside the hand undo removed).
    for piece in pieces:
        if kind == "undo" and piece.hand == count:
            continue
        for comment in piece.comments:
            assert comment in after_text, (comment, kind)
    # Nothing else changed.
    written = tomllib.loads(after_text)
    assert written["format"] == 2
    assert {k: v for k, v in written.items() if k not in ("format", "hands")} == {k: v for k, v in data.items() if k not in ("format", "hands")}
    old_hands, new_hands = data.get("hands", []), written.get("hands", [])
    if kind == "record":
        assert new_hands[:count] == old_hands
        if data["format"] == 2:
            assert after_text.startswith(text)
    elif kind == "undo":
        assert new_hands == old_hands[:-1]
    else:
        inputs = [{k: v for k, v in hand.items() if k not in ("dealer", "totals")} for hand in new_hands]
        olds = [{k: v for k, v in hand.items() if k not in ("dealer", "totals")} for hand in old_hands]
        assert inputs[: number - 1] + inputs[number:] == olds[: number - 1] + olds[number:]
        assert new_hands[: number - 1] == old_hands[: number - 1]


def teardown_module() -> None:
    if DEEP:
        print(f"\nGINSCORE_DEEP: {len(tried)} mutated files tried")
