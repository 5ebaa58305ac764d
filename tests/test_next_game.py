"""The next game: from a finished match, a new match of the same players and rules, with no typing.

Through the service and through the pages (without a browser; the browser tests tap the same buttons). The
finished file is left byte for byte as it was, a new file is never put over another, and the first dealer is
the finished match's next dealer unless the person picks the other player.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ginscore.errors import ExistsError, GameOverError, RefusedError
from ginscore.files import changes
from ginscore.files.reading import load_file
from ginscore.game.rulebook import rules_from
from ginscore.match.entry import HandEntry, NewMatch
from ginscore.match.records import now
from ginscore.web.asgi import create_app

TOKEN = "t"
GIN = HandEntry(knocker="Bob", deadwood=0, opponent_deadwood=40)


def finished(path: Path) -> None:
    changes.start(str(path), NewMatch(["Ann", "Bob"], rules_from("tournament", ["target=50"]), "tournament", hollywood=False))
    while not changes.record(str(path), GIN).sheet.finished:
        pass


def test_the_next_game_keeps_players_rules_and_preset_and_leaves_the_old_file(tmp_path: Path) -> None:
    old = tmp_path / "old.toml"
    finished(old)
    before = old.read_bytes()
    sheet = changes.next_game(str(old), str(tmp_path / "new.toml"))
    new = load_file(str(tmp_path / "new.toml")).match
    assert old.read_bytes() == before
    assert (new.players, new.rules, new.preset, new.hands) == (("Ann", "Bob"), load_file(str(old)).match.rules, "tournament", ())
    assert new.first_dealer == load_file(str(old)).sheet.next_dealer == "Bob" == sheet.match.first_dealer  # the winner deals
    assert changes.next_game(str(old), str(tmp_path / "other.toml"), dealer="a").match.first_dealer == "Ann"


def test_the_next_game_never_replaces_a_file_and_needs_a_finished_match(tmp_path: Path) -> None:
    old = tmp_path / "old.toml"
    finished(old)
    taken = tmp_path / "taken.toml"
    taken.write_text("mine")
    with pytest.raises(ExistsError):
        changes.next_game(str(old), str(taken))
    assert taken.read_text() == "mine"
    playing = tmp_path / "playing.toml"
    changes.start(str(playing), NewMatch(["Ann", "Bob"], rules_from("standard", [])))
    with pytest.raises(RefusedError) as refused:
        changes.next_game(str(playing), str(tmp_path / "n.toml"))
    assert not isinstance(refused.value, GameOverError) and not (tmp_path / "n.toml").exists()


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    finished(tmp_path / "ann-bob.toml")
    client = TestClient(create_app(str(tmp_path), TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000")
    client.get(f"/?token={TOKEN}")
    return client


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_next_game_twice_in_a_row_with_no_typing(client: TestClient, tmp_path: Path) -> None:
    before = (tmp_path / "ann-bob.toml").read_bytes()
    page = client.get("/m/ann-bob.toml").text
    assert "Start the next game" in page and 'value="Bob" checked' in page  # the next dealer, shown before the tap
    first = client.post("/m/ann-bob.toml/next", data={"csrf": csrf(page), "dealer": "Bob"}, follow_redirects=False)
    day = now()[:10]
    assert first.status_code == 303 and first.headers["location"] == f"/m/ann-bob-{day}.toml"
    tapped_again = client.post("/m/ann-bob.toml/next", data={"csrf": csrf(page), "dealer": "Ann"}, follow_redirects=False)
    # a second tap, or the other phone's: the same game, saying it was started already (and who deals, as chosen then)
    assert tapped_again.headers["location"] == first.headers["location"] + "?started=earlier"
    told = client.get(tapped_again.headers["location"]).text
    assert "This game was started already, on this phone or another; Bob deals first." in told
    while not changes.record(str(tmp_path / f"ann-bob-{day}.toml"), GIN).sheet.finished:
        pass
    page = client.get(f"/m/ann-bob-{day}.toml").text
    second = client.post(f"/m/ann-bob-{day}.toml/next", data={"csrf": csrf(page), "dealer": "Ann"}, follow_redirects=False)
    assert second.headers["location"] == f"/m/ann-bob-{day}-2.toml"
    assert (tmp_path / "ann-bob.toml").read_bytes() == before
    assert load_file(str(tmp_path / f"ann-bob-{day}-2.toml")).match.first_dealer == "Ann"
    assert load_file(str(tmp_path / f"ann-bob-{day}.toml")).match.first_dealer == "Bob"


def test_once_the_next_game_is_started_the_finished_one_offers_to_open_it_not_to_start_another(client: TestClient) -> None:
    page = client.get("/m/ann-bob.toml").text
    started = client.post("/m/ann-bob.toml/next", data={"csrf": csrf(page), "dealer": "Ann"}, follow_redirects=False)
    for place in ("/m/ann-bob.toml", "/m/ann-bob.toml/sheet", "/m/ann-bob.toml/record"):
        again = client.get(place).text
        assert "Start the next game" not in again and 'name="dealer"' not in again, place
        link = re.search(r'<a class="button primary" href="([^"]+)">Game (\d+) is in play: open it</a>', again)
        assert link and link.group(1) == started.headers["location"] and link.group(2) == "2", place


def test_an_empty_game_offers_no_undo(client: TestClient) -> None:
    page = client.get("/m/ann-bob.toml").text
    started = client.post("/m/ann-bob.toml/next", data={"csrf": csrf(page)}, follow_redirects=False).headers["location"]
    fresh = client.get(started).text
    assert "Record a hand" in fresh and "Undo the last hand" not in fresh
    assert "Undo the last hand" in page  # the finished one has hands to undo


def test_the_record_page_of_a_finished_match_offers_the_next_game_before_any_typing(client: TestClient) -> None:
    page = client.get("/m/ann-bob.toml/record").text
    assert "The match is over" in page and "Start the next game" in page and 'name="knocker"' not in page
    assert not re.search(r"--[a-z]|ginscore new", page)


def test_a_hand_saved_on_a_match_finished_meanwhile_gets_the_next_game(client: TestClient, tmp_path: Path) -> None:
    page = client.get("/").text
    seen = str(len(load_file(str(tmp_path / "ann-bob.toml")).match.hands))
    form = {"csrf": csrf(page), "expected_hands": seen, "knocker": "Ann", "how": "counts", "deadwood": "3",
            "opponent_deadwood": "20", "action": "save"}
    response = client.post("/m/ann-bob.toml/record", data=form)
    assert response.status_code == 422 and "Start the next game" in response.text
    assert not re.search(r"--[a-z]|ginscore new", response.text)


def test_the_new_match_form_names_a_file_that_is_free_and_takes_the_dealer(client: TestClient, tmp_path: Path) -> None:
    page = client.get("/").text
    response = client.post("/new", data={"csrf": csrf(page), "player1": "Ann", "player2": "Bob", "rules": "standard", "dealer": "2"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == f"/m/ann-bob-{now()[:10]}.toml"
    assert load_file(str(tmp_path / f"ann-bob-{now()[:10]}.toml")).match.first_dealer == "Bob"


def test_a_hostile_count_of_hands_seen_is_refused_not_a_fault(client: TestClient, tmp_path: Path) -> None:
    page = client.get("/").text
    for also in ("²", "٣", "9" * 5000):
        response = client.post("/m/ann-bob.toml/record", data={"csrf": csrf(page), "knocker": "Ann", "how": "counts", "deadwood": "3",
                                                              "opponent_deadwood": "20", "also": also})
        assert response.status_code in (400, 422), also
    assert len(load_file(str(tmp_path / "ann-bob.toml")).match.hands) == 1


def test_players_whose_names_make_no_portable_file_still_get_a_next_game(tmp_path: Path) -> None:
    from ginscore.files.served import Folder

    path = tmp_path / "con-x.toml"
    changes.start(str(path), NewMatch(["CON", "!!!"], rules_from("standard", ["target=20"])))
    while not changes.record(str(path), HandEntry(knocker="CON", deadwood=0, opponent_deadwood=40)).sheet.finished:
        pass
    name, _ = Folder(str(tmp_path)).next_game("con-x.toml")
    assert name == "match.toml"
