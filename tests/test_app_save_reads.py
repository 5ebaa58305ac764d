"""A Save in the app costs the same whatever else is stored (issue 55): the worker's Python, handed the stored names
once, lists no name for a Save or a poll and looks at no other file, and a name that comes or goes beside a match
still makes its twin (the same name on a phone) known at once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
from typing import Any

import pytest

HAND = json.dumps({"knocker": "Ann", "deadwood": 2, "opponent_deadwood": 12})


def asked(pocket: Any, method: str, path: str, body: str = "") -> dict[str, Any]:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, pocket.request(method, path, "", body, "application/json" if body else "")).result(timeout=60)


def hold(pocket: Any, keys: list[str] | None, generations: dict[str, int]) -> dict[str, Any]:
    """The store as the shell hands it in, no text: every name when `keys` is given, else those it gave last."""
    return json.loads(pocket.hold(json.dumps({"keys": keys, "generations": generations, "texts": {}, "others": {},
                                              "summaries": None, "next": {}})))


def stored_beside(pocket: Any, others: int, loaded: bool = False) -> list[str]:
    """`cur.toml` made and loaded, and `others` stored matches beside it, their texts loaded or not (as after a
    backup, or a file opened, which loads every one)."""
    assert asked(pocket, "POST", "/api/matches", json.dumps({"file": "cur.toml", "players": ["Ann", "Bob"]}))["status"] == 201
    assert "cur.toml" in json.loads(pocket.changes())["texts"]
    keys = ["cur.toml", *(f"other-{at:03}.toml" for at in range(others))]
    texts = {name: "# not read\n" for name in keys[1:]} if loaded else {}
    json.loads(pocket.hold(json.dumps({"keys": keys, "generations": dict.fromkeys(keys, 1), "texts": texts, "others": {},
                                       "summaries": None, "next": {}})))
    return keys


@pytest.fixture
def looks(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Every listing of a folder, and every file looked at by name, as the worker's Python makes them."""
    seen: dict[str, list[str]] = {"listed": [], "looked": []}
    for module, name, kind in ((os, "scandir", "listed"), (os, "listdir", "listed"), (os, "stat", "looked"), (os, "lstat", "looked")):
        original = getattr(module, name)

        def counted(*args: Any, _original: Any = original, _kind: str = kind, **kwargs: Any) -> Any:
            seen[_kind].append(os.path.basename(str(args[0])) if args else "")
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return seen


@pytest.mark.parametrize(("others", "loaded"), [(0, False), (40, False), (40, True)], ids=["alone", "beside-40", "beside-40-loaded"])
def test_a_save_and_a_poll_list_no_name_and_look_at_no_other_match(pocket: Any, looks: dict[str, list[str]], others: int,
                                                                     loaded: bool) -> None:
    stored_beside(pocket, others, loaded)
    hold(pocket, None, {})
    assert asked(pocket, "POST", "/api/matches/cur.toml/hands", HAND)["status"] == 201  # the first: the table's cache filled
    pocket.changes()
    looks["listed"].clear()
    looks["looked"].clear()
    hold(pocket, None, {"cur.toml": 2})  # as the shell hands in a Save's read: no name, one generation
    saved = asked(pocket, "POST", "/api/matches/cur.toml/hands", HAND)
    assert saved["status"] == 201 and saved["need"] is False
    changed = json.loads(pocket.changes())
    assert list(changed["texts"]) == ["cur.toml"] and changed["texts"]["cur.toml"].count("[[hands]]") == 2
    assert changed["summaries"]["cur.toml"]["hands"] == 2
    hold(pocket, None, {"cur.toml": 3})
    assert asked(pocket, "GET", "/m/cur.toml/version")["status"] == 200
    assert looks["listed"] == []  # the old worker listed the folder three times a Save (each name stat'ed in Pyodide)
    assert {name for name in looks["looked"] if name.startswith("other-")} == set()  # nor asked whether a loaded one is there


def test_a_twin_that_comes_or_goes_is_known_at_the_next_request(pocket: Any) -> None:
    keys = stored_beside(pocket, 3)
    assert pocket._the_folder().table.file("cur.toml").problem is None
    hold(pocket, [*keys, "CUR.toml"], {"CUR.toml": 1})  # another phone's copy of the same name, sorted first
    assert "CUR.toml" in (pocket._the_folder().table.file("cur.toml").problem or "").__str__()
    hold(pocket, keys, {})  # gone again
    assert pocket._the_folder().table.file("cur.toml").problem is None
    assert asked(pocket, "POST", "/api/matches/cur.toml/hands", HAND)["status"] == 201
