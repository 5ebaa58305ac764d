"""`show` at the table: the sheet and the chart fit a terminal 80 columns wide or less, and notes are printed.

The sheet and the chart are drawn through rich's console width (a terminal, as `show` sees one) and, once
each, by the real command on a pseudo-terminal. What each row must show is taken from the sheet's data, not
from the renderer.
"""

from __future__ import annotations

import io
import os
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import json_object
from rich.cells import cell_len
from terminal import run_on_terminal

from ginscore.files.storage import save
from ginscore.game.cards import parse_cards
from ginscore.game.rulebook import Rules
from ginscore.game.scoring import score_cards
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.tally import Sheet, tally
from ginscore.render.chart import chart_view
from ginscore.render.console import plain_console
from ginscore.render.hand import score_report
from ginscore.render.sheet import sheet_view
from ginscore.render.sheet_table import short_names

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
WIDTHS = (80, 70, 60)
LONG = ("Christopher", "Elizabeth")
WORDS = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin", "tie": "tie", "cancelled": "cancelled"}
KINDS = {"knock": "K", "undercut": "U", "gin": "G", "big_gin": "B", "tie": "T", "cancelled": "×"}


def make_match(players=LONG, hands: int = 60, hollywood: bool = False, **notes: str) -> Match:
    """A counts-only match that never ends: knocks, gins, undercuts, big gins and cancelled hands in turn."""
    match = Match(players, replace(Rules(), target=100000, big_gin_bonus=31), players[0], hollywood=hollywood, preset="standard")
    shapes = [(0, 1, 30), (1, 4, 25), (0, 0, 12), (1, 9, 3), (0, 2, 40), None, (1, 0, 0), (0, 7, 7)]
    records = []
    for number in range(1, hands + 1):
        shape = shapes[number % len(shapes)]
        note = notes.get(f"hand{number}", "")
        if shape is None:
            records.append(make_record(match, HandEntry(cancelled=True, note=note)).record)
            continue
        who, deadwood, opponent = shape
        big = number % 16 == 6
        records.append(
            make_record(match, HandEntry(knocker=players[who], deadwood=deadwood, opponent_deadwood=opponent, big_gin=big, note=note)).record
        )
    return replace(match.with_hands(tuple(records)), note=notes.get("match", ""))


def on_console(draw, sheet: Sheet, width: int) -> list[str]:
    """What `draw` prints on a terminal `width` columns wide, without colour, as lines."""
    out = plain_console(file=io.StringIO(), width=width, force_terminal=True, color_system=None, soft_wrap=True)
    draw(sheet, out)
    return out.file.getvalue().splitlines()


def prose(lines: list[str]) -> str:
    """Lines of wrapped prose as one line."""
    return " ".join(" ".join(lines).split())


def fits(lines: list[str], width: int) -> None:
    too_wide = [line for line in lines if cell_len(line) > width]
    assert not too_wide, too_wide


def is_label_of(label: str, name: str, other: str) -> bool:
    """`label` is `name` whole, or cut with `…` (and perhaps numbered) so that it cannot be `other`."""
    if label == name:
        return True
    stem = re.fullmatch(r"(.+)…[12]?", label)
    return stem is not None and name.startswith(stem[1]) and label != other


def table_rows(lines: list[str]) -> list[str]:
    """The rows of hands: from under the rule that ends the headings to the first line that is not a row."""
    start = next(i for i, line in enumerate(lines) if line.startswith("─")) + 1
    rows = []
    for line in lines[start:]:
        if not re.match(r"\s*\d+ ", line):
            break
        rows.append(line)
    return rows


def in_order(row: str, parts: list[str]) -> str:
    """Each part found in `row` after the one before it; returns what follows the last."""
    at = 0
    for part in parts:
        found = row.find(part, at)
        assert found >= 0, (part, row)
        at = found + len(part)
    return row[at:]


