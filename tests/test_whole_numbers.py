"""Whole numbers of any length, read one way (`game/numbers.py`) by every front end: 5,000 zeros then 3 is 3,
a number of more digits than any field takes is refused naming its field, and nothing but the digits 0-9 is a
number. Through the CLI (exit code, stdout, stderr), the JSON API and the pages (Starlette's TestClient)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import test_web_api
from conftest import one_error_line
from hypothesis import given
from hypothesis import strategies as st
from pages import signed_in
from starlette.testclient import TestClient
from test_web_api import AUTH

from ginscore.errors import InputError
from ginscore.files.served import Folder
from ginscore.game.numbers import MOST_DIGITS, parse_whole, read_whole

ZEROS_3 = "0" * 5000 + "3"
"""Three, after more zeros than Python reads in one number (4,300 digits)."""
ZEROS_1 = "0" * 5000 + "1"
HUGE = "0" * 5000 + "9" * 30
"""Thirty nines after the zeros: too large for any field."""
TOO_LARGE = f"'{'9' * 30}' is too large a number (more than {MOST_DIGITS} digits)"
LONG_JSON = "9" * 5000
"""A JSON number Python's `json.loads` alone cannot read (more than 4,300 digits)."""
KNOCK = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"


def naive_value(digits: str) -> int:
    """The oracle: a number from its digits, one at a time, with no string conversion at all."""
    value = 0
    for char in digits:
        value = value * 10 + "0123456789".index(char)
    return value


# --- the one reading --------------------------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=6000), st.text("0123456789", min_size=1, max_size=25))
def test_any_zeros_then_digits_read_as_the_oracle_reads_them(zeros, digits):
    text = "0" * zeros + digits
    value = naive_value(digits)
    if value < 10**MOST_DIGITS:
        assert parse_whole(text, "deadwood") == value
        assert read_whole(text) == value
    else:
        with pytest.raises(InputError) as caught:
            parse_whole(text, "deadwood")
        assert caught.value.field == "deadwood"
        assert "too large a number" in str(caught.value)


@pytest.mark.parametrize("text", ["", " ", "３", "٣", "²", "+3", "-3", "1_000", "1 2", "3.0", "0x1f", "1e3", "3\x00", "٣3"])
def test_only_the_digits_0_to_9_are_a_number(text):
    assert read_whole(text) is None
    with pytest.raises(InputError) as caught:
        parse_whole(text, "opponent_deadwood")
    assert caught.value.field == "opponent_deadwood"
    assert str(caught.value).endswith("is not a whole number: write it with the digits 0-9")


def test_a_minus_only_where_the_field_allows_one():
    assert parse_whole("-" + ZEROS_3, signed=True) == -3
    assert read_whole("-3") is None
    assert read_whole("--3", signed=True) is None
    assert read_whole(" 07 ") == 7  # spaces around a number are not inside it


def test_a_huge_number_is_refused_as_too_large_naming_its_field():
    with pytest.raises(InputError) as caught:
        read_whole(HUGE, "knock_limit")
    assert str(caught.value) == TOO_LARGE
    assert caught.value.field == "knock_limit"


# --- the command line -------------------------------------------------------------------------------------------


@pytest.fixture
def game(run, tmp_path: Path) -> Path:
    path = tmp_path / "g.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    return path


def test_record_reads_both_counts_of_any_length(run, game):
    result = run("record", game, "--knocker", "Ann", "--deadwood", ZEROS_3, "--opponent-deadwood", "0" * 5000 + "20")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "Ann scores 17" in result.stdout
    assert json.loads(run("show", game, "--json").stdout)["hands"][0]["derived"]["points"] == 17  # 20 - 3


@pytest.mark.parametrize("option", ["--deadwood", "--opponent-deadwood"])
def test_record_refuses_a_huge_count_naming_the_option(run, game, option):
    before = game.read_bytes()
    counts = {"--deadwood": "3", "--opponent-deadwood": "20", option: HUGE}
    result = run("record", game, "--knocker", "Ann", *[word for pair in counts.items() for word in pair])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"error: {option}: {TOO_LARGE}", "try 'ginscore record --help'"]
    assert game.read_bytes() == before


