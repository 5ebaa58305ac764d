"""The JSON API of `ginscore serve`, through Starlette's TestClient: every route and status, the token, the Host,
Origin and CSRF checks, hostile file names, the body cap, and files left byte for byte as they were after a refusal.

Answers are compared with what the command line prints for the same thing (`show --json`, `check --json`,
`advise --json`, and its one error line), so the two front ends cannot drift apart.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
from pathlib import Path

import pytest
from conftest import json_object, one_error_line
from starlette.requests import Request
from starlette.testclient import TestClient

from ginscore.match.entry import HAND_FIELDS
from ginscore.web.asgi import create_app
from ginscore.web.security import BODY_SECONDS, MAX_BODY, Guard, check_csrf, cookie_name, csrf_token

TOKEN = "test-token"
COOKIE = cookie_name(TOKEN)
BASE = "http://127.0.0.1:8000"
HOSTS = ["127.0.0.1:8000", "localhost:8000"]
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HAND = {"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 20}
# The best spread for the knocker (A-2-3c and the sixes, 8 dead) wins 2; the lowest count (2) is undercut for 11.
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    served = tmp_path / "served"
    served.mkdir()
    return served


@pytest.fixture
def app(folder: Path):
    return create_app(str(folder), TOKEN, HOSTS)


@pytest.fixture
def client(app) -> TestClient:
    return TestClient(app, base_url=BASE)


@pytest.fixture
def api(client: TestClient) -> TestClient:
    """A client that sends the token as a Bearer header, as a script does."""
    client.headers.update(AUTH)
    return client


@pytest.fixture
def match(api: TestClient, folder: Path) -> Path:
    """`m.toml`: Ann and Bob, standard rules, two hands."""
    assert api.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"]}).status_code == 201
    for expected in range(2):
        assert api.post("/api/matches/m.toml/hands", json={**HAND, "expected_hands": expected}).status_code == 201
    return folder / "m.toml"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in and around the folder, by name: a refusal must leave all of them as they were."""
    return {str(p.relative_to(folder.parent)): p.read_bytes() for p in sorted(folder.parent.rglob("*")) if p.is_file()}


def error_of(response, status: int, field: str | None = None) -> str:
    """A refusal's message; it says which field it is about (`field`, when the test names one)."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    data = response.json()
    assert list(data) == ["error", "field"] and isinstance(data["error"], str) and data["error"]
    if field is not None:
        assert data["field"] == field, data
    return data["error"]


# --- the token -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer"}])
def test_the_api_needs_the_token(client: TestClient, headers: dict[str, str]):
    assert "token" in error_of(client.get("/api/matches", headers=headers), 401)


def test_a_bearer_token_opens_the_api(api: TestClient):
    assert api.get("/api/matches").json() == []


def test_the_token_in_the_url_sets_a_cookie_and_redirects_without_it(client: TestClient):
    response = client.get("/?token=" + TOKEN, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert TOKEN not in cookie  # the cookie holds a value derived from the token, not the token itself
    assert client.get("/api/matches").status_code == 200  # the client kept the cookie


def test_the_redirect_keeps_the_other_query_parameters(client: TestClient):
    response = client.get(f"/m.toml?x=1&token={TOKEN}&y=2", follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, "/m.toml?x=1&y=2")


@pytest.mark.parametrize(
    ("url", "location"),
    [
        (f"{BASE}//evil.example/?token={TOKEN}", "/evil.example/"),
        (f"/m/caf%C3%A9%20x.toml?token={TOKEN}", "/m/caf%C3%A9%20x.toml"),
    ],
)
def test_the_redirect_stays_on_this_server_and_keeps_the_path_as_sent(client: TestClient, url: str, location: str):
    response = client.get(url, follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, location)


def test_a_wrong_token_in_the_url_is_refused_and_sets_nothing(client: TestClient):
    response = client.get("/?token=nope", follow_redirects=False)
    assert response.status_code == 401 and "set-cookie" not in response.headers
    assert "text/html" in response.headers["content-type"]


def test_two_servers_on_one_host_keep_their_own_cookies(folder: Path):
    """Browsers share cookies across the ports of a host: each server's cookie has a name of its own."""
    first = TestClient(create_app(str(folder), "one", HOSTS), base_url=BASE)
    second_app = create_app(str(folder), "two", HOSTS)
    first.get("/?token=one")
    second = TestClient(second_app, base_url=BASE, cookies=first.cookies)
    second.get("/?token=two")
    first.cookies.update(second.cookies)
    assert first.get("/api/matches").status_code == 200
    assert cookie_name("one") != cookie_name("two")


def test_a_forged_cookie_is_refused(client: TestClient):
    client.cookies.set(COOKIE, "forged")
    assert client.get("/api/matches").status_code == 401


def test_pages_without_the_token_get_a_401_page(client: TestClient):
    response = client.get("/")
    assert response.status_code == 401 and "text/html" in response.headers["content-type"]


def test_static_files_need_no_token(client: TestClient):
    assert client.get("/static/no-such-file.css").status_code == 404


# --- Host, Origin, CSRF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example:8000", "127.0.0.1:9999", "127.0.0.1", "localhost", "192.168.1.5:8000", ""])
def test_a_host_the_server_was_not_started_for_is_refused(api: TestClient, host: str):
    assert "Host" in error_of(api.get("/api/matches", headers={"host": host}), 400)


def test_localhost_is_a_host_too(api: TestClient):
    assert api.get("/api/matches", headers={"host": "localhost:8000"}).status_code == 200


