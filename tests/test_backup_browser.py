"""Backups in the app, in Chromium (390 x 844, touch), offline: two browser contexts as two phones, A and B, each
opened once online from one folder built by `ginscore app`, then in airplane mode.

A backs up (the home screen's "Back up", a download, as headless Chromium shares no files) and the zip holds every
match byte for byte, as each match's own download has it; B, fresh, opens it and keeps every match byte for byte,
and opened again it changes nothing. A plays on, and its next backup (or the one match's file) adds only the new
hands on B, to the same match as `show --json` reads both copies; when both phones played a hand of their own, the
copy is a conflict, shown side by side on the merge page, and nothing is lost (a copy with CR LF lines, taken whole,
keeps its very bytes). The list says when the last backup was made and the hands recorded since; a finished game
offers one while hands are in none; a share cancelled records none. With the browser's storage not persisted (a
stubbed `navigator.storage`) the list says so, with what to do, and says nothing when it is. Skips without
Playwright, Chromium or npm, as test_app_browser.py does.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect, require_browser
from test_app_browser import KEYS, Host, Phone, ginscore, stored, visit
from test_phone_words import COMMAND_WORDS

CALL = ("([method, path, body]) => window.ginscoreApp.call(method, path, JSON.stringify(body), 'application/json')"
        ".then(a => a.status)")
MERGE_CHOICES = ("Keep mine", "Take theirs", "Keep both")
"""The merge page's three choices for a conflict."""
BACKUP_NAME = re.compile(r"^ginscore-backup-[0-9-]+\.zip$")
KEEP_WORDS = ("This browser has not promised to keep the matches stored here: it may delete them when it runs short of room. "
              "Add this app to the home screen so the browser keeps your matches; back up now and then.")
GENERATIONS = ("() => import('./store.js').then(s => s.database()).then(db => new Promise(r => { const t = db.transaction('generations'), "
               "o = t.objectStore('generations'), seen = {}; o.openCursor().onsuccess = e => { const c = e.target.result; "
               "if (c) { seen[c.key] = c.value; c.continue(); } else r(seen); }; }))")


class Phones:
    """Phone A and phone B, two browser contexts of one browser."""

    def __init__(self, a: Phone, b: Phone):
        self.a, self.b = a, b


@pytest.fixture(scope="module")
def phones(browser: Any, app_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phones]:
    require_browser()
    root = tmp_path_factory.mktemp("backup-host")
    shutil.copytree(app_build / "pocket", root / "pocket", symlinks=True)  # conftest's, the run's one build
    host = Host(root)
    a, b = Phone(browser, host), Phone(browser, host)
    a.main, b.main = a.open(), b.open()
    host.stop()
    for one in (a, b):
        one.context.set_offline(True)
    yield Phones(a, b)
    for one in (a, b):
        one.context.close()


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    return page.evaluate(CALL, [method, path, body or {}])


def hand(page: Any, name: str, knocker: str, deadwood: int, opponent: int = 20) -> None:
    assert api(page, "POST", f"/api/matches/{name}/hands", {"knocker": knocker, "deadwood": deadwood, "opponent_deadwood": opponent}) == 201


def match_names(page: Any) -> list[str]:
    return sorted(key for key in page.evaluate(KEYS) if isinstance(key, str))


def home(page: Any) -> None:
    visit(page, "/")
    expect(page.locator("#backup-line")).not_to_have_text("")


def backed_up(page: Any, tmp_path: Path, where: Any = None) -> Path:
    """Tap "Back up" (on the list, or in `where`) and keep the download."""
    if where is None:
        home(page)
        where = page.locator(".app-backup")
    with page.expect_download() as downloading:
        where.get_by_role("button", name="Back up", exact=True).tap()
    assert BACKUP_NAME.match(downloading.value.suggested_filename), downloading.value.suggested_filename
    path = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(path)
    return path


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def downloaded(page: Any, name: str) -> bytes:
    """The match's own download, from its page."""
    visit(page, "/m/" + name)
    with page.expect_download() as downloading:
        page.get_by_role("button", name=re.compile("^Download the match file")).tap()
    return Path(downloading.value.path()).read_bytes()