def test_new_set_reads_a_knob_of_any_length(run, tmp_path):
    path = tmp_path / "n.toml"
    result = run("new", path, "Ann", "Bob", "--set", f"target={ZEROS_3}")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "target 3" in result.stdout
    assert "target = 3\n" in path.read_text(encoding="utf-8")


def test_new_set_refuses_a_huge_knob_naming_it(run, tmp_path):
    result = run("new", tmp_path / "n.toml", "Ann", "Bob", "--set", f"target={HUGE}")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: --set: target must be a whole number from 1 to 100000, not '{'9' * 30}'"
    assert not (tmp_path / "n.toml").exists()


def test_edit_reads_a_hand_number_of_any_length(run, game):
    assert run("record", game, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "20").exit_code == 0
    result = run("edit", game, ZEROS_1, "--cancelled")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(run("show", game, "--json").stdout)["hands"][0]["derived"]["result"] == "cancelled"


SCORE = ["score", "--cards", KNOCK, "--opponent-cards", "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"]


def test_check_reads_a_knock_limit_of_any_length(run):
    result = run("check", *KNOCK.split(), "--knock-limit", ZEROS_3, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout)["knock_limit"] == 3


def test_score_reads_a_knock_limit_of_any_length(run):
    result = run(*SCORE, "--knock-limit", ZEROS_1)  # 2 deadwood: over a limit of 1
    assert result.exit_code == 1
    assert one_error_line(result).startswith("error: --cards: illegal knock: 2 deadwood is over the knock limit of 1,")


@pytest.mark.parametrize("command", [["check", *KNOCK.split()], SCORE])
def test_a_huge_knock_limit_is_refused_naming_the_option(run, command):
    result = run(*command, "--knock-limit", HUGE)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"error: --knock-limit: {TOO_LARGE}", f"try 'ginscore {command[0]} --help'"]


