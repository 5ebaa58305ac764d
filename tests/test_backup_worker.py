"""The app's worker module (`pocket/worker.py`) under CPython, as the shell calls it: a backup made through serve's
`/backup.zip` over the held folder (every stored text loaded for it, byte for byte), what it held (`hands`), a
backup restored (`restore`: each member new, unchanged, with hands added, or a conflict to settle through
`/merge`, nothing written for one) and a match file opened (`opened`), merged by the same rule. Each checked
through what the shell would store (`changes`). And serve's list, whose link downloads the same backup."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import re
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from ginscore.files import changes
from ginscore.game.rulebook import PRESETS
from ginscore.match.entry import HandEntry, NewMatch


def made(folder: Path, name: str, players: tuple[str, str] = ("Ann", "Bob"), hands: int = 2) -> Path:
    """A match file made by the service, as `ginscore new` and `record` make one."""
    path = folder / name
    folder.mkdir(parents=True, exist_ok=True)
    changes.start(str(path), NewMatch(list(players), replace(PRESETS["standard"], target=1000)))
    for number in range(hands):
        more(path, players[number % 2])
    return path


def more(path: Path, knocker: str, deadwood: int = 3) -> None:
    changes.record(str(path), HandEntry(knocker=knocker, deadwood=deadwood, opponent_deadwood=20))


def stored(pocket: Any, texts: dict[str, str], loaded: set[str] | None = None) -> None:
    """The store as the shell hands it in: every name, the texts of `loaded` (all when None)."""
    names = set(texts) if loaded is None else loaded
    pocket.hold(json.dumps({"keys": sorted(texts), "generations": dict.fromkeys(texts, 1),
                            "texts": {name: texts[name] for name in names}, "others": {}, "summaries": None, "next": {}}))


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def asked(pocket: Any, method: str, path: str, body: str = "", kind: str = "") -> Any:
    """One request to the worker's pages, on an event loop of its own (Playwright's may run in this thread)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, pocket.request(method, path, "", body, kind)).result(timeout=60)


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_backup_loads_every_stored_text_and_holds_each_byte_for_byte(pocket: Any, tmp_path: Path):
    one, two = made(tmp_path / "a", "one.toml"), made(tmp_path / "a", "two.toml", ("Cy", "Di"), 3)
    crlf = two.read_bytes().replace(b"\n", b"\r\n")
    texts = {"one.toml": one.read_text(encoding="utf-8"), "two.toml": crlf.decode("utf-8")}
    stored(pocket, texts, loaded={"one.toml"})
    first = asked(pocket, "GET", "/backup.zip")
    assert first["need"] is True  # two.toml was a placeholder: the shell loads every text and asks again
    stored(pocket, texts)
    answer = asked(pocket, "GET", "/backup.zip")
    assert answer["status"] == 200 and not answer["need"]
    assert dict(answer["headers"])["content-type"] == "application/zip"
    assert members(answer["body"]) == {"one.toml": one.read_bytes(), "two.toml": crlf}
    assert json.loads(pocket.hands()) == {"one.toml": 2, "two.toml": 3}
    assert json.loads(pocket.changes())["texts"] == {}


def test_a_backup_restored_on_an_empty_phone_keeps_every_match_and_again_changes_nothing(pocket: Any, tmp_path: Path):
    files = {"one.toml": made(tmp_path, "one.toml").read_bytes(), "two.toml": made(tmp_path, "two.toml", ("Cy", "Di")).read_bytes()}
    backup = zipped(files)
    stored(pocket, {})
    said = json.loads(pocket.restore("backup.zip", backup))
    assert said["words"] == "backup.zip: 2 match files: 2 new, 0 with hands added, 0 unchanged."
    assert [(one["name"], one["outcome"], one["words"]) for one in said["merged"]] == [
        ("one.toml", "new", "one.toml: new on this phone"), ("two.toml", "new", "two.toml: new on this phone")]
    kept = json.loads(pocket.changes())["texts"]
    assert {name: text.encode("utf-8") for name, text in kept.items()} == files
    stored(pocket, kept)
    again = json.loads(pocket.restore("backup.zip", backup))
    assert {one["outcome"] for one in again["merged"]} == {"unchanged"}
    assert again["merged"][0]["words"] == "one.toml: already on this phone, with every hand the backup holds; nothing changed"
    assert json.loads(pocket.changes())["texts"] == {}