def restored(page: Any, path: Path) -> list[str]:
    """Open a backup through the list's box: what each match in it became, as the list says it."""
    home(page)
    shown = page.evaluate("Number(document.getElementById('page').dataset.shown || 0)")
    page.get_by_label(re.compile(r"^Open a backup \(\.zip\)")).set_input_files(str(path))
    page.wait_for_function("shown => Number(document.getElementById('page').dataset.shown || 0) > shown", arg=shown)
    said = page.locator("#restore-said")
    expect(said.get_by_role("status")).to_contain_text(path.name)
    expect(said).to_be_in_viewport()
    lines: list[str] = said.locator("li").all_inner_texts()
    for line in lines:
        assert COMMAND_WORDS.search(line) is None, line
    return lines


def show_json(tmp_path: Path, name: str, text: str) -> Any:
    path = tmp_path / "shown" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    result = ginscore("show", path, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_with_storage_not_persisted_the_list_says_so_and_what_to_do(phones: Phones):
    for kept, shown in ((False, 1), (True, 0)):
        stub = f"""Object.defineProperty(Navigator.prototype, 'storage', {{ configurable: true, get: () => ({{
          persist: async () => {str(kept).lower()}, persisted: async () => {str(kept).lower()},
        }}) }});"""
        page = phones.a.open(script=stub)
        expect(page.locator("#backup-line")).not_to_have_text("")
        said = page.locator(".app-keep")
        expect(said).to_have_count(shown)
        if shown:
            expect(said).to_have_text(KEEP_WORDS)
            expect(page.locator(".app-backup .app-keep")).to_have_text(KEEP_WORDS)  # with the backups, after the form
        page.close()


def test_a_backup_from_phone_a_restores_every_match_on_a_fresh_phone_b_byte_for_byte(phones: Phones, tmp_path: Path):
    a, b = phones.a.main, phones.b.main
    assert api(a, "POST", "/api/matches", {"file": "friday.toml", "players": ["Ann", "Bob"]}) == 201
    for knocker, deadwood in (("Ann", 4), ("Bob", 0), ("Ann", 9)):
        hand(a, "friday.toml", knocker, deadwood)
    assert api(a, "POST", "/api/matches", {"file": "club.toml", "players": ["Cy", "Di"]}) == 201
    hand(a, "club.toml", "Cy", 2)
    crlf = tmp_path / "crlf.toml"
    assert ginscore("new", crlf, "Ed", "Flo").exit_code == 0
    assert ginscore("record", crlf, "--knocker", "Ed", "--deadwood", "3", "--opponent-deadwood", "12").exit_code == 0
    crlf.write_bytes(b"\xef\xbb\xbf" + crlf.read_bytes().replace(b"\n", b"\r\n"))  # a byte-order mark, CRLF lines
    home(a)
    a.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(str(crlf))
    a.wait_for_url("**/m/crlf.toml")
    home(a)
    expect(a.locator("#backup-line")).to_have_text("No backup yet: 5 hands recorded so far")
    expect(a.get_by_role("link", name="Back up all matches (.zip)")).to_have_count(0)  # serve's link: the box in its place

    backup = backed_up(a, tmp_path)
    names = ["club.toml", "crlf.toml", "friday.toml"]
    inside = members(backup)
    assert sorted(inside) == names == match_names(a)
    for name in names:
        assert inside[name] == downloaded(a, name) == stored(a, name).encode("utf-8")
    assert inside["crlf.toml"] == crlf.read_bytes()
    home(a)
    expect(a.locator("#backup-line")).to_have_text(re.compile(r"^Last backup: .+ · no hands recorded since$"))

    assert match_names(b) == []
    home(b)
    expect(b.locator("#backup-line")).to_have_text("No backup yet")
    expect(b.locator(".app-backup").get_by_role("button", name="Back up", exact=True)).to_be_hidden()  # nothing to back up
    expect(b.locator(".app-open + .app-backup")).to_be_visible()  # near the top, where a fresh phone opens one
    lines = restored(b, backup)
    assert lines == [f"{name}: new on this phone" for name in names]
    assert match_names(b) == names
    for name in names:
        assert downloaded(b, name) == inside[name]
    generations = b.evaluate(GENERATIONS)
    again = restored(b, backup)
    assert again == [f"{name}: already on this phone, with every hand the backup holds; nothing changed" for name in names]
    assert b.evaluate(GENERATIONS) == generations  # nothing written
    assert phones.a.problems == phones.b.problems == []


def test_a_copy_played_on_elsewhere_adds_only_the_new_hands(phones: Phones, tmp_path: Path):
    a, b = phones.a.main, phones.b.main
    before = stored(b, "friday.toml")
    hand(a, "friday.toml", "Bob", 5)
    hand(a, "friday.toml", "Ann", 7)
    home(a)
    expect(a.locator("#backup-line")).to_have_text(re.compile(r"^Last backup: .+ · 2 hands recorded since$"))
    backup = backed_up(a, tmp_path)
    lines = restored(b, backup)
    assert "friday.toml: 2 hands added from the backup" in lines
    assert [line for line in lines if "friday" not in line] == [
        f"{name}: already on this phone, with every hand the backup holds; nothing changed" for name in ("club.toml", "crlf.toml")]
    merged = stored(b, "friday.toml")
    assert merged.startswith(before) and merged.count("[[hands]]") == 5
    assert show_json(tmp_path / "b", "friday.toml", merged) == show_json(tmp_path / "a", "friday.toml", stored(a, "friday.toml"))

    hand(a, "club.toml", "Di", 6)  # one match's own file, opened on B, adds its new hand the same way
    file = tmp_path / "club.toml"
    file.write_bytes(downloaded(a, "club.toml"))
    home(b)
    b.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(str(file))
    b.wait_for_url("**/m/club.toml?merged=added&added=1")
    expect(b.get_by_role("status").filter(has_text="The copy added 1 hand after this match's own.")).to_be_visible()
    assert show_json(tmp_path / "b", "club.toml", stored(b, "club.toml")) == show_json(tmp_path / "a", "club.toml", stored(a, "club.toml"))
    assert phones.a.problems == phones.b.problems == []


def test_a_diverged_copy_shows_the_conflict_and_loses_nothing(phones: Phones, tmp_path: Path):
    a, b = phones.a.main, phones.b.main
    hand(a, "friday.toml", "Ann", 1)  # hand 6 on A
    hand(b, "friday.toml", "Bob", 8)  # another hand 6 on B
    mine, theirs = stored(b, "friday.toml"), stored(a, "friday.toml")
    backup = backed_up(a, tmp_path)
    lines = restored(b, backup)
    conflict = [line for line in lines if line.startswith("friday.toml")]
    assert conflict == ["friday.toml: this phone's copy and the backup's differ at hand 6, so nothing was changed: settle it to keep yours, "
                        "take the other or keep both Settle it"]
    assert stored(b, "friday.toml") == mine
    b.locator("#restore-said li", has_text="friday.toml").get_by_role("button", name="Settle it").tap()
    choices = [b.get_by_role("button", name=name) for name in MERGE_CHOICES]
    for choice in choices:
        expect(choice).to_be_visible()
    expect(b.locator("table.merge tbody tr")).to_have_count(1)  # hand 6, side by side
    expect(b.locator(".app-backup, .app-open")).to_have_count(0)  # the merge page's own, not the list's boxes
    assert stored(b, "friday.toml") == mine  # shown, not written
    before = set(match_names(b))
    choices[MERGE_CHOICES.index("Keep both")].tap()
    b.wait_for_url(re.compile(r"#/m/[^/]+\.toml"))
    added = sorted(set(match_names(b)) - before)
    assert len(added) == 1 and stored(b, added[0]) == theirs and stored(b, "friday.toml") == mine

    hand(a, "club.toml", "Cy", 1)  # a conflict in a match file opened: the merge page at once
    hand(b, "club.toml", "Di", 5)
    ours = stored(b, "club.toml")
    file = tmp_path / "club.toml"
    file.write_bytes(downloaded(a, "club.toml"))
    home(b)
    b.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(str(file))
    expect(b.locator("table.merge tbody tr")).to_have_count(1)
    for name in MERGE_CHOICES:
        expect(b.get_by_role("button", name=name)).to_be_visible()
    b.get_by_role("button", name="Keep mine").tap()
    b.wait_for_url("**/m/club.toml?merged=kept&added=0")
    assert stored(b, "club.toml") == ours

    hand(a, "crlf.toml", "Ed", 2)  # a copy with a byte-order mark and CR LF lines, taken whole: its very bytes
    hand(b, "crlf.toml", "Flo", 6)
    file = tmp_path / "crlf.toml"
    file.write_bytes(downloaded(a, "crlf.toml"))
    home(b)
    b.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(str(file))
    b.get_by_role("button", name="Take theirs").tap()
    b.wait_for_url("**/m/crlf.toml?merged=replaced&added=0")
    assert stored(b, "crlf.toml").encode("utf-8") == file.read_bytes() == stored(a, "crlf.toml").encode("utf-8")
    assert phones.a.problems == phones.b.problems == []


def test_a_finished_game_offers_a_backup_while_hands_are_in_none(phones: Phones, tmp_path: Path):
    a = phones.a.main
    backed_up(a, tmp_path)
    assert api(a, "POST", "/api/matches", {"file": "done.toml", "players": ["Ann", "Bob"], "set": ["target=10"]}) == 201
    hand(a, "done.toml", "Ann", 0, 30)
    visit(a, "/m/done.toml")
    offer = a.locator(".result-block .result-backup")
    expect(offer).to_contain_text("1 hand on this phone is in no backup yet.")
    backup = backed_up(a, tmp_path, offer)
    assert "done.toml" in members(backup)
    expect(offer).to_contain_text("Every match on this phone is in the backup.")
    home(a)
    expect(a.locator("#backup-line")).to_have_text(re.compile(r"^Last backup: .+ · no hands recorded since$"))
    visit(a, "/m/done.toml")
    expect(a.locator(".result-block")).to_be_visible()
    expect(a.locator(".result-backup")).to_have_count(0)  # nothing to back up: no offer


SHARE = """
window.sharedFiles = [];
navigator.canShare = data => Boolean(data && data.files);
navigator.share = async data => {
  if (window.shareAnswer === 'cancel') throw new DOMException('cancelled', 'AbortError');
  window.sharedFiles.push({ name: data.files[0].name, type: data.files[0].type, bytes: Array.from(new Uint8Array(await data.files[0].arrayBuffer())) });
};
"""


def test_a_backup_is_shared_where_the_browser_shares_files_and_a_cancelled_share_records_none(phones: Phones, tmp_path: Path):
    """Last, as it gives phone A's open page a Web Share of files (the page asks for it at each tap)."""
    page = phones.a.main
    page.evaluate("() => {" + SHARE + "}")
    hand(page, "club.toml", "Cy", 4)
    home(page)
    line = page.locator("#backup-line")
    expect(line).to_have_text(re.compile(r"· 1 hand recorded since$"))
    page.evaluate("window.shareAnswer = 'cancel'")
    page.locator(".app-backup").get_by_role("button", name="Back up", exact=True).tap()
    expect(page.locator("#backup-said")).to_have_text("Not shared: nothing was backed up.")
    expect(line).to_have_text(re.compile(r"· 1 hand recorded since$"))
    page.evaluate("window.shareAnswer = 'share'")
    page.locator(".app-backup").get_by_role("button", name="Back up", exact=True).tap()
    expect(page.locator("#backup-said")).to_have_text(re.compile(r"^Shared ginscore-backup-[0-9-]+\.zip: keep it somewhere off this phone\.$"))
    expect(line).to_have_text(re.compile(r"· no hands recorded since$"))
    shared = page.evaluate("window.sharedFiles")
    assert len(shared) == 1 and BACKUP_NAME.match(shared[0]["name"]) and shared[0]["type"] == "application/zip"
    file = tmp_path / "shared.zip"
    file.write_bytes(bytes(shared[0]["bytes"]))
    assert members(file)["club.toml"] == stored(page, "club.toml").encode("utf-8")
