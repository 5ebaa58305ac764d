"""serve's handover pages through Starlette's TestClient: a match's QR codes, the scan page, the codes posted and
merged by the one rule, refusals in a person's words, and the pinned decoder served from the cache."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from handover_matches import long_match
from starlette.testclient import TestClient

from ginscore.files.handover import payloads
from ginscore.web import decoder
from ginscore.web.asgi import create_app

TOKEN = "test-token"
BASE = "http://127.0.0.1:8000"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    """Phone A's folder with a 12-hand match, phone B's with its first 8 hands (a byte prefix of A's file)."""
    mine, theirs = tmp_path / "a", tmp_path / "b"
    mine.mkdir()
    theirs.mkdir()
    whole = long_match(mine / "friday.toml", 12).read_bytes()
    cut = [found.start() for found in re.finditer(rb"^\[\[hands\]\]$", whole, re.MULTILINE)][8]
    (theirs / "friday.toml").write_bytes(whole[:cut].rstrip(b"\n") + b"\n")
    return mine, theirs


def client_of(folder: Path) -> TestClient:
    return TestClient(create_app(str(folder), TOKEN, ["127.0.0.1:8000"]), base_url=BASE)


@pytest.fixture
def phone_b(folders: tuple[Path, Path]) -> Iterator[TestClient]:
    with client_of(folders[1]) as client:
        assert client.get(f"/?token={TOKEN}").status_code == 200
        yield client


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def scan(client: TestClient, codes: list[str]):
    page = client.get("/scan").text
    return client.post("/scan", data={"csrf": csrf(page), "codes": "\n".join(codes)}, follow_redirects=False)


def test_the_match_page_links_its_codes_and_the_home_page_the_scanner(folders):
    with client_of(folders[0]) as client:
        home = client.get(f"/?token={TOKEN}").text
        assert '<a href="/scan">Scan a match</a>' in home
        assert '<a href="/m/friday.toml/qr">Show as QR</a>' in client.get("/m/friday.toml").text


def test_the_qr_page_draws_every_code_labelled_k_of_n_in_a_column(folders):
    codes = payloads((folders[0] / "friday.toml").read_bytes())
    assert len(codes) > 1
    with client_of(folders[0]) as client:
        client.get(f"/?token={TOKEN}")
        page = client.get("/m/friday.toml/qr")
    assert page.status_code == 200
    assert page.text.count('<svg viewBox=') == len(codes)
    labels = re.findall(r'<figcaption class="qr-label">([^<]+)</figcaption>', page.text)
    assert labels == [f"{number} of {len(codes)}" for number in range(1, len(codes) + 1)]
    assert "/static/handover.js" in page.text
    assert "ginscore" not in re.sub(r"<[^>]+>|ginscore</title>|· ginscore", "", page.text).replace("/static/", "")


def test_a_missing_match_has_no_codes(phone_b):
    page = phone_b.get("/m/nothing.toml/qr")
    assert page.status_code == 404 and "No such match" in page.text


def test_codes_posted_are_joined_and_merged_adding_the_hands_the_phone_lacked(folders, phone_b):
    mine, theirs = folders
    codes = payloads((mine / "friday.toml").read_bytes())
    answer = scan(phone_b, list(reversed(codes)) + codes[:1])
    assert answer.status_code == 303
    assert answer.headers["location"] == "/m/friday.toml?merged=added&added=4"
    assert (theirs / "friday.toml").read_bytes() == (mine / "friday.toml").read_bytes()
    assert "The copy added 4 hands" in phone_b.get(answer.headers["location"]).text


def test_a_match_the_phone_lacks_is_kept_as_a_new_file(folders, tmp_path):
    empty = tmp_path / "c"
    empty.mkdir()
    with client_of(empty) as client:
        client.get(f"/?token={TOKEN}")
        answer = scan(client, payloads((folders[0] / "friday.toml").read_bytes()))
    assert answer.status_code == 303
    [kept] = list(empty.glob("*.toml"))
    assert kept.read_bytes() == (folders[0] / "friday.toml").read_bytes()
    assert "merged=new" in answer.headers["location"]


@pytest.mark.parametrize("codes, said", [
    (lambda made: made[:1], "missing: scan them too"),
    (lambda made: [made[0], payloads(b"other")[0]], "different matches"),
    (lambda made: ["hello"], "is not a code of a match shown by ginscore"),
    (lambda made: [], "no codes were read"),
    (lambda made: payloads(b"\xff\xfe not text"), "do not hold a match file"),
    (lambda made: payloads(b"title = 'a shopping list'\n"), "is this a ginscore match file?"),
])
def test_codes_that_cannot_be_used_are_said_and_nothing_is_written(folders, phone_b, codes, said):
    before = (folders[1] / "friday.toml").read_bytes()
    made = payloads((folders[0] / "friday.toml").read_bytes())
    answer = scan(phone_b, codes(made))
    assert answer.status_code in (400, 422)
    assert said in answer.text
    assert (folders[1] / "friday.toml").read_bytes() == before
    assert sorted(path.name for path in folders[1].glob("*.toml")) == ["friday.toml"]


def test_a_scan_without_the_form_s_csrf_is_refused(phone_b, folders):
    answer = phone_b.post("/scan", data={"codes": "\n".join(payloads((folders[0] / "friday.toml").read_bytes()))})
    assert answer.status_code == 403


def test_the_decoder_is_served_from_the_cache_only_when_it_is_the_pinned_one(phone_b, tmp_path, monkeypatch):
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "cache"))
    assert phone_b.get("/scan/decoder.js").status_code == 404
    folder = Path(decoder.decoder_folder())
    folder.mkdir(parents=True)
    (folder / decoder.DECODER_NAME).write_text("window.jsQR = function () { return null; };\n")
    assert phone_b.get("/scan/decoder.js").status_code == 404  # not the pinned bytes
    shipped = ROOT / "node_modules" / "jsqr" / "dist" / "jsQR.js"
    if not shipped.is_file():
        pytest.skip("npm ci has not filled node_modules")
    (folder / decoder.DECODER_NAME).write_bytes(shipped.read_bytes())
    answer = phone_b.get("/scan/decoder.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert hashlib.sha256(answer.content).hexdigest() == decoder.JSQR_SHA256


def test_the_decoder_s_pin_is_package_lock_s():
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/jsqr"]
    assert (pinned["version"], pinned["integrity"]) == (decoder.JSQR_VERSION, decoder.JSQR_INTEGRITY)
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert package["devDependencies"]["jsqr"] == decoder.JSQR_VERSION


def test_the_scan_page_has_its_form_its_camera_and_no_command_line_words(phone_b):
    page = phone_b.get("/scan").text
    assert '<form method="post" action="/scan" class="scan-form">' in page
    assert 'name="codes"' in page and 'data-decoder="/scan/decoder.js"' in page
    visible = re.sub(r"<[^>]+>", " ", page)
    for word in ("ginscore app", "npm", "--", "toml", "command"):
        assert word not in visible.replace("· ginscore", "")


def test_codes_posted_with_a_form_s_line_breaks_are_joined_alike(folders, phone_b):
    mine, theirs = folders
    codes = payloads((mine / "friday.toml").read_bytes())
    page = phone_b.get("/scan").text
    answer = phone_b.post("/scan", data={"csrf": csrf(page), "codes": "\r\n".join(codes) + "\r\n"}, follow_redirects=False)
    assert answer.status_code == 303
    assert (theirs / "friday.toml").read_bytes() == (mine / "friday.toml").read_bytes()


def test_a_scanned_copy_that_differs_is_a_conflict_chosen_on_the_merge_page(folders, phone_b):
    from ginscore.files import changes
    from ginscore.match.entry import HandEntry

    mine, theirs = folders
    changes.record(str(theirs / "friday.toml"), HandEntry(knocker="Tom", deadwood=3, opponent_deadwood=30))  # B's own hand 9
    before = (theirs / "friday.toml").read_bytes()
    answer = scan(phone_b, payloads((mine / "friday.toml").read_bytes()))
    assert answer.status_code == 200
    assert "Two copies of this match differ" in answer.text
    assert re.findall(r'<th scope="row">Hand (\d+)</th>', answer.text)[0] == "9"  # from the hand B told otherwise
    for label in ("Keep mine", "Take theirs", "Keep both"):
        assert label in answer.text
    assert (theirs / "friday.toml").read_bytes() == before  # nothing written before the choice
