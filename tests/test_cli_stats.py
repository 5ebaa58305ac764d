"""`ginscore stats`: folders and files, `--json`, broken and missing files among good ones.

The expected figures are worked out by hand from the hands listed in `tests/test_samples.py`
(results, counts and lay-offs checked there from the cards); the arithmetic is in the comments.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import json_object

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_matches"

EXPECTED = {
    # Maria v Tom, 9 hands (one cancelled). Maria won 1 (28), 3 (11, undercut), 6 (10), 7 (15); Tom 4 (38, gin),
    # 5 (22), 8 (20), 9 (23). Tom won the game by 139.
    ("Maria", "Tom"): {
        "matches": 1, "games": 1, "hands": 9,
        "Maria": {
            "games_won": 0, "margin": -139, "hands_won": 4, "gins": 0, "undercuts_given": 1, "undercuts_suffered": 0,
            "average_hand": 16.0,  # 64 / 4
            "biggest_hand": 28,
            "knocks": 3, "knock_rate": 0.33,  # hands 1, 6, 7 of 9
            "average_knock_count": 5.33,  # (2 + 6 + 8) / 3
            "layoffs": 4,  # 4c and Jd in hand 3, 4d in 5, 10s in 8
            "average_deadwood_when_losing": 24.5,  # (18 + 27 + 23 + 30) / 4
        },
        "Tom": {
            "games_won": 1, "margin": 139, "hands_won": 4, "gins": 1, "undercuts_given": 0, "undercuts_suffered": 1,
            "average_hand": 25.75,  # 103 / 4
            "biggest_hand": 38,
            "knocks": 5, "knock_rate": 0.56,  # hands 3, 4, 5, 8, 9 of 9
            "average_knock_count": 3.8,  # (4 + 0 + 5 + 3 + 7) / 5
            "layoffs": 1,  # 6h in hand 1
            "average_deadwood_when_losing": 18.25,  # (30 + 4 + 16 + 23) / 4: hand 3 he lost as the knocker
        },
    },
    # Raj v Ines, Oklahoma, 7 hands. Raj won 1 (13), 4 (56, gin), 6 (24, doubled); Ines 2 (42, doubled), 3 (30,
    # undercut), 5 (56, gin), 7 (28). Ines won by 213.
    ("Ines", "Raj"): {
        "matches": 1, "games": 1, "hands": 7,
        "Ines": {
            "games_won": 1, "margin": 213, "hands_won": 4, "gins": 1, "undercuts_given": 1, "undercuts_suffered": 0,
            "average_hand": 39.0,  # 156 / 4
            "biggest_hand": 56,
            "knocks": 3, "knock_rate": 0.43,  # hands 2, 5, 7 of 7
            "average_knock_count": 1.67,  # (2 + 0 + 3) / 3
            "layoffs": 4,  # Ac and 5c in hand 1, 8d and 7d in 6
            "average_deadwood_when_losing": 21.67,  # (17 + 31 + 17) / 3
        },
        "Raj": {
            "games_won": 0, "margin": -213, "hands_won": 3, "gins": 1, "undercuts_given": 0, "undercuts_suffered": 1,
            "average_hand": 31.0,  # 93 / 3
            "biggest_hand": 56,
            "knocks": 4, "knock_rate": 0.57,  # hands 1, 3, 4, 6 of 7
            "average_knock_count": 4.5,  # (4 + 9 + 0 + 5) / 4
            "layoffs": 1,  # 7d in hand 7
            "average_deadwood_when_losing": 23.5,  # (23 + 9 + 31 + 31) / 4
        },
    },
    # Lena v Omar, counts only, 6 hands: no lay-offs nor deadwood-when-losing figures. Lena won 25, 23 (undercut),
    # 6, 20 (undercut on a tie), 47 (gin); Omar never scored: 421 with the shutout.
    ("Lena", "Omar"): {
        "matches": 1, "games": 1, "hands": 6,
        "Lena": {
            "games_won": 1, "margin": 421, "hands_won": 5, "gins": 1, "undercuts_given": 2, "undercuts_suffered": 0,
            "average_hand": 24.2,  # 121 / 5
            "biggest_hand": 47,
            "knocks": 3, "knock_rate": 0.5,
            "average_knock_count": 5.0,  # (6 + 9 + 0) / 3
            "layoffs": 0, "average_deadwood_when_losing": None,
        },
        "Omar": {
            "games_won": 0, "margin": -421, "hands_won": 0, "gins": 0, "undercuts_given": 0, "undercuts_suffered": 2,
            "average_hand": None, "biggest_hand": None,  # no hand won: none, not 0
            "knocks": 2, "knock_rate": 0.33,
            "average_knock_count": 6.0,  # (8 + 4) / 2
            "layoffs": 0, "average_deadwood_when_losing": None,
        },
    },
}


def expected_pair(players: tuple[str, str]) -> dict:
    figures = EXPECTED[players]
    return {
        "players": list(players),
        "matches": figures["matches"],
        "games": figures["games"],
        "hands": figures["hands"],
        "by_player": {name: figures[name] for name in players},
    }


def test_stats_json_over_the_sample_folder(run):
    data = json_object(run("stats", SAMPLES, "--json"))
    assert data["files"] == 3 and data["skipped"] == []
    assert without_odds(data["pairs"]) == [expected_pair(("Ines", "Raj")), expected_pair(("Lena", "Omar")), expected_pair(("Maria", "Tom"))]


def test_stats_json_over_files_named_one_by_one(run):
    data = json_object(run("stats", SAMPLES / "standard.toml", SAMPLES / "counts_only.toml", "--json"))
    assert data["files"] == 2
    assert without_odds(data["pairs"]) == [expected_pair(("Lena", "Omar")), expected_pair(("Maria", "Tom"))]


TITLE = re.compile(r"^(\S+) vs (\S+): (\d+) match(?:es)?, (\d+) games? finished, (\d+) hands?$")


def tables(text: str) -> dict[tuple, dict[str, list[str]]]:
    """The piped stats tables: (players, matches, games, hands) -> figure label -> the players' cells."""
    found: dict[tuple, dict[str, list[str]]] = {}
    current = None
    for line in text.splitlines():
        title = TITLE.match(line)
        if title:
            a, b, matches, games, hands = title.groups()
            current = found.setdefault(((a, b), int(matches), int(games), int(hands)), {})
        elif current is not None and line.startswith(" ") and line.strip():
            *label, a, b = line.split()
            current[" ".join(label)] = [a, b]
    return found


