"""Trust, second round: what a hostile walk over the file layer found. Every write proves its bytes before the
rename; the write's target and the existence check come from one resolved path; a strange lock file is refused,
never waited on; what a person typed survives every layout; the statistics cache is never believed blindly.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import COUNTS, json_object, one_error_line

from ginscore.files import reading
from ginscore.match.records import check_note

ROOT = Path(__file__).resolve().parent.parent
NOTE = "# MY NOTE"
EDIT = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "10"]


def hands_in(path: Path) -> int:
    return len(tomllib.loads(path.read_text()).get("hands", []))


def valid(run, path: Path) -> None:
    result = run("validate", path)
    assert result.exit_code == 0, result.stdout + result.stderr


def valid_but_created(run, path: Path) -> None:
    """`valid` for a file whose `created` is a string of several lines: validate refuses that stamp alone, which is
    no time (tests/test_stamps.py), and the file reads as a match."""
    result = run("validate", path)
    assert result.exit_code == 1 and result.stderr.startswith(f"{path}: created: ") and result.stderr.count("\n") == 1, result.stderr
    assert "is not a time" in result.stderr
    reading.load(str(path))


# --- lost or corrupted ------------------------------------------------------------------------------------------


def test_record_on_a_file_whose_string_holds_a_hands_line_keeps_it_valid(run, played):
    """`[[hands]]` inside a multi-line string, and hands as an inline array: the appended block must be proven."""
    text = played.read_text()
    head, _, _ = text.partition("[[hands]]")
    head = re.sub(r'created = "([^"]*)"\n', 'created = """\n[[hands]]\n"""\nhands = [{cancelled = true}]\n', head)
    played.write_text(NOTE + "\n" + head.rstrip("\n") + "\n")
    valid_but_created(run, played)
    result = run("record", played, "--cancelled")
    assert result.exit_code == 0, result.stderr
    valid_but_created(run, played)
    data = tomllib.loads(played.read_text())
    assert data["created"] == "[[hands]]\n"
    assert [hand.get("cancelled") for hand in data["hands"]] == [True, True]
    assert NOTE in played.read_text()


def test_new_through_a_missing_folder_and_dot_dot_replaces_nothing(run, played, monkeypatch):
    monkeypatch.chdir(played.parent)
    before = played.read_bytes()
    result = run("new", "typo/../m.toml", "Cy", "Dee")
    assert result.exit_code == 1
    assert one_error_line(result) == "error: typo/../m.toml: cannot write: the folder typo does not exist; nothing was changed"
    assert played.read_bytes() == before


def test_new_through_a_dangling_link_names_the_missing_folder_of_its_target(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.toml").symlink_to("/nonexistent/x.toml")
    result = run("new", "d.toml", "Ann", "Bob", "--force")
    assert result.exit_code == 1
    assert one_error_line(result) == "error: d.toml: cannot write: the folder /nonexistent does not exist; nothing was changed"


def ginscore(*args: object) -> subprocess.CompletedProcess[str]:
    # A timeout guards the suite against the old hang; nothing is asserted about time.
    return subprocess.run([sys.executable, "-m", "ginscore", *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("kind", ["link-to-file", "link-to-dev-null", "dangling-link", "fifo", "folder"])
@pytest.mark.parametrize("command", [["record", *COUNTS], ["new", "Ann", "Bob", "--force"]], ids=["record", "new-force"])
def test_a_lock_file_that_is_not_a_regular_file_is_refused_not_waited_on(played, tmp_path, kind, command):
    lock = tmp_path / ".m.toml.lock"
    lock.unlink()
    if kind == "link-to-file":
        (tmp_path / "other").write_text("x")
        lock.symlink_to(tmp_path / "other")
    elif kind == "link-to-dev-null":
        lock.symlink_to("/dev/null")
    elif kind == "dangling-link":
        lock.symlink_to(tmp_path / "gone")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    before = played.read_bytes()
    done = ginscore(command[0], played, *command[1:])
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {played}: the lock file {lock} is "), done.stderr
    assert "not one ginscore made" in lines[0]
    assert played.read_bytes() == before


# --- what a person typed --------------------------------------------------------------------------------------------


def with_note(path: Path, change=lambda text: text) -> str:
    """The file with a person's one-line note at the top, after `change`."""
    text = NOTE + "\n" + change(path.read_text())
    path.write_text(text)
    return text


RECORD_LAYOUTS = {
    "quoted-table-name": lambda text: text.replace("[[hands]]", '[["hands"]]').replace("[hands.totals]", '["hands".totals]'),
    "hex-format": lambda text: text.replace("format = 2", "format = 0x2"),
    "string-holding-hands": lambda text: re.sub(r'created = "([^"]*)"', r'created = """\n[[hands]]\n\1"""', text),
}