def test_the_lan_addresses_given_are_hosts_too(folder: Path):
    lan = TestClient(create_app(str(folder), TOKEN, [*HOSTS, "192.168.1.5:8000"]), base_url="http://192.168.1.5:8000")
    assert lan.get("/api/matches", headers=AUTH).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1:8000"])
def test_a_write_from_another_origin_is_refused_and_writes_nothing(api: TestClient, match: Path, origin: str):
    before = snapshot(match.parent)
    response = api.post("/api/matches/m.toml/hands", json=HAND, headers={"origin": origin})
    assert "another site" in error_of(response, 403)
    assert snapshot(match.parent) == before


def test_a_write_from_the_same_origin_is_allowed(api: TestClient, match: Path):
    assert api.post("/api/matches/m.toml/hands", json=HAND, headers={"origin": BASE}).status_code == 201


def test_a_read_needs_no_origin_check(api: TestClient):
    assert api.get("/api/matches", headers={"origin": "http://evil.example"}).status_code == 200


def test_a_cookie_write_needs_the_csrf_header(client: TestClient, app, match: Path):
    client.headers.pop("Authorization", None)
    client.get("/?token=" + TOKEN)
    before = snapshot(match.parent)
    assert "CSRF" in error_of(client.post("/api/matches/m.toml/hands", json=HAND), 403)
    assert "CSRF" in error_of(client.post("/api/matches/m.toml/hands", json=HAND, headers={"x-csrf-token": "nope"}), 403)
    assert snapshot(match.parent) == before
    assert client.post("/api/matches/m.toml/hands", json=HAND, headers={"x-csrf-token": app.state.csrf}).status_code == 201


def test_csrf_helpers(app):
    request = Request({"type": "http", "app": app, "headers": []})
    assert csrf_token(request) == app.state.csrf and TOKEN not in csrf_token(request)
    assert check_csrf(request, {"csrf": csrf_token(request)})
    assert not check_csrf(request, {"csrf": "nope"})
    assert not check_csrf(request, {})
    with_header = Request({"type": "http", "app": app, "headers": [(b"x-csrf-token", app.state.csrf.encode())]})
    assert check_csrf(with_header, {})


def test_the_csrf_token_differs_with_the_access_token(folder: Path):
    assert create_app(str(folder), "one", HOSTS).state.csrf != create_app(str(folder), "two", HOSTS).state.csrf


# --- headers on every response -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "headers", "status"),
    [
        ("GET", "/api/matches", AUTH, 200),
        ("GET", "/api/matches", {}, 401),
        ("GET", "/api/matches/none.toml", AUTH, 404),
        ("GET", "/api/matches", {**AUTH, "host": "evil.example"}, 400),
        ("GET", f"/?token={TOKEN}", {}, 303),
        ("POST", "/api/check", {**AUTH, "content-length": str(MAX_BODY + 1)}, 413),
    ],
)
def test_security_headers_on_every_response(client: TestClient, method: str, path: str, headers: dict, status: int):
    response = client.request(method, path, headers=headers, content=b"x" * (MAX_BODY + 1) if status == 413 else None, follow_redirects=False)
    assert response.status_code == status
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "*" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


# --- the folder ------------------------------------------------------------------------------------------------


def test_the_listing_shows_every_file_with_its_status(api: TestClient, match: Path, folder: Path):
    (folder / "junk.toml").write_text("x = 1\n")
    (folder / "broken.toml").write_text("# ginscore match file\n[match]\nplayers = ['Ann']\n")
    (folder / "notes.txt").write_text("not listed")
    (folder / ".hidden.toml").write_text("not listed")
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.toml").write_text("not listed")
    listed = {entry["name"]: entry for entry in api.get("/api/matches").json()}
    assert list(listed) == ["broken.toml", "junk.toml", "m.toml"]
    assert listed["m.toml"]["players"] == ["Ann", "Bob"]
    assert listed["m.toml"]["totals"] == {"Ann": 32, "Bob": 0}
    assert (listed["m.toml"]["status"], listed["m.toml"]["reason"], listed["m.toml"]["hands"]) == ("playing", None, 2)
    assert listed["m.toml"]["last_played"].startswith("20")
    assert listed["broken.toml"]["status"] == "broken"
    assert listed["junk.toml"]["status"] == "not a match"
    for name in ("broken.toml", "junk.toml"):
        reason = listed[name]["reason"]
        assert isinstance(reason, str) and reason and "\n" not in reason


def test_a_finished_match_is_listed_as_finished(api: TestClient):
    api.post("/api/matches", json={"file": "short.toml", "players": ["Ann", "Bob"], "set": ["target=10"]})
    api.post("/api/matches/short.toml/hands", json={**HAND, "opponent_deadwood": 40})
    [entry] = api.get("/api/matches").json()
    assert entry["status"] == "finished" and entry["winner"] == "Ann"


def test_a_new_match_is_what_show_json_prints(api: TestClient, folder: Path, run):
    response = api.post("/api/matches", json={"file": "n.toml", "players": ["Ann", "Bob"], "rules": "oklahoma", "note": "Friday", "dealer": "Bob"})
    assert response.status_code == 201
    data = response.json()
    assert data.pop("name") == "n.toml"
    assert data == json_object(run("show", str(folder / "n.toml"), "--json"))
    assert data["rules"]["oklahoma"] is True and data["note"] == "Friday" and data["next_dealer"] == "Bob"


