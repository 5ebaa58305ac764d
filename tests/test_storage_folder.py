"""The folder around a match file: links, permissions, special files, what a person typed, locks and
temporary files. Each command either does its work keeping all of that, or says in one line why not.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from conftest import COUNTS, json_object, one_error_line

from ginscore.files import reading

ROOT = Path(__file__).resolve().parent.parent
GINSCORE = str(Path(sys.executable).with_name("ginscore"))
FORMAT_1 = ROOT / "tests" / "data" / "format1_standard.toml"
IS_ROOT = os.geteuid() == 0


def refused(run, path: Path, args: list, code: int = 1) -> str:
    """A command that must fail with `code`, leaving the file's bytes and mode as they were; its one error line."""
    before, mode = path.read_bytes(), os.stat(path).st_mode
    result = run([str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert path.read_bytes() == before and os.stat(path).st_mode == mode
    return one_error_line(result)


def hands_in(path: Path) -> int:
    return len(reading.load(str(path))[0].hands)


def ginscore(*args: str, input: str | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    """The installed command in a subprocess; a hang fails the test through the timeout."""
    return subprocess.run([GINSCORE, *args], input=input, capture_output=True, text=True, timeout=timeout, env={**os.environ, "NO_COLOR": "1"})


# --- links --------------------------------------------------------------------------------------------------


def test_record_through_a_link_writes_the_file_it_points_to(run, played, tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(played.name)
    result = run("record", link, *COUNTS)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == played.name
    assert hands_in(played) == 3
    # One lock for both names: the real file's.
    assert (tmp_path / ".m.toml.lock").exists() and not (tmp_path / ".link.toml.lock").exists()


def test_undo_and_edit_through_a_link_keep_the_link(run, played, tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(played)
    assert run("edit", link, "2", "--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "10").exit_code == 0
    assert run("undo", link, "--yes").exit_code == 0
    assert link.is_symlink() and hands_in(played) == 1


# --- permissions --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [["record", *COUNTS], ["edit", "1", *COUNTS], ["undo", "--yes"], ["new", "Ann", "Bob", "--force"]],
    ids=["record", "edit", "undo", "new-force"],
)
def test_a_read_only_file_is_refused_even_for_root(run, played, tmp_path, command):
    played.chmod(0o444)
    line = refused(run, played, [command[0], played, *command[1:]])
    assert line == f"error: {played}: is read-only (no write permission); nothing was changed"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_a_rewrite_keeps_the_mode(run, played):
    played.chmod(0o640)
    assert run("record", played, *COUNTS).exit_code == 0
    assert stat.S_IMODE(os.stat(played).st_mode) == 0o640


@pytest.mark.skipif(not IS_ROOT, reason="only root can give a file to another owner")
def test_a_rewrite_keeps_the_owner_and_group(run, played):
    os.chown(played, 4321, 4322)
    assert run("record", played, *COUNTS).exit_code == 0
    status = os.stat(played)
    assert (status.st_uid, status.st_gid) == (4321, 4322)


# --- not a regular file -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "stdout"),
    [(["show"], ""), (["validate"], ""), (["stats"], "No matches found.\n"), (["record", *COUNTS], "")],
    ids=["show", "validate", "stats", "record"],
)
def test_a_fifo_is_refused_at_once(tmp_path, command, stdout):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    result = ginscore(command[0], str(fifo), *command[1:])
    assert result.returncode == 1, result.stderr
    assert result.stdout == stdout
    assert f"{fifo}: is a named pipe (FIFO), not a match file" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.toml"]


def test_a_device_is_refused(run):
    result = run("show", "/dev/null")
    assert result.exit_code == 1
    assert one_error_line(result) == "error: /dev/null: is a character device, not a match file; nothing was read"


def test_a_folder_stands_for_its_match_files_and_one_without_any_is_refused(run, tmp_path):
    result = run("validate", tmp_path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{tmp_path}: is a folder with no match file in it (a name ending in .toml); nothing was read\n"
    assert run("new", tmp_path / "m.toml", "Ann", "Bob").exit_code == 0
    result = run("validate", tmp_path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, f"{tmp_path / 'm.toml'}: ok (0 hands, in play)\n", "")


def test_new_force_replaces_only_a_regular_file(run, tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    result = run("new", fifo, "Ann", "Bob", "--force")
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {fifo}: is a named pipe (FIFO), not a regular file; nothing was changed"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.toml"]


def test_an_export_replaces_only_a_regular_file(run, played, tmp_path):
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    result = run("show", played, "--export", fifo, "--force")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert one_error_line(result) == f"error: {fifo}: is a named pipe (FIFO), not a regular file; nothing was changed"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_name_too_long_is_refused_in_words(run, tmp_path):
    name = tmp_path / ("a" * 300 + ".toml")
    for command in (["show", name], ["validate", name]):
        result = run(*command)
        assert result.exit_code == 1
        assert result.stdout == ""
        assert result.stderr.removeprefix("error: ") == f"{name}: cannot read: the name is too long\n"


@pytest.mark.parametrize(
    ("error", "problem"),
    [
        (OSError(30, "Read-only file system"), "cannot write: it is on a read-only file system"),
        (OSError(28, "No space left on device"), "cannot write: the disk is full"),
        (OSError(5, "Input/output error."), "cannot write: input/output error"),
    ],
)
def test_a_system_error_in_a_match_file_problem_reads_as_words(error, problem):
    from ginscore.errors import os_error_problem

    assert os_error_problem("write", error) == problem


def test_a_huge_file_is_refused_before_it_is_read(run, tmp_path):
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as out:
        out.truncate(65 * 2**20)  # sparse: no disk used
    result = run("show", huge)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {huge}: is 65 MB, far more than any match file (at most 64 MB are read); nothing was read"


# --- whatever is inside, one clear line ---------------------------------------------------------------------


def nested(tmp_path: Path, depth: int = 2000) -> Path:
    path = tmp_path / "deep.toml"
    path.write_text("format = 2\nnote = " + "[" * depth + "]" * depth + "\n")
    return path


def test_deep_nesting_is_one_line(run, tmp_path):
    path = nested(tmp_path)
    result = run("show", path)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {path}: a value is nested too deeply to be a match file (hundreds of levels of [ or {{)"


def test_a_number_too_long_for_python_is_one_line(run, tmp_path):
    path = tmp_path / "long.toml"
    path.write_text("format = 1" + "0" * 5000 + "\n")
    result = run("show", path)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {path}: a number has more than 4300 digits, far too many for a match file"


def test_a_long_count_in_a_hand_is_quoted_short(run, played):
    text = played.read_text(encoding="utf-8")
    played.write_text(text.replace("knocker_deadwood = 2", "knocker_deadwood = " + "9" * 4000), encoding="utf-8")
    result = run("validate", played)
    assert result.exit_code == 1 and result.stdout == ""
    line = result.stderr.splitlines()[0]
    assert f"a count of {'9' * 40}… is impossible" in line and len(line.removeprefix(f"{played}: ")) < 160  # the path's length is the machine's


def test_validate_reports_each_file_and_goes_on(run, played, tmp_path):
    deep = nested(tmp_path)
    result = run("validate", deep, played, tmp_path / "none.toml")
    assert result.exit_code == 1
    assert result.stdout == f"{played}: ok (2 hands, in play)\n"
    assert result.stderr.splitlines() == [
        f"{deep}: a value is nested too deeply to be a match file (hundreds of levels of [ or {{)",
        f"{tmp_path / 'none.toml'}: no such file: create a match with `ginscore new FILE PLAYER PLAYER`",
    ]


def test_stats_counts_the_other_files_past_a_deeply_nested_one(run, played, tmp_path):
    nested(tmp_path)
    data = json_object_with_errors(run("stats", tmp_path, "--json"))
    assert data["files"] == 1 and data["skipped"] == [str(tmp_path / "deep.toml")]


def json_object_with_errors(result) -> dict:
    import json

    assert result.exit_code == 1
    assert "nested too deeply" in result.stderr and "Traceback" not in result.stderr
    return json.loads(result.stdout)


def test_a_byte_order_mark_is_read_and_kept(run, played):
    played.write_bytes(b"\xef\xbb\xbf" + played.read_bytes())
    assert run("validate", played).exit_code == 0
    assert run("record", played, *COUNTS).exit_code == 0
    assert played.read_bytes().startswith(b"\xef\xbb\xbf# ginscore match file")
    assert hands_in(played) == 3


def test_bytes_that_are_not_utf8_give_their_offset(run, played):
    text = played.read_bytes()
    at = text.index(b"Ann")
    played.write_bytes(text[:at] + b"\xe9" + text[at + 1 :])
    line = refused(run, played, ["record", played, *COUNTS])
    assert line == f"error: {played}: cannot read byte 0xe9 at offset {at}: not UTF-8 text; save the file as UTF-8"


# --- unknown keys -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("format = 2\n", 'format = 2\nvenue = "Club"\n', "venue: unknown key (known: format, created, match, rules, hands)"),
        ("hollywood = false\n", 'hollywood = false\nvenue = "Club"\n', "match.venue: unknown key (known: id, players, first_dealer, hollywood, preset, note)"),
    ],
    ids=["top", "match"],
)
def test_unknown_keys_are_reported_and_never_dropped(run, played, old, new, problem):
    played.write_text(played.read_text().replace(old, new, 1))
    result = run("validate", played)
    assert result.exit_code == 1
    assert result.stderr == f"{played}: {problem}\n"
    assert refused(run, played, ["record", played, *COUNTS]) == f"error: {played}: {problem}"


# --- notes --------------------------------------------------------------------------------------------------


def test_notes_on_new_record_and_edit(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--note", "Friday club").exit_code == 0
    assert run("record", path, *COUNTS, "--note", "Bob's phone rang").exit_code == 0
    assert run("record", path, *COUNTS, "--note", "late").exit_code == 0
    data = json_object(run("show", path, "--json"))
    assert data["note"] == "Friday club"
    assert [hand["note"] for hand in data["hands"]] == ["Bob's phone rang", "late"]
    assert run("edit", path, "1", "--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "10").exit_code == 0
    assert run("edit", path, "2", *COUNTS, "--note", "very late").exit_code == 0
    data = json_object(run("show", path, "--json"))
    assert [hand["note"] for hand in data["hands"]] == ["Bob's phone rang", "very late"]
    assert [hand["derived"]["points"] for hand in data["hands"]] == [7, 8]


# --- comments and layout survive ----------------------------------------------------------------------------


def commented(path: Path) -> str:
    """The match file with a person's comments: at the top, inside hand 1, between the hands, at the end."""
    text = path.read_text()
    text = "# Club night, table 3\n" + text
    text = text.replace('knocker = "Ann"', 'knocker = "Ann"  # she was sure\n# a long hand', 1)
    head, second = text.rsplit("[[hands]]", 1)
    text = head + "# --- after the break ---\n[[hands]]" + second + "\n# end of the evening\n"
    path.write_text(text)
    return text


def test_record_appends_and_leaves_every_byte_above(run, played):
    before = commented(played)
    assert run("record", played, *COUNTS).exit_code == 0
    after = played.read_text()
    assert after.startswith(before)
    assert after[len(before) :].startswith("\n[[hands]]\n")
    assert hands_in(played) == 3


def test_undo_keeps_comments_outside_the_hand_it_removes(run, played):
    commented(played)
    assert run("undo", played, "--yes").exit_code == 0
    text = played.read_text()
    for comment in ("# Club night, table 3", "# she was sure", "# a long hand", "# --- after the break ---", "# end of the evening"):
        assert comment in text
    assert hands_in(played) == 1


def test_edit_rewrites_only_the_hand_it_changes(run, played):
    before = commented(played)
    result = run("edit", played, "2", "--knocker", "Bob", "--deadwood", "4", "--opponent-deadwood", "10")
    assert result.exit_code == 0, result.stderr
    after = played.read_text()
    first_hand = before[: before.index("# --- after the break ---")]
    assert after.startswith(first_hand)
    assert "# end of the evening" in after and "knocker_deadwood = 4" in after
    assert reading.load(str(played))[1].summed("totals") == {"Ann": 43, "Bob": 6}


def test_edit_of_an_early_hand_updates_the_totals_after_it_in_place(run, played):
    commented(played)
    assert run("edit", played, "1", "--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "10").exit_code == 0
    text = played.read_text()
    assert "# --- after the break ---" in text and "# end of the evening" in text
    assert "# she was sure" in text and "# a long hand" in text  # inside the hand that was changed, kept too
    assert run("validate", played).exit_code == 0
    assert reading.load(str(played))[1].summed("totals") == {"Ann": 0, "Bob": 15}


# --- format 1 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "oklahoma"])
def test_a_format_1_file_gives_the_sheet_its_format_2_remake_gives(run, name):
    old = ROOT / "tests" / "data" / f"format1_{name}.toml"
    assert "format = 1\n" in old.read_text()
    assert json_object(run("show", old, "--json")) == json_object(run("show", ROOT / "sample_matches" / f"{name}.toml", "--json"))


def test_a_format_1_file_loads_unchanged_and_is_upgraded_only_when_written(run, tmp_path):
    path = tmp_path / "old.toml"
    shutil.copyfile(FORMAT_1, path)
    before = path.read_bytes()
    assert run("validate", path).exit_code == 0
    # The same hands as the format-2 sample, made by the same commands: the same sheet.
    assert json_object(run("show", path, "--json")) == json_object(run("show", ROOT / "sample_matches" / "standard.toml", "--json"))
    assert path.read_bytes() == before
    text = path.read_text().replace("[[hands]]", "# Tom dealt first\n[[hands]]", 1)
    path.write_text(text)
    result = run("undo", path, "--yes")
    assert result.exit_code == 0, result.stderr
    after = path.read_text()
    assert "format = 2" in after and "# Tom dealt first" in after
    assert 'spread = "3h 4h 5h | 9c 9d 9s | Jd Qd Kd | 2c"' in after
    assert run("validate", path).exit_code == 0


# --- locks and temporary files ------------------------------------------------------------------------------


def test_undo_waits_for_its_answer_without_the_lock_and_refuses_if_the_last_hand_changed(played):
    asking = subprocess.Popen(
        [GINSCORE, "undo", str(played)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        prompt = ""
        while not prompt.endswith("[y/N]: "):
            prompt += asking.stderr.read(1)
        recorded = ginscore("record", str(played), "--knocker", "Ann", "--deadwood", "1", "--opponent-deadwood", "30")
        assert recorded.returncode == 0, recorded.stderr
        out, err = asking.communicate("y\n", timeout=30)
    finally:
        asking.kill()
    assert asking.returncode == 1
    assert out == ""
    assert err.splitlines()[-1] == (
        f"error: {played} changed while the question waited (hand 2 is no longer the last, or not the one shown); nothing removed (look again, then retry)"
    )
    assert hands_in(played) == 3


@pytest.mark.parametrize("command", [["record", *COUNTS], ["edit", "1", *COUNTS], ["undo", "--yes"]], ids=["record", "edit", "undo"])
def test_a_refusal_for_a_missing_file_leaves_nothing_behind(run, tmp_path, command):
    path = tmp_path / "none.toml"
    result = run([command[0], str(path), *command[1:]])
    assert result.exit_code == 1
    assert "no such file" in one_error_line(result)
    assert list(tmp_path.iterdir()) == []


def test_the_next_writer_removes_temporary_files_left_by_killed_ones(run, played, tmp_path):
    stale = [tmp_path / ".m.toml.k3x_9abc.tmp", tmp_path / ".m.toml.0123456789abcdef.tmp"]
    others = [tmp_path / ".other.toml.k3x_9abc.tmp", tmp_path / ".m.toml.notes.tmp"]
    for path in stale + others:
        path.write_bytes(b"x" * 1000)
    assert run("record", played, *COUNTS).exit_code == 0
    assert [path.exists() for path in stale] == [False, False]
    assert [path.exists() for path in others] == [True, True]


# --- names --------------------------------------------------------------------------------------------------


def test_a_name_typed_two_ways_is_one_person(run, tmp_path):
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    result = run("new", tmp_path / "m.toml", composed, decomposed.upper())
    assert result.exit_code == 2
    assert one_error_line(result) == "error: give two different player names, not 'José' twice"
    assert list(tmp_path.iterdir()) == []


def test_names_are_stored_composed_and_matched_however_typed(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Jose\u0301", "Ann").exit_code == 0
    assert run("record", path, "--knocker", "JOSE\u0301", "--deadwood", "2", "--opponent-deadwood", "10").exit_code == 0
    data = json_object(run("show", path, "--json"))
    assert data["players"] == ["Jos\u00e9", "Ann"]
    assert unicodedata.is_normalized("NFC", path.read_text())
    assert data["hands"][0]["derived"]["winner"] == "Jos\u00e9"


def test_the_served_folders_sheets_are_read_again_only_when_a_file_changes(tmp_path, monkeypatch):
    from pages import SAMPLES

    from ginscore.files import reading
    from ginscore.files.served import Folder

    shutil.copy(SAMPLES / "standard.toml", tmp_path / "a.toml")
    shutil.copy(SAMPLES / "counts_only.toml", tmp_path / "b.toml")
    loads: list[str] = []
    real = reading.match_file
    monkeypatch.setattr(reading, "match_file", lambda path, *args, **kw: loads.append(path) or real(path, *args, **kw))
    folder = Folder(str(tmp_path))
    first = folder.sheets()
    assert len(first) == 2 and len(loads) == 2
    assert folder.sheets() == first and len(loads) == 2  # nothing changed: nothing read
    (tmp_path / "b.toml").write_text((tmp_path / "b.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    folder.sheets()
    assert [path.rsplit("/", 1)[1] for path in loads[2:]] == ["b.toml"]
