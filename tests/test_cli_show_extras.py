"""`show` beyond the plain sheet: a Hollywood match through the CLI, `--chart` and `--export`.

Hollywood points are worked out by hand from RULES.md ("Hollywood scoring"); the chart and the
exports are checked against `show --json` and the sample matches' hand-checked results.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import json_object, one_error_line

from ginscore.files import reading

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_matches"
STANDARD = SAMPLES / "standard.toml"
OKLAHOMA = SAMPLES / "oklahoma.toml"
GINSCORE = str(Path(sys.executable).with_name("ginscore"))


def ok(result) -> str:
    assert result.exit_code == 0, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr == ""
    return result.stdout


# --- Hollywood through the CLI ---------------------------------------------------------------------------------
#
# Target 50 (standard otherwise: game 100, shutout 200 flat, box 20). `win(who, p)` is a knock at 1 against p + 1.
#   1 Ann 10  -> game 1                      g1 Ann 10
#   2 Ann 40  -> games 1, 2 (Ann was in 1)   g1 Ann 50: game 1 over, Bob shut out; g2 Ann 40
#   3 Bob 5   -> game 2 only: Bob never scored in game 1, so this opens his score in game 2, not game 3
#   4 Ann 10  -> games 2, 3 (Ann was in 2)   g2 Ann 50: game 2 over (Bob 5); g3 Ann 10
#   5 Bob 5   -> game 3 only: games 1 and 2 are closed, game 3 is the first open one
#   6 Ann 40  -> game 3                      g3 Ann 50: game 3 over (Bob 5): the match is over
HOLLYWOOD_HANDS = [("Ann", 10), ("Ann", 40), ("Bob", 5), ("Ann", 10), ("Bob", 5), ("Ann", 40)]
HOLLYWOOD_COLUMNS = [[1], [1, 2], [2], [2, 3], [3], [3]]


@pytest.fixture
def hollywood(run, tmp_path) -> Path:
    path = tmp_path / "h.toml"
    result = run("new", path, "Ann", "Bob", "--hollywood", "--set", "target=50")
    assert ok(result) == f"Started {path}: a Hollywood match of Ann and Bob, standard rules, target 50; Ann deals first.\n"
    return path


def win(run, path: Path, who: str, points: int):
    return run("record", path, "--knocker", who, "--deadwood", "1", "--opponent-deadwood", str(points + 1))


def play_hollywood(run, path: Path, hands: int) -> list[str]:
    outputs = []
    for who, points in HOLLYWOOD_HANDS[:hands]:
        outputs.append(ok(win(run, path, who, points)))
    return outputs


def test_hollywood_a_player_shut_out_of_game_1_opens_their_score_in_game_2(run, hollywood):
    outputs = play_hollywood(run, hollywood, 3)
    assert outputs[0].startswith("Hand 1: knock: Ann scores 10\n")
    assert outputs[1].startswith("Hand 2: knock: Ann scores 40 (games 1, 2)\n")
    assert "Game 1 is over: Ann reached 50." in outputs[1]
    assert outputs[2].startswith("Hand 3: knock: Bob scores 5\n")  # one game only, so no "(games ...)"
    data = json_object(run("show", "--json", hollywood))
    assert [hand["derived"]["columns"] for hand in data["hands"]] == HOLLYWOOD_COLUMNS[:3]
    assert [column["totals"] for column in data["columns"]] == [
        {"Ann": 50, "Bob": 0},
        {"Ann": 40, "Bob": 5},
        {"Ann": 0, "Bob": 0},
    ]
    assert [column["hands"] for column in data["columns"]] == [[1, 2], [2, 3], []]


def test_hollywood_a_column_closes_while_the_others_stay_open(run, hollywood):
    play_hollywood(run, hollywood, 2)
    data = json_object(run("show", "--json", hollywood))
    assert [column["finished"] for column in data["columns"]] == [True, False, False]
    assert data["finished"] is False and data["winner"] is None
    assert [column["winner"] for column in data["columns"]] == ["Ann", None, None]
    assert data["columns"][1]["final"] == data["columns"][1]["totals"] == {"Ann": 40, "Bob": 0}
    # another hand is still accepted, and goes to the open columns only
    result = win(run, hollywood, "Ann", 5)
    assert ok(result).startswith("Hand 3: knock: Ann scores 5 (games 2, 3)\n")
    assert "Next dealer: Ann" in result.stdout
    data = json_object(run("show", "--json", hollywood))
    assert [column["totals"]["Ann"] for column in data["columns"]] == [50, 45, 5]
    assert data["finished"] is False


def test_hollywood_json_columns_after_the_whole_match(run, hollywood):
    play_hollywood(run, hollywood, 6)
    data = json_object(run("show", "--json", hollywood))
    assert data["hollywood"] is True
    columns = data["columns"]
    assert len(columns) == 3
    for column in columns:
        assert {"totals", "boxes", "finished", "winner", "bonuses", "final", "margin", "hands"} <= set(column)
    assert [hand["derived"]["columns"] for hand in data["hands"]] == HOLLYWOOD_COLUMNS
    assert [column["hands"] for column in columns] == [[1, 2], [2, 3, 4], [4, 5, 6]]
    assert [column["finished"] for column in columns] == [True, True, True]
    assert [column["winner"] for column in columns] == ["Ann", "Ann", "Ann"]
    # game 1: Ann 10+40 = 50, Bob nothing: shutout bonus 200 instead of the game bonus; 2 boxes = 40
    assert columns[0]["totals"] == {"Ann": 50, "Bob": 0}
    assert columns[0]["boxes"] == {"Ann": 2, "Bob": 0}
    assert columns[0]["bonuses"] == {"Ann": {"game": 200, "boxes": 40, "shutout": 0}, "Bob": {"game": 0, "boxes": 0, "shutout": 0}}
    assert columns[0]["final"] == {"Ann": 290, "Bob": 0} and columns[0]["margin"] == 290
    # games 2 and 3: Ann 50, Bob 5: the plain game bonus of 100; Ann 2 boxes, Bob 1
    for column in columns[1:]:
        assert column["totals"] == {"Ann": 50, "Bob": 5}
        assert column["boxes"] == {"Ann": 2, "Bob": 1}
        assert column["bonuses"] == {"Ann": {"game": 100, "boxes": 40, "shutout": 0}, "Bob": {"game": 0, "boxes": 20, "shutout": 0}}
        assert column["final"] == {"Ann": 190, "Bob": 25} and column["margin"] == 165
    # the whole sheet: summed over the three games
    assert data["totals"] == {"Ann": 150, "Bob": 10}
    assert data["final"] == {"Ann": 670, "Bob": 50}
    assert (data["finished"], data["winner"], data["margin"]) == (True, "Ann", 620)
    # the running totals of each hand are summed over the columns too
    assert [hand["derived"]["totals"] for hand in data["hands"]][-1] == {"Ann": 150, "Bob": 10}


def test_hollywood_record_is_refused_only_when_all_three_games_are_over(run, hollywood):
    outputs = play_hollywood(run, hollywood, 5)
    assert "Game 2 is over" in outputs[3]
    before = hollywood.read_bytes()
    last = ok(win(run, hollywood, "Ann", 40))
    assert "Game 3 is over: Ann reached 50." in last and "Next dealer" not in last
    assert hollywood.read_bytes() != before
    finished = hollywood.read_bytes()
    result = win(run, hollywood, "Bob", 5)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line.startswith("error: the match is over (all three games are over), so no hand was recorded")
    hint = line.partition("; start the next one with: ginscore ")[2]
    assert hint == f"new {hollywood.with_name(hollywood.stem + '-2.toml')} --next {hollywood} --dealer Ann"
    assert hollywood.read_bytes() == finished
    assert len(reading.load(str(hollywood))[0].hands) == 6
    ok(run(*hint.split()))  # the next game keeps Hollywood and the target of 50
    following = reading.load(str(hollywood.with_name(hollywood.stem + "-2.toml")))[0]
    assert following.hollywood and following.rules.target == 50 and following.hands == ()


def cell_under(header: str, row: str, heading: str) -> str:
    """The right-aligned cell of `row` under `heading` in a piped rich table ('' when blank)."""
    end = header.index(heading) + len(heading)
    if len(row) < end or row[end - 1] == " ":
        return ""
    return row[:end].split()[-1]


def test_hollywood_show_draws_three_game_columns_side_by_side(run, hollywood):
    play_hollywood(run, hollywood, 6)
    out = ok(run("show", hollywood))
    lines = out.splitlines()
    assert lines[0] == "Ann vs Bob (Hollywood, standard rules, target 50)"
    header = lines[1]
    headings = ["G1 Ann", "G1 Bob", "G2 Ann", "G2 Bob", "G3 Ann", "G3 Bob"]
    positions = [header.index(h) for h in headings]
    assert positions == sorted(positions)  # side by side, in order
    rows = {int(line.split()[0]): line for line in lines[2:8]}
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    # a hand's totals are written only in the columns it was entered in
    expected = {
        1: {"G1 Ann": "10", "G1 Bob": "0"},
        2: {"G1 Ann": "50", "G1 Bob": "0", "G2 Ann": "40", "G2 Bob": "0"},
        3: {"G2 Ann": "40", "G2 Bob": "5"},
        4: {"G2 Ann": "50", "G2 Bob": "5", "G3 Ann": "10", "G3 Bob": "0"},
        5: {"G3 Ann": "10", "G3 Bob": "5"},
        6: {"G3 Ann": "50", "G3 Bob": "5"},
    }
    for number, cells in expected.items():
        got = {h: cell_under(header, rows[number], h) for h in headings}
        assert got == {h: cells.get(h, "") for h in headings}, (number, rows[number])
    assert "Game 1: Ann reached 50." in out
    assert "  Ann: 50 points + 200 shutout bonus (the other player scored nothing) + 40 for boxes = 290" in out
    assert out.count("  Ann: 50 points + 100 game bonus + 40 for boxes = 190") == 2
    assert out.rstrip("\n").endswith("Ann wins by 620 over the three games.\nSeries: Ann 3 – Bob 0")


# --- chart ------------------------------------------------------------------------------------------------------

PLAYER_MARKS = ("●", "▲")
BOTH = "◆"


def legend_marks(legend: str) -> dict[str, str]:
    """Which marker the legend gives each player and the shared one: "● Ann   ▲ Bob   ◆ Ann and Bob on one mark";
    the shared one is keyed "both" once it names both players."""
    body = legend.removeprefix("Running totals: ").rsplit("; ┈ target ", 1)[0]
    first, second, shared = (part.strip() for part in re.split(r"\s{3}", body))
    marks = {first[2:]: first[0], second[2:]: second[0]}
    assert shared == f"{BOTH} {first[2:]} and {second[2:]} on one mark", legend
    return marks | {"both": BOTH}


def chart_of(out: str) -> dict:
    """The parts of the chart that `show --chart` prints after the sheet."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Running totals: "))
    axis = next(i for i in range(start, len(lines)) if "└" in lines[i])
    numbers, kinds = lines[axis + 1], lines[axis + 2]
    assert numbers.endswith("  hand") and kinds.endswith("  kind")
    body = kinds[: -len("  kind")]
    columns = [i for i, ch in enumerate(body) if ch != " "]
    return {
        "legend": lines[start],
        "rows": lines[start + 1 : axis],
        "numbers": numbers[: -len("  hand")].split(),
        "marks": [body[i] for i in columns],
        "columns": columns,
        "key": lines[axis + 3],
    }


