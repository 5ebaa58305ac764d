"""Shared fixtures: `run` invokes the `ginscore` app in-process, stdout and stderr kept apart; `played` is a short match;
`browser` is the session's Chromium (each test that uses it marked `browser`); `app_build` is the run's one build of
the phone app."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from scheduling import BROWSER_FILE, BrowsersBesideTheRest
from typer.testing import CliRunner, Result

from ginscore.cli import app

RunCli = Callable[..., Result]


@pytest.fixture(autouse=True)
def _no_cache_in_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ginscore stats` keeps a cache under the user's cache folder: the tests never touch the real one."""
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "ginscore-cache"))


@pytest.fixture(autouse=True, scope="session")
def _drawn_and_packed_once() -> Iterator[None]:
    """`ginscore app` draws its two icons pixel by pixel (about 0.6 s) and packs its two archives from the installed
    packages (0.1 s), and the tests build the app some thirty times: each is made once a session (the same bytes
    each time, nothing here changing the installed files), then reused."""
    from ginscore.pocket import build, icons

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(icons, "png", functools.cache(icons.png))
        patch.setattr(build, "python_archives", functools.cache(build.python_archives))
        yield


@pytest.fixture(autouse=True, scope="session")
def _commands_built_once() -> Iterator[None]:
    """Typer's `CliRunner.invoke` builds the whole app's click commands, every parameter of every command, on each
    call (about 8 ms), and the suite invokes the app thousands of times: each app's commands are built once, then
    invoked again as click invokes any command, with a new context each time. Keyed by the app and the commands
    it holds, so an app given another command is built anew."""
    import typer.testing

    built: dict[tuple[int, ...], Any] = {}
    original = typer.testing._get_command

    def commands(app: Any) -> Any:
        key = (id(app), *map(id, app.registered_commands), *map(id, app.registered_groups))
        if key not in built:
            built[key] = (app, original(app))  # the app kept, so that its id is not taken by another
        return built[key][1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", commands)
        yield


@pytest.fixture(autouse=True, scope="session")
def _python_compiled_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`ginscore app` compiles its Python under the pinned runtime in Node, about 5 s of a build: the same zips are
    compiled once a run, every xdist worker included (a pure function of their bytes, the runtime being held to
    its pin), kept in the run's temporary folder under a file lock, then reused."""
    from ginscore.pocket import ahead

    original, kept = ahead.compiled, run_folder(tmp_path_factory) / "bytecode"
    kept.mkdir(exist_ok=True)

    def compiled(runtime: str, stdlib: bytes, archives: Any) -> Any:
        zips = [stdlib, *archives]
        key = hashlib.sha256(b"".join(hashlib.sha256(data).digest() for data in zips)).hexdigest()
        with open(kept / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (kept / key).is_dir():
                done, why = original(runtime, stdlib, archives)
                if done is None:
                    return done, why
                (kept / f"{key}.new").mkdir()
                for index, data in enumerate(done):
                    (kept / f"{key}.new" / str(index)).write_bytes(data)
                (kept / f"{key}.new").rename(kept / key)
            return [(kept / key / str(index)).read_bytes() for index in range(len(zips))], ""

    compiled.__wrapped__ = original  # type: ignore[attr-defined]  # for the tests of the compile itself
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ahead, "compiled", compiled)
        yield


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's own temporary folder: above each xdist worker's, which both share, or the session's own."""
    here = tmp_path_factory.getbasetemp()
    return here.parent if os.environ.get("PYTEST_XDIST_WORKER") else here


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
    `python -m pytest -m "not browser"` runs all the rest (the quick suite also leaves out `app`, below).
    """
    from browsers import launched_browser

    yield from launched_browser()


@pytest.fixture(scope="session")
def app_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`ginscore app` built once for the whole run, every xdist worker included: a folder whose `pocket/app/` is the
    app (as a site serves it under a sub-path) and whose `cache/` is the cache folder it was built from, holding the
    pinned Pyodide fetched through npm.

    Never change it: a test that alters the app serves a copy, `shutil.copytree(app_build / "pocket", root /
    "pocket", symlinks=True)`. The first worker to ask builds it under a file lock in the run's own temporary
    folder (`tmp_path_factory.getbasetemp().parent` under xdist), and the others find it there. Without npm, which
    fetches the runtime, a test that uses it is skipped, saying why (failed under CI).
    """
    from ginscore.pocket.runtime import PYODIDE_VERSION

    needs("npm is not installed (it fetches the pinned Pyodide runtime)" if shutil.which("npm") is None else None, "the app's tests")

    here = run_folder(tmp_path_factory)
    shared = here / "app-build"
    with open(here / "app-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "built").is_file():
            shutil.rmtree(shared, ignore_errors=True)
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("GINSCORE_CACHE_DIR", str(shared / "cache"))
                built = CliRunner().invoke(app, ["app", str(shared / "pocket" / "app")], env={"NO_COLOR": "1"})
            assert built.exit_code == 0, built.stderr
            (shared / "built").write_text("")
    assert (shared / "cache" / f"pyodide-{PYODIDE_VERSION}" / "pyodide.asm.wasm").is_file()  # the run's cache, not the user's
    return shared


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The `browser` mark on each test that drives Chromium: each one whose fixtures reach the session's
    `browser` above (a module's own fixture of that name, such as a TestClient, is not it). The `app` mark on
    each test whose fixtures reach the run's `app_build` (npm's fetch of the runtime, the build, its compile in
    Node): `-m "not browser and not app"`, the quick suite, runs all the rest.

    Then the files in the order the workers take them (tests/scheduling.py: the browser files to all workers but
    the last, the rest to the last, each file whole). The browser files first: the first that serves the run's one
    app build (`app_build`), whose worker builds it, then those that need no build, for the other browser worker
    meanwhile, then the other files that serve it. Then the files marked `waits` (on a real server's timeouts, the
    CPU idle), taken first by the last worker while the browser workers keep the cores busy; then the rest in the
    order found, those that use the app build last, as it is built by then.
    """
    browser_files: dict[Path, None] = {}  # in the order found
    uses_the_build: set[Path] = set()
    for item in items:
        if "app_build" in item.fixturenames:
            item.add_marker(pytest.mark.app)
            uses_the_build.add(item.path)
        defs = getattr(item, "_fixtureinfo", None)
        used = defs.name2fixturedefs.get("browser", ())[-1:] if defs is not None else ()  # the last one overrides
        if any(fixture.func is browser.__wrapped__ for fixture in used):
            if not item.path.name.endswith(BROWSER_FILE):
                raise pytest.UsageError(f"{item.nodeid} drives Chromium: move it to a file named *{BROWSER_FILE}, which the "
                                        "browser workers take (tests/scheduling.py)")
            item.add_marker(pytest.mark.browser)
            browser_files[item.path] = None
    app = [path for path in browser_files if path in uses_the_build]
    plain = [path for path in browser_files if path not in uses_the_build]
    waiting = list(dict.fromkeys(item.path for item in items if item.get_closest_marker("waits")))
    turns = app[:1] + plain + app[1:] + waiting
    rank = {path: at for at, path in enumerate(turns)}
    items.sort(key=lambda item: rank.get(item.path, len(rank) + (item.path in uses_the_build)))  # stable: a file's order kept


@pytest.hookimpl(optionalhook=True)  # xdist's hook: known only where xdist is loaded
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """A file at a time, as `--dist loadfile`, the browser files to all workers but the last from three up, the rest
    to the last (tests/scheduling.py); xdist's own scheduler for any other `--dist`."""
    if config.getoption("dist") != "loadfile":
        return None
    return BrowsersBesideTheRest(config, log)


@pytest.fixture
def pocket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The app's worker module (`pocket/worker.py`) under CPython, its pages over an empty folder of its own."""
    from ginscore.pocket import worker

    for name in ("_app", "_folder"):
        monkeypatch.setattr(worker, name, getattr(worker, name))
    monkeypatch.setattr(worker, "FOLDER", str(tmp_path / "matches"))
    monkeypatch.setattr(worker, "OPENING", str(tmp_path / "opening"))
    worker.start_pages()
    yield worker
    worker.forget()
