"""`CONIN$` and `CONOUT$` are device names like `CON` and `NUL`; a note refuses the controls that reorder text
(U+202E and the other bidirectional controls) as a player's name does, and keeps what text needs (a tab, emoji
joiners). Through the CLI (exit code, stdout, stderr) and the JSON API (Starlette's TestClient)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import one_error_line
from starlette.testclient import TestClient

from ginscore.errors import InputError
from ginscore.match.records import BIDI_CONTROLS, check_note, check_players
from ginscore.web.asgi import create_app

TOKEN = "names-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
REORDERING = sorted(BIDI_CONTROLS)


@pytest.mark.parametrize("name", ["CONIN$.toml", "CONOUT$.toml", "conin$.toml", "Conout$.backup.toml", "CONIN$ .toml"])
def test_new_refuses_the_console_device_names(run, tmp_path: Path, name: str):
    result = run("new", tmp_path / name, "Ann", "Bob")
    assert result.exit_code == 2
    stem = name.split(".")[0].rstrip(" ")
    assert one_error_line(result).startswith(f"error: {name!r} cannot be a new match file's name: {stem} is a device's name on Windows")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["CONINX.toml", "CONIN.toml", "xCONOUT$.toml"])
def test_names_near_the_console_devices_are_fine(run, tmp_path: Path, name: str):
    result = run("new", tmp_path / name, "Ann", "Bob")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert (tmp_path / name).exists()


@pytest.mark.parametrize("char", REORDERING)
def test_a_note_refuses_each_control_a_name_refuses_that_reorders_text(char: str):
    with pytest.raises(InputError):
        check_players([f"Ann{char}", "Bob"])
    with pytest.raises(InputError) as caught:
        check_note(f"for {char}Bob")
    assert str(caught.value) == (f"a note cannot hold the invisible control {char!r} (U+{ord(char):04X}), which reorders the text "
                                 "around it: write it as plain text, without it")


@pytest.mark.parametrize("note", ["tab\there", "👨\u200d👩\u200d👧 family night", "می\u200cخواهم", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"])
def test_a_note_keeps_what_text_needs(note: str):
    assert check_note(note) == note


def test_record_refuses_a_note_with_a_right_to_left_override(run, tmp_path: Path):
    path = tmp_path / "g.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    before = path.read_bytes()
    result = run("record", path, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "20", "--note", "paid \u202e02$")
    assert result.exit_code == 2
    assert one_error_line(result) == ("error: --note: a note cannot hold the invisible control '\\u202e' (U+202E), which reorders "
                                      "the text around it: write it as plain text, without it")
    assert path.read_bytes() == before


def test_new_refuses_a_match_note_with_a_right_to_left_override(run, tmp_path: Path):
    result = run("new", tmp_path / "g.toml", "Ann", "Bob", "--note", "\u202eBob wins")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "'\\u202e' (U+202E), which reorders the text around it" in result.stderr
    assert not (tmp_path / "g.toml").exists()


def test_a_hand_edited_note_with_a_right_to_left_override_is_a_problem_of_the_file(run, tmp_path: Path):
    path = tmp_path / "g.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, "--knocker", "Ann", "--deadwood", "3", "--opponent-deadwood", "20", "--note", "fine").exit_code == 0
    path.write_text(path.read_text(encoding="utf-8").replace('note = "fine"', 'note = "fi\u202ene"'), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1
    assert "hands[1].note: a note cannot hold the invisible control '\\u202e'" in result.stdout + result.stderr


def test_the_api_refuses_console_names_and_reordering_notes_by_field(tmp_path: Path):
    api = TestClient(create_app(str(tmp_path), TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000")
    api.headers.update(AUTH)
    for name in ("CONIN$.toml", "conout$.toml"):
        response = api.post("/api/matches", json={"file": name, "players": ["Ann", "Bob"]})
        assert response.status_code == 400, response.text
        assert response.json()["field"] == "file"
    assert list(tmp_path.iterdir()) == []
    note = api.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"], "note": "a\u2067b"})
    assert note.status_code == 400 and note.json()["field"] == "note", note.text
    assert api.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"]}).status_code == 201
    before = (tmp_path / "m.toml").read_bytes()
    hand = api.post("/api/matches/m.toml/hands", json={"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20, "note": "x\u202ey"})
    assert hand.status_code == 400 and hand.json()["field"] == "note", hand.text
    assert (tmp_path / "m.toml").read_bytes() == before


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_name_refuses_a_line_or_paragraph_separator_inside_it_as_a_note_does(separator: str):
    with pytest.raises(InputError):
        check_players([f"Ann{separator}Lee", "Bob"])
    with pytest.raises(InputError):
        check_note(f"one{separator}two")
