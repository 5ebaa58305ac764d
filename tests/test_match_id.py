"""A match's id (issue 54): written when a match starts, kept by every change, checked where it is read, and the
rule merge follows by it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import RunCli, one_error_line

from ginscore.errors import RefusedError
from ginscore.files.reading import load, loads
from ginscore.files.served import Folder
from ginscore.game.rulebook import PRESETS
from ginscore.match.merge import compare, not_the_same
from ginscore.match.records import Match

UUID = re.compile(r'^id = "([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"$', re.M)
NIGHT = "2026-01-06T19:30+00:00"
KNOCK = ["--knocker", "Ann", "--deadwood", "5", "--opponent-deadwood", "20"]
OTHER = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "30"]


def the_id(path: Path) -> str:
    found = UUID.findall(path.read_text(encoding="utf-8"))
    assert len(found) == 1, "one id line in the [match] table"
    return found[0]


def test_new_writes_a_random_id_in_the_match_table_and_every_change_keeps_it(run: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.index("[match]\nid = ") < text.index("players")
    first = the_id(path)
    assert load(str(path))[0].id == first
    assert run("record", path, *KNOCK).exit_code == 0
    assert run("record", path, *OTHER).exit_code == 0
    assert run("edit", path, "1", "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "20").exit_code == 0
    assert run("undo", path, "--yes").exit_code == 0
    assert the_id(path) == first
    other = tmp_path / "o.toml"
    assert run("new", other, "Ann", "Bob").exit_code == 0
    assert the_id(other) != first


def test_the_next_game_and_the_pages_start_matches_with_ids_of_their_own(run: RunCli, tmp_path: Path) -> None:
    finished = tmp_path / "f.toml"
    assert run("new", finished, "Ann", "Bob").exit_code == 0
    assert run("record", finished, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "95").exit_code == 0
    folder = Folder(str(tmp_path))
    name, _ = folder.next_game("f.toml")
    assert the_id(tmp_path / name) != the_id(finished)


def test_a_file_without_an_id_reads_as_before_and_a_record_does_not_add_one(run: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "old.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    path.write_text(UUID.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
    assert load(str(path))[0].id is None
    assert run("record", path, *KNOCK).exit_code == 0
    assert "id =" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("line, said", [
    ('id = "no"', "'no' is not a match id"),
    ('id = "has a space in it"', "is not a match id"),
    ("id = 12345678", "match.id: expected text in quotes, found 12345678"),
])
def test_a_bad_id_is_a_problem_at_match_id(line: str, said: str, run: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    path.write_text(UUID.sub(line, path.read_text(encoding="utf-8")), encoding="utf-8")
    before = path.read_bytes()
    result = run("validate", path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert f"{path}: match.id: " in result.stderr and said in result.stderr
    assert path.read_bytes() == before
    _, _, problems = loads(path.read_text(encoding="utf-8"))
    assert [problem.split(":")[0] for problem in problems] == ["match.id"]


MATCH = Match(("Ann", "Bob"), PRESETS["standard"], "Ann", created="2026-12-01T20:00:00+00:00")


def test_the_rule_by_id() -> None:
    one, same, other = (replace(MATCH, id=name) for name in ("aaaaaaaa-1", "AAAAAAAA-1", "bbbbbbbb-2"))
    assert not_the_same(one, same) is None  # one id, in any case
    refused = not_the_same(one, other)
    assert refused is not None and refused.field == "id"
    assert not_the_same(one, replace(same, created="2026-12-02T20:00:00+00:00")) is None  # a start set right by hand
    assert not_the_same(one, replace(same, first_dealer="Bob")).field == "first_dealer"  # type: ignore[union-attr]
    assert not_the_same(one, replace(same, players=("Ann", "Cy"))).field == "players"  # type: ignore[union-attr]
    # one file with an id, the other without: started apart (an id is never added to a file later)
    assert not_the_same(one, MATCH).field == "id"  # type: ignore[union-attr]
    assert not_the_same(MATCH, one).field == "id"  # type: ignore[union-attr]
    # both without: players, rules and start
    assert not_the_same(MATCH, replace(MATCH, hands=())) is None
    assert not_the_same(MATCH, replace(MATCH, created="2026-12-02T20:00:00+00:00")).field == "created"  # type: ignore[union-attr]
    with pytest.raises(RefusedError):
        compare(one, other)


def test_merge_refuses_two_games_started_in_one_second_and_merges_a_cp_copy(run: RunCli, tmp_path: Path) -> None:
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    for path in (first, second):
        assert run("new", path, "Ann", "Bob", "--at", NIGHT).exit_code == 0
    assert run("record", first, *KNOCK).exit_code == 0
    assert run("record", second, *KNOCK).exit_code == 0
    assert run("record", second, *OTHER).exit_code == 0
    before = first.read_bytes(), second.read_bytes()
    refused = run("merge", first, second)
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert one_error_line(refused) == (f"error: {second} is another match of Ann and Bob, started as a game of its own: its id is "
                                       f"{the_id(second)}, not {the_id(first)}")
    assert (first.read_bytes(), second.read_bytes()) == before
    copied = tmp_path / "copied.toml"
    copied.write_bytes(first.read_bytes())
    assert run("record", copied, *OTHER).exit_code == 0
    merged = run("merge", first, copied)
    assert (merged.exit_code, merged.stdout, merged.stderr) == (0, f"Added 1 hand from {copied} to {first}.\n", "")
    assert the_id(first) == the_id(copied)