def test_a_copy_played_on_elsewhere_adds_only_its_new_hands(pocket: Any, tmp_path: Path):
    mine = made(tmp_path / "mine", "one.toml")
    theirs = tmp_path / "theirs" / "one.toml"
    theirs.parent.mkdir()
    shutil.copyfile(mine, theirs)
    more(theirs, "Ann", 5)
    more(theirs, "Bob", 7)
    other = made(tmp_path / "mine", "two.toml", ("Cy", "Di"))
    texts = {"one.toml": mine.read_text(encoding="utf-8"), "two.toml": other.read_text(encoding="utf-8")}
    stored(pocket, texts)
    said = json.loads(pocket.restore("b.zip", zipped({"one.toml": theirs.read_bytes(), "two.toml": other.read_bytes()})))
    assert [one["words"] for one in said["merged"]] == [
        "one.toml: 2 hands added from the backup", "two.toml: already on this phone, with every hand the backup holds; nothing changed"]
    kept = json.loads(pocket.changes())["texts"]
    assert list(kept) == ["one.toml"] and kept["one.toml"].startswith(texts["one.toml"])
    assert kept["one.toml"].count("[[hands]]") == 4


def test_a_diverged_copy_is_a_conflict_to_settle_on_the_merge_page_and_nothing_is_written(pocket: Any, tmp_path: Path):
    mine = made(tmp_path / "mine", "one.toml")
    theirs = tmp_path / "theirs" / "one.toml"
    theirs.parent.mkdir()
    shutil.copyfile(mine, theirs)
    more(mine, "Ann", 2)
    more(theirs, "Bob", 9)
    texts = {"one.toml": mine.read_text(encoding="utf-8")}
    stored(pocket, texts)
    said = json.loads(pocket.restore("b.zip", zipped({"one.toml": theirs.read_bytes()})))
    conflict = said["merged"][0]
    assert conflict["outcome"] == "conflict" and said["words"].endswith("1 to settle.")
    assert conflict["words"] == ("one.toml: this phone's copy and the backup's differ at hand 3, so nothing was changed: settle it to keep "
                                 "yours, take the other or keep both")
    form = parse_qs(conflict["form"], keep_blank_values=True)
    assert form["text"] == [theirs.read_text(encoding="utf-8")] and form["name"] == ["one.toml"] and form["csrf"][0]
    assert json.loads(pocket.changes())["texts"] == {}
    opened = json.loads(pocket.opened("one.toml", theirs.read_bytes()))
    assert parse_qs(opened["form"])["text"] == form["text"]  # the same conflict, opened as a file
    page = asked(pocket, "POST", "/merge", conflict["form"], "application/x-www-form-urlencoded")
    assert page["status"] == 200
    actions = re.findall(r'<form method="post" action="([^"]+)"', bytes(page["body"]).decode("utf-8"))
    assert actions == ["/merge"] * 3  # keep mine, take theirs, keep both: each posted as a page's form
    assert json.loads(pocket.changes())["texts"] == {}  # the conflict page only shows it