SAMPLE_TITLES = [(("Ines", "Raj"), 1, 1, 7), (("Lena", "Omar"), 1, 1, 6), (("Maria", "Tom"), 1, 1, 9)]


def test_stats_text_over_the_sample_folder(run):
    result = run("stats", SAMPLES)
    assert result.exit_code == 0 and result.stderr == ""
    found = tables(result.stdout)
    assert list(found) == SAMPLE_TITLES
    maria_tom = found[(("Maria", "Tom"), 1, 1, 9)]
    assert maria_tom["games won"] == ["0", "1"]
    assert maria_tom["net margin"] == ["-139", "+139"]
    assert maria_tom["hands won"] == ["4", "4"]
    assert maria_tom["gins"] == ["0", "1"]
    assert maria_tom["undercuts given"] == ["1", "0"] and maria_tom["undercuts suffered"] == ["0", "1"]
    assert maria_tom["average hand won"] == ["16.0", "25.8"] and maria_tom["biggest hand"] == ["28", "38"]  # one decimal a mean
    assert maria_tom["knocks"] == ["3", "5"]
    assert maria_tom["average knock count"] == ["5.3", "3.8"]
    assert maria_tom["cards laid off"] == ["4", "1"]
    assert any(cells == ["33%", "56%"] for cells in maria_tom.values())  # the knock rate
    assert any(cells == ["24.5", "18.3"] for label, cells in maria_tom.items() if "deadwood" in label)  # 18.25, half up
    lena_omar = found[(("Lena", "Omar"), 1, 1, 6)]
    assert any(cells == ["none", "none"] for label, cells in lena_omar.items() if "deadwood" in label)  # counts only
    assert lena_omar["average hand won"] == ["24.2", "none"]
    assert lena_omar["biggest hand"] == ["47", "none"]  # Omar won no hand: none, as his average says, not 0
    for cells in (cell for table in found.values() for row in table.values() for cell in row):
        assert cells != "-"  # one word for nothing, everywhere
    means = [cell for table in found.values() for label, row in table.items() if label.startswith("average") for cell in row]
    assert all(re.fullmatch(r"\d+\.\d", cell) or cell == "none" for cell in means), means
    assert result.stdout.rstrip("\n").splitlines()[-1].startswith("3 files read")


