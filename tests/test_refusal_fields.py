"""Every refusal names its field, through each front end, in that front end's words.

The same wrong hand is given to `ginscore record`, to the API and to the record page. The API's JSON carries the
field; the CLI puts the option that mends it before the message; the page shows the message beside that field's
control, tied to it with `aria-describedby` (and `aria-invalid` where the control can be invalid). Neither the API
nor a page ever names a command-line option or a `ginscore` command. And no code decides anything by an error's
words: the last test reads every module to make sure.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import one_error_line
from starlette.testclient import TestClient

from ginscore.web.asgi import create_app

TOKEN = "t"
BASE = "http://127.0.0.1:8000"
KNOCK_K = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"
KNOCK_O = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
PACKAGE = Path(__file__).resolve().parent.parent / "ginscore"

# (the field, the API's JSON, the same hand as the page's form, the rules the match plays by)
CASES = [
    ("knocker", {"deadwood": 3, "opponent_deadwood": 20}, {"how": "counts", "deadwood": "3", "opponent_deadwood": "20"}, "standard"),
    ("knocker", {"knocker": "Zed", "deadwood": 3, "opponent_deadwood": 20}, None, "standard"),
    ("deadwood", {"knocker": "Ann", "deadwood": 13, "opponent_deadwood": 20},
     {"knocker": "Ann", "how": "counts", "deadwood": "13", "opponent_deadwood": "20"}, "standard"),
    ("deadwood", {"knocker": "Ann", "opponent_deadwood": 20}, {"knocker": "Ann", "how": "counts", "opponent_deadwood": "20"}, "standard"),
    ("opponent_deadwood", {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 99},
     {"knocker": "Ann", "how": "counts", "deadwood": "3", "opponent_deadwood": "99"}, "standard"),
    ("opponent_deadwood", {"knocker": "Ann", "deadwood": 3}, {"knocker": "Ann", "how": "counts", "deadwood": "3"}, "standard"),
    ("cards", {"knocker": "Ann", "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2x", "opponent_deadwood": 20}, None, "standard"),
    ("cards", {"knocker": "Ann", "cards": "3h 4h 5h Ks Qc Jd 7c 8c 9c 2d", "opponent_cards": KNOCK_O},
     {"knocker": "Ann", "how": "cards", "cards": "3h 4h 5h Ks Qc Jd 7c 8c 9c 2d", "opponent_cards": KNOCK_O}, "standard"),
    ("opponent_cards", {"knocker": "Ann", "cards": KNOCK_K, "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c"},
     {"knocker": "Ann", "how": "cards", "cards": KNOCK_K, "opponent_cards": "Qh Qd 5s 6s 7s Jc 4d 8h 2c"}, "standard"),
    ("opponent_cards", {"knocker": "Ann", "cards": KNOCK_K, "opponent_cards": "3h Qd 5s 6s 7s Jc 4d 8h 2c Ac"},
     {"knocker": "Ann", "how": "cards", "cards": KNOCK_K, "opponent_cards": "3h Qd 5s 6s 7s Jc 4d 8h 2c Ac"}, "standard"),
    ("discard", {"knocker": "Ann", "cards": KNOCK_K + " 9h", "discard": "Qs", "opponent_cards": KNOCK_O},
     {"knocker": "Ann", "how": "cards", "cards": KNOCK_K + " 9h", "discard": "Qs", "opponent_cards": KNOCK_O}, "standard"),
    ("upcard", {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20},
     {"knocker": "Ann", "how": "counts", "deadwood": "3", "opponent_deadwood": "20"}, "oklahoma"),
    ("upcard", {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20, "upcard": "Xx"},
     {"knocker": "Ann", "how": "counts", "deadwood": "3", "opponent_deadwood": "20", "upcard": "Xx"}, "oklahoma"),
    ("note", {"knocker": "Ann", "deadwood": 3, "opponent_deadwood": 20, "note": "bad\u0007"},
     {"knocker": "Ann", "how": "counts", "deadwood": "3", "opponent_deadwood": "20", "note": "bad\u0007"}, "standard"),
    ("big_gin", {"knocker": "Ann", "deadwood": 0, "opponent_deadwood": 20, "big_gin": True},
     {"knocker": "Ann", "how": "counts", "deadwood": "0", "opponent_deadwood": "20", "big_gin": "on"}, "standard"),
]
IDS = [f"{field}-{number}" for number, (field, *_) in enumerate(CASES)]


def cli_options(fields: dict) -> list[str]:
    options = []
    for name, value in fields.items():
        option = "--" + name.replace("_", "-")
        options += [option] if value is True else [option, str(value)]
    return options


def no_command_line_words(text: str) -> None:
    assert not re.search(r"(^|\s|\()--[a-z]", text) and "ginscore " not in text, text


@pytest.fixture
def served(tmp_path: Path, run):
    folder = tmp_path / "served"
    folder.mkdir()
    for rules in ("standard", "oklahoma"):
        assert run("new", str(folder / f"{rules}.toml"), "Ann", "Bob", "--rules", rules).exit_code == 0
    client = TestClient(create_app(str(folder), TOKEN, ["127.0.0.1:8000"]), base_url=BASE)
    client.get(f"/?token={TOKEN}")
    return folder, client


@pytest.mark.parametrize(("field", "api_fields", "form", "rules"), CASES, ids=IDS)
def test_each_front_end_names_the_field_it_refuses(served, run, field, api_fields, form, rules):
    folder, client = served
    path = folder / f"{rules}.toml"
    before = path.read_bytes()

    answer = client.post(f"/api/matches/{rules}.toml/hands", json=api_fields, headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code in (400, 422)
    data = answer.json()
    assert data["field"] == field, data
    no_command_line_words(data["error"])

    line = one_error_line(run("record", str(path), *cli_options(api_fields)))
    missing = " is missing" if field not in api_fields else ""  # an option left out is said to be missing
    assert line == f"error: --{field.replace('_', '-')}{missing}: {data['error']}"

    if form is not None:
        page = client.get(f"/m/{rules}.toml/record").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        response = client.post(f"/m/{rules}.toml/record", data={"csrf": csrf, "expected_hands": "0", "action": "save", **form})
        assert response.status_code == answer.status_code
        shown = re.search(rf'<p class="error" id="error-{field}"[^>]*>([^<]*)</p>', response.text)
        assert shown, re.findall(r'<p class="error"[^>]*>[^<]*', response.text)
        no_command_line_words(shown.group(1))
        tied = re.findall(rf'<(input|select|fieldset)\b[^>]*aria-describedby="[^"]*\berror-{field}\b[^"]*"[^>]*>', response.text)
        assert tied, f"no control is tied to error-{field}"
        controls = re.findall(rf'<(?:input|select)\b[^>]*aria-describedby="error-{field}"[^>]*>', response.text)
        assert all('aria-invalid="true"' in control for control in controls)
    assert path.read_bytes() == before


def test_the_new_match_form_and_api_name_their_fields(served, run):
    folder, client = served
    headers = {"Authorization": f"Bearer {TOKEN}"}
    for fields, field in (
        ({"file": "x.toml", "players": ["Ann"]}, "players"),
        ({"file": "x.toml", "players": ["Ann", "Bob"], "rules": "nope"}, "rules"),
        ({"file": "x.toml", "players": ["Ann", "Bob"], "set": {"target": -1}}, "set"),
        ({"file": "x.toml", "players": ["Ann", "Bob"], "dealer": "Zed"}, "dealer"),
        ({"file": "standard.toml", "players": ["Ann", "Bob"]}, "file"),
        ({"file": "../x.toml", "players": ["Ann", "Bob"]}, "file"),
    ):
        data = client.post("/api/matches", json=fields, headers=headers).json()
        assert data["field"] == field, data
        no_command_line_words(data["error"])
    page = client.get("/").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    response = client.post("/new", data={"csrf": csrf, "player1": "Ann", "player2": "Bob", "file": "standard.toml", "rules": "standard"})
    assert response.status_code == 409
    shown = re.search(r'<p class="error" id="error-file"[^>]*>([^<]*)</p>', response.text)
    assert shown and "already exists" in shown.group(1)
    no_command_line_words(shown.group(1))
    assert re.search(r'<input id="file"[^>]*aria-describedby="file-help error-file"[^>]*aria-invalid="true"', response.text)
    response = client.post("/new", data={"csrf": csrf, "player1": "Ann", "player2": "Bob", "rules": "standard", "target": "0"})
    assert re.search(r'<p class="error" id="error-target"', response.text)
    assert one_error_line(run("new", str(folder / "standard.toml"), "Ann", "Bob")).endswith("already exists: pick another name, or add --force to replace it")


def test_a_finished_match_is_refused_in_the_words_of_each_front_end(served, run):
    folder, client = served
    path = str(folder / "standard.toml")
    while "Next dealer" in (out := run("record", path, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "60").stdout):
        if "wins" in out:
            break
    line = one_error_line(run("record", path, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "60"))
    assert line.startswith("error: the match is over") and f"start the next one with: ginscore new {folder / 'standard-2.toml'} --next {path} --dealer " in line
    data = client.post("/api/matches/standard.toml/hands", json={"knocker": "Ann", "deadwood": 1, "opponent_deadwood": 9},
                       headers={"Authorization": f"Bearer {TOKEN}"}).json()
    assert data["error"].startswith("the match is over")
    no_command_line_words(data["error"])


def _error_names(function: ast.AST) -> set[str]:
    """The names errors are caught as in a function (`except ... as error`), and its parameters named like errors."""
    names = {node.name for node in ast.walk(function) if isinstance(node, ast.ExceptHandler) and node.name}
    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        names |= {arg.arg for arg in function.args.args if arg.arg in ("error", "exc", "exception")}
    return names


def _reads_words(node: ast.AST, names: set[str]) -> bool:
    """Whether `node` is an error's words: `str(error)`, `error.args`, `error.problems` or a part of them."""
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id in ("str", "repr", "format"):
            if any(isinstance(arg, ast.Name) and arg.id in names for arg in part.args):
                return True
        if isinstance(part, ast.Attribute) and part.attr in ("args", "problems", "message") and isinstance(part.value, ast.Name) and part.value.id in names:
            return True
    return False