def test_new_takes_set_as_an_object_and_hollywood(api: TestClient):
    data = api.post("/api/matches", json={"file": "h.toml", "players": ["Ann", "Bob"], "set": {"target": 150, "undercut_on_tie": True}, "hollywood": True}).json()
    assert data["rules"]["target"] == 150 and data["hollywood"] is True


def test_new_never_replaces_a_file(api: TestClient, match: Path):
    before = snapshot(match.parent)
    assert "already exists" in error_of(api.post("/api/matches", json={"file": "m.toml", "players": ["Cy", "Di"]}), 409)
    assert snapshot(match.parent) == before


@pytest.mark.parametrize(
    "fields",
    [
        {"file": "../x.toml", "players": ["Ann", "Bob"]},
        {"file": "/tmp/x.toml", "players": ["Ann", "Bob"]},
        {"file": "sub/x.toml", "players": ["Ann", "Bob"]},
        {"file": "x.txt", "players": ["Ann", "Bob"]},
        {"file": "x\x00.toml", "players": ["Ann", "Bob"]},
        {"file": "x.toml", "players": ["Ann"]},
        {"file": "x.toml"},
        {"players": ["Ann", "Bob"]},
        {"file": "x.toml", "players": ["Ann", "Bob"], "force": True},
        {"file": "x.toml", "players": ["Ann", "Bob"], "rules": "nope"},
        {"file": "x.toml", "players": ["Ann", "Bob"], "set": ["target=-1"]},
        {"file": 7, "players": ["Ann", "Bob"]},
    ],
)
def test_a_bad_new_match_is_refused_and_creates_nothing(api: TestClient, folder: Path, fields: dict):
    before = snapshot(folder)
    error_of(api.post("/api/matches", json=fields), 400)
    assert snapshot(folder) == before


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"', b"{" * 5000])
def test_a_body_that_is_not_a_json_object_is_400(api: TestClient, folder: Path, body: bytes):
    assert "JSON" in error_of(api.post("/api/matches", content=body), 400)


# --- one match -----------------------------------------------------------------------------------------------


def test_show_is_exactly_show_json(api: TestClient, match: Path, run):
    assert api.get("/api/matches/m.toml").json() == json_object(run("show", str(match), "--json"))


def test_a_recorded_hand_is_the_hand_show_json_gives(api: TestClient, match: Path, run):
    response = api.post("/api/matches/m.toml/hands", json={"knocker": "bob", "cards": BEST_K, "opponent_cards": BEST_O, "note": "close one", "expected_hands": 2})
    assert response.status_code == 201
    hand = response.json()
    assert hand == json_object(run("show", str(match), "--json"))["hands"][2]
    assert (hand["derived"]["number"], hand["knocker"], hand["derived"]["result"], hand["derived"]["points"], hand["note"]) == (3, "Bob", "knock", 2, "close one")


ROUND_TRIPS = {
    "counts": ("standard", {"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 20, "note": "by the counts"}),
    "cards": ("standard", {"knocker": "bob", "cards": BEST_K, "opponent_cards": BEST_O}),
    "cards with a chosen spread": ("standard", {"knocker": "Ann", "cards": BEST_K, "opponent_cards": BEST_O, "spread": "lowest"}),
    "eleven cards and a discard": ("standard", {"knocker": "Ann", "cards": "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h",
                                                "discard": "9h", "opponent_cards": "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"}),
    "oklahoma with an up-card": ("oklahoma", {"knocker": "Bob", "deadwood": 3, "opponent_deadwood": 25, "upcard": "4s"}),
    "cancelled": ("standard", {"cancelled": True, "note": "Bob's phone rang"}),
}


@pytest.mark.parametrize("kind", ROUND_TRIPS)
def test_a_hand_read_from_the_api_and_posted_back_unchanged_is_taken_and_comes_back_the_same(api: TestClient, run, folder: Path, kind: str):
    rules, fields = ROUND_TRIPS[kind]
    assert api.post("/api/matches", json={"file": "r.toml", "players": ["Ann", "Bob"], "rules": rules}).status_code == 201
    first = {"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 9, **({"upcard": "Kh"} if rules == "oklahoma" else {})}
    assert api.post("/api/matches/r.toml/hands", json=first).status_code == 201
    assert api.post("/api/matches/r.toml/hands", json=fields).status_code == 201
    shown = api.get("/api/matches/r.toml").json()
    read = shown["hands"][1]
    assert set(read) == {*HAND_FIELDS, "derived"}  # the entry's names, and what is derived apart
    assert api.delete("/api/matches/r.toml/hands/last?expected_hands=2").json()["removed"] == read

    # posted back as it was read, the hand is taken and is the same hand, derived parts and all
    again = api.post("/api/matches/r.toml/hands", json=read)
    assert again.status_code == 201, again.text
    assert again.json() == read
    assert api.get("/api/matches/r.toml").json() == shown == json_object(run("show", str(folder / "r.toml"), "--json"))

    # put back in its own place, and previewed, it is the same hand too
    assert api.put("/api/matches/r.toml/hands/2", json=read).json() == read
    assert api.post("/api/matches/r.toml/preview", json=read).json()["hand"]["derived"]["points"] == read["derived"]["points"]

    # and as one more hand, it scores the same: only its place on the sheet differs
    later = api.post("/api/matches/r.toml/hands", json=read).json()
    assert {name: later[name] for name in HAND_FIELDS} == {name: read[name] for name in HAND_FIELDS}
    told = ("result", "points", "deadwood", "opponent_deadwood", "layoffs")
    assert {name: later["derived"][name] for name in told} == {name: read["derived"][name] for name in told}
    assert later["derived"]["number"] == 3


def test_the_hands_json_shown_in_the_docs_is_what_the_api_answers(api: TestClient):
    """docs/serve.md's "A hand's JSON" shows three hands as the API answers them: it must stay true."""
    page = (Path(__file__).parent.parent / "docs" / "serve.md").read_text(encoding="utf-8")
    block = page.split("### A hand's JSON", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    shown = [json.loads(text) for text in block.replace("\n ", " ").strip().split("\n")]
    assert api.post("/api/matches", json={"file": "friday.toml", "players": ["Ann", "Bob"], "rules": "oklahoma"}).status_code == 201
    for hand in ({"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 31, "upcard": "7h"},
                 {"knocker": "Bob", "cards": BEST_K, "opponent_cards": BEST_O, "upcard": "Kd", "spread": "lowest"},
                 {"cancelled": True, "note": "Bob's phone rang"}):
        assert api.post("/api/matches/friday.toml/hands", json=hand).status_code == 201
    assert api.get("/api/matches/friday.toml").json()["hands"] == shown


def test_what_is_derived_is_ignored_when_posted_back(api: TestClient, match: Path):
    hand = api.get("/api/matches/m.toml").json()["hands"][0]
    told = {**hand, "derived": {**hand["derived"], "points": 99, "winner": "Bob"}}
    posted = api.post("/api/matches/m.toml/hands", json=told).json()
    assert (posted["derived"]["points"], posted["derived"]["winner"]) == (16, "Ann")
    error_of(api.post("/api/matches/m.toml/hands", json={**hand, "derived": 16}), 400, "derived")


def test_form_strings_are_read_as_the_cli_reads_options(api: TestClient, match: Path):
    fields = {"knocker": "Ann", "deadwood": "0", "opponent_deadwood": "12", "big_gin": "false", "cancelled": "", "cards": "", "expected_hands": "2"}
    assert api.post("/api/matches/m.toml/hands", json=fields).json()["derived"]["result"] == "gin"


def test_a_cancelled_hand(api: TestClient, match: Path):
    hand = api.post("/api/matches/m.toml/hands", json={"cancelled": True}).json()
    assert hand["derived"]["result"] == "cancelled" and hand["derived"]["points"] == 0


def refused_like_the_cli(api: TestClient, match: Path, run, fields: dict, options: list[str], status: int, field: str) -> None:
    """The API and `record` refuse with the same words; the API names the field, the CLI the option that mends it."""
    before = snapshot(match.parent)
    message = error_of(api.post("/api/matches/m.toml/hands", json=fields), status, field)
    assert snapshot(match.parent) == before
    assert one_error_line(run("record", str(match), *options)) == f"error: --{field.replace('_', '-')}: {message}"
    assert "--" not in message
    assert snapshot(match.parent) == before


def test_an_illegal_knock_is_422_with_the_cli_message(api: TestClient, match: Path, run):
    refused_like_the_cli(api, match, run, {**HAND, "deadwood": 13}, ["--knocker", "Ann", "--deadwood", "13", "--opponent-deadwood", "20"], 422, "deadwood")


def test_a_card_that_is_not_a_card_is_400_with_the_cli_message(api: TestClient, match: Path, run):
    cards = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2x"
    refused_like_the_cli(api, match, run, {"knocker": "Ann", "cards": cards, "opponent_deadwood": 20}, ["--knocker", "Ann", "--cards", cards, "--opponent-deadwood", "20"], 400, "cards")


def test_an_unknown_player_is_400_with_the_cli_message(api: TestClient, match: Path, run):
    refused_like_the_cli(api, match, run, {**HAND, "knocker": "Cy"}, ["--knocker", "Cy", "--deadwood", "4", "--opponent-deadwood", "20"], 400, "knocker")


def test_a_hand_over_a_finished_game_is_422(api: TestClient, folder: Path):
    api.post("/api/matches", json={"file": "short.toml", "players": ["Ann", "Bob"], "set": ["target=10"]})
    api.post("/api/matches/short.toml/hands", json={**HAND, "opponent_deadwood": 40})
    before = snapshot(folder)
    assert "the match is over" in error_of(api.post("/api/matches/short.toml/hands", json=HAND), 422)
    assert snapshot(folder) == before


@pytest.mark.parametrize(
    "fields",
    [
        {**HAND, "deadwood": "four"},
        {**HAND, "deadwood": True},
        {**HAND, "deadwood": 1.5},
        {**HAND, "cancelled": "maybe"},
        {**HAND, "knocker": 3},
        {**HAND, "surprise": 1},
        {**HAND, "expected_hands": "x"},
        {"knocker": "Ann"},
        {},
    ],
)
def test_bad_hand_fields_are_400_and_write_nothing(api: TestClient, match: Path, fields: dict):
    before = snapshot(match.parent)
    error_of(api.post("/api/matches/m.toml/hands", json=fields), 400)
    assert snapshot(match.parent) == before


@pytest.mark.parametrize("expected", [0, 1, 3, 99])
def test_a_stale_expected_hands_is_409_and_writes_nothing(api: TestClient, match: Path, expected: int):
    before = snapshot(match.parent)
    message = error_of(api.post("/api/matches/m.toml/hands", json={**HAND, "expected_hands": expected}), 409)
    assert "m.toml now has 2 hands" in message and "nothing was written" in message
    assert str(match.parent) not in message  # the file is named as the person named it, not by the server's path
    assert snapshot(match.parent) == before


def test_a_double_tap_records_one_hand(api: TestClient, match: Path):
    first = api.post("/api/matches/m.toml/hands", json={**HAND, "expected_hands": 2})
    second = api.post("/api/matches/m.toml/hands", json={**HAND, "expected_hands": 2})
    assert (first.status_code, second.status_code) == (201, 409)
    assert len(api.get("/api/matches/m.toml").json()["hands"]) == 3


def test_preview_scores_without_writing_and_offers_both_spreads(api: TestClient, match: Path):
    before = snapshot(match.parent)
    response = api.post("/api/matches/m.toml/preview", json={"knocker": "Ann", "cards": BEST_K, "opponent_cards": BEST_O})
    assert response.status_code == 200
    assert snapshot(match.parent) == before
    data = response.json()
    assert data["expected_hands"] == 2
    assert (data["hand"]["derived"]["number"], data["hand"]["derived"]["result"], data["hand"]["derived"]["points"]) == (3, "knock", 2)
    assert data["spread"]["derived"] == {"result": "knock", "winner": "knocker", "points": 2, "deadwood": 8, "opponent_deadwood": 10}
    assert data["lowest"]["derived"] == {"result": "undercut", "winner": "opponent", "points": 11, "deadwood": 2, "opponent_deadwood": 1}
    # the spread the player says was laid down is recorded as given
    laid = {"knocker": "Ann", "cards": data["lowest"]["cards"], "opponent_cards": BEST_O, "expected_hands": 2}
    hand = api.post("/api/matches/m.toml/hands", json=laid).json()
    assert (hand["derived"]["result"], hand["derived"]["winner"], hand["derived"]["points"]) == ("undercut", "Bob", 11)


def test_preview_of_eleven_cards_names_the_discard(api: TestClient, match: Path):
    data = api.post("/api/matches/m.toml/preview", json={"knocker": "Ann", "cards": "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "opponent_cards": "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"}).json()
    assert data["spread"]["discard"] == "9h" and data["lowest"] is None
    laid = {"knocker": "Ann", "cards": data["spread"]["cards"], "discard": "9h", "opponent_cards": "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"}
    assert api.post("/api/matches/m.toml/hands", json=laid).json()["derived"]["points"] == data["hand"]["derived"]["points"]


def test_preview_by_counts_has_no_spread(api: TestClient, match: Path):
    data = api.post("/api/matches/m.toml/preview", json=HAND).json()
    assert data["spread"] is None and data["lowest"] is None and data["hand"]["derived"]["points"] == 16


def test_preview_refuses_as_record_does(api: TestClient, match: Path):
    error_of(api.post("/api/matches/m.toml/preview", json={**HAND, "deadwood": 13}), 422)


def test_undo_removes_the_last_hand_the_person_saw(api: TestClient, match: Path):
    response = api.delete("/api/matches/m.toml/hands/last?expected_hands=2")
    assert response.status_code == 200
    data = response.json()
    assert data["removed"]["derived"]["number"] == 2 and data["hands"] == 1 and data["totals"] == {"Ann": 16, "Bob": 0}
    assert len(api.get("/api/matches/m.toml").json()["hands"]) == 1


@pytest.mark.parametrize(("query", "status"), [("?expected_hands=1", 409), ("?expected_hands=3", 409), ("", 400), ("?expected_hands=two", 400)])
def test_an_undo_without_the_right_count_removes_nothing(api: TestClient, match: Path, query: str, status: int):
    before = snapshot(match.parent)
    error_of(api.delete("/api/matches/m.toml/hands/last" + query), status)
    assert snapshot(match.parent) == before


def test_undo_with_no_hands_is_422(api: TestClient, folder: Path):
    api.post("/api/matches", json={"file": "e.toml", "players": ["Ann", "Bob"]})
    before = snapshot(folder)
    assert "no hands to undo" in error_of(api.delete("/api/matches/e.toml/hands/last?expected_hands=0"), 422)
    assert snapshot(folder) == before


def test_edit_replaces_a_hand(api: TestClient, match: Path, run):
    response = api.put("/api/matches/m.toml/hands/1", json={"knocker": "Bob", "deadwood": 2, "opponent_deadwood": 30})
    assert response.status_code == 200
    hand = response.json()
    assert hand == json_object(run("show", str(match), "--json"))["hands"][0]
    assert (hand["knocker"], hand["derived"]["points"]) == ("Bob", 28)


@pytest.mark.parametrize(
    ("number", "fields", "status"),
    [
        ("3", HAND, 400),
        ("0", HAND, 400),
        ("one", HAND, 400),
        ("1", {**HAND, "deadwood": 13}, 422),
        ("1", {**HAND, "expected_hands": 1}, 409),
    ],
)
def test_a_refused_edit_writes_nothing(api: TestClient, match: Path, number: str, fields: dict, status: int):
    before = snapshot(match.parent)
    error_of(api.put(f"/api/matches/m.toml/hands/{number}", json=fields), status)
    assert snapshot(match.parent) == before


def test_version_changes_when_the_file_does(api: TestClient, match: Path):
    first = api.get("/api/matches/m.toml/version").json()["version"]
    assert api.get("/api/matches/m.toml/version").json()["version"] == first
    api.post("/api/matches/m.toml/hands", json=HAND)
    assert api.get("/api/matches/m.toml/version").json()["version"] != first


@pytest.mark.parametrize(("kind", "media"), [("csv", "text/csv"), ("md", "text/markdown"), ("html", "text/html"), ("svg", "image/svg+xml")])
def test_exports_are_downloads(api: TestClient, match: Path, kind: str, media: str):
    response = api.get(f"/api/matches/m.toml/export/{kind}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media)
    assert response.headers["content-disposition"] == f"attachment; filename=\"m.{kind}\"; filename*=UTF-8''m.{kind}"
    assert response.content


def test_an_export_of_a_name_with_other_letters_has_a_plain_fallback(api: TestClient, match: Path):
    match.rename(match.with_name("café \"x\".toml"))  # made elsewhere: a new file may not have a " in its name
    disposition = api.get("/api/matches/café \"x\".toml/export/csv").headers["content-disposition"]
    assert disposition == "attachment; filename=\"caf_ _x_.csv\"; filename*=UTF-8''caf%C3%A9%20%22x%22.csv"


def test_an_unknown_export_is_400(api: TestClient, match: Path):
    error_of(api.get("/api/matches/m.toml/export/pdf"), 400)


def test_a_broken_file_is_422_with_its_problem(api: TestClient, folder: Path):
    (folder / "broken.toml").write_text("# ginscore match file\n[match]\nplayers = ['Ann']\n")
    assert error_of(api.get("/api/matches/broken.toml"), 422).startswith("broken.toml: ")


# --- hostile names ---------------------------------------------------------------------------------------------


HOSTILE = ["..%2Fx.toml", "..%2F..%2Fx.toml", "%2Fetc%2Fpasswd", "a%2Fb.toml", "x%00.toml", "x.txt", "nope.toml", ".hidden.toml", "..", "%2E%2E", "sub"]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_file_names_are_404_and_touch_nothing(api: TestClient, match: Path, name: str):
    folder = match.parent
    (folder.parent / "x.toml").write_bytes(match.read_bytes())  # a real match just outside the folder
    (folder / "x.txt").write_bytes(match.read_bytes())
    (folder / ".hidden.toml").write_bytes(match.read_bytes())
    (folder / "sub").mkdir()
    (folder / "sub" / "b.toml").write_bytes(match.read_bytes())
    before = snapshot(folder)
    for method, path, body in [
        ("GET", f"/api/matches/{name}", None),
        ("GET", f"/api/matches/{name}/version", None),
        ("GET", f"/api/matches/{name}/export/csv", None),
        ("POST", f"/api/matches/{name}/hands", HAND),
        ("POST", f"/api/matches/{name}/preview", HAND),
        ("PUT", f"/api/matches/{name}/hands/1", HAND),
        ("DELETE", f"/api/matches/{name}/hands/last?expected_hands=2", None),
    ]:
        response = api.request(method, path, json=body)
        assert response.status_code == 404, (method, path, response.text)
        error_of(response, 404)
    assert snapshot(folder) == before


def test_an_absolute_path_in_the_url_is_404(api: TestClient, match: Path):
    assert api.get("/api/matches//etc/passwd").status_code == 404
    assert api.get("/api/matches/../../etc/passwd").status_code == 404


def test_a_link_the_user_put_in_the_folder_is_followed(api: TestClient, match: Path):
    outside = match.parent.parent / "elsewhere.toml"
    match.rename(outside)
    (match.parent / "linked.toml").symlink_to(outside)
    assert len(api.get("/api/matches/linked.toml").json()["hands"]) == 2
    assert api.post("/api/matches/linked.toml/hands", json=HAND).status_code == 201
    assert (match.parent / "linked.toml").is_symlink()  # the file it leads to was replaced, the link kept
    assert outside.read_text().count("[[hands]]") == 3
    assert [entry["name"] for entry in api.get("/api/matches").json()] == ["linked.toml"]


def test_a_link_to_nothing_is_listed_as_not_a_match_file(api: TestClient, folder: Path):
    (folder / "gone.toml").symlink_to(folder / "missing.toml")
    assert api.get("/api/matches").json() == []
    error_of(api.get("/api/matches/gone.toml"), 404)


def test_a_failure_no_route_caught_is_a_500_without_a_traceback(api: TestClient, app, monkeypatch: pytest.MonkeyPatch, caplog):
    def broken() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(app.state.folder, "listing", broken)
    response = api.get("/api/matches")
    assert "server failed" in error_of(response, 500)
    assert "Traceback" not in response.text and "a bug" not in response.text
    assert response.headers["x-frame-options"] == "DENY"
    assert "a bug" in caplog.text  # in the server's log instead


def test_an_unknown_api_route_is_a_json_404(api: TestClient):
    error_of(api.get("/api/nothing"), 404)


def test_a_wrong_method_is_a_json_405(api: TestClient, match: Path):
    error_of(api.delete("/api/matches/m.toml"), 405)


# --- the body cap --------------------------------------------------------------------------------------------------


def test_a_body_over_64_kb_is_413_and_writes_nothing(api: TestClient, match: Path):
    before = snapshot(match.parent)
    big = {**HAND, "note": "x" * MAX_BODY}
    assert "64 KB" in error_of(api.post("/api/matches/m.toml/hands", json=big), 413)
    assert snapshot(match.parent) == before


def test_a_chunked_body_over_64_kb_is_413_and_writes_nothing(api: TestClient, match: Path):
    before = snapshot(match.parent)

    def chunks():
        yield b'{"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 20, "note": "'
        for _ in range(20):
            yield b"x" * 4096

    response = api.post("/api/matches/m.toml/hands", content=chunks())  # no Content-Length: sent chunked
    assert "64 KB" in error_of(response, 413)
    assert snapshot(match.parent) == before


def test_a_body_just_under_the_cap_is_read(api: TestClient, match: Path):
    response = api.post("/api/check", content=json.dumps({"cards": "3h 4h 5h KS KC KD 7c 8c 9c 2d" + " " * (MAX_BODY - 100)}))
    assert response.status_code == 200


async def _reads_the_body(scope, receive, send):
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"read"})


def guarded_post(receive) -> list[dict]:
    """What the guard (body limit 0.2 s) sends back for a POST whose body comes through `receive`."""

    async def main() -> list[dict]:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        scope = {
            "type": "http", "method": "POST", "path": "/api/check", "query_string": b"", "scheme": "http",
            "headers": [(b"host", b"127.0.0.1:8000"), (b"authorization", f"Bearer {TOKEN}".encode())],
        }
        guard = Guard(_reads_the_body, TOKEN, HOSTS, body_seconds=0.2)
        await asyncio.wait_for(guard(scope, receive, send), 5)
        return sent

    # in a thread of its own: a browser test's Playwright may hold this thread's event loop for the whole session
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=10)


def test_a_half_sent_body_is_let_go_with_408():
    """The guard stops waiting for a body that stops arriving (bounded: 0.2 s here, `BODY_SECONDS` in use)."""
    assert BODY_SECONDS <= 60
    messages = [{"type": "http.request", "body": b"{", "more_body": True}]

    async def receive():
        if messages:
            return messages.pop()
        await asyncio.sleep(30)  # the rest never comes
        raise AssertionError("waited too long")

    sent = guarded_post(receive)
    assert sent[0]["status"] == 408
    assert b"did not arrive" in sent[1]["body"]


# --- check and advise --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "options"),
    [
        ({"cards": "3h 4h 5h KS KC KD 7c 8c 9c 2d"}, ["3h", "4h", "5h", "KS", "KC", "KD", "7c", "8c", "9c", "2d"]),
        ({"cards": ["2c", "3c", "4c", "9d", "9h", "9s", "Jh", "Qh", "Kh", "5d"], "upcard": "3s"}, ["2c", "3c", "4c", "9d", "9h", "9s", "Jh", "Qh", "Kh", "5d", "--upcard", "3s"]),
        ({"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs", "knock_limit": "5"}, ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d", "Qs", "--knock-limit", "5"]),
        ({"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d", "rules": "tournament", "set": ["knock_limit=7"]}, ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d", "--rules", "tournament", "--set", "knock_limit=7"]),
    ],
)
def test_check_is_check_json(api: TestClient, run, fields: dict, options: list[str]):
    response = api.post("/api/check", json=fields)
    assert response.status_code == 200
    assert response.json() == json_object(run("check", *options, "--json"))


@pytest.mark.parametrize(
    ("fields", "options"),
    [
        ({"cards": "3h 4h 5h KS KC KD 7c 8c 9c"}, ["3h", "4h", "5h", "KS", "KC", "KD", "7c", "8c", "9c"]),
        ({"cards": "3h 4h 5h KS KC KD 7c 8c 9c 1x"}, ["3h", "4h", "5h", "KS", "KC", "KD", "7c", "8c", "9c", "1x"]),
        ({"cards": "3h 4h 5h KS KC KD 7c 8c 9c 2d", "knock_limit": 5, "set": ["knock_limit=4"]}, ["3h", "4h", "5h", "KS", "KC", "KD", "7c", "8c", "9c", "2d", "--knock-limit", "5", "--set", "knock_limit=4"]),
    ],
)
def test_check_refuses_as_check_does(api: TestClient, run, fields: dict, options: list[str]):
    response = api.post("/api/check", json=fields)
    message, field = error_of(response, 400), response.json()["field"]
    option = {"knock_limit": "--knock-limit: ", "set": "--set: "}.get(field, "")  # `check` takes its cards as arguments
    assert one_error_line(run("check", *options)) == f"error: {option}{message}"


def test_check_needs_cards(api: TestClient):
    error_of(api.post("/api/check", json={}), 400)
    error_of(api.post("/api/check", json={"cards": "3h 4h 5h KS KC KD 7c 8c 9c 2d", "seen": "Jd"}), 400)


def test_advise_is_advise_json(api: TestClient, run):
    fields = {"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs", "seen": "Jd 6s", "stock": 20, "samples": 200, "seed": 7}
    response = api.post("/api/advise", json=fields)
    assert response.status_code == 200
    options = ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d", "Qs", "--seen", "Jd 6s", "--stock", "20", "--samples", "200", "--seed", "7", "--json"]
    assert response.json() == json_object(run("advise", *options))


def test_advise_caps_the_samples(api: TestClient):
    assert "at most" in error_of(api.post("/api/advise", json={"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs", "samples": 10**9}), 400)


def test_the_served_folder_is_the_one_given(app, folder: Path):
    assert app.state.folder.path == os.path.abspath(folder)


# --- found on a second read ----------------------------------------------------------------------------------


def test_a_trickled_body_is_let_go_with_408_however_often_a_byte_comes():
    """One time limit for the whole body: a byte every little while does not keep the request open forever."""
    pieces = 20

    async def receive():
        nonlocal pieces
        await asyncio.sleep(0.05)  # each piece well inside the limit, the whole body far past it
        pieces -= 1
        return {"type": "http.request", "body": b"x", "more_body": pieces > 0}

    assert guarded_post(receive)[0]["status"] == 408


def signed_in(client: TestClient) -> TestClient:
    assert client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    return client


def test_a_page_form_over_the_cap_is_413_not_a_failed_page(client: TestClient, folder: Path):
    def chunks():
        for _ in range(20):
            yield b"note=" + b"x" * 4096

    headers = {"content-type": "application/x-www-form-urlencoded", "origin": BASE}
    response = signed_in(client).post("/new", content=chunks(), headers=headers)
    assert response.status_code == 413
    assert list(folder.iterdir()) == []


def test_a_broken_multipart_form_is_400_not_a_failed_page(client: TestClient):
    headers = {"content-type": "multipart/form-data", "origin": BASE}
    assert signed_in(client).post("/new", content=b"--x\r\n", headers=headers).status_code == 400


def test_another_apps_odd_cookie_does_not_hide_ours(client: TestClient):
    """Browsers share cookies across the ports of 127.0.0.1: one that SimpleCookie cannot parse comes first here."""
    signed_in(client)
    session = client.cookies.get(COOKIE)
    client.cookies.clear()
    response = client.get("/api/matches", headers={"cookie": f'json={{"a":1}}; {COOKIE}={session}'})
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/matches/m.toml/hands", {**HAND, "note": "\ud800"}),
        ("/api/matches", {"file": "n\udc80.toml", "players": ["Cy", "Dee"]}),
        ("/api/matches/m.toml/preview", {**HAND, "note": "x\udc80"}),
    ],
)
def test_half_a_character_in_json_is_400_and_writes_nothing(api: TestClient, match: Path, path: str, body: dict):
    before = snapshot(match.parent)
    response = api.post(path, content=json.dumps(body).encode(), headers={"content-type": "application/json"})
    assert "lone surrogate" in error_of(response, 400)
    assert snapshot(match.parent) == before


@pytest.mark.parametrize("name", ["a\nb.toml", "a\u202eb.toml", "tab\t.toml"])
def test_a_name_that_could_pass_for_another_is_no_match_file(api: TestClient, folder: Path, name: str):
    response = api.post("/api/matches", json={"file": name, "players": ["Cy", "Dee"]})
    assert response.status_code in (400, 404)
    assert list(folder.iterdir()) == []


def test_a_backslash_in_the_token_redirect_stays_on_this_server(client: TestClient):
    response = client.get(f"/\\evil.com?token={TOKEN}", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/%5Cevil.com"


def test_advice_is_given_one_request_at_a_time_and_other_requests_go_on(app, monkeypatch):
    """advise is pure Python: requests for it take turns (a dozen threads at once would starve the event loop),
    the ones past MOST_WAITING_ADVICE waiting get 503 at once, and a request for anything else is answered
    meanwhile."""
    import threading

    import httpx

    from ginscore.web import api as api_routes
    from ginscore.web.limits import MOST_WAITING_ADVICE

    running, most, release = [0], [0], threading.Event()
    lock = threading.Lock()

    def slow_advise(fields):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(10)
        with lock:
            running[0] -= 1
        return {"advised": True}

    monkeypatch.setattr(api_routes, "advise_fields", slow_advise)

    async def main() -> tuple[list[int], int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE, headers=AUTH) as client:
            asking = [asyncio.ensure_future(client.post("/api/advise", json={"cards": "x"})) for _ in range(MOST_WAITING_ADVICE + 3)]
            await asyncio.sleep(0.2)  # every request is in, the first one advising
            other = await asyncio.wait_for(client.get("/api/matches"), 2)
            release.set()
            return [(await answer).status_code for answer in asking], other.status_code

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        statuses, other = pool.submit(asyncio.run, main()).result(timeout=30)
    assert other == 200
    assert most[0] == 1
    assert sorted(statuses) == [200] * (MOST_WAITING_ADVICE + 1) + [503] * 2


def test_the_csv_and_markdown_exports_are_safe_to_open(api, folder):
    """The API's exports are `show --export`'s: a formula name is text in the CSV, markup is escaped in the Markdown."""
    formula, markup = '=HYPERLINK("http://evil.example","x")', '<img src="x" onerror="alert(7)">'
    assert api.post("/api/matches", json={"file": "m.toml", "players": [formula, markup]}).status_code == 201
    csv_text = api.get("/api/matches/m.toml/export/csv").text
    assert csv_text.splitlines()[0].endswith(',"\'=HYPERLINK(""http://evil.example"",""x"")",' + '"<img src=""x"" onerror=""alert(7)"">"')
    md_text = api.get("/api/matches/m.toml/export/md").text
    assert md_text.startswith('# =HYPERLINK("http://evil.example","x") vs \\<img src="x" onerror="alert(7)"\\>\n')
    assert md_text.count("<") == md_text.count("\\<")  # every < escaped


def test_a_hand_recorded_through_the_api_in_a_crlf_file_ends_its_lines_with_crlf(api, folder):
    assert api.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"]}).status_code == 201
    path = folder / "m.toml"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert api.post("/api/matches/m.toml/hands", json=HAND).status_code == 201
    assert api.put("/api/matches/m.toml/hands/1", json={**HAND, "deadwood": 5, "note": "a new line"}).status_code == 200
    data = path.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") and b"[[hands]]\r\n" in data


@pytest.mark.parametrize("name", ["CON.toml", "nul.toml", "com1.toml", "Lpt9.toml", "a:b.toml", "why?.toml", "a|b.toml", "<b>.toml", "a>b.toml"])
def test_a_new_match_file_name_that_does_not_travel_is_400_and_nothing_is_made(api, folder, name):
    answer = api.post("/api/matches", json={"file": name, "players": ["Ann", "Bob"]})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(f"{name!r} cannot be a new match file's name: ")
    assert answer.json()["error"].endswith(", so the file could not be copied to Windows or to many phones; pick another name")
    assert list(folder.iterdir()) == []
