"""The app in Chromium against its real store (IndexedDB), for what must never stop the pad: a stored record that is
not what the app writes (a BigInt, an object that holds itself, a value of the wrong type, as a generation or a
summary), a match file with a time out of range, a name longer than a page shows or that `new` refuses, a
worker gone after start-up, another tab holding the matches' lock forever, and the store deleted under an open
page. Each is said in the page, in a player's words, within its stated deadline.

One phone (a browser context) for the module, opened online once from a folder built by `ginscore app`, then
offline. Skips without Playwright, Chromium or npm, as test_app_browser.py does.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import expect, require_browser
from test_app_browser import KEYS, Host, Phone, ready, stored, visit
from test_phone_words import COMMAND_WORDS
from test_ranges import FAR, LONG_NAME

from ginscore.match.records import NAME_MOST

MADE = {
    "bigint": "5n",
    "cyclic": "(() => { const found = {name: 'x', players: ['Ann', 'Bob']}; found.self = found; return found; })()",
    "wrong-type": "'3'",
}
"""Each damaged value as JavaScript makes it: Playwright cannot pass a BigInt or a cycle."""
PUT_MADE = """([store, key]) => import('./store.js').then(s => s.database()).then(db => new Promise((resolve, reject) => {
  const t = db.transaction(store, 'readwrite');
  t.objectStore(store).put(MADE, key);
  t.oncomplete = resolve; t.onerror = () => reject(t.error);
}))"""
"""Puts a value `MADE` (the page's CSP allows no eval) into a store."""
PUT = """([store, key, value]) => import('./store.js').then(s => s.database()).then(db => new Promise((resolve, reject) => {
  const t = db.transaction(store, 'readwrite');
  t.objectStore(store).put(value, key);
  t.oncomplete = resolve; t.onerror = () => reject(t.error);
}))"""
WORKERS = "window.workers = []; const Made = window.Worker; window.Worker = function (...args) { const w = new Made(...args); window.workers.push(w); return w; };"
"""Keeps the page's workers where a test can stop one, as a crash would."""
CALL = ("([method, path, body]) => window.ginscoreApp.call(method, path, JSON.stringify(body), 'application/json')"
        ".then(a => a.status, e => 'refused: ' + e.message)")


@pytest.fixture(scope="module")
def phone(browser: Any, app_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phone]:
    require_browser()
    built = app_build  # conftest's, the run's one build: this phone's own copy
    root = tmp_path_factory.mktemp("records-host")
    shutil.copytree(built / "pocket", root / "pocket", symlinks=True)
    shorter_lock_wait(root / "pocket" / "app" / "worker.js")
    host = Host(root)
    one = Phone(browser, host)
    one.main = one.open(script=WORKERS)
    host.stop()
    one.context.set_offline(True)
    yield one
    one.context.close()


def shorter_lock_wait(worker: Path) -> None:
    """This phone's Save waits 2 s for another tab's lock, not the build's 10 (`LOCK_SECONDS`), so that the test of a
    lock held forever waits 2 s: the same path, the same bytes long (sw.js holds each file's size)."""
    text = worker.read_text(encoding="utf-8")
    assert text.count("export const LOCK_SECONDS = 10;") == 1
    worker.unlink()  # a file of this copy's own, never the run's one build
    worker.write_text(text.replace("export const LOCK_SECONDS = 10;", "export const LOCK_SECONDS =  2;"), encoding="utf-8")


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    return page.evaluate(CALL, [method, path, body or {}])


def good_match(page: Any, name: str = "good.toml") -> None:
    if stored(page, name) is None:
        assert api(page, "POST", "/api/matches", {"file": name, "players": ["Ann", "Bob"]}) == 201
        assert api(page, "POST", f"/api/matches/{name}/hands", {"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 12}) == 201


READ = ("([method, path, body]) => window.ginscoreApp.call(method, path, JSON.stringify(body), 'application/json')"
        ".then(a => [a.status, a.reads])")
"""A request through the worker: its status, and what it read from IndexedDB (`{records, bytes}`)."""


def test_a_save_and_a_poll_read_as_much_from_indexeddb_with_more_matches_stored(phone: Phone):
    page = phone.main
    good_match(page, "flat.toml")
    hand = {"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 12}

    def weighed() -> list[Any]:
        saved, polled = page.evaluate(READ, ["POST", "/api/matches/flat.toml/hands", hand]), page.evaluate(READ, ["GET", "/m/flat.toml/version"])
        assert saved[0] == 201 and polled[0] == 200
        return [saved[1], polled[1]]

    weighed()
    few = weighed()
    for at in range(6):  # new matches by the list's API, which reads every name again
        assert api(page, "POST", "/api/matches", {"file": f"flat-{at}.toml", "players": ["Cy", "Di"]}) == 201
    # the folder's stamp and the match's generation, and to write, the generation and the stamp: no name, no text
    assert few == weighed() == [{"records": 4, "bytes": 80}, {"records": 2, "bytes": 40}]


GOOD_SHOWN = re.compile(r"Ann \d+, Bob \d+|(Ann|Bob) won")
"""The sound match's line in the list, its totals (its pair's names head its group)."""


def listed(page: Any, name: str) -> Any:
    return page.locator("li.match-entry").filter(has=page.locator(f"a[href='#/m/{name}']"))


@pytest.mark.parametrize("kind", list(MADE))
@pytest.mark.parametrize("text", [True, False], ids=["with-a-text", "without-a-text"])
def test_a_damaged_generation_is_listed_removable_and_stops_nothing(phone: Phone, kind: str, text: bool):
    page = phone.main
    good_match(page)
    name = f"count-{kind}-{'text' if text else 'none'}.toml"
    if text:
        assert api(page, "POST", "/api/matches", {"file": name, "players": ["Cy", "Di"]}) == 201
    page.evaluate(PUT_MADE.replace("MADE", MADE[kind]), ["generations", name])
    visit(page, "/")
    damaged = page.locator(".app-damaged li").filter(has_text=name)
    expect(damaged).to_contain_text(re.compile(r"its count of changes is (a BigInt|an object|a string)"))
    expect(listed(page, "good.toml")).to_contain_text(GOOD_SHOWN)
    # a Save on another match, by its own form, and a new match: neither stopped
    before = api(page, "GET", "/api/matches/good.toml")
    assert before == 200
    assert api(page, "POST", "/api/matches/good.toml/hands", {"knocker": "Bob", "deadwood": 3, "opponent_deadwood": 9}) == 201
    visit(page, "/")
    page.locator("#player1").fill("Eve")
    page.locator("#player2").fill("Fay")
    page.get_by_label("File name").fill(f"after-{name}")
    page.get_by_role("button", name="Start the match", exact=True).tap()
    page.wait_for_url(f"**/m/after-{name}")
    expect(page.locator("h1")).to_contain_text("Eve")
    visit(page, "/")
    entry = page.locator(".app-damaged li").filter(has_text=name)
    if text:  # its text is kept, and downloads as it is
        with page.expect_download() as downloading:
            entry.get_by_role("button", name="Download as it is").tap()
        assert Path(downloading.value.path()).read_text(encoding="utf-8").startswith("# ginscore match file")
    entry.get_by_role("button", name="Remove").tap()
    expect(page.locator(".app-damaged li").filter(has_text=name)).to_have_count(0)
    assert name not in page.evaluate(KEYS)
    assert phone.problems == []


@pytest.mark.parametrize("kind", list(MADE))
def test_a_damaged_summary_is_computed_again_and_stops_nothing(phone: Phone, kind: str):
    page = phone.main
    good_match(page)
    name = f"summary-{kind}.toml"
    if stored(page, name) is None:
        assert api(page, "POST", "/api/matches", {"file": name, "players": ["Gil", "Hal"]}) == 201
    page.evaluate(PUT_MADE.replace("MADE", MADE[kind]), ["summaries", name])
    page.reload()  # the first screen, from the summaries alone, before Python is ready
    ready(page)
    visit(page, "/")
    expect(listed(page, name)).to_contain_text(re.compile(r"Gil \d+, Hal \d+"))
    expect(listed(page, "good.toml")).to_contain_text(GOOD_SHOWN)
    line = page.evaluate("name => import('./store.js').then(s => s.summaries()).then(lines => lines[name])", name)
    assert line["players"] == ["Gil", "Hal"]  # stored again, plain
    assert api(page, "POST", "/api/matches/good.toml/hands", {"knocker": "Ann", "deadwood": 1, "opponent_deadwood": 9}) == 201
    assert phone.problems == []


def test_a_time_out_of_range_lists_the_others_and_names_that_match(phone: Phone, tmp_path: Path, run: Any):
    from test_ranges import far_file

    page = phone.main
    good_match(page)
    far = far_file(run, tmp_path / "far.toml")
    visit(page, "/")  # opened, it is refused as validate refuses it
    page.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(str(far))
    said = page.locator("#open-said")
    expect(said).to_contain_text(f"far.toml: hands[2].recorded: '{FAR}' is a time that cannot be shown in every time zone")
    assert stored(page, "far.toml") is None
    # stored by an earlier build, which did not check: listed as broken, every other match shown
    page.evaluate(PUT, ["matches", "far.toml", far.read_text(encoding="utf-8")])
    page.evaluate(PUT, ["generations", "far.toml", 1])
    visit(page, "/")
    expect(page.locator("#main")).to_contain_text("far.toml")
    expect(page.locator("#main")).to_contain_text("hands[2].recorded")
    expect(listed(page, "good.toml")).to_contain_text(GOOD_SHOWN)
    expect(page.locator("h1")).to_have_text("Matches")
    # a stored summary with such a time, for a sound text: computed again
    good = page.evaluate("import('./store.js').then(s => s.summaries()).then(lines => lines['good.toml'])")
    page.evaluate(PUT, ["summaries", "good.toml", {**good, "last_played": FAR}])
    visit(page, "/")
    expect(listed(page, "good.toml")).to_contain_text(GOOD_SHOWN)
    expect(page.locator("h1")).to_have_text("Matches")
    assert "Something went wrong" not in page.locator("#main").inner_text()
    assert page.evaluate("import('./store.js').then(s => s.summaries()).then(lines => lines['good.toml'].last_played)") != FAR
    page.evaluate("import('./store.js').then(s => s.remove('far.toml'))")


def test_a_name_too_long_is_refused_by_the_apps_form_beside_its_field(phone: Phone):
    page = phone.main
    visit(page, "/")
    box = page.locator("#player1")
    assert box.get_attribute("maxlength") == str(NAME_MOST)
    box.evaluate("box => box.removeAttribute('maxlength')")  # as a page from before the limit would send it
    box.fill(LONG_NAME)
    page.locator("#player2").fill("Bob")
    page.get_by_label("File name").fill("long.toml")
    page.get_by_label("File name").press("Enter")  # the dealer's buttons, named as typed, are far too wide to tap past
    refused = page.locator("[data-refusal]")
    expect(refused).to_contain_text(f"it has 10,000 characters, and a name has at most {NAME_MOST}")
    assert stored(page, "long.toml") is None
    assert api(page, "POST", "/api/matches", {"file": "long.toml", "players": [LONG_NAME, "Bob"]}) == 400


def test_a_file_named_as_new_refuses_is_refused_when_opened(phone: Phone, tmp_path: Path, run: Any):
    page = phone.main
    made = tmp_path / "made.toml"
    assert run("new", made, "Cy", "Di").exit_code == 0
    visit(page, "/")
    page.get_by_label(re.compile(r"^A match file \(\.toml\)")).set_input_files(
        {"name": "con.toml", "mimeType": "text/plain", "buffer": made.read_bytes()})
    said = page.locator("#open-said")
    expect(said).to_contain_text("'con.toml' cannot be a new match file's name: con is a device's name on Windows")
    assert stored(page, "con.toml") is None
    assert COMMAND_WORDS.search(said.inner_text()) is None


def test_another_tab_holding_the_lock_forever_is_said_and_nothing_is_saved(phone: Phone):
    page = phone.main
    good_match(page)
    hands = api(page, "GET", "/api/matches/good.toml")
    assert hands == 200
    count = stored(page, "good.toml").count("[[hands]]")
    other = phone.page()
    # another tab of the app's origin, offline from the service worker: the lock is the origin's, and this tab need
    # not start a second Python to hold it
    other.goto(phone.host.url + "build.json")
    other.evaluate("() => new Promise(held => { navigator.locks.request('ginscore-matches', () => { held(); return new Promise(() => {}); }); })")  # held forever
    try:
        page.bring_to_front()
        visit(page, "/m/good.toml")  # a page only reads: shown though the lock is held
        expect(page.locator("table.hands tbody tr.hand")).to_have_count(count)
        page.get_by_role("link", name="Record a hand").tap()
        page.wait_for_url("**/record")
        page.get_by_text("Ann", exact=True).tap()
        page.get_by_text("Counts", exact=True).tap()
        page.get_by_label("Knocker's count").fill("4")
        page.get_by_label("Opponent's count").fill("19")
        page.locator(".preview-words").wait_for()  # a preview takes no lock
        assert api(page, "POST", "/api/advise", {"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"}) == 200  # nor does advice
        assert api(page, "POST", "/api/matches/good.toml/preview", {"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 19}) == 200
        page.get_by_role("button", name="Save the hand", exact=True).tap()
        banner = page.locator("#no-answer")
        expect(banner).to_contain_text("Another tab of the app is busy with the matches: close it or wait", timeout=15000)
        expect(banner).to_contain_text("Nothing was saved.")
        expect(banner).to_be_in_viewport()
        assert page.get_attribute("#page", "aria-busy") == "false"
        assert stored(page, "good.toml").count("[[hands]]") == count
    finally:
        other.close()
    page.locator("#no-answer").get_by_role("button", name="Try again").tap()
    expect(page.locator("#no-answer")).to_be_hidden()


def test_the_store_deleted_under_an_open_match_page_is_said_on_the_next_request(phone: Phone):
    page = phone.main
    good_match(page, "kept.toml")
    visit(page, "/m/kept.toml")
    page.evaluate("new Promise(r => { const d = indexedDB.deleteDatabase('ginscore'); d.onsuccess = d.onerror = d.onblocked = r; })")
    banner = page.locator("#no-answer")
    expect(banner).to_contain_text("The matches kept in this browser were deleted", timeout=15000)  # the sheet's poll
    expect(banner).to_contain_text("nothing was saved")
    banner.get_by_role("button", name="Show the matches").tap()
    expect(banner).to_be_hidden()
    expect(page.locator("h1")).to_have_text("Matches")


def test_a_worker_gone_after_start_up_is_said_within_the_deadline(phone: Phone):
    """Last: the page's worker is stopped, as a crash stops it, and the page says so."""
    page = phone.main
    good_match(page)
    visit(page, "/m/good.toml")
    count = page.locator("table.hands tbody tr.hand").count()
    page.evaluate("window.workers.forEach(w => w.terminate())")
    page.clock.install()  # the page's timers from now on are Playwright's clock's, which runs on as time does
    page.get_by_role("link", name="Record a hand").tap()
    banner = page.locator("#no-answer")
    for _ in range(6):  # the clock moved on 5 s at a time: the page's deadlines pass without 20 s of waiting
        page.clock.fast_forward(5000)
        if banner.is_visible():
            break
    expect(banner).to_contain_text("The score pad did not answer within", timeout=25000)  # 20 s for a page, or the heartbeat
    expect(banner).to_contain_text("a hand you were saving is saved only if its sheet shows it after the reload")
    expect(banner).to_be_in_viewport()
    assert page.get_attribute("#page", "aria-busy") == "false"
    assert COMMAND_WORDS.search(banner.inner_text()) is None
    banner.get_by_role("button", name="Reload the score pad").tap()
    ready(page)
    visit(page, "/m/good.toml")
    expect(page.locator("table.hands tbody tr.hand")).to_have_count(count)  # nothing acknowledged was lost


@pytest.mark.parametrize("damage", [lambda data: data[: len(data) // 2], lambda data: b"PK\x03\x04" + bytes(400)], ids=["cut-short", "not-a-zip"])
def test_a_damaged_archive_is_said_in_words(browser: Any, phone: Phone, tmp_path: Path, damage: Any):
    import json
    import shutil

    root = tmp_path / "host"
    shutil.copytree(phone.root / "pocket" / "app", root / "pocket" / "app")
    app = root / "pocket" / "app"
    lean = json.loads((app / "build.json").read_text())["archives"]["lean"]
    (app / lean).write_bytes(damage((app / lean).read_bytes()))
    host = Host(root)
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto(host.url)
        said = page.locator("#starting")
        expect(said).to_have_text(f"The score pad could not start here: its files are damaged ({lean} is not the file this build wrote). "
                                  "Reload the page to try again; your matches are kept.", timeout=60000)
        assert "Traceback" not in said.inner_text()
    finally:
        context.close()
        host.stop()