def word_decisions(source: str) -> list[int]:
    """The lines of `source` where an error's words are compared or searched to decide something."""
    found = []
    tree = ast.parse(source)
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = _error_names(function)
        if not names:
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Compare) and any(_reads_words(side, names) for side in [node.left, *node.comparators]):
                found.append(node.lineno)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("startswith", "endswith", "find", "index", "count"):
                if _reads_words(node.func.value, names):
                    found.append(node.lineno)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("search", "match", "fullmatch"):
                if any(_reads_words(arg, names) for arg in node.args):
                    found.append(node.lineno)
    return found


def test_no_code_decides_anything_by_an_errors_words():
    offenders = {str(path.relative_to(PACKAGE)): lines for path in sorted(PACKAGE.rglob("*.py"))
                 if (lines := word_decisions(path.read_text(encoding="utf-8")))}
    assert offenders == {}


@pytest.mark.parametrize("planted", [
    "def f():\n    try:\n        pass\n    except ValueError as error:\n        if 'digits' in str(error):\n            pass\n",
    "def f(error):\n    return str(error).startswith('no such file')\n",
    "def f():\n    try:\n        pass\n    except OSError as error:\n        return error.problems[0].startswith('no')\n",
    "def f():\n    try:\n        pass\n    except OSError as error:\n        return str(error) == 'x'\n",
])
def test_the_word_check_catches_each_way_of_reading_words(planted):
    assert word_decisions(planted)


