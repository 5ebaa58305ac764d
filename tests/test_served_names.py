"""`serve` names every path a problem holds as the person named it: the match file, its lock file, and where a link
in the served folder leads inside it, by their names in the folder, on the page and in the API alike.

Each lock file here cannot be made or used by root either: a folder where the lock file must be, or a name one
byte too long for the system once the lock file's dot and `.lock` are added to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from ginscore.web.asgi import create_app

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HAND = {"knocker": "Ann", "deadwood": 4, "opponent_deadwood": 20}
LONG = "a" * 250 + ".toml"
"""The longest name a match file may have (255 bytes): its lock file's name (261) is too long for the system."""
STRANGE = ("is not a regular file, not one ginscore made: remove it if no ginscore is running; "
           "nothing was changed")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The served folder, with a folder `sub` in it."""
    served = tmp_path / "served"
    (served / "sub").mkdir(parents=True)
    return served


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    """A signed-in client over the folder once it holds `m.toml` and `LONG` (Ann and Bob, no hands yet), and
    `link.toml`, a link to `sub/real.toml`."""
    with TestClient(create_app(str(folder), TOKEN, ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as client:
        assert client.post("/api/matches", json={"file": "m.toml", "players": ["Ann", "Bob"]}, headers=AUTH).status_code == 201
        (folder / LONG).write_bytes((folder / "m.toml").read_bytes())  # no ginscore could make it: no lock file can be
        (folder / "sub" / "real.toml").write_bytes((folder / "m.toml").read_bytes())
        (folder / "link.toml").symlink_to("sub/real.toml")
        assert client.get(f"/?token={TOKEN}").status_code == 200  # sets the cookie
        yield client


def no_lock(folder: Path, name: str) -> None:
    """A folder where the lock file of `name` must be: no one, root included, can lock the file."""
    lock = folder / name
    lock.unlink(missing_ok=True)
    lock.mkdir()


def api_error(client: TestClient, name: str) -> str:
    answer = client.post(f"/api/matches/{name}/hands", json=HAND, headers=AUTH)
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["field"] == "file"
    return body["error"]


def page_error(client: TestClient, name: str) -> str:
    page = client.get(f"/m/{name}/record").text
    form = {
        "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1),  # type: ignore[union-attr]
        "expected_hands": "0", "action": "save", "knocker": "Ann", "how": "counts", "deadwood": "4",
        "opponent_deadwood": "20",
    }
    answer = client.post(f"/m/{name}/record", data=form, follow_redirects=False)
    assert answer.status_code == 422, answer.text
    shown = re.findall(r'<p class="error" id="error-form" role="alert" tabindex="-1" data-refusal>([^<]*)</p>', answer.text)
    assert len(shown) == 1, answer.text
    return shown[0]


@pytest.mark.parametrize("said", [api_error, page_error])
def test_a_lock_file_that_is_a_folder_is_named_inside_the_served_folder(client, folder, said):
    no_lock(folder, ".m.toml.lock")
    before = (folder / "m.toml").read_bytes()
    assert said(client, "m.toml") == f"m.toml: the lock file .m.toml.lock {STRANGE}"
    assert (folder / "m.toml").read_bytes() == before


@pytest.mark.parametrize("said", [api_error, page_error])
def test_a_lock_file_that_cannot_be_created_is_named_inside_the_served_folder(client, folder, said):
    before = {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}
    assert said(client, LONG) == f"{LONG}: cannot create the lock file .{LONG}.lock: the name is too long"
    assert {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()} == before


@pytest.mark.parametrize("said", [api_error, page_error])
def test_where_a_link_leads_inside_the_served_folder_is_named_there(client, folder, said):
    no_lock(folder / "sub", ".real.toml.lock")
    assert said(client, "link.toml") == f"link.toml: the lock file sub/.real.toml.lock {STRANGE}"


def test_the_command_line_still_names_the_lock_file_by_its_path(run, folder, client):
    no_lock(folder, ".m.toml.lock")
    done = run("record", str(folder / "m.toml"), "--knocker", "Ann", "--deadwood", "4", "--opponent-deadwood", "20")
    assert (done.exit_code, done.stdout) == (1, "")
    assert done.stderr == f"error: {folder / 'm.toml'}: the lock file {folder / '.m.toml.lock'} {STRANGE}\n"