@pytest.mark.parametrize("layout", RECORD_LAYOUTS)
def test_record_leaves_every_byte_above_in_any_layout(run, played, layout):
    before = with_note(played, RECORD_LAYOUTS[layout])
    checked = valid_but_created if layout == "string-holding-hands" else valid
    checked(run, played)
    result = run("record", played, *COUNTS)
    assert result.exit_code == 0, result.stderr
    after = played.read_text()
    assert after.startswith(before)
    assert after[len(before) :].startswith("\n[[hands]]\n")
    checked(run, played)
    assert len(reading.load(str(played))[0].hands) == 3


def tables_after_hands(text: str) -> str:
    """The `[match]` and `[rules]` tables moved after the hands."""
    start, end = text.index("[match]"), text.index("[[hands]]")
    return text[:start] + text[end:].rstrip("\n") + "\n\n" + text[start:end]


@pytest.mark.parametrize("command", [["undo", "--yes"], ["edit", "1", *EDIT], ["edit", "2", *EDIT]], ids=["undo", "edit-1", "edit-2"])
def test_undo_and_edit_keep_comments_when_tables_follow_the_hands(run, played, command):
    with_note(played, tables_after_hands)
    valid(run, played)
    result = run([command[0], str(played), *command[1:]])
    assert result.exit_code == 0, result.stderr
    assert NOTE in played.read_text()
    valid(run, played)
    assert hands_in(played) == (1 if command[0] == "undo" else 2)


LATER_TOTALS = {
    "inline": lambda text: _last_totals(text, "totals = { Ann = 43, Bob = 8 }  " + NOTE + "\n"),
    "dotted": lambda text: _last_totals(text, "totals.Ann = 43  " + NOTE + "\ntotals.Bob = 8\n"),
}


def _last_totals(text: str, replacement: str) -> str:
    head, _, tail = text.rpartition("[hands.totals]\n")
    assert tail.startswith("Ann = 43\nBob = 8\n")
    return head + replacement + tail[len("Ann = 43\nBob = 8\n") :]


@pytest.mark.parametrize("layout", LATER_TOTALS)
def test_edit_of_an_early_hand_keeps_a_later_hands_comments_whatever_its_totals_spelling(run, played, layout):
    played.write_text(LATER_TOTALS[layout](played.read_text()))
    valid(run, played)
    assert run("edit", played, "1", *EDIT).exit_code == 0
    assert NOTE in played.read_text()
    valid(run, played)
    assert reading.load(str(played))[1].summed("totals") == {"Ann": 0, "Bob": 15}


@pytest.mark.parametrize("separator", ["\u2028", "\u0085", "\u2029"])
def test_edit_keeps_a_comment_holding_a_unicode_separator_as_it_was(run, played, separator):
    comment = f"# was{separator}Bob = 99"  # after the separator it looks like a total
    text = played.read_text()
    head, _, tail = text.rpartition("[hands.totals]\nAnn = 43\n")
    played.write_text(head + "[hands.totals]\nAnn = 43\n" + comment + "\n" + tail)  # in hand 2, whose totals an edit of hand 1 changes
    valid(run, played)
    assert run("edit", played, "1", *EDIT).exit_code == 0
    assert "[hands.totals]\nAnn = 0\n" + comment + "\nBob = 15\n" in played.read_text()
    valid(run, played)


@pytest.mark.parametrize("spelling", ["format = +1", '"format" = 1', "format = 0x1"])
def test_a_format_1_file_upgraded_by_a_write_says_format_2_however_it_spelled_1(run, tmp_path, spelling):
    path = tmp_path / "old.toml"
    text = (ROOT / "tests" / "data" / "format1_standard.toml").read_text()
    assert "format = 1\n" in text
    path.write_text(NOTE + "\n" + text.replace("format = 1\n", spelling + "\n"))
    result = run("undo", path, "--yes")
    assert result.exit_code == 0, result.stderr
    after = path.read_text()
    assert tomllib.loads(after)["format"] == 2
    assert NOTE in after and spelling not in after
    valid(run, path)


def test_edit_keeps_a_long_line_of_spaces_and_many_blank_lines(run, played):
    """Once cubic in the line's length and quadratic in the blank lines (78 s and 45 s under the lock)."""
    text = played.read_text()
    head, _, tail = text.rpartition("[hands.totals]\nAnn = 43\n")
    played.write_text(head + "[hands.totals]\nAnn = 43\n" + " " * 3000 + "\n" + "\n" * 20_000 + tail)
    assert run("edit", played, "2", *EDIT).exit_code == 0
    after = played.read_text()
    assert " " * 3000 + "\n" + "\n" * 20_000 in after
    valid(run, played)


