"""What acceptance testing of issue 8 still found: hard links forked by a rewrite, long tokens from inside a
file quoted whole, notes that carry terminal escapes, `play` asking a whole hand of a read-only file, refusals
that leave a lock file, and temporary files of exports left by killed writers.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

import pytest
from conftest import ANN_CARDS, BOB_CARDS, COUNTS, json_object, one_error_line

from ginscore.files import folder, reading

LONG = 1_000_000
ESCAPES = "\x1b[31mRED\x1b[0m\x07"


def folder_of(path: Path) -> dict[str, bytes]:
    """Every file in the folder with its bytes: a refusal must change and create nothing."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())}


def refused(run, path: Path, args: list, code: int = 1) -> str:
    """A command that must fail with `code` and leave the folder as it was; its one error line."""
    before = folder_of(path)
    result = run([str(a) for a in args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert folder_of(path) == before
    return one_error_line(result)


# --- hard links ---------------------------------------------------------------------------------------------

HARD_LINKED = "is one of 2 hard links to the same file: a rewrite would split them; use a symbolic link instead; nothing was changed"


@pytest.mark.parametrize(
    "command",
    [["record", *COUNTS], ["edit", "1", *COUNTS], ["undo", "--yes"], ["new", "Ann", "Bob", "--force"]],
    ids=["record", "edit", "undo", "new-force"],
)
@pytest.mark.parametrize("name", ["m.toml", "hard.toml"])
def test_a_hard_linked_match_file_is_refused_not_forked(run, played, command, name):
    hard = played.with_name("hard.toml")
    os.link(played, hard)
    target = played.with_name(name)
    line = refused(run, target, [command[0], target, *command[1:]])
    assert line == f"error: {target}: {HARD_LINKED}"
    assert os.stat(played).st_ino == os.stat(hard).st_ino and os.stat(played).st_nlink == 2


def test_an_export_onto_a_hard_linked_file_is_refused(run, played, tmp_path):
    sheet = tmp_path / "sheet.csv"
    assert run("show", played, "--export", sheet).exit_code == 0
    os.link(sheet, tmp_path / "copy.csv")
    assert refused(run, sheet, ["show", played, "--export", sheet, "--force"]) == f"error: {sheet}: {HARD_LINKED}"
    assert os.stat(sheet).st_nlink == 2


def test_a_symbolic_link_is_still_written_through(run, played, tmp_path):
    """The way the refusal points to: the link stays a link, the file it leads to gets the hand."""
    link = tmp_path / "link.toml"
    link.symlink_to(played.name)
    assert run("record", link, *COUNTS).exit_code == 0
    assert link.is_symlink() and len(reading.load(str(played))[0].hands) == 3


# --- long tokens from inside a file -------------------------------------------------------------------------


def edited(played: Path, old: str, new: str) -> Path:
    text = played.read_text()
    assert old in text
    played.write_text(text.replace(old, new, 1))
    return played


CUT = "…"
NESTED = "[" * 400 + "]" * 400


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "hollywood = false\n",
            f"hollywood = false\n{'x' * LONG} = 1\n",
            f"match.'{'x' * 40}{CUT}': unknown key (known: id, players, first_dealer, hollywood, preset, note)",
        ),
        ('knocker = "Bob"', f'knocker = "{"y" * LONG}"', f"hands[2]: unknown player '{'y' * 40}{CUT}': the players are Ann and Bob"),
        ("Bob = 8\n", f"Bob = 8\n{'z' * LONG} = 3\n", f"hands[2].totals: the file says Ann 43, Bob 8, '{'z' * 40}{CUT}' 3 but the hands add up to Ann 43, Bob 8"),
        ("Bob = 8\n", f'Bob = "{"z" * LONG}"\n', f"hands[2].totals: the file says Ann 43, Bob '{'z' * 40}{CUT}' but the hands add up to Ann 43, Bob 8"),
        ("hollywood = false\n", f"hollywood = false\nnote = {NESTED}\n", f"match.note: expected text in quotes, found {'[' * 40}{CUT}"),
        ("gin_bonus = 20\n", f"gin_bonus = {NESTED}\n", f"rules.gin_bonus: gin_bonus must be a whole number from 0 to 1000, not {'[' * 40}{CUT}"),
        ('knocker = "Bob"', f'knocker = "Bob"\nnote = {NESTED}', f"hands[2].note: expected text in quotes, found {'[' * 40}{CUT}"),
    ],
    ids=["match-key", "knocker", "totals-key", "totals-value", "note-nested", "knob-nested", "hand-note-nested"],
)
def test_a_long_token_inside_a_file_is_quoted_short(run, played, old, new, problem):
    edited(played, old, new)
    result = run("validate", played)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"{played}: {problem}\n"
    line = refused(run, played, ["record", played, *COUNTS])
    assert line == f"error: {played}: {problem}"


