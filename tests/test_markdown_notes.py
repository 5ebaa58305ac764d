"""The Markdown export keeps the notes `show` and the HTML sheet keep: the match's, and each hand's."""

from __future__ import annotations

from pathlib import Path


def exported(run, path: Path, tmp_path: Path) -> str:
    target = tmp_path / "sheet.md"
    result = run("show", path, "--export", target, "--force")
    assert (result.exit_code, result.stderr) == (0, "")
    return target.read_text(encoding="utf-8")


def test_hand_notes_are_a_column_and_the_match_note_follows_the_title(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob", "--note", "Friday club").exit_code == 0
    assert run("record", path, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "20",
               "--note", "Bob's | *big* hand").exit_code == 0
    assert run("record", path, "--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20").exit_code == 0
    lines = exported(run, path, tmp_path).splitlines()
    assert lines[:4] == ["# Ann vs Bob", "", "Friday club", ""]
    assert lines[4] == ("| hand | dealer | knocker | result | knocker_deadwood | opponent_deadwood | winner | points | Ann | Bob "
                        "| note |")
    assert lines[5] == "|" + "---|" * 11
    assert lines[6] == "| 1 | Ann | Ann | knock | 3 | 20 | Ann | 17 | 17 | 0 | Bob's \\| \\*big\\* hand |"
    assert lines[7] == "| 2 | Ann | Bob | knock | 3 | 20 | Bob | 17 | 17 | 17 |  |"
    shown = run("show", path).stdout
    assert "Bob's | *big* hand" in shown  # the same note, unescaped, where show prints it


def test_without_notes_the_table_has_no_note_column(run, played, tmp_path):
    text = exported(run, played, tmp_path)
    assert "note" not in text.splitlines()[2]