def test_a_write_that_would_not_read_back_is_refused_and_changes_nothing(run, played, monkeypatch):
    """No way of writing gives proven bytes: one line, and the file as it was."""
    from ginscore.files import layout

    with_note(played)
    before = played.read_bytes()
    monkeypatch.setattr(layout, "edited", lambda *args: before.decode().replace("knocker_deadwood = 2", "knocker_deadwood = 5"))
    result = run("edit", played, "1", *EDIT)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"error: {played}: cannot make this change and keep the comments")
    assert played.read_bytes() == before


# --- the statistics cache ---------------------------------------------------------------------------------------


@pytest.fixture
def cached(run, played, tmp_path, monkeypatch) -> Path:
    """The cache folder after one `stats` run over `played`."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(folder))
    assert run("stats", played, "--json").exit_code == 0
    return folder / "stats.sqlite3"


def rewrite_rows(database: Path, change) -> None:
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT version, digest, record FROM figures").fetchall()
        assert rows
        for version, digest, record in rows:
            connection.execute("UPDATE figures SET record = ? WHERE version = ? AND digest = ?", (change(record, version, digest), version, digest))


def test_a_changed_figure_in_the_cache_is_not_believed(run, played, cached):
    truth = json_object(run("stats", played, "--json", "--no-cache"))
    assert truth["pairs"][0]["hands"] == 2
    rewrite_rows(cached, lambda record, *_: record.replace('"hands": 2', '"hands": 7'))
    assert json_object(run("stats", played, "--json")) == truth
    with sqlite3.connect(cached) as connection:
        (record,) = connection.execute("SELECT record FROM figures").fetchone()
    assert '"hands": 2' in record  # the bad row was replaced


@pytest.mark.parametrize("games", [None, "2", [2], True, 1.5])
def test_a_cache_row_with_a_figure_of_the_wrong_type_is_recomputed(run, played, cached, games):
    truth = json_object(run("stats", played, "--json", "--no-cache"))

    from ginscore.files.stats_cache import _sealed

    def wrong(record: str, version: str, digest: bytes) -> str:
        figures = json.loads(record[record.index("{") :])
        figures["games"] = games
        return _sealed(figures, version, digest)  # a checksum that matches: only the type check can catch it

    rewrite_rows(cached, wrong)
    result = run("stats", played, "--json")
    assert json_object(result) == truth


def test_stats_refuses_what_validate_refuses_with_the_same_line(run, played, tmp_path):
    cr_only = tmp_path / "cr.toml"
    cr_only.write_bytes(played.read_bytes().replace(b"\n", b"\r"))
    line = run("validate", cr_only).stderr.strip()
    assert line.startswith(f"{cr_only}: ")
    for cache in ([], ["--no-cache"], []):
        result = run("stats", cr_only, played, "--json", *cache)
        assert result.exit_code == 1
        assert result.stderr == f"{line} (skipped)\n"
        assert json.loads(result.stdout)["pairs"][0]["hands"] == 2


# --- small promises ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["record", *COUNTS], ["undo", "--yes"], ["show"], ["new", "Ann", "Bob"]])
def test_a_file_name_with_a_line_break_gives_a_one_line_error(run, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    name = "no\nsuch/a\nb.toml" if command[0] == "new" else "a\nb.toml"
    result = run([command[0], name, *command[1:]])
    assert result.exit_code != 0
    line = one_error_line(result)
    assert line.startswith(f"error: {name!r}: ")
    if command[0] == "new":
        assert line.endswith("the folder 'no\\nsuch' does not exist; nothing was changed")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\n", "\r"])
def test_a_note_is_one_line(run, played, separator):
    result = run("record", played, *COUNTS, "--note", f"a{separator}b")
    assert result.exit_code == 2
    assert f"U+{ord(separator):04X}" in one_error_line(result)
    with pytest.raises(ValueError):
        check_note(f"a{separator}b")
    assert hands_in(played) == 2


def test_no_flipped_digit_anywhere_in_a_cache_row_changes_a_figure(run, played, cached):
    """Each digit of the row changed in turn (checksum and figures alike): the figures stay those of the file."""
    from ginscore.files.stats_cache import StatsCache

    truth = json_object(run("stats", played, "--json", "--no-cache"))
    figures = {key: value for key, value in truth["pairs"][0].items() if key != "odds"}  # the odds are the ratings', not the file's
    with sqlite3.connect(cached) as connection:
        (record,) = connection.execute("SELECT record FROM figures").fetchone()
    digits = [index for index, char in enumerate(record) if char.isdigit()]
    assert len(digits) > 20
    for index in digits:
        flipped = record[:index] + str((int(record[index]) + 1) % 10) + record[index + 1 :]
        rewrite_rows(cached, lambda *_, text=flipped: text)
        with StatsCache(str(cached.parent)) as cache:
            assert cache.figures(str(played)).as_dict() == figures