def test_a_key_with_a_line_break_stays_on_one_line(run, played):
    edited(played, "hollywood = false\n", 'hollywood = false\n"a\\nb" = 1\n')
    result = run("validate", played)
    assert result.stderr == f"{played}: match.'a\\nb': unknown key (known: id, players, first_dealer, hollywood, preset, note)\n"


# --- notes are plain text -----------------------------------------------------------------------------------

ESCAPE_REFUSED = "error: --note: a note cannot hold the control character '\\x1b' (U+001B): write it as plain text on one line"


@pytest.mark.parametrize(
    "command",
    [["record", *COUNTS, "--note", ESCAPES], ["edit", "2", *COUNTS, "--note", ESCAPES], ["record", "--cancelled", "--note", "a\nb"]],
    ids=["record", "edit", "line-break"],
)
def test_a_note_with_a_control_character_is_refused(run, played, command):
    line = refused(run, played, [command[0], played, *command[1:]], code=2)
    if "a\nb" in command:
        assert line == "error: --note: a note cannot hold the control character '\\n' (U+000A): write it as plain text on one line"
    else:
        assert line == ESCAPE_REFUSED


def test_new_refuses_a_match_note_with_a_control_character(run, tmp_path):
    result = run("new", tmp_path / "m.toml", "Ann", "Bob", "--note", ESCAPES)
    assert result.exit_code == 2
    assert one_error_line(result) == ESCAPE_REFUSED
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "note",
    ["Café — 東京, «table 3» 🂡", "👨\u200d👩\u200d👧 family night", "می\u200cخواهم", "tab\tthere"],
    ids=["scripts", "emoji-joiner", "non-joiner", "tab"],
)
def test_plain_notes_in_any_script_are_kept(run, played, note):
    assert run("record", played, *COUNTS, "--note", note).exit_code == 0
    assert json_object(run("show", played, "--json"))["hands"][-1]["note"] == note


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            'knocker = "Bob"',
            'knocker = "Bob"\nnote = "\\u001b[31mRED"',
            "hands[2].note: a note cannot hold the control character '\\x1b' (U+001B): write it as plain text on one line",
        ),
        (
            "hollywood = false\n",
            'hollywood = false\nnote = "bell\\u0007"\n',
            "match.note: a note cannot hold the control character '\\x07' (U+0007): write it as plain text on one line",
        ),
    ],
    ids=["hand", "match"],
)
def test_a_hand_edited_note_with_a_control_character_is_reported_with_its_place(run, played, old, new, problem):
    edited(played, old, new)
    result = run("validate", played)
    assert result.exit_code == 1
    assert (result.stdout, result.stderr) == ("", f"{played}: {problem}\n")
    assert run("show", played).stdout == ""


def test_play_refuses_a_note_with_a_control_character_and_asks_again(run, played):
    run("undo", played, "--yes")
    answers = f"note {ESCAPES}\nnote plain\nc\n"
    result = run("play", played, input=answers)
    assert result.exit_code == 0 and result.stderr == ""
    assert "\x1b" not in result.stdout
    assert f"  {ESCAPE_REFUSED.removeprefix('error: --note: ')}. Try again.\n" in result.stdout
    assert reading.load(str(played))[0].hands[-1].note == "plain"


# --- play checks that it can write before it asks -----------------------------------------------------------