def copy_samples(tmp_path: Path) -> Path:
    folder = tmp_path / "matches"
    shutil.copytree(SAMPLES, folder)
    return folder


def broken_files(folder: Path) -> tuple[Path, Path]:
    """A file that is not TOML, and one whose first hand holds a card that does not exist."""
    not_toml = folder / "a_not_toml.toml"
    not_toml.write_text("format = 1\n[match\nplayers = 1\n", encoding="utf-8")
    bad_card = folder / "b_bad_card.toml"
    text = (SAMPLES / "standard.toml").read_text(encoding="utf-8")
    assert text.count("Ac 6h\"") == 1
    bad_card.write_text(text.replace("Ac 6h\"", "Ax 6h\""), encoding="utf-8")
    return not_toml, bad_card


def test_stats_reports_broken_files_with_their_place_and_counts_the_others(run, tmp_path):
    folder = copy_samples(tmp_path)
    not_toml, bad_card = broken_files(folder)
    result = run("stats", folder)
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    errors = result.stderr.splitlines()
    assert len(errors) == 2, result.stderr
    assert errors[0].startswith(f"{not_toml}: ") and "not valid TOML" in errors[0] and "line 2" in errors[0]
    assert errors[1].startswith(f"{bad_card}: hands[1].opponent_cards: 'Ax' is not a card")
    assert all(line.endswith("(skipped)") for line in errors)
    # the good files are still all counted, the bad copy of standard.toml not at all
    assert list(tables(result.stdout)) == SAMPLE_TITLES
    assert result.stdout.rstrip("\n").splitlines()[-1].startswith("3 files read")


def test_stats_json_with_broken_files_lists_them_as_skipped(run, tmp_path):
    folder = copy_samples(tmp_path)
    not_toml, bad_card = broken_files(folder)
    result = run("stats", folder, "--json")
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 2
    data = json.loads(result.stdout)
    assert data["files"] == 3
    assert data["skipped"] == [str(not_toml), str(bad_card)]
    assert without_odds(data["pairs"]) == [expected_pair(("Ines", "Raj")), expected_pair(("Lena", "Omar")), expected_pair(("Maria", "Tom"))]


def test_stats_a_missing_path_is_reported_and_the_rest_counted(run, tmp_path):
    missing = tmp_path / "nope.toml"
    result = run("stats", missing, SAMPLES / "standard.toml", "--json")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{missing}: ") and "no such file" in lines[0]
    data = json.loads(result.stdout)
    assert data["files"] == 1 and data["skipped"] == [str(missing)]
    assert without_odds(data["pairs"]) == [expected_pair(("Maria", "Tom"))]


def test_stats_only_a_missing_path(run, tmp_path):
    result = run("stats", tmp_path / "nope")
    assert result.exit_code == 1
    assert result.stdout == "No matches found.\n"
    assert "nope" in result.stderr and len(result.stderr.splitlines()) == 1


