"""The app's table reads what each stored match gives from its stored summary (issue 55): a match page, which draws
on the whole table for its series and chance, needs no other match's text, and says what it says with every text
loaded; a summary stored for another generation, or by an older build, is not believed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KNOCK = ["--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"]


def texts_of(run: Any, tmp_path: Path) -> dict[str, str]:
    """The sample matches, and Ann and Bob's two games: one finished, `cur.toml` in play."""
    folder = tmp_path / "made"
    folder.mkdir()
    for sample in sorted((ROOT / "sample_matches").glob("*.toml")):
        shutil.copy(sample, folder / sample.name)
    assert run("new", folder / "first.toml", "Ann", "Bob", "--at", "2026-01-02T20:00").exit_code == 0
    for _ in range(2):
        assert run("record", folder / "first.toml", "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "40",
                   "--at", "2026-01-02T21:00").exit_code == 0
    assert run("new", folder / "cur.toml", "Ann", "Bob").exit_code == 0
    assert run("record", folder / "cur.toml", *KNOCK).exit_code == 0
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.toml"))}


def hold(pocket: Any, texts: dict[str, str], loaded: list[str], summaries: dict[str, Any] | None,
         generations: dict[str, int] | None = None) -> dict[str, Any]:
    """The store as the shell hands it in: every name and generation, the texts of `loaded`, the summaries."""
    return json.loads(pocket.hold(json.dumps({"keys": sorted(texts), "generations": generations or dict.fromkeys(texts, 1),
                                              "texts": {name: texts[name] for name in loaded}, "others": {},
                                              "summaries": summaries, "next": {}})))


def asked(pocket: Any, path: str) -> dict[str, Any]:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, pocket.request("GET", path, "", "", "")).result(timeout=60)


def versionless(body: bytes) -> bytes:
    return re.sub(rb'data-version="[^"]*"', b"", body)


def lines_of(pocket: Any, texts: dict[str, str]) -> dict[str, Any]:
    """Each match's summary as the worker stores it, at generation 1."""
    return {name: {**line, "generation": 1} for name, line in json.loads(pocket.lines(json.dumps(sorted(texts)))).items()}


def test_a_match_page_reads_no_other_text_when_the_summaries_say_what_each_match_gives(pocket: Any, run: Any, tmp_path: Path) -> None:
    texts = texts_of(run, tmp_path)
    assert json.loads(pocket.reads("GET", "/m/cur.toml"))["summaries"] is True
    hold(pocket, texts, sorted(texts), None)
    everything = asked(pocket, "/m/cur.toml")
    assert everything["status"] == 200 and not everything["need"]
    lines = lines_of(pocket, texts)
    assert all(line["gives"] is not None for line in lines.values())
    pocket.forget()

    said = hold(pocket, texts, ["cur.toml"], lines)
    assert said["need"] == []
    alone = asked(pocket, "/m/cur.toml")
    assert alone["status"] == 200 and alone["need"] is False  # no text of another match was read
    assert versionless(alone["body"]) == versionless(everything["body"])  # the texts held again: other versions
    assert b"Series" in alone["body"]


def test_a_summary_of_another_generation_or_an_older_build_is_not_believed(pocket: Any, run: Any, tmp_path: Path) -> None:
    texts = texts_of(run, tmp_path)
    hold(pocket, texts, sorted(texts), None)
    lines = lines_of(pocket, texts)
    pocket.forget()
    moved = dict.fromkeys(texts, 1) | {"first.toml": 2}  # first.toml stored again by another tab since
    hold(pocket, texts, ["cur.toml"], lines, moved)
    assert asked(pocket, "/m/cur.toml")["need"] is True  # its summary is another text's: its text is read
    pocket.forget()
    older = {name: {key: value for key, value in line.items() if key != "gives"} for name, line in lines.items()}
    assert sorted(hold(pocket, texts, ["cur.toml"], older)["need"]) == sorted(texts)  # each made again


def test_the_list_reads_no_text_when_every_summary_is_stored(pocket: Any, run: Any, tmp_path: Path) -> None:
    """The list's lines, its pairs' series and its games' titles all come from the stored summaries."""
    texts = texts_of(run, tmp_path)
    hold(pocket, texts, sorted(texts), None)
    everything = asked(pocket, "/")
    lines = lines_of(pocket, texts)
    pocket.forget()
    assert hold(pocket, texts, [], lines)["need"] == []
    alone = asked(pocket, "/")
    assert alone["status"] == 200 and alone["need"] is False
    assert alone["body"] == everything["body"]
    assert "Game 2 · standard rules".encode() in alone["body"]


def test_a_match_stored_again_by_another_tab_is_in_the_next_page_without_its_text(pocket: Any, run: Any, tmp_path: Path) -> None:
    """The table's whole, kept between requests, is made again when a stored text's generation moves, though the
    worker holds none of that text."""
    texts = texts_of(run, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    assert run("new", other / "first.toml", "Ann", "Bob", "--at", "2026-01-02T20:00").exit_code == 0
    for _ in range(2):  # Bob won that game instead
        assert run("record", other / "first.toml", "--knocker", "Bob", "--deadwood", "0", "--opponent-deadwood", "40",
                   "--at", "2026-01-02T21:00").exit_code == 0
    changed = texts | {"first.toml": (other / "first.toml").read_text(encoding="utf-8")}
    moved = dict.fromkeys(texts, 1) | {"first.toml": 2}
    hold(pocket, changed, sorted(changed), None, moved)
    fresh = asked(pocket, "/m/cur.toml")
    changed_lines = lines_of(pocket, changed) | {"first.toml": lines_of(pocket, changed)["first.toml"] | {"generation": 2}}
    pocket.forget()
    hold(pocket, texts, sorted(texts), None)
    lines = lines_of(pocket, texts)
    pocket.forget()

    hold(pocket, texts, ["cur.toml"], lines)
    before = asked(pocket, "/m/cur.toml")
    hold(pocket, changed, ["cur.toml"], changed_lines, moved)
    after = asked(pocket, "/m/cur.toml")
    assert after["need"] is False  # no text of another match was read
    assert versionless(after["body"]) == versionless(fresh["body"]) != versionless(before["body"])
