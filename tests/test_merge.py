"""The merge rule (issue 38) on the service and the command line: identical copies, a prefix either way, a
conflict at hand 3, another match (players, rules, start), a file with comments; no byte of the kept copy changes
but the hands added. A Hypothesis property holds `compare` to a naive oracle."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import RunCli, one_error_line
from hypothesis import given
from hypothesis import strategies as st

from ginscore.errors import RefusedError
from ginscore.files.merging import merge_file, read_copy
from ginscore.files.served import Folder
from ginscore.game.rulebook import PRESETS
from ginscore.match.merge import compare
from ginscore.match.records import HandRecord, Match

COUNTS = {"A": ["--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "20"],
          "B": ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "30"],
          "C": ["--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "12"]}


def started(run: RunCli, path: Path, hands: str = "") -> Path:
    assert run("new", path, "Ann", "Bob").exit_code == 0
    return played_on(run, path, hands)


def played_on(run: RunCli, path: Path, hands: str) -> Path:
    for hand in hands:
        assert run("record", path, *COUNTS[hand]).exit_code == 0
    return path


def copy(path: Path, to: Path, hands: str, run: RunCli) -> Path:
    to.write_bytes(path.read_bytes())
    return played_on(run, to, hands)


# --- the rule, pure ------------------------------------------------------------------------------------------

MATCH = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created="2026-12-01T20:00:00+00:00")
POOL = [HandRecord(knocker=knocker, deadwood=deadwood, opponent_deadwood=20, recorded=f"2026-12-01T20:{minute:02d}:00+00:00")
        for knocker in ("Ann", "Bob") for deadwood in (1, 2) for minute in (1, 2)]


def naive(mine: tuple[HandRecord, ...], theirs: tuple[HandRecord, ...]) -> tuple[str, tuple[int, ...]]:
    """The rule said plainly: the hands without their times, compared as lists."""
    bare_mine = [replace(hand, recorded="") for hand in mine]
    bare_theirs = [replace(hand, recorded="") for hand in theirs]
    if bare_mine == bare_theirs:
        return "same", ()
    if bare_theirs[:len(bare_mine)] == bare_mine:
        return "theirs_longer", ()
    if bare_mine[:len(bare_theirs)] == bare_theirs:
        return "mine_longer", ()
    differing = [n + 1 for n in range(max(len(mine), len(theirs)))
                 if n >= min(len(mine), len(theirs)) or bare_mine[n] != bare_theirs[n]]
    return "conflict", tuple(differing)


@given(st.lists(st.sampled_from(POOL), max_size=6), st.lists(st.sampled_from(POOL), max_size=6))
def test_compare_agrees_with_the_naive_rule(mine: list[HandRecord], theirs: list[HandRecord]) -> None:
    found = compare(MATCH.with_hands(tuple(mine)), MATCH.with_hands(tuple(theirs)))
    assert (found.kind, found.differing) == naive(tuple(mine), tuple(theirs))


@pytest.mark.parametrize(("change", "field"), [
    ({"players": ("Ann", "Cy")}, "players"),
    ({"rules": PRESETS["oklahoma"]}, "rules"),
    ({"hollywood": True}, "rules"),
    ({"created": "2026-12-02T20:00:00+00:00"}, "created"),
    ({"first_dealer": "Bob"}, "created"),
])
def test_another_match_is_refused_naming_the_field(change: dict, field: str) -> None:
    with pytest.raises(RefusedError) as refused:
        compare(MATCH, replace(MATCH, **change))
    assert refused.value.field == field
    assert "is another match" in str(refused.value)


def test_names_typed_in_another_case_are_the_same_players() -> None:
    assert compare(MATCH, replace(MATCH, players=("ann", "BOB"), first_dealer="ann")).kind == "same"


# --- the service ---------------------------------------------------------------------------------------------


def test_identical_copies_change_nothing(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "AB")
    before = mine.read_bytes()
    done = merge_file(str(mine), read_copy("copy", before.decode()))
    assert done.outcome == "unchanged" and mine.read_bytes() == before


def test_a_longer_copy_adds_only_its_later_hands(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "BC", run)
    before = mine.read_bytes()
    done = merge_file(str(mine), read_copy("t.toml", theirs.read_text(encoding="utf-8")))
    assert (done.outcome, done.added) == ("added", 2)
    assert mine.read_bytes() == theirs.read_bytes()  # a plain file: the copy's blocks appended as written
    assert mine.read_bytes().startswith(before)


def test_a_shorter_copy_changes_nothing(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "", run)
    played_on(run, mine, "B")
    before = mine.read_bytes()
    assert merge_file(str(mine), read_copy("t", theirs.read_text(encoding="utf-8"))).outcome == "unchanged"
    assert mine.read_bytes() == before


def test_comments_and_layout_of_the_kept_copy_stay(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "B", run)
    typed = mine.read_text(encoding="utf-8").replace("[match]", "# Friday at Ann's\n[match]  # the kitchen table", 1)
    mine.write_text(typed, encoding="utf-8")
    done = merge_file(str(mine), read_copy("t", theirs.read_text(encoding="utf-8")))
    assert done.outcome == "added"
    after = mine.read_text(encoding="utf-8")
    assert after.startswith(typed)  # every byte kept; only the added hand after them
    assert "# Friday at Ann's" in after and after.count("[[hands]]") == 2
    assert run("show", mine, "--json").stdout == run("show", theirs, "--json").stdout.replace(str(theirs), str(mine))


def test_a_conflict_at_hand_three_writes_nothing(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "AB")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "A")
    before, theirs_before = mine.read_bytes(), theirs.read_bytes()
    done = merge_file(str(mine), read_copy("t", theirs.read_text(encoding="utf-8")))
    assert (done.outcome, done.differing, done.hands) == ("conflict", (3,), 3)
    assert mine.read_bytes() == before and theirs.read_bytes() == theirs_before


def test_taking_theirs_waits_for_the_hands_shown(run: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    mine = started(run, folder / "m.toml", "AB")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "A")
    text = theirs.read_text(encoding="utf-8")
    with pytest.raises(RefusedError, match="someone changed it"):
        Folder(str(folder)).merge(text, "m.toml", "theirs", expected_hands=2)
    done = Folder(str(folder)).merge(text, "m.toml", "theirs", expected_hands=3)
    assert done.outcome == "replaced" and mine.read_bytes() == theirs.read_bytes()


def test_keeping_both_keeps_the_copy_as_a_new_file_and_opening_it_again_changes_nothing(run: RunCli, tmp_path: Path) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    mine = started(run, folder / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "C", run)
    played_on(run, mine, "B")
    text = theirs.read_text(encoding="utf-8")
    before = mine.read_bytes()
    done = Folder(str(folder)).merge(text, "m.toml", "both")
    assert done.outcome == "both" and (folder / done.name).read_bytes() == theirs.read_bytes()
    assert mine.read_bytes() == before
    again = Folder(str(folder)).merge(text, "m.toml")
    assert (again.outcome, again.name) == ("unchanged", done.name)


def test_a_match_the_folder_lacks_is_kept_byte_for_byte_under_its_name(run: RunCli, tmp_path: Path) -> None:
    theirs = started(run, tmp_path / "friday.toml", "AB")
    folder = tmp_path / "f"
    folder.mkdir()
    done = Folder(str(folder)).merge(theirs.read_text(encoding="utf-8"), "friday.toml")
    assert (done.outcome, done.name) == ("new", "friday.toml")
    assert (folder / "friday.toml").read_bytes() == theirs.read_bytes()


def test_a_backup_restores_every_file_byte_for_byte_and_again_changes_nothing(run: RunCli, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    started(run, home / "a.toml", "AB")
    started(run, home / "b.toml", "C")
    (home / "broken.toml").write_text("[match]\nplayers = 1\n", encoding="utf-8")
    data = Folder(str(home)).backup()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert sorted(archive.namelist()) == ["a.toml", "b.toml", "broken.toml"]
        assert all(archive.read(name) == (home / name).read_bytes() for name in archive.namelist())
    away = tmp_path / "away"
    away.mkdir()
    first = Folder(str(away)).restore(data)
    assert sorted((m.name, m.outcome) for m in first) == [("a.toml", "new"), ("b.toml", "new"), ("broken.toml", "refused")]
    assert all((away / name).read_bytes() == (home / name).read_bytes() for name in ("a.toml", "b.toml"))
    again = Folder(str(away)).restore(data)
    assert sorted(m.outcome for m in again) == ["refused", "unchanged", "unchanged"]


# --- the command line ----------------------------------------------------------------------------------------


def test_cli_merge_adds_the_later_hands(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "BC", run)
    result = run("merge", mine, theirs)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"Added 2 hands from {theirs} to {mine}.\n"
    assert mine.read_bytes() == theirs.read_bytes()
    again = run("merge", mine, theirs)
    assert (again.exit_code, again.stdout) == (0, f"{mine} already has every hand of {theirs}: nothing changed.\n")


def test_cli_merge_to_a_new_file_leaves_mine(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    theirs = copy(mine, tmp_path / "t.toml", "B", run)
    before = mine.read_bytes()
    out = tmp_path / "out.toml"
    result = run("merge", mine, theirs, "-o", out)
    assert (result.exit_code, result.stdout) == (0, f"Wrote {out}: added 1 hand from {theirs} to {out}.\n")
    assert mine.read_bytes() == before and out.read_bytes() == theirs.read_bytes()
    refused = run("merge", mine, theirs, "-o", out)
    assert refused.exit_code == 1
    assert one_error_line(refused) == f"error: -o: {out} already exists: pick another name"


def test_cli_merge_conflict_lists_the_hands_and_writes_nothing(run: RunCli, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short names: the two copies side by side fit 80 columns
    mine = started(run, Path("m.toml"), "AB")
    theirs = copy(mine, Path("t.toml"), "C", run)
    played_on(run, mine, "A")
    before = mine.read_bytes()
    result = run("merge", mine, theirs)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["hand", str(mine), str(theirs)]
    assert lines[1].startswith("3 ") and "knock: Ann scores 15 · 5 / 20" in lines[1] and "gin: Ann scores 32 · 0 / 12" in lines[1]
    assert result.stderr == (f"error: {mine} and {theirs} differ at hand 3: nothing was written; keep the copy you want "
                             "(both files are as they were)\n")
    assert mine.read_bytes() == before


def test_cli_merge_refuses_another_match(run: RunCli, tmp_path: Path) -> None:
    mine = started(run, tmp_path / "m.toml", "A")
    other = tmp_path / "o.toml"
    assert run("new", other, "Ann", "Cy").exit_code == 0
    before = mine.read_bytes()
    result = run("merge", mine, other)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {other} is another match: its players are Ann and Cy, not Ann and Bob"
    assert mine.read_bytes() == before


def test_cli_backup_and_restore(run: RunCli, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    started(run, home / "a.toml", "AB")
    zipped = tmp_path / "b.zip"
    result = run("backup", home, "-o", zipped)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"Backed up 1 match file of {home} to {zipped}.\n"
    assert one_error_line(run("backup", home, "-o", zipped)) == (
        f"error: -o: {zipped} already exists: pick another name, or add --force to replace it")
    away = tmp_path / "away"
    restored = run("restore", zipped, away)
    assert (restored.exit_code, restored.stdout) == (0, f"new       a.toml\nRestored {zipped} into {away}: 1 new.\n")
    assert (away / "a.toml").read_bytes() == (home / "a.toml").read_bytes()
    played_on(run, away / "a.toml", "C")
    diverged = home / "a.toml"
    played_on(run, diverged, "A")
    again = run("backup", home, "-o", zipped, "--force")
    assert again.exit_code == 0
    before = (away / "a.toml").read_bytes()
    conflict = run("restore", zipped, away)
    assert conflict.exit_code == 1
    assert conflict.stdout == (f"conflict  a.toml: differs at hand 3; left as it was (`ginscore merge` shows them)\n"
                               f"Restored {zipped} into {away}: 1 in conflict.\n")
    assert conflict.stderr == ("error: 1 of the backup's 1 files could not be merged (listed above); the folder's copies "
                               "of them are as they were\n")
    assert (away / "a.toml").read_bytes() == before


def test_cli_restore_refuses_what_is_not_a_zip(run: RunCli, tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("not a zip", encoding="utf-8")
    result = run("restore", text, tmp_path / "away")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: {text} is not a backup: it is not a zip file"