def check_rows(lines: list[str], sheet: Sheet) -> None:
    """Every hand's number, result, counts, points and running totals are on its row, none cut."""
    a, b = sheet.match.players
    rows = table_rows(lines)
    assert len(rows) == len(sheet.lines)
    for row, line in zip(rows, sheet.lines):
        assert row.split()[0] == str(line.number), row
        parts = [str(line.number), WORDS[line.result]]
        if line.knocker_deadwood is not None:
            parts.append(f"{line.knocker_deadwood} / {line.opponent_deadwood}")
        rest = in_order(row, parts)
        if line.winner:
            points = re.match(rf"\s*(\S+) {line.points}(?: ×2)?(?= |$)", rest)
            assert points, (row, rest)
            assert is_label_of(points[1], line.winner, sheet.match.other(line.winner)), row
            rest = rest[points.end() :]
        totals = [str(line.column_totals[g][name]) for g in range(len(sheet.games)) for name in (a, b)]
        if sheet.match.hollywood:
            totals = [str(line.column_totals[g][name]) for g in line.columns for name in (a, b)]
        assert rest.split() == totals, (row, totals)
        assert "…" not in rest


def check_title(lines: list[str], sheet: Sheet) -> None:
    """The title keeps the players' names whole (it may wrap at a space)."""
    heading = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#") or "game 1" in line)
    a, b = sheet.match.players
    assert " ".join(lines[:heading]).startswith(f"{a} vs {b} (")


NAME_PAIRS = [
    LONG,
    ("Christopher", "Christine"),  # alike for the first five letters
    ("Maximilian-Alexander", "Bartholomew"),
    ("李小龍", "Jean-Baptiste"),  # wide characters take two cells each
    ("Ann", "Bob"),
]


@pytest.mark.parametrize("players", NAME_PAIRS)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_sheet_fits_and_shows_every_number_result_count_and_points(players, width):
    sheet = tally(make_match(players))
    lines = on_console(sheet_view, sheet, width)
    fits(lines, width)
    check_title(lines, sheet)
    check_rows(lines, sheet)


@pytest.mark.parametrize("players", NAME_PAIRS)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_hollywood_sheet_fits_and_shows_every_number_result_count_and_points(players, width):
    sheet = tally(make_match(players, hollywood=True))
    lines = on_console(sheet_view, sheet, width)
    fits(lines, width)
    check_title(lines, sheet)
    check_rows(lines, sheet)


def test_short_names_stay_apart_and_whole_names_stay_whole():
    assert short_names(LONG, 20) == {"Christopher": "Christopher", "Elizabeth": "Elizabeth"}
    assert short_names(LONG, 6) == {"Christopher": "Chris…", "Elizabeth": "Eliza…"}
    assert short_names(("Christopher", "Christine"), 5) == {"Christopher": "Chr…1", "Christine": "Chr…2"}
    assert short_names(("Christopher", "Christine"), 7) == {"Christopher": "Chris…1", "Christine": "Chris…2"}
    assert short_names(("Christopher", "Christine"), 9) == {"Christopher": "Christop…", "Christine": "Christine"}
    assert short_names(("李小龍", "Bo"), 4) == {"李小龍": "李…", "Bo": "Bo"}


def test_names_are_cut_only_when_the_sheet_would_not_fit():
    sheet = tally(make_match(hands=12))
    wide = on_console(sheet_view, sheet, 160)
    assert "…" not in "\n".join(wide)
    assert re.search(r"#\s+dealer\s+knocker\s+result\s+counts\s+points\s+Christopher\s+Elizabeth$", wide[1])
    narrow = on_console(sheet_view, sheet, 60)
    heading = next(line for line in narrow if line.lstrip().startswith("#"))
    assert heading.split()[-2:] == ["Chris…", "Eliza…"]


# --- the chart ---------------------------------------------------------------------------------------------------


def chart_parts(lines: list[str]) -> dict:
    """The chart's rows, axis, hand numbers and, when shown, each hand's kind."""
    start = next(i for i, line in enumerate(lines) if line.startswith("Running totals: "))
    axis = next(i for i in range(start, len(lines)) if "└" in lines[i])
    rows = [line for line in lines[start + 1 : axis] if "┤" in line]
    margin = lines[axis].index("└") + 1
    numbers = lines[axis + 1]
    assert numbers.endswith("  hand")
    kinds = lines[axis + 2] if lines[axis + 2].endswith("  kind") else None
    return {"rows": rows, "margin": margin, "axis": lines[axis], "numbers": numbers, "kinds": kinds, "after": lines[axis + 2 :]}