@pytest.mark.parametrize(
    "sample, marks",
    [
        # from tests/test_samples.py: knock, cancelled, undercut, gin, then five knocks
        (STANDARD, ["K", "×", "U", "G", "K", "K", "K", "K", "K"]),
        # knock, knock, undercut, gin, gin, knock, knock
        (OKLAHOMA, ["K", "K", "U", "G", "G", "K", "K"]),
    ],
)
def test_chart_marks_each_hands_kind_under_it(run, sample, marks):
    out = ok(run("show", sample, "--chart"))
    chart = chart_of(out)
    assert chart["marks"] == marks
    assert chart["numbers"] == [str(n) for n in range(1, len(marks) + 1)]
    data = json_object(run("show", "--json", sample))
    kinds = {"knock": "K", "undercut": "U", "gin": "G", "cancelled": "×"}
    assert [kinds[hand["derived"]["result"]] for hand in data["hands"]] == marks  # and in the sheet's order
    assert chart["key"] == "K knock, U undercut, G gin, B big gin, T tie, × cancelled"


@pytest.mark.parametrize("sample", [STANDARD, OKLAHOMA])
def test_chart_legend_and_markers_follow_the_running_totals(run, sample):
    data = json_object(run("show", "--json", sample))
    a, b = data["players"]
    chart = chart_of(ok(run("show", sample, "--chart")))
    assert chart["legend"].startswith("Running totals: ")
    target = data["rules"]["target"]
    assert chart["legend"].endswith(f"; ┈ target {target}")
    assert legend_marks(chart["legend"]) == {a: PLAYER_MARKS[0], b: PLAYER_MARKS[1], "both": BOTH}
    rows, columns = chart["rows"], chart["columns"]
    totals = [hand["derived"]["totals"] for hand in data["hands"]]
    top = max(max(t.values()) for t in totals)
    # the axis is labelled in round steps, from 0 at the bottom to the top row, past the highest total and the target
    labels = [(row, int(line.split("┤")[0])) for row, line in enumerate(rows) if line.split("┤")[0].strip()]
    values = [value for _, value in labels]
    step = values[-2] - values[-1]
    assert values == list(range(values[0], -1, -step)) and labels[0][0] == 0 and labels[-1] == (len(rows) - 1, 0)
    assert any(step == base * 10**power for base in (1, 2, 5) for power in range(4)) or step in (25, 250)
    assert values[0] >= max(top, target) > values[0] - step
    # the target is drawn across, on its row
    target_rows = [row for row, line in enumerate(rows) if "┈" in line]
    assert len(target_rows) == 1
    per_row = values[0] / (len(rows) - 1)
    assert target_rows[0] == len(rows) - 1 - round(target / per_row)
    leader = a if max(t[a] for t in totals) == top else b
    at = next(i for i, t in enumerate(totals) if t[leader] == top)
    # the leader's marker, where they reach their highest total, is the highest mark drawn
    highest = min(row for row, line in enumerate(rows) if any(len(line) > c and line[c] in (*PLAYER_MARKS, BOTH) for c in columns))
    assert rows[highest][columns[at]] in (PLAYER_MARKS[data["players"].index(leader)], BOTH)
    # in every hand's column each player's marker is in exactly one row, the higher total higher up
    for index, (column, total) in enumerate(zip(columns, totals)):
        found = {row: line[column] for row, line in enumerate(rows) if len(line) > column and line[column] not in " ┈"}  # ┈: the target
        if total[a] == total[b]:
            assert list(found.values()) == [BOTH], (index, found)
            continue
        if list(found.values()) == [BOTH]:
            continue  # close enough to share a row
        where = {mark: row for row, mark in found.items()}
        assert set(where) == set(PLAYER_MARKS), (index, found)
        higher = PLAYER_MARKS[0] if total[a] > total[b] else PLAYER_MARKS[1]
        lower = PLAYER_MARKS[1] if higher == PLAYER_MARKS[0] else PLAYER_MARKS[0]
        assert where[higher] < where[lower], (index, total, found)
    # a player on 0 sits on the bottom row (Tom before his gin in the standard sample)
    for column, total in zip(columns, totals):
        for player, mark in zip((a, b), PLAYER_MARKS):
            if total[player] == 0:
                assert rows[-1][column] in (mark, BOTH)


