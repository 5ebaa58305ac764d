"""`show --export FILE.html|FILE.svg` and `stats --export FILE.html`, read without a browser.

The page and the SVG must say what `show --json` says, in the terminal's words, with every name and note
escaped; an export replaces a file only with --force. The browser tests are in test_export_browser.py.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import json_object, one_error_line
from pages import HOLLYWOOD_ENTRIES, HOSTILE, QUOTED, SAMPLE_FILES, PageReader, write_hostile_hollywood

from ginscore.sheets.words import result_name

SVG = "{http://www.w3.org/2000/svg}"
STANDARD = SAMPLE_FILES[0]


def ok(result) -> str:
    assert result.exit_code == 0, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr == ""
    return result.stdout


def export(run, source: Path, target: Path, *extra: str) -> str:
    assert ok(run("show", source, "--export", target, *extra)) == f"Wrote the score sheet to {target}\n"
    return target.read_text(encoding="utf-8")


@pytest.fixture
def hostile(tmp_path) -> Path:
    return write_hostile_hollywood(tmp_path / "hostile.toml")


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda p: p.stem)
def test_page_has_one_row_a_hand_with_the_sheets_numbers_and_words(run, tmp_path, sample):
    data = json_object(run("show", "--json", sample))
    a, b = data["players"]
    page = PageReader(export(run, sample, tmp_path / "sheet.html"))
    hands = page.table("hands")
    assert hands.caption.startswith(f"{a} vs {b} (") and f"target {data['rules']['target']})" in hands.caption
    assert [cell.text for cell in hands.sections["thead"][0]] == ["#", "dealer", "knocker", "result", "counts", "points", a, b]
    assert all(cell.tag == "th" and cell.attrs["scope"] == "col" for cell in hands.sections["thead"][0])
    rows = hands.sections["tbody"]
    assert len(rows) == len(data["hands"])
    for row, hand in zip(rows, data["hands"]):
        number, dealer, knocker, result, counts, points, total_a, total_b = (cell.text for cell in row)
        assert row[0].tag == "th" and row[0].attrs["scope"] == "row" and number == str(hand["derived"]["number"])
        assert (dealer, knocker) == (hand["derived"]["dealer"], hand["knocker"] or "")
        assert result == result_name(hand["derived"]["result"])
        if hand["derived"]["deadwood"] is None:
            assert counts == ""
        else:
            assert counts == f"{hand['derived']['deadwood']} / {hand['derived']['opponent_deadwood']}"
        assert points.removesuffix(" ×2") == (f"{hand['derived']['winner']} {hand['derived']['points']}" if hand["derived"]["winner"] else "")
        assert {a: int(total_a), b: int(total_b)} == hand["derived"]["totals"]
    # Each label twice: one spans the lead columns, the other the two that stay on a phone; then the totals.
    assert all(row[1].text == row[0].text and row[1].attrs["class"] == "phone-only" for row in hands.sections["tfoot"])
    foot = {row[0].text: [cell.text for cell in row[2:]] for row in hands.sections["tfoot"]}
    assert foot["points"] == [str(data["totals"][a]), str(data["totals"][b])]
    assert foot["boxes"] == [str(data["boxes"][a]), str(data["boxes"][b])]
    assert foot["final"] == [str(data["final"][a]), str(data["final"][b])]
    assert foot["margin"] == ["" if name != data["winner"] else str(data["margin"]) for name in (a, b)]
    result = page.table("result")
    finals = {row[0].text: int(row[-1].text) for row in result.sections["tbody"]}
    assert finals == data["final"]
    assert page.text("verdict") == f"{data['winner']} wins by {data['margin']}."
    assert f"{data['reached_target']} reached {data['rules']['target']}." in page.text("p")


def test_page_uses_the_terminals_result_words(run, tmp_path):
    """The page's result column reads as `show`'s, row by row: both come from the same Sheet."""
    shown = ok(run("show", STANDARD)).splitlines()
    page = PageReader(export(run, STANDARD, tmp_path / "sheet.html"))
    words = [row[3].text for row in page.table("hands").sections["tbody"]]
    assert words == ["knock", "cancelled", "undercut", "gin", "knock", "knock", "knock", "knock", "knock"]
    terminal_rows = [line.split() for line in shown if line.split() and line.split()[0].isdigit()]
    assert [next(word for word in row if word in words) for row in terminal_rows] == words


def test_page_is_standalone_and_runs_nothing(run, tmp_path, hostile):
    text = export(run, hostile, tmp_path / "sheet.html")
    page = PageReader(text)
    assert text.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    tags = [tag for tag, _ in page.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)
    assert not any(name in ("src", "href") for _, attrs in page.tags for name in attrs)
    assert "url(" not in text and "@import" not in text
    # the only address in the page is the SVG namespace, which is a name, not something loaded
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}


def test_hostile_names_and_notes_are_text(run, tmp_path, hostile):
    text = export(run, hostile, tmp_path / "sheet.html")
    assert HOSTILE not in text and "<img" not in text and "<b>" not in text
    page = PageReader(text)
    assert page.text("h1") == f"{HOSTILE} vs {QUOTED}"
    assert page.text("match-note") == 'At <b>home</b> & "away"'
    head = page.table("hands").sections["thead"]
    assert [cell.text for cell in head[1]] == [HOSTILE, QUOTED] * 3
    notes = [row[-1].text for row in page.table("hands").sections["tbody"]]
    assert notes == [f'hand {n}: <img src=x onerror=alert(2)> & "so"' if n % 2 else "" for n in range(1, 7)]
    # inside attributes too: the title of each chart point names the player
    titles = re.findall(r"<title>([^<]*)</title>", text)
    assert any(title.startswith("Tom &amp; &quot;Jerry&quot; 5 after hand 3") for title in titles)


def test_hollywood_page_shows_the_three_games_side_by_side_and_each_entry(run, tmp_path, hostile):
    data = json_object(run("show", "--json", hostile))
    page = PageReader(export(run, hostile, tmp_path / "sheet.html"))
    hands = page.table("hands")
    games = [cell for cell in hands.sections["thead"][0] if cell.text.startswith("Game")]
    assert [(c.text, c.attrs["scope"], c.attrs["colspan"]) for c in games] == [(f"Game {g}", "colgroup", "2") for g in (1, 2, 3)]
    players = data["players"]
    entries = set()
    for row, hand in zip(hands.sections["tbody"], data["hands"]):
        totals = row[6:12]
        for game in range(3):
            cells = totals[2 * game : 2 * game + 2]
            went_in = game + 1 in hand["derived"]["columns"]
            assert all((cell.text != "") == went_in for cell in cells), (hand["derived"]["number"], game)
            for name, cell in zip(players, cells):
                if "entry" in cell.attrs.get("class", "").split():
                    entries.add((hand["derived"]["number"], game + 1, name))
                    assert cell.attrs["title"] == f"{name} enters game {game + 1}"
    assert entries == HOLLYWOOD_ENTRIES
    for game, column in enumerate(data["columns"]):
        for side, name in enumerate(players):
            written = [row[6 + 2 * game + side].text for row in hands.sections["tbody"]]
            assert [text for text in written if text][-1] == str(column["totals"][name])
    foot = {row[0].text: [cell.text for cell in row[2:8]] for row in hands.sections["tfoot"]}
    assert foot["final"] == [str(column["final"][name]) for column in data["columns"] for name in players]
    # game 1: the other player never scored, so the flat shutout bonus replaces the game bonus
    assert (foot["game bonus"][0], foot["shutout bonus"][0]) == ("", "200")
    finals = {row[0].text: int(row[-1].text) for row in page.table("result").sections["tbody"]}
    assert finals == data["final"]
    assert page.text("verdict") == f"{data['winner']} wins by {data['margin']} over the three games."


def svg_root(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda p: p.stem)
def test_svg_is_a_scalable_chart_with_one_line_a_player_and_the_final_result(run, tmp_path, sample):
    data = json_object(run("show", "--json", sample))
    root = svg_root(export(run, sample, tmp_path / "sheet.svg"))
    assert re.fullmatch(r"0 0 \d+ \d+", root.attrib["viewBox"])
    lines = [line for line in root.iter(f"{SVG}polyline") if line.attrib.get("class") == "series"]
    assert [line.attrib["data-name"] for line in lines] == data["players"]
    for line, name in zip(lines, data["players"]):
        points = [tuple(map(float, point.split(","))) for point in line.attrib["points"].split()]
        assert len(points) == len(data["hands"]) + 1  # the start, then one point a hand
        xs = [x for x, _ in points]
        assert xs == sorted(xs)
        # higher totals are drawn higher up (smaller y)
        totals = [0] + [hand["derived"]["totals"][name] for hand in data["hands"]]
        for (_, y1), (_, y2), t1, t2 in zip(points, points[1:], totals, totals[1:]):
            assert (y2 < y1) == (t2 > t1) and (y2 == y1) == (t2 == t1)
    titles = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "point"]
    assert len(titles) == 2 * len(data["hands"])
    assert all(re.search(r" after hand \d+ \(", title) for title in titles)
    assert len([line for line in root.iter(f"{SVG}line") if line.attrib.get("class") == "level"]) == 1
    assert len([line for line in root.iter(f"{SVG}line") if line.attrib.get("class") == "end"]) == 1
    result = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "result")
    rows: dict[str, list[str]] = {}
    for text in result.iter(f"{SVG}text"):
        rows.setdefault(text.attrib["y"], []).append(text.text or "")
    table = list(rows.values())
    assert table[0][0] == "" and table[0][1] == "points" and table[0][-1] == "final"
    assert {row[0]: (int(row[1]), int(row[-1])) for row in table[1:]} == {
        name: (data["totals"][name], data["final"][name]) for name in data["players"]
    }
    verdict = next(t for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "verdict")
    assert " ".join(verdict.itertext()) == f"{data['winner']} wins by {data['margin']}."


def text_boxes(root: ET.Element, css: str | None = None) -> list[tuple[float, float, float, str]]:
    """Each start- or end-anchored text of the picture (or of one class) as (left, right, baseline, words),
    at a generous 7.5 px a letter; nested chart groups are moved by their translate."""
    boxes = []

    def walk(element: ET.Element, dy: float) -> None:
        move = re.fullmatch(r"translate\(0 ([\d.]+)\)", element.attrib.get("transform", ""))
        dy += float(move.group(1)) if move else 0
        if element.tag == f"{SVG}text" and (css is None or element.attrib.get("class") == css):
            pieces = list(element.iter(f"{SVG}tspan")) or [element]
            for piece in pieces:
                words, x, y = piece.text or "", float(piece.attrib["x"]), float(piece.attrib["y"]) + dy
                width = 7.5 * len(words)
                anchor = element.attrib.get("text-anchor", "start")
                left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
                boxes.append((left, left + width, y, words))
        for child in element:
            walk(child, dy)

    walk(root, 0)
    return boxes


def test_svg_text_stays_inside_the_picture_however_long_the_names(run, tmp_path, hostile):
    long_names = tmp_path / "long.toml"
    ok(run("new", long_names, "Christopher Alexander Montgomery", "Elizabeth Genevieve Whitfield", "--rules", "tournament"))
    for sample in (*SAMPLE_FILES, hostile, long_names):
        root = svg_root(export(run, sample, tmp_path / f"{sample.stem}.svg", "--force"))
        width = float(root.attrib["viewBox"].split()[2])
        for left, right, _, words in text_boxes(root):
            assert 0 <= left and right <= width, (sample.stem, words)
        title = json_object(run("show", "--json", sample))["players"]
        shown = " ".join(words for _, _, y, words in text_boxes(root) if y < 60)
        assert all(name in shown for name in title)


def test_legend_entries_never_overlap(run, tmp_path):
    path = tmp_path / "long.toml"
    ok(run("new", path, "Christopher Alexander Montgomery", "Elizabeth Genevieve Whitfield"))
    ok(run("record", path, "--knocker", "Christopher Alexander Montgomery", "--deadwood", "3", "--opponent-deadwood", "20"))
    root = svg_root(export(run, path, tmp_path / "long.svg"))
    legend = sorted(box for box in text_boxes(root) if box[3].startswith(("Christopher", "Elizabeth")) and " vs " not in box[3] and box[2] < 100)
    assert len(legend) == 2 and legend[0][1] < legend[1][0]


def test_hollywood_chart_labels_every_game_end_apart_and_names_the_target(run, tmp_path):
    path = tmp_path / "hw.toml"
    ok(run("new", path, "Ann", "Bob", "--hollywood", "--set", "target=50"))
    for opponent in ("11", "11", "61"):  # Ann's third win, 60 points, ends all three games at hand 3
        ok(run("record", path, "--knocker", "Ann", "--deadwood", "1", "--opponent-deadwood", opponent))
    root = svg_root(export(run, path, tmp_path / "hw.svg"))
    data = json_object(run("show", "--json", path))
    assert [column["reached_target"] for column in data["columns"]] == ["Ann"] * 3
    labels = [box for box in text_boxes(root) if box[3].startswith("game ") and box[3].endswith(" over")]
    assert sorted(box[3] for box in labels) == [f"game {n} over" for n in (1, 2, 3)]
    for index, (left, right, y, _) in enumerate(labels):
        for other_left, other_right, other_y, _ in labels[index + 1 :]:
            assert y != other_y or right <= other_left or other_right <= left
    page = export(run, path, tmp_path / "hw.html")
    assert f"Running totals (summed over the three games, each played to {data['rules']['target']})" in page


def test_svg_marks_the_gins_and_undercuts_of_the_standard_sample(run, tmp_path):
    root = svg_root(export(run, STANDARD, tmp_path / "sheet.svg"))
    marks = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "mark"]
    assert marks == ["U", "G"]  # hand 3 is Maria's undercut, hand 4 Tom's gin (tests/test_samples.py)


def test_svg_escapes_hostile_names(run, tmp_path, hostile):
    text = export(run, hostile, tmp_path / "sheet.svg")
    root = svg_root(text)
    assert not list(root.iter(f"{SVG}script"))
    names = [line.attrib["data-name"] for line in root.iter(f"{SVG}polyline")]
    assert names == [HOSTILE, QUOTED]


@pytest.mark.parametrize("name", ["sheet.html", "sheet.svg", "sheet.csv", "sheet.md"])
def test_export_refuses_to_replace_a_file_without_force(run, tmp_path, name):
    target = tmp_path / name
    target.write_bytes(b"mine")
    result = run("show", STANDARD, "--export", target)
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {target} already exists: pick another name, or add --force to replace it"
    assert target.read_bytes() == b"mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    export(run, STANDARD, target, "--force")
    assert target.read_bytes() != b"mine"


def test_export_with_force_writes_through_a_symlink(run, tmp_path):
    real = tmp_path / "real.html"
    real.write_text("old", encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "link.html"
    link.symlink_to(real.name)
    refused = run("show", STANDARD, "--export", link)
    assert refused.exit_code == 1 and "already exists" in one_error_line(refused)
    export(run, STANDARD, link, "--force")
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert os.stat(real).st_mode & 0o777 == 0o640


def test_export_terminal_capture_is_its_own_option(run, tmp_path):
    target = tmp_path / "terminal.svg"
    assert ok(run("show", STANDARD, "--export-terminal", target)) == f"Wrote the score sheet to {target}\n"
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<svg class=\"rich-terminal\"") and "Maria" in text  # rich draws a terminal window
    assert "url(#" in text and not re.search(r"url\(\s*[\"']?(?!#)", text)  # nothing fetched, such as a font from a CDN
    result = run("show", STANDARD, "--export-terminal", tmp_path / "t.csv")
    assert result.exit_code == 2 and ".svg, .html" in one_error_line(result)
    both = run("show", STANDARD, "--export", tmp_path / "a.html", "--export-terminal", tmp_path / "b.svg")
    assert both.exit_code == 2 and one_error_line(both) == "error: give --export or --export-terminal, not both"


def test_stats_page_has_a_table_and_a_margin_chart_for_each_pair(run, tmp_path):
    folder = tmp_path / "matches"
    folder.mkdir()
    for sample in SAMPLE_FILES:
        (folder / sample.name).write_bytes(sample.read_bytes())
    again = SAMPLE_FILES[0].read_text(encoding="utf-8").replace("23:10:54", "23:10:55", 1)  # started a second later
    (folder / "again.toml").write_text(again, encoding="utf-8")  # Maria and Tom play twice (a byte copy counts once)
    data = json_object(run("stats", "--json", folder))
    target = tmp_path / "stats.html"
    assert ok(run("stats", folder, "--export", target)) == f"Wrote the head-to-head page to {target}\n"
    text = target.read_text(encoding="utf-8")
    page = PageReader(text)
    tables = [table for table in page.tables if table.css == "pair"]
    assert len(tables) == len(data["pairs"]) == 3
    for table, pair in zip(tables, data["pairs"]):
        a, b = pair["players"]
        assert [cell.text for cell in table.sections["thead"][0]] == ["", a, b]
        rows = {row[0].text: [cell.text for cell in row[1:]] for row in table.sections["tbody"]}
        assert rows["games won"] == [str(pair["by_player"][n]["games_won"]) for n in (a, b)]
        assert rows["hands won"] == [str(pair["by_player"][n]["hands_won"]) for n in (a, b)]
    charts = re.findall(r"<svg .*?</svg>", text, re.S)
    assert len(charts) == 3
    maria_tom = charts[[p["players"] for p in data["pairs"]].index(["Maria", "Tom"])]
    points = re.findall(r'<title>after match (\d+): Maria ([+-]\d+) against Tom', maria_tom)
    assert points == [("1", "-139"), ("2", "-278")]  # two matches, each lost by 139
    assert data["pairs"][2]["by_player"]["Maria"]["margin"] == -278
    assert "<script" not in text
    refused = run("stats", folder, "--export", target)
    assert refused.exit_code == 1 and "already exists" in one_error_line(refused)


@pytest.mark.parametrize("name", ["sheet.html", "sheet.svg"])
def test_a_flat_chart_exports(run, tmp_path, name):
    """A Hollywood sheet has no target line: with only a cancelled hand, every value on its chart is 0."""
    match = tmp_path / "flat.toml"
    ok(run("new", match, "Ann", "Bob", "--hollywood"))
    ok(run("record", match, "--cancelled"))
    text = export(run, match, tmp_path / name)
    polylines = re.findall(r'<polyline class="series" data-name="(\w+)" points="([^"]*)"', text)
    assert [player for player, _ in polylines] == ["Ann", "Bob"]
    for _, points in polylines:
        (y0,), (y1,) = ({point.split(",")[1]} for point in points.split())
        assert y0 == y1  # level at 0 from the start to hand 1


def test_stats_page_of_matches_with_no_finished_game(run, tmp_path):
    """No margin yet: the chart is a flat line at 0, not a crash."""
    folder = tmp_path / "matches"
    folder.mkdir()
    ok(run("new", folder / "a.toml", "Ann", "Bob"))
    ok(run("record", folder / "a.toml", "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "20"))
    target = tmp_path / "stats.html"
    assert ok(run("stats", folder, "--export", target)) == f"Wrote the head-to-head page to {target}\n"
    points = re.findall(r"<title>after match (\d+): Ann ([+-]\d+) against Bob", target.read_text(encoding="utf-8"))
    assert points == [("1", "+0")]


def test_show_and_the_page_say_the_same_when_the_finals_are_level(run, tmp_path):
    match = tmp_path / "m.toml"
    ok(run("new", match, "Ann", "Bob"))
    for _ in range(10):  # Bob wins 10 hands of 2: 20 + 10 x 20 = 220
        ok(run("record", match, "--knocker", "Bob", "--deadwood", "1", "--opponent-deadwood", "3"))
    ok(run("record", match, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "80"))  # 100 + 100 + 20 = 220
    shown = ok(run("show", match))
    level = "Final totals are level: Ann 220, Bob 220"
    assert shown.splitlines()[-2:] == [f"  {level} (Ann reached the target).", "Series: Ann 0 – Bob 0, 1 drawn"]
    assert "wins by" not in shown and "Note:" not in shown
    page = PageReader(export(run, match, tmp_path / "m.html"))
    assert page.text("verdict") == f"{level}."