@pytest.mark.parametrize("make", ["read-only", "hard-link"])
def test_play_refuses_a_file_it_cannot_write_before_the_first_question(run, played, make):
    if make == "read-only":
        played.chmod(0o444)
        problem = "is read-only (no write permission); nothing was changed"
    else:
        os.link(played, played.with_name("hard.toml"))
        problem = HARD_LINKED
    before = folder_of(played)
    result = run("play", played, input=f"Ann\n{ANN_CARDS}\n{BOB_CARDS}\n")
    assert result.exit_code == 1
    assert result.stdout == ""  # not one question asked
    assert one_error_line(result) == f"error: {played}: {problem}"
    assert folder_of(played) == before


# --- refusals leave nothing behind --------------------------------------------------------------------------


def test_new_in_a_missing_folder_names_the_folder_and_creates_nothing(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "nosuchdir/x.toml", "Ann", "Bob")
    assert result.exit_code == 1
    assert one_error_line(result) == "error: nosuchdir/x.toml: cannot write: the folder nosuchdir does not exist; nothing was changed"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def unlocked(played, tmp_path) -> Path:
    """The match file copied to a folder of its own, where no command has taken its lock yet."""
    folder = tmp_path / "fresh"
    folder.mkdir()
    shutil.copy(played, folder / "m.toml")
    return folder / "m.toml"


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        (["record", "--knocker", "Zed", "--deadwood", "2", "--opponent-deadwood", "10"], 2, "error: --knocker: unknown player 'Zed': the players are Ann and Bob"),
        (["edit", "9", *COUNTS], 2, "error: there is no hand 9: the hands are numbered 1 to 2"),
        (["new", "Ann", "Bob"], 1, "error: {path} already exists: pick another name, or add --force to replace it"),
    ],
    ids=["unknown-player", "no-such-hand", "new-exists"],
)
def test_a_refusal_removes_the_lock_file_it_created(run, unlocked, command, code, message):
    line = refused(run, unlocked, [command[0], unlocked, *command[1:]], code=code)
    assert line == message.format(path=unlocked)
    assert [p.name for p in unlocked.parent.iterdir()] == ["m.toml"]