def test_a_damaged_file_of_the_backups_name_is_a_conflict_said_with_what_to_do_and_no_merge_form(pocket: Any, tmp_path: Path):
    backed_up = made(tmp_path / "mine", "one.toml")
    damaged = backed_up.read_text(encoding="utf-8")[:-40]  # cut short, as a phone killed mid-write might leave it
    stored(pocket, {"one.toml": damaged})
    said = json.loads(pocket.restore("b.zip", zipped({"one.toml": backed_up.read_bytes()})))
    conflict = said["merged"][0]
    assert conflict["outcome"] == "conflict" and said["words"].endswith("1 to settle.")
    assert conflict["words"].startswith("one.toml: the folder's one.toml is damaged (") and "form" not in conflict
    assert json.loads(pocket.changes())["texts"] == {}  # nothing written, the damaged text left as it was


def test_a_match_file_opened_merges_by_the_rule(pocket: Any, tmp_path: Path):
    mine = made(tmp_path / "mine", "one.toml")
    stored(pocket, {"one.toml": mine.read_text(encoding="utf-8")})
    assert json.loads(pocket.opened("one.toml", mine.read_bytes())) == {"name": "one.toml", "outcome": "unchanged", "added": 0}
    assert json.loads(pocket.opened("copy.toml", mine.read_bytes())) == {"name": "one.toml", "outcome": "unchanged", "added": 0}
    assert json.loads(pocket.changes())["texts"] == {}
    more(mine, "Bob", 4)
    assert json.loads(pocket.opened("one.toml", mine.read_bytes())) == {"name": "one.toml", "outcome": "added", "added": 1}
    assert json.loads(pocket.changes())["texts"] == {"one.toml": mine.read_text(encoding="utf-8")}
    another = made(tmp_path / "other", "one.toml", ("Ed", "Flo"))
    kept = json.loads(pocket.opened("one.toml", another.read_bytes()))
    assert kept["name"] != "one.toml" and kept["outcome"] == "new"
    assert json.loads(pocket.changes())["texts"] == {kept["name"]: another.read_text(encoding="utf-8")}
    fresh = made(tmp_path / "other", "fresh.toml", ("Gus", "Hal"))
    assert json.loads(pocket.opened("fresh.toml", fresh.read_bytes()))["name"] == "fresh.toml"


def test_a_file_that_is_not_a_backup_is_refused_in_words_and_nothing_changes(pocket: Any, tmp_path: Path):
    stored(pocket, {"one.toml": made(tmp_path, "one.toml").read_text(encoding="utf-8")})
    said = json.loads(pocket.restore("notes.zip", b"not a zip at all"))
    assert said == {"error": "notes.zip is not a backup: it is not a zip file"}
    mixed = json.loads(pocket.restore("b.zip", zipped({"bad.toml": b'[match]\nplayers = ["Ann"]\n'})))
    assert [one["outcome"] for one in mixed["merged"]] == ["refused"] and mixed["merged"][0]["words"].startswith("bad.toml: not opened: ")
    assert json.loads(pocket.changes())["texts"] == {}


@pytest.mark.parametrize(("numbers", "words"), [
    ((3,), "hand 3"), ((3, 4), "hands 3 and 4"), ((3, 4, 5, 6), "hands 3 to 6"), ((2, 5, 6, 7), "hands 2 and 5 to 7"),
    ((1, 3, 5), "hands 1, 3 and 5"),
])
def test_differing_hands_are_said_as_a_person_reads_them(numbers: tuple[int, ...], words: str):
    from ginscore.sheets.words import hand_numbers

    assert hand_numbers(numbers) == words


def test_serves_list_links_to_the_backup_of_every_match_and_the_empty_list_does_not(tmp_path: Path):
    from pages import signed_in

    with signed_in(tmp_path) as client:
        assert "Back up all matches" not in client.get("/").text  # nothing to back up
        made(tmp_path, "one.toml")
        listed = client.get("/").text
        link = re.search(r'<a href="([^"]+)" download data-backup>Back up all matches \(\.zip\)</a>', listed)
        assert link is not None
        answer = client.get(link.group(1))
    assert answer.status_code == 200 and members(answer.content) == {"one.toml": (tmp_path / "one.toml").read_bytes()}