def marked_columns(rows: list[str], margin: int) -> list[int]:
    return sorted({i for row in rows for i, ch in enumerate(row) if i >= margin and ch in "●▲◆"})


def check_marks(parts: dict, totals: list[dict[str, int]], players: tuple[str, str]) -> None:
    """In each drawn column, each player's mark is in one row, the higher total higher up."""
    a, b = players
    columns = marked_columns(parts["rows"], parts["margin"])
    assert len(columns) == len(totals)
    for column, total in zip(columns, totals):
        found = {r: row[column] for r, row in enumerate(parts["rows"]) if len(row) > column and row[column] not in " ┈"}  # ┈: the target
        if list(found.values()) == ["◆"]:
            continue
        where = {mark: r for r, mark in found.items()}
        assert set(where) == {"●", "▲"}, found
        assert (where["●"] < where["▲"]) == (total[a] > total[b]), (total, found)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_chart_of_60_hands_fits_and_says_when_it_groups_hands(width):
    sheet = tally(make_match(hands=60))
    lines = on_console(chart_view, sheet, width)
    fits(lines, width)
    parts = chart_parts(lines)
    room = width - parts["margin"] - len("  hand")
    if room >= 60:  # a column a hand: each hand's kind under it
        assert parts["kinds"] is not None
        assert list(parts["kinds"][: -len("  kind")].replace(" ", "")) == [KINDS[line.result] for line in sheet.lines]
        check_marks(parts, [line.totals for line in sheet.lines], sheet.match.players)
    else:  # two hands a column: the totals after the second, and a line that says so
        assert parts["kinds"] is None
        assert prose(parts["after"]).startswith("60 hands, 2 to a column: each column shows the totals after its last")
        check_marks(parts, [line.totals for line in sheet.lines[1::2]], sheet.match.players)
    # each hand number on the axis sits under a tick, at the column that ends with that hand
    columns = marked_columns(parts["rows"], parts["margin"])
    per_column = 60 // len(columns)
    labels = list(re.finditer(r"\d+", parts["numbers"][: -len("  hand")]))
    assert len(labels) >= 3
    for label in labels:
        at = label.end() - 1
        assert parts["axis"][at] == "┬"
        assert (columns.index(at) + 1) * per_column == int(label[0])


def test_the_chart_of_2000_hands_groups_them_by_a_round_number():
    sheet = tally(make_match(hands=2000))
    lines = on_console(chart_view, sheet, 80)
    fits(lines, 80)
    parts = chart_parts(lines)
    columns = marked_columns(parts["rows"], parts["margin"])
    assert len(columns) == 2000 // 50  # 50 is the first of 1, 2, 5, 10, 20, 50 that fits 2000 hands in the room
    assert prose(parts["after"]).startswith("2000 hands, 50 to a column: each column shows the totals after its last hand.")
    check_marks(parts, [line.totals for line in sheet.lines[49::50]], sheet.match.players)


def test_a_short_chart_keeps_three_cells_a_hand_on_a_wide_terminal():
    sheet = tally(make_match(hands=9))
    parts = chart_parts(on_console(chart_view, sheet, 80))
    assert parts["numbers"].split()[:-1] == [str(n) for n in range(1, 10)]
    assert parts["axis"].endswith("└" + "─┬─" * 9)


# --- notes and long lines --------------------------------------------------------------------------------------

LONG_NOTE = "Elizabeth dealt eleven cards by mistake, so we agreed to count her lowest ten and carry on with the game"