def test_chart_exact_picture_for_the_standard_sample(run):
    chart = chart_of(ok(run("show", STANDARD, "--chart")))
    # Tom's 103 reaches past the target of 100: steps of 50 up to 150, four rows apart. His 103 at hand 9 sits on
    # the target's row; his 0 in hands 1 to 3 on the bottom row.
    assert [line.split("┤")[0].strip() for line in chart["rows"]] == ["150", *[""] * 3, "100", *[""] * 3, "50", *[""] * 3, "0"]
    assert chart["rows"][4] == "100 ┤" + "┈" * (3 * 8 + 1) + "▲┈"
    assert chart["rows"][-1] == "  0 ┤ ▲  ▲  ▲"
    assert chart["rows"][0] == "150 ┤"


@pytest.mark.parametrize("highest, steps", [
    (83, [0, 25, 50, 75, 100]),
    (100, [0, 25, 50, 75, 100]),
    (156, [0, 50, 100, 150, 200]),
    (7, [0, 2, 4, 6, 8]),
    (13, [0, 5, 10, 15]),
    (1, [0, 1]),
    (460, [0, 200, 400, 600]),
    (2400, [0, 1000, 2000, 3000]),
])
def test_the_points_axis_is_labelled_in_round_steps(highest, steps):
    from ginscore.render.chart import total_axis

    axis = total_axis(highest, 12)
    labels = [int(axis.label(level)) for level in range(axis.height) if axis.label(level)]
    assert labels == steps
    assert abs(axis.height - 12) <= 3  # about the height asked for