def test_a_refusal_for_a_finished_match_removes_the_lock_file_it_created(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--set", "target=10").exit_code == 0
    assert run("record", path, *COUNTS).exit_code == 0
    assert run("record", path, *COUNTS).exit_code == 0  # Bob 16: over
    (tmp_path / ".m.toml.lock").unlink()
    line = refused(run, path, ["record", path, *COUNTS])
    assert line.startswith("error: the match is over (Bob reached 10)")
    assert [p.name for p in tmp_path.iterdir()] == ["m.toml"]


def test_a_lock_file_that_was_there_is_kept_after_a_refusal(run, played, tmp_path):
    assert (tmp_path / ".m.toml.lock").exists()
    refused(run, played, ["record", played, "--knocker", "Zed", "--deadwood", "2", "--opponent-deadwood", "10"], code=2)
    assert (tmp_path / ".m.toml.lock").exists()


def test_a_writer_waiting_on_a_removed_lock_file_takes_the_new_one(tmp_path):
    """The lock file a refused writer removes may be the one another writer waits on: that writer
    finds the name gone when it gets the lock, and locks the file now at that name instead."""
    path = str(tmp_path / "m.toml")
    lock = tmp_path / ".m.toml.lock"
    lock.write_bytes(b"")
    held = os.open(lock, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)
    lock.unlink()  # as a refused writer that created it would, while still holding it
    os.close(held)
    descriptor, created = folder._take_lock(path, str(lock))
    try:
        assert created and lock.exists()
        assert os.fstat(descriptor).st_ino == os.stat(lock).st_ino
    finally:
        os.close(descriptor)


# --- temporary files of exports -----------------------------------------------------------------------------


def test_an_export_removes_temporaries_killed_exports_left_but_never_a_live_one(run, played, tmp_path):
    stale = [tmp_path / ".sheet.csv.0123456789abcdef.tmp", tmp_path / ".sheet.csv.k3x_9abc.tmp"]
    live = tmp_path / ".sheet.csv.fedcba9876543210.tmp"
    others = [tmp_path / ".other.csv.0123456789abcdef.tmp", tmp_path / ".sheet.csv.notes.tmp"]
    for path in [*stale, live, *others]:
        path.write_bytes(b"x" * 1000)
    writer = os.open(live, os.O_RDONLY)
    fcntl.flock(writer, fcntl.LOCK_EX)  # a concurrent export still writing it holds its lock
    try:
        result = run("show", played, "--export", tmp_path / "sheet.csv")
        assert result.exit_code == 0, result.stderr
        assert result.stdout == f"Wrote the score sheet to {tmp_path / 'sheet.csv'}\n"
        assert [path.exists() for path in stale] == [False, False]
        assert live.exists() and all(path.exists() for path in others)
    finally:
        os.close(writer)


def test_a_writers_temporary_removed_before_it_locked_it_is_made_again(tmp_path, monkeypatch):
    """A cleaner can take a new temporary file in the moment before its writer locks it: the writer
    then finds its name gone and makes another, so its write still lands whole."""
    target = tmp_path / "sheet.csv"
    real_flock, removed = fcntl.flock, []

    def flock_after_a_cleaner(descriptor: int, operation: int) -> None:
        if not removed and operation == fcntl.LOCK_EX:
            name = next(p for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
            name.unlink()
            removed.append(name)
        real_flock(descriptor, operation)

    monkeypatch.setattr(fcntl, "flock", flock_after_a_cleaner)
    folder.write_atomic(str(target), b"a,b\n")
    assert target.read_bytes() == b"a,b\n" and removed
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.csv"]


# --- writes that a later load can read (issue 24) -----------------------------------------------------------

SMALL_LIMIT = 4096
"""The reader's size limit for these tests: a file just under the real 64 MB one takes half a minute to record in."""


def just_under_the_limit(run, path: Path) -> bytes:
    """A valid match file within a few bytes of `folder.MAX_BYTES`, a comment taking the room (a note has at most
    `NOTE_MOST` characters)."""
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, *COUNTS).exit_code == 0
    text = path.read_text()
    room = folder.MAX_BYTES - len(text.encode()) - len("# \n") - 8
    path.write_text(text.replace("[match]\n", "[match]\n# " + "x" * room + "\n", 1))
    assert folder.MAX_BYTES - 8 == len(path.read_bytes())
    assert run("validate", path).exit_code == 0
    return path.read_bytes()


@pytest.mark.parametrize(
    "command",
    [["record", *COUNTS, "--note", "a note long enough to pass the limit"], ["edit", "1", *COUNTS, "--note", "a longer note than before"]],
    ids=["record", "edit"],
)
def test_a_write_that_would_pass_the_readers_size_limit_is_refused(run, tmp_path, monkeypatch, command):
    monkeypatch.setattr(folder, "MAX_BYTES", SMALL_LIMIT)
    path = tmp_path / "m.toml"
    just_under_the_limit(run, path)
    line = refused(run, path, [command[0], path, *command[1:]])
    assert line.startswith(f"error: {path}: cannot write: the file would be ")
    assert line.endswith(f" bytes, more than the {SMALL_LIMIT:,} a match file may have, so no later command could read it; "
                         "nothing was changed: start a new match file")
    assert run("validate", path).exit_code == 0
    assert run("show", path).exit_code == 0


def test_the_library_refuses_a_match_too_big_to_read_back(tmp_path, monkeypatch):
    from ginscore.api import save_match
    from ginscore.errors import MatchFileError
    from ginscore.game.rulebook import Rules
    from ginscore.match.records import Match

    monkeypatch.setattr(folder, "MAX_BYTES", 256)  # below what a match with a note of 400 characters takes
    path = tmp_path / "m.toml"
    with pytest.raises(MatchFileError, match="cannot write: the file would be"):
        save_match(str(path), Match(("Ann", "Bob"), Rules(), "Ann", note="x" * 400))
    assert not path.exists()


def test_a_note_with_a_byte_that_is_not_utf8_is_refused_not_a_traceback(run, played):
    """A terminal in another encoding gives Python such bytes as lone surrogates, which UTF-8 cannot hold."""
    line = refused(run, played, ["record", played, *COUNTS, "--note", "caf\udce9"], code=2)
    assert line == ("error: --note: a note cannot hold '\\udce9' (U+DCE9): it is not a character but a byte that was not UTF-8 "
                    "(typed in another encoding?) or half of one")


# --- line endings (issue 24) ----------------------------------------------------------------------------------


def crlf_file(run, path: Path) -> None:
    """A match file with two hands and a comment, its every line ending with CRLF, as a Windows editor saves it."""
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, *COUNTS).exit_code == 0
    assert run("record", path, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "20").exit_code == 0
    path.write_bytes((path.read_text() + "# kept by hand\n").replace("\n", "\r\n").encode())