def word_rewrites(source: str) -> list[int]:
    """The lines of `source` where an error's words are rewritten after it was made: replaced, substituted or
    given anew to the same error (`reworded`, `moved`); a front end names a file otherwise by setting `file`."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = _error_names(function)
        for node in ast.walk(function):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr == "replace" and _reads_words(node.func.value, names):
                found.append(node.lineno)
            if node.func.attr in ("sub", "subn") and any(_reads_words(arg, names) for arg in node.args):
                found.append(node.lineno)
            if node.func.attr in ("reworded", "moved") and isinstance(node.func.value, ast.Name) and node.func.value.id in names:
                found.append(node.lineno)
    return found


def test_no_code_rewrites_an_errors_words():
    offenders = {str(path.relative_to(PACKAGE)): lines for path in sorted(PACKAGE.rglob("*.py"))
                 if (lines := word_rewrites(path.read_text(encoding="utf-8")))}
    assert offenders == {}


@pytest.mark.parametrize("planted", [
    "def f():\n    try:\n        pass\n    except ValueError as error:\n        raise ValueError(str(error).replace('/a', ''))\n",
    "def f(error):\n    return re.sub(r'x', 'y', str(error))\n",
    "def f():\n    try:\n        pass\n    except OSError as error:\n        raise error.moved('b', [p.replace('a', '') for p in error.problems])\n",
])
def test_the_rewrite_check_catches_each_way_of_rewriting_words(planted):
    assert word_rewrites(planted)