def test_chart_with_no_hands_yet(run, tmp_path):
    path = tmp_path / "m.toml"
    ok(run("new", path, "Ann", "Bob"))
    out = ok(run("show", path, "--chart"))
    legend, last = out.splitlines()[-2:]
    assert legend.startswith("Running totals: ") and legend.endswith("; ┈ target 100")
    assert legend_marks(legend) == {"Ann": "●", "Bob": "▲", "both": "◆"}
    assert last == "No hands yet."


def test_chart_piped_has_no_ansi_escapes():
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run([GINSCORE, "show", str(STANDARD), "--chart"], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0 and result.stderr == ""
    assert "\x1b" not in result.stdout
    assert legend_marks(chart_of(result.stdout)["legend"]) == {"Maria": "●", "Tom": "▲", "both": "◆"}
    assert chart_of(result.stdout)["marks"] == ["K", "×", "U", "G", "K", "K", "K", "K", "K"]


# --- export -----------------------------------------------------------------------------------------------------


def export(run, tmp_path: Path, sample: Path, name: str) -> Path:
    target = tmp_path / name
    result = run("show", sample, "--export", target)
    assert ok(result) == f"Wrote the score sheet to {target}\n"
    assert target.is_file()
    return target


@pytest.mark.parametrize("sample", [STANDARD, OKLAHOMA, SAMPLES / "counts_only.toml"])
def test_export_csv_one_row_a_hand_with_the_running_totals(run, tmp_path, sample):
    data = json_object(run("show", "--json", sample))
    a, b = data["players"]
    rows = list(csv.reader(io.StringIO(export(run, tmp_path, sample, "sheet.csv").read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    assert header == ["hand", "dealer", "knocker", "result", "knocker_deadwood", "opponent_deadwood", "winner", "points", a, b]
    assert len(body) == len(data["hands"])
    for row, hand in zip(body, data["hands"]):
        record = dict(zip(header, row))
        assert int(record["hand"]) == hand["derived"]["number"]
        assert record["result"] == hand["derived"]["result"] and record["dealer"] == hand["derived"]["dealer"]
        assert record["winner"] == (hand["derived"]["winner"] or "") and int(record["points"]) == hand["derived"]["points"]
        assert {a: int(record[a]), b: int(record[b])} == hand["derived"]["totals"]
    assert {a: int(body[-1][-2]), b: int(body[-1][-1])} == data["totals"]


def test_export_csv_of_a_hollywood_sheet_has_each_games_totals(run, hollywood, tmp_path):
    play_hollywood(run, hollywood, 4)
    data = json_object(run("show", "--json", hollywood))
    rows = list(csv.DictReader(io.StringIO(export(run, tmp_path, hollywood, "h.csv").read_text(encoding="utf-8"))))
    assert len(rows) == 4
    for row, hand in zip(rows, data["hands"]):
        for name in ("Ann", "Bob"):
            assert sum(int(row[f"game{g}_{name}"]) for g in (1, 2, 3)) == hand["derived"]["totals"][name]
    for g, column in enumerate(data["columns"], start=1):
        assert {name: int(rows[-1][f"game{g}_{name}"]) for name in ("Ann", "Bob")} == column["totals"]
    for row, hand in zip(rows, data["hands"]):
        assert row["games"].split() == [str(g) for g in hand["derived"]["columns"]]


def test_export_markdown_table_one_row_a_hand(run, tmp_path):
    text = export(run, tmp_path, STANDARD, "sheet.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index("| hand | dealer | knocker | result | knocker_deadwood | opponent_deadwood | winner | points | Maria | Tom |")
    assert set(lines[start + 1]) <= set("|-: ") and lines[start + 1].count("|") == 11
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    assert [row[0] for row in rows] == [str(n) for n in range(1, 10)]
    assert rows[1][3] == "cancelled" and rows[-1][-2:] == ["64", "103"]
    assert "Maria" in text and "Tom" in text


@pytest.mark.parametrize("name", ["sheet.pdf", "sheet", "sheet.svg.txt"])
def test_export_unknown_extension_exits_2_and_writes_nothing(run, tmp_path, name):
    result = run("show", STANDARD, "--export", tmp_path / name)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith("error: cannot tell the format of ") and ".svg, .html, .csv, .md" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["sheet.svg", "sheet.csv"])
def test_export_into_a_missing_folder_is_one_line(run, tmp_path, name):
    target = tmp_path / "nowhere" / name
    result = run("show", STANDARD, "--export", target)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line == f"error: {target}: cannot write: the folder {target.parent} does not exist; nothing was changed"
    assert list(tmp_path.iterdir()) == []


def test_export_leaves_the_match_file_alone(run, tmp_path):
    copy = tmp_path / "m.toml"
    copy.write_bytes(STANDARD.read_bytes())
    export(run, tmp_path, copy, "sheet.md")
    assert copy.read_bytes() == STANDARD.read_bytes()
    assert json.loads(ok(run("show", "--json", copy)))["totals"] == {"Maria": 64, "Tom": 103}


def test_export_markdown_header_escapes_a_pipe_in_a_name(run, tmp_path):
    path = tmp_path / "m.toml"
    ok(run("new", path, "Ann|Jo", "Bob"))
    ok(run("record", path, "--knocker", "Bob", "--deadwood", "2", "--opponent-deadwood", "12"))
    text = export(run, tmp_path, path, "sheet.md").read_text(encoding="utf-8")
    header, separator, row = text.splitlines()[2:5]
    split = [line.replace("\\|", "").count("|") for line in (header, separator, row)]
    assert split[0] == split[1] == split[2], (header, separator, row)


def test_hollywood_show_keeps_square_brackets_in_a_name(run, tmp_path):
    path = tmp_path / "h.toml"
    assert run("new", path, "Ann [x]", "Bob", "--hollywood").exit_code == 0
    out = ok(run("show", path))
    assert out.splitlines()[0].startswith("Ann [x] vs Bob")
    assert "G1 Ann [x]" in out.splitlines()[1]


@pytest.mark.parametrize(
    "name, cell",
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("Ann = Bob", "Ann = Bob"),
        ("-12", "-12"),
        ("+7", "+7"),
    ],
)
def test_export_csv_names_that_a_spreadsheet_would_run_are_neutralised(run, tmp_path, name, cell):
    """OWASP's advice on CSV injection: a cell starting with =, +, -, @, a tab or a carriage return, unless it is
    a number, gets a ' first, so that a spreadsheet shows it as text."""
    from ginscore.files.storage import dumps
    from ginscore.game.rulebook import preset
    from ginscore.match.records import HandRecord, Match

    source = tmp_path / "m.toml"
    hand = HandRecord(knocker=name, deadwood=3, opponent_deadwood=20)
    source.write_text(dumps(Match((name, "Bob"), preset("standard"), name, hands=(hand,), preset="standard")), encoding="utf-8")
    rows = list(csv.reader(io.StringIO(export(run, tmp_path, source, "sheet.csv").read_text(encoding="utf-8"))))
    assert rows[0][-2:] == [cell, "Bob"]
    assert rows[1][1:3] == [cell, cell] and rows[1][6] == cell  # dealer, knocker, winner
    assert rows[1][-2:] == ["17", "0"]


@pytest.mark.parametrize("text, cell", [("\tx", "'\tx"), ("\rx", "'\rx"), ("-", "'-"), ("-1.5", "-1.5"), ("", ""), ("a=b", "a=b")])
def test_a_csv_cell_starting_with_a_tab_or_a_carriage_return_is_neutralised_too(text, cell):
    """No name starts so (names are trimmed, and hold no control character), but every cell goes through here."""
    from ginscore.sheets.tables import csv_cell

    assert csv_cell(text) == cell


def test_export_csv_of_a_number_stays_a_number(run, tmp_path):
    rows = list(csv.reader(io.StringIO(export(run, tmp_path, STANDARD, "sheet.csv").read_text(encoding="utf-8"))))
    assert all(not cell.startswith("'") for row in rows for cell in row)