def test_advise_reads_its_numbers_of_any_length(run):
    result = run("advise", *KNOCK.split(), "Qs", "--samples", "0" * 5000 + "50", "--seed", ZEROS_1, "--stock", "0" * 5000 + "17", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    answer = json.loads(result.stdout)
    assert (answer["samples"], answer["seed"], answer["stock"]) == (50, 1, 17)


def test_serve_reads_its_port_of_any_length(run, tmp_path):
    result = run("serve", tmp_path, "--port", "0" * 5000 + "99999")  # read as 99999: no port, refused before listening
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --port: 99999 is not a port: give one from 1 to 65535, or 0 for any free one"


def test_play_reads_counts_of_any_length(run, game):
    result = run(["play", str(game)], input=f"a\n{ZEROS_3} {'0' * 5000}20\nq\n")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "Ann scores 17" in result.stdout
    assert json.loads(run("show", game, "--json").stdout)["hands"][0]["derived"]["points"] == 17


def test_play_refuses_a_huge_count_and_asks_again(run, game):
    before = game.read_bytes()
    result = run(["play", str(game)], input=f"a\n{HUGE}\nq\n")
    assert result.exit_code == 0, result.stderr
    assert f"{TOO_LARGE}. Try again." in result.stdout
    assert game.read_bytes() == before


# --- the JSON API -----------------------------------------------------------------------------------------------


folder, app, client = test_web_api.folder, test_web_api.app, test_web_api.client  # a served folder, and its app


@pytest.fixture
def api(client: TestClient) -> TestClient:
    """test_web_api's client that sends the token as a script does, over a folder with one match, `m.toml`."""
    client.headers.update(AUTH)
    assert client.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"]}).status_code == 201
    return client


def refusal(response, field: str) -> str:
    """The API's refusal: 400, `{"error", "field"}`, the field named."""
    assert response.status_code == 400, response.text
    answer = response.json()
    assert set(answer) == {"error", "field"}
    assert answer["field"] == field, answer
    message: str = answer["error"]
    return message


def raw_json(client: TestClient, method: str, url: str, body: str):
    """A request whose JSON body is given as text, so that a number can have any number of digits."""
    return client.request(method, url, content=body.encode(), headers={"content-type": "application/json"})


def test_api_records_counts_given_as_zero_padded_text(api, folder):
    response = api.post("/api/matches/m.toml/hands", json={"knocker": "Ann", "deadwood": ZEROS_3, "opponent_deadwood": "0" * 5000 + "20",
                                                           "expected_hands": "0" * 5000})
    assert response.status_code == 201, response.text
    assert Folder(str(folder)).show("m.toml")["hands"][0]["derived"]["points"] == 17


@pytest.mark.parametrize("field", ["deadwood", "opponent_deadwood", "expected_hands"])
def test_api_refuses_huge_numbers_by_field_as_text_or_json(api, folder, field):
    before = (folder / "m.toml").read_bytes()
    hand = {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20, "expected_hands": 0}
    as_text = api.post("/api/matches/m.toml/hands", json={**hand, field: HUGE})
    assert refusal(as_text, field) == TOO_LARGE
    body = json.dumps({**hand, field: 0}).replace(f'"{field}": 0', f'"{field}": {LONG_JSON}')
    as_number = raw_json(api, "POST", "/api/matches/m.toml/hands", body)
    assert refusal(as_number, field) == f"'{'9' * 40}…' is too large a number (more than {MOST_DIGITS} digits)"
    assert (folder / "m.toml").read_bytes() == before


def test_api_preview_reads_zero_padded_counts(api):
    response = api.post("/api/matches/m.toml/preview", json={"knocker": "Ann", "deadwood": ZEROS_3, "opponent_deadwood": 20})
    assert response.status_code == 200, response.text
    assert response.json()["hand"]["derived"]["points"] == 17
    refusal(raw_json(api, "POST", "/api/matches/m.toml/preview", f'{{"knocker": "Ann", "deadwood": {LONG_JSON}}}'), "deadwood")


def test_api_replaces_and_undoes_hands_numbered_with_zeros(api, folder):
    hand = {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20}
    assert api.post("/api/matches/m.toml/hands", json=hand).status_code == 201
    replaced = api.put(f"/api/matches/m.toml/hands/{ZEROS_1}", json={"cancelled": True})
    assert replaced.status_code == 200, replaced.text
    assert Folder(str(folder)).show("m.toml")["hands"][0]["derived"]["result"] == "cancelled"
    assert refusal(api.put(f"/api/matches/m.toml/hands/{HUGE}", json={"cancelled": True}), "number") == TOO_LARGE
    assert refusal(api.delete(f"/api/matches/m.toml/hands/last?expected_hands={HUGE}"), "expected_hands") == TOO_LARGE
    undone = api.delete(f"/api/matches/m.toml/hands/last?expected_hands={ZEROS_1}")
    assert undone.status_code == 200, undone.text
    assert Folder(str(folder)).show("m.toml")["hands"] == []


@pytest.mark.parametrize("settings", [{"target": ZEROS_3}, [f"target={ZEROS_3}"], f"target={ZEROS_3}"])
def test_api_new_match_reads_zero_padded_knobs(api, folder, settings):
    response = api.post("/api/matches", json={"file": "n.toml", "players": ["Ann", "Bob"], "set": settings})
    assert response.status_code == 201, response.text
    assert "target = 3\n" in (folder / "n.toml").read_text(encoding="utf-8")


def test_api_new_match_refuses_huge_knobs_naming_set(api, folder):
    message = refusal(raw_json(api, "POST", "/api/matches", f'{{"file": "n.toml", "players": ["Ann", "Bob"], "set": {{"target": {LONG_JSON}}}}}'), "set")
    assert message.startswith("target must be a whole number from 1 to 100000, not ")
    refusal(api.post("/api/matches", json={"file": "n.toml", "players": ["Ann", "Bob"], "set": [f"target={HUGE}"]}), "set")
    assert not (folder / "n.toml").exists()


def test_api_check_and_advise_read_zero_padded_numbers(api):
    checked = api.post("/api/check", json={"cards": KNOCK, "knock_limit": ZEROS_3})
    assert checked.status_code == 200, checked.text
    assert checked.json()["knock_limit"] == 3
    assert refusal(api.post("/api/check", json={"cards": KNOCK, "knock_limit": HUGE}), "knock_limit") == TOO_LARGE
    refusal(raw_json(api, "POST", "/api/check", f'{{"cards": "{KNOCK}", "knock_limit": {LONG_JSON}}}'), "knock_limit")
    refusal(raw_json(api, "POST", "/api/check", f'{{"cards": "{KNOCK}", "set": {{"knock_limit": {LONG_JSON}}}}}'), "set")
    advised = api.post("/api/advise", json={"cards": KNOCK + " Qs", "samples": "0" * 5000 + "50", "seed": ZEROS_1})
    assert advised.status_code == 200, advised.text
    assert advised.json()["samples"] == 50
    for field in ("stock", "samples", "seed"):
        refusal(raw_json(api, "POST", "/api/advise", f'{{"cards": "{KNOCK} Qs", "{field}": {LONG_JSON}}}'), field)


# --- the pages --------------------------------------------------------------------------------------------------


@pytest.fixture
def browser(folder: Path):
    with signed_in(folder) as client:
        yield client


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "no CSRF field on the page"
    return found.group(1)


def new_page_match(browser: TestClient, **fields: str):
    form = {"csrf": csrf(browser.get("/").text), "player1": "Ann", "player2": "Bob", "rules": "standard", "file": "p.toml", **fields}
    return browser.post("/new", data=form, follow_redirects=False)


def record_page(browser: TestClient, **fields: str):
    page = browser.get("/m/p.toml/record").text
    form = {"csrf": csrf(page), "action": "save", "knocker": "Ann", "how": "counts", **fields}
    return browser.post("/m/p.toml/record", data=form, follow_redirects=False)


def test_pages_read_numbers_of_any_length(browser, folder):
    assert new_page_match(browser, target=ZEROS_3 + "00").status_code == 303
    assert "target = 300\n" in (folder / "p.toml").read_text(encoding="utf-8")
    saved = record_page(browser, deadwood=ZEROS_3, opponent_deadwood="0" * 5000 + "20", expected_hands="0" * 5000)
    assert saved.status_code == 303, saved.text
    assert Folder(str(folder)).show("p.toml")["hands"][0]["derived"]["points"] == 17
    assert "Recorded hand 1." in browser.get(f"/m/p.toml?recorded={ZEROS_1}").text
    edit = browser.get(f"/m/p.toml/edit/{ZEROS_1}")
    assert edit.status_code == 200
    form = {"csrf": csrf(edit.text), "action": "save", "knocker": "Ann", "how": "counts", "deadwood": "0" * 5000 + "5",
            "opponent_deadwood": "20", "expected_hands": ZEROS_1}
    assert browser.post(f"/m/p.toml/edit/{ZEROS_1}", data=form, follow_redirects=False).status_code == 303
    assert Folder(str(folder)).show("p.toml")["hands"][0]["derived"]["points"] == 15
    undo = {"csrf": csrf(browser.get("/m/p.toml/undo").text), "expected_hands": ZEROS_1, "confirm": "yes"}
    assert browser.post("/m/p.toml/undo", data=undo, follow_redirects=False).status_code == 303
    assert Folder(str(folder)).show("p.toml")["hands"] == []


def test_pages_show_a_huge_number_refused_beside_its_field(browser, folder):
    assert new_page_match(browser).status_code == 303
    before = (folder / "p.toml").read_bytes()
    for field in ("deadwood", "opponent_deadwood"):
        counts = {"deadwood": "3", "opponent_deadwood": "20", field: HUGE}
        response = record_page(browser, **counts)
        assert response.status_code == 400
        assert re.search(rf'id="error-{field}" role="alert"[^>]*>&#39;9{{30}}&#39; is too large a number', response.text), response.text
    refused = new_page_match(browser, file="q.toml", target=HUGE)
    assert refused.status_code == 400 and "target must be a whole number from 1 to 100000" in refused.text
    assert not (folder / "q.toml").exists()
    assert browser.get(f"/m/p.toml/edit/{HUGE}").status_code == 404
    assert (folder / "p.toml").read_bytes() == before