def test_stats_an_empty_folder(run, tmp_path):
    result = run("stats", tmp_path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No matches found.\n", "")
    data = json_object(run("stats", tmp_path, "--json"))
    assert data == {"files": 0, "skipped": [], "copies": [], "pairs": [], "never_met": []}


def without_odds(pairs: list[dict]) -> list[dict]:
    """The pairs' figures without their odds (tests/test_standings_odds.py checks those)."""
    return [{key: value for key, value in pair.items() if key != "odds"} for pair in pairs]


def record(run, path: Path, *args: str) -> None:
    result = run("record", path, *args)
    assert result.exit_code == 0, result.stderr


def test_stats_matches_names_across_files_whatever_their_case(run, tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    one, two, other = folder / "1.toml", folder / "2.toml", folder / "3.toml"
    assert run("new", one, "ann", "Bob").exit_code == 0
    assert run("new", two, "BOB", "Ann").exit_code == 0
    assert run("new", other, "Ann", "Cy").exit_code == 0
    record(run, one, "--knocker", "ann", "--deadwood", "2", "--opponent-deadwood", "12")  # ann 10
    record(run, two, "--knocker", "ann", "--deadwood", "9", "--opponent-deadwood", "4")  # undercut: BOB 5 + 10 = 15
    record(run, other, "--knocker", "Cy", "--deadwood", "0", "--opponent-deadwood", "30")  # gin: Cy 50
    data = json_object(run("stats", folder, "--json"))
    assert data["files"] == 3
    pairs = {tuple(name.casefold() for name in pair["players"]): pair for pair in data["pairs"]}
    assert sorted(pairs) == [("ann", "bob"), ("ann", "cy")]
    ann_bob = pairs[("ann", "bob")]
    assert (ann_bob["matches"], ann_bob["games"], ann_bob["hands"]) == (2, 0, 2)
    figures = {name.casefold(): value for name, value in ann_bob["by_player"].items()}
    assert figures["ann"]["knocks"] == 2 and figures["ann"]["average_knock_count"] == 5.5  # (2 + 9) / 2
    assert figures["ann"]["hands_won"] == 1 and figures["ann"]["undercuts_suffered"] == 1
    assert figures["bob"]["hands_won"] == 1 and figures["bob"]["undercuts_given"] == 1 and figures["bob"]["biggest_hand"] == 15
    assert figures["bob"]["knocks"] == 0 and figures["bob"]["knock_rate"] == 0.0
    ann_cy = {name.casefold(): value for name, value in pairs[("ann", "cy")]["by_player"].items()}
    assert ann_cy["cy"]["gins"] == 1 and ann_cy["ann"]["gins"] == 0 and ann_cy["ann"]["hands_won"] == 0


def test_stats_needs_a_path(run):
    result = run("stats")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == ("error: missing PATH... (match files, or folders of match files: each folder's own, not those in "
                             "folders below it)\ntry 'ginscore stats --help'\n")


@pytest.mark.parametrize("args", [["--json"], []])
def test_stats_reads_each_folders_own_files_in_name_order(run, tmp_path, args):
    """A folder's match files are its own, as the pages count them: a folder below is named to be read."""
    folder = tmp_path / "club"
    (folder / "2025").mkdir(parents=True)
    shutil.copy(SAMPLES / "standard.toml", folder / "2025" / "b.toml")
    shutil.copy(SAMPLES / "counts_only.toml", folder / "a.toml")
    (folder / "notes.txt").write_text("not a match\n")
    alone = run(["stats", str(folder), *args])
    result = run(["stats", str(folder), str(folder / "2025"), *args])
    assert alone.exit_code == result.exit_code == 0 and alone.stderr == result.stderr == ""
    if args:
        assert json_object(alone)["files"] == 1
        data = json_object(result)
        assert data["files"] == 2
        assert [pair["players"] for pair in data["pairs"]] == [["Lena", "Omar"], ["Maria", "Tom"]]
    else:
        assert "1 file read" in alone.stdout and len(tables(alone.stdout)) == 1
        assert "2 files read" in result.stdout and len(tables(result.stdout)) == 2


def test_stats_counts_a_file_once_however_often_it_is_named(run):
    data = json_object(run("stats", SAMPLES, SAMPLES / "standard.toml", "--json"))
    assert data["files"] == 3
    assert without_odds(data["pairs"])[-1] == expected_pair(("Maria", "Tom"))  # not 2 matches, 2 games, 18 hands
