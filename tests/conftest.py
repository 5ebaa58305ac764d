"""Shared fixtures: `run` invokes the `ginscore` app in-process, stdout and stderr kept apart; `played` is a short match."""

from __future__ import annotations

import functools
import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from ginscore.cli import app

RunCli = Callable[..., Result]


@pytest.fixture(autouse=True)
def _no_cache_in_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ginscore stats` keeps a cache under the user's cache folder: the tests never touch the real one."""
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "ginscore-cache"))


@pytest.fixture(autouse=True, scope="session")
def _icons_drawn_once() -> Iterator[None]:
    """`ginscore app` draws its two icons pixel by pixel, about 0.6 s of a 0.9 s build, and the tests build the app
    some thirty times: each size is drawn once a session (the same bytes, a pure function), then reused."""
    from ginscore.pocket import icons

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(icons, "png", functools.cache(icons.png))
        yield


@pytest.fixture
def run() -> RunCli:
    """`run("check", "3h", ...)` or `run(["check", ...], input="...")`: the Result of one invocation.

    NO_COLOR is set so that output is plain text. A Python exception that escapes the command (what a person
    would see as a traceback) fails the test here, so no CLI test can pass over a crash.
    """
    runner = CliRunner()

    def invoke(*args: str | list[str], input: str | None = None) -> Result:
        argv = list(args[0]) if len(args) == 1 and isinstance(args[0], list) else [str(a) for a in args]
        result = runner.invoke(app, argv, input=input, env={"NO_COLOR": "1"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"ginscore {' '.join(argv)} crashed") from result.exception
        return result

    return invoke


def needs(missing: str | None, what: str) -> None:
    """The one rule for tests that need something this machine may lack: skip, saying why, when `missing` says
    what is not there; under CI (CI=true), where everything is installed, fail instead."""
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI runs {what}, but {missing}")
    pytest.skip(f"{what} skipped: {missing}")


def interruptible() -> None:
    """A `preexec_fn` for a child that a test stops with Ctrl-C (SIGINT): SIGINT back to its default action.

    A process started with SIGINT ignored, as a non-interactive shell starts a background job (and some CI runners
    start everything), passes that on to its children, and Python then never raises KeyboardInterrupt in them.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_error_line(result: Result) -> str:
    """The single line a refused or bad command writes on stderr; nothing on stdout, no traceback."""
    assert result.stdout == "", result.stdout
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    return lines[0]


def json_object(result: Result) -> dict:
    """The one JSON object a successful `--json` command prints; stderr must be empty."""
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1 and result.stdout.endswith("\n"), result.stdout
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


ANN_CARDS = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h"
BOB_CARDS = "Qh Qd 5s 6s 7s Jc 4d 8h 2c Ac"
COUNTS = ["--knocker", "Bob", "--deadwood", "2", "--opponent-deadwood", "10"]


@pytest.fixture
def played(run: RunCli, tmp_path: Path) -> Path:
    """A match file `m.toml` with two hands: Ann 43 by cards, then Bob 8 by counts."""
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    assert run("record", path, "--knocker", "Ann", "--cards", ANN_CARDS, "--opponent-cards", BOB_CARDS).exit_code == 0
    assert run("record", path, *COUNTS).exit_code == 0
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the whole session, shared by every browser test (see tests/browsers.py).

    Every test that uses it, itself or through a fixture of its own, is marked `browser` (below), so that
    `python -m pytest -m "not browser"` runs all the rest.
    """
    from browsers import launched_browser

    yield from launched_browser()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The `browser` mark on each test that drives Chromium: each one whose fixtures reach the session's
    `browser` above (a module's own fixture of that name, such as a TestClient, is not it)."""
    for item in items:
        defs = getattr(item, "_fixtureinfo", None)
        used = defs.name2fixturedefs.get("browser", ())[-1:] if defs is not None else ()  # the last one overrides
        if any(fixture.func is browser.__wrapped__ for fixture in used):
            item.add_marker(pytest.mark.browser)