def test_show_prints_the_match_note_and_each_hands_note(run, tmp_path):
    path = tmp_path / "m.toml"
    save(str(path), make_match(hands=12, match="Friday club, table 4", hand3="misdeal, redealt", hand11=LONG_NOTE))
    result = run("show", path)
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Christopher vs Elizabeth (")
    assert lines[1] == "Note: Friday club, table 4"
    notes = lines.index("Notes:")
    assert lines[notes + 1 : notes + 3] == ["   3  misdeal, redealt", f"  11  {LONG_NOTE}"]  # piped: one line a note
    assert re.match(r"\s*12 ", lines[notes - 1])  # right under the last hand
    data = json_object(run("show", "--json", path))
    assert data["note"] == "Friday club, table 4" and data["hands"][10]["note"] == LONG_NOTE


def test_without_notes_there_is_no_notes_section(run, tmp_path):
    path = tmp_path / "m.toml"
    save(str(path), make_match(hands=5))
    result = run("show", path)
    assert result.exit_code == 0 and result.stderr == ""
    assert "Note" not in result.stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_note_wraps_under_itself_on_a_terminal(width):
    sheet = tally(make_match(hands=12, match=LONG_NOTE, hand11=LONG_NOTE + " " + "x" * 90))
    lines = on_console(sheet_view, sheet, width)
    fits(lines, width)
    notes = lines.index("Notes:")
    block = lines[notes + 1 :]
    assert block[0].startswith("  11  ")
    wrapped = [block[0]] + [line for line in block[1:] if line.startswith("      ")]
    assert len(wrapped) > 1
    assert "".join(line[6:] for line in wrapped).replace(" ", "") == (LONG_NOTE + "x" * 90).replace(" ", "")
    note = next(i for i, line in enumerate(lines) if line.startswith("Note: "))
    heading = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    assert " ".join(lines[note:heading]).split() == ["Note:", *LONG_NOTE.split()]
    assert heading - note > 1


def test_the_best_spread_advice_wraps_on_a_terminal_and_stays_one_line_piped():
    knocker = parse_cards("10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d")
    opponent = parse_cards("9h 8h Kc Qd Js 5c 4d 3s 6s 10c")
    scored = score_cards(knocker, opponent, Rules())
    assert scored.lowest is not None
    terminal = on_console(lambda s, out: score_report(s, out), scored, 80)
    fits(terminal, 80)
    piped = plain_console(file=io.StringIO(), width=160, soft_wrap=True)
    score_report(scored, piped)
    advice = piped.file.getvalue().splitlines()[-1]
    assert advice.startswith("This spread is not the lowest count") and len(advice) > 160
    start = next(i for i, line in enumerate(terminal) if line.startswith("This spread"))
    assert len(terminal) - start > 1
    assert " ".join(terminal[start:]).split() == advice.split()


# --- the real command on a pseudo-terminal ----------------------------------------------------------------------


def on_pty(args: list[str], columns: int, stderr_too: bool = False) -> tuple[int, list[str]]:
    """Run ginscore with stdout (and perhaps stderr) on a pseudo-terminal `columns` wide; its exit status and
    lines, escapes removed. Unless it is on the terminal too, stderr must stay empty."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env["NO_COLOR"] = "1"
    done = run_on_terminal([GINSCORE, *args], env, columns=columns, rows=50, stderr_too=stderr_too, timeout=60)
    assert stderr_too or done.stderr == b""
    text = done.output.decode("utf-8").replace("\r\n", "\n")
    return done.returncode, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).splitlines()


@pytest.mark.parametrize("hollywood, width", [(False, 80), (True, 60)])
def test_show_with_the_chart_on_a_pseudo_terminal(tmp_path, hollywood, width):
    path = tmp_path / "m.toml"
    match = make_match(hollywood=hollywood)
    save(str(path), match)
    status, lines = on_pty(["show", str(path), "--chart"], width)
    assert status == 0
    fits(lines, width)
    sheet = tally(match)
    check_title(lines, sheet)
    check_rows(lines, sheet)
    parts = chart_parts(lines)
    assert len(marked_columns(parts["rows"], parts["margin"])) == (60 if width == 80 else 30)  # 2 hands a column at 60


def test_piped_show_keeps_whole_names_and_no_rule(run, tmp_path):
    path = tmp_path / "m.toml"
    save(str(path), make_match())
    result = run("show", path)
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and "─" not in result.stdout
    assert lines[1].split() == ["#", "dealer", "knocker", "result", "counts", "points", "Christopher", "Elizabeth"]
    assert all(line == line.rstrip() for line in lines)


ILLEGAL_KNOCK = ("--knocker", "3h 4h 5h Ks Kc Kd 7c 9c Jd Qh 2s", "--opponent", "Qd Qc 5s 6s 7s Jc 4d 8h 2c Ac")


def test_the_illegal_knock_message_wraps_on_a_terminal_and_is_one_line_piped(run):
    result = run("score", *ILLEGAL_KNOCK)
    assert result.exit_code == 1 and result.stdout == ""
    line = result.stderr.rstrip("\n")
    assert "\n" not in line and len(line) > 60 and line.startswith("error: --cards: illegal knock: 28 deadwood")
    status, lines = on_pty(["score", *ILLEGAL_KNOCK], 60, stderr_too=True)
    assert status == 1
    fits(lines, 60)
    assert len(lines) > 1 and all(line.startswith("  ") for line in lines[1:])
    assert prose(lines) == line


@pytest.mark.parametrize("hollywood", [False, True])
def test_a_long_sheet_prints_the_same_text_without_colour(monkeypatch, hollywood):
    """Past `_STYLED_ROWS` hands the sheet is written as plain text; what it says does not change."""
    import ginscore.render.sheet_table as table_module

    sheet = tally(make_match(hollywood=hollywood, hand7=LONG_NOTE))
    styled = on_console(sheet_view, sheet, 70)
    monkeypatch.setattr(table_module, "_STYLED_ROWS", 10)
    plain = on_console(sheet_view, sheet, 70)
    assert [line.rstrip() for line in plain] == [line.rstrip() for line in styled]
    check_rows(plain, sheet)


@pytest.mark.parametrize("width", WIDTHS)
def test_stats_with_long_names_fit_and_keep_every_figure(width):
    from ginscore.match.stats import collect
    from ginscore.render.stats import stats_view

    players = ("Maximilian-Alexander", "Bartholomew-Jones")
    sheet = tally(make_match(players, hands=20))
    pair = collect([sheet])[0]
    lines = on_console(lambda pairs, out: stats_view(pairs, 1, out), [pair], width)
    fits(lines, width)
    data = pair.as_dict()["by_player"]
    won = next(line for line in lines if line.lstrip().startswith("hands won"))
    assert won.split()[-2:] == [str(data[name]["hands_won"]) for name in pair.players]
    rate = next(line for line in lines if line.lstrip().startswith("knocked in (share of hands)"))
    assert rate.split()[-2:] == [f"{data[name]['knock_rate']:.0%}" for name in pair.players]


def test_records_note_on_the_spread_scored_wraps_at_words_and_never_splits_the_option():
    from ginscore.render.sheet import hand_view

    match = Match(("Ann", "Bob"), Rules(), "Ann")
    record = make_record(match, HandEntry(knocker="Ann", cards="Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", opponent_cards="2d 5s As 5h 3d 4c 3s 4d 4s 4h")).record
    sheet = tally(match.with_hands((record,)))
    option = '`--cards "Ac 2c 3c | Ah 2h 3h | 6c 6d 6h | 2s"`'
    terminal = on_console(lambda s, out: hand_view(s.lines[-1], s, out), sheet, 60)
    note = next(i for i, line in enumerate(terminal) if line.startswith("Scored the spread"))
    block = terminal[note : next(i for i, line in enumerate(terminal) if line.startswith("Score:"))]
    assert len(block) > 2 and all(cell_len(line) <= 60 for line in block if option not in line)
    assert any(line.strip() == f"give {option}" or line.strip().endswith(option) for line in block), block
    piped = plain_console(file=io.StringIO(), width=160, soft_wrap=True)
    hand_view(sheet.lines[-1], sheet, piped)
    one = [line for line in piped.file.getvalue().splitlines() if line.startswith("Scored the spread")]
    assert one == [prose(block)]