@pytest.mark.parametrize(
    "command",
    [["record", *COUNTS, "--note", "one more"], ["edit", "1", "--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "30", "--note", "a new line"],
     ["undo", "--yes"]],
    ids=["record", "edit", "undo"],
)
def test_a_crlf_file_keeps_crlf_on_every_line_a_change_writes(run, tmp_path, command):
    path = tmp_path / "m.toml"
    crlf_file(run, path)
    result = run([command[0], str(path), *command[1:]])
    assert result.exit_code == 0, result.stderr
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and b"# kept by hand\r\n" in data
    assert run("validate", path).exit_code == 0


def test_an_lf_file_keeps_lf(run, played):
    assert run("record", played, *COUNTS).exit_code == 0
    assert b"\r" not in played.read_bytes()


# --- names that travel (issue 24) ---------------------------------------------------------------------------

DEVICE = "is a device's name on Windows (whatever follows its first dot)"
NOT_PORTABLE = [
    ("CON.toml", f"CON {DEVICE}"), ("nul.toml", f"nul {DEVICE}"), ("com1.toml", f"com1 {DEVICE}"),
    ("Lpt9.toml", f"Lpt9 {DEVICE}"), ("aux.tar.toml", f"aux {DEVICE}"), ("PRN .toml", f"PRN {DEVICE}"),
    ("COM\u00b9.toml", f"COM\u00b9 {DEVICE}"),
    ("a:b.toml", "Windows does not allow ':' in a file's name"), ("why?.toml", "Windows does not allow '?' in a file's name"),
    ("a|b.toml", "Windows does not allow '|' in a file's name"), ("<b>.toml", "Windows does not allow '<' in a file's name"),
    ("a>b.toml", "Windows does not allow '>' in a file's name"), ('say"hi".toml', "Windows does not allow '\"' in a file's name"),
    ("star*.toml", "Windows does not allow '*' in a file's name"), ("back\\slash.toml", "Windows does not allow '\\\\' in a file's name"),
    ("tab\t.toml", "it holds the control character '\\t'"), ("caf\udce9.toml", "it holds a byte that is not UTF-8 (typed in another encoding?)"),
    ("dot.toml.", "Windows drops a space or a dot at the end of a name"),
]


def portable_refusal(name: str, why: str) -> str:
    return (f"{name!r} cannot be a new match file's name: {why}, so the file could not be copied to Windows or to many "
            "phones; pick another name")


@pytest.mark.parametrize("name, why", NOT_PORTABLE, ids=[repr(name) for name, _ in NOT_PORTABLE])
def test_new_refuses_a_name_that_does_not_travel(run, tmp_path, name, why):
    (tmp_path / "keep.toml").write_text("")  # the folder must be left exactly as it was, lock files included
    line = refused(run, tmp_path / "keep.toml", ["new", tmp_path / name, "Ann", "Bob"], code=2)
    assert line == "error: " + portable_refusal(name, why)


@pytest.mark.parametrize("name", ["console.toml", "com10.toml", "nullable.toml", "lpt.toml", "Ann & Bob (2).toml", "café.toml"])
def test_new_takes_a_portable_name_near_a_refused_one(run, tmp_path, name):
    assert run("new", tmp_path / name, "Ann", "Bob").exit_code == 0


def test_an_existing_file_with_a_name_that_does_not_travel_keeps_working(run, tmp_path):
    """Only a new file is asked: one already there (made elsewhere) is recorded in, edited and replaced as before."""
    made = tmp_path / "ok.toml"
    assert run("new", made, "Ann", "Bob").exit_code == 0
    there = tmp_path / "CON.toml"
    made.rename(there)
    assert run("record", there, *COUNTS).exit_code == 0
    assert run("new", there, "Ann", "Bob", "--force").exit_code == 0
