"""`ginscore app`: a rebuild keeps what ginscore did not write, a link is built through, and every runtime file is
held to its pin; each refusal is one `error:` line, and then nothing is written.

Every test here has a cache folder of its own. The pinned runtime is fetched through npm once a run (into the
cache of conftest's `app_build`, which the app's other tests use too) and copied into a test's cache when it
needs one there. Without npm those tests skip, except under CI (CI=true), where they fail.
"""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import shlex
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import needs, one_error_line

from ginscore.pocket import runtime
from ginscore.web.decoder import decoder_folder

SOURCES_LINE = "Its Python is shipped uncompiled, as {}: the app works, but compiles it at every start, seconds slower on a phone"
SERVE_LINE = ("Serve it over HTTPS, or try it here: python3 -m http.server --bind 127.0.0.1 --directory {} 8000\n"
              "Then open http://127.0.0.1:8000/ in a browser on this computer.\n")


def require_npm() -> None:
    """Skip, saying why, without npm; under CI, fail instead (conftest's one rule)."""
    needs("npm is not installed (it fetches the pinned Pyodide runtime)" if shutil.which("npm") is None else None, "the app's build")


@pytest.fixture(scope="session")
def fetched(app_build: Path) -> Path:
    """The pinned runtime as the run's one fetch through npm left it: the cache conftest's `app_build` was built
    from. Never change it: `cached` copies it."""
    require_npm()
    return app_build / "cache" / f"pyodide-{runtime.PYODIDE_VERSION}"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own cache folder, empty."""
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def cached(fetched: Path, own_cache: Path) -> Path:
    """This test's cache holding a copy of the pinned runtime and its record, to alter at will, and of the scan
    page's decoder, which a build fetches too (through npm, a second or so, when the cache lacks it)."""
    folder = Path(runtime.cache_root())
    shutil.copytree(fetched, folder)
    shutil.copytree(fetched.parent / Path(decoder_folder()).name, decoder_folder())
    return folder


@pytest.fixture(scope="session")
def first_build(fetched: Path, app_build: Path) -> Path:
    """An app built once a run from the pinned runtime (conftest's `app_build`, which the app's browser tests
    serve too): each test that needs a built folder gets a copy, the build itself being what
    `test_the_app_is_built_and_build_json_lists_every_file_written` checks."""
    return app_build / "pocket" / "app"


@pytest.fixture
def built(first_build: Path, tmp_path: Path, cached: Path) -> Path:
    """`site`, an app as `ginscore app` builds it, this test's own; its rebuilds use the test's cache."""
    shutil.copytree(first_build, tmp_path / "site", symlinks=True)
    return tmp_path / "site"


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Everything under `folder`: each file's bytes, each link's target, each folder as `/`."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        inside = str(path.relative_to(folder))
        found[inside] = f"-> {os.readlink(path)}" if path.is_symlink() else "/" if path.is_dir() else path.read_bytes()
    return found


def wrote(folder: Path, shown: str, *lines: str) -> str:
    """What `ginscore app` prints after a build into `shown`: its first line, `lines`, then the serving line."""
    info = json.loads((folder / "build.json").read_text())
    first = f"Wrote the app (version {info['version']}, {len(info['written'])} files) into {shown}\n"
    return first + "".join(line + "\n" for line in lines) + SERVE_LINE.format(shlex.quote(shown))


def test_every_test_here_has_a_cache_folder_of_its_own(own_cache: Path):
    assert runtime.cache_root() == str(own_cache / "pyodide-314.0.7")


def test_the_app_is_built_and_build_json_lists_every_file_written(run, tmp_path: Path, cached: Path):
    result = run("app", tmp_path / "site")
    site = tmp_path / "site"
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "" and result.stdout == wrote(site, str(site))
    info = json.loads((site / "build.json").read_text())
    on_disk = sorted(str(path.relative_to(site)) for path in site.rglob("*") if path.is_file())
    assert info["written"] == on_disk and "sw.js" in on_disk and "build.json" in on_disk
    assert info["pyodide"] == "314.0.7" and info["version"] in (site / "sw.js").read_text()
    assert (site / "pyodide" / "pyodide.asm.wasm").read_bytes() == (cached / "pyodide.asm.wasm").read_bytes()
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert (site / "icons" / "icon-192.png").read_bytes().startswith(b"\x89PNG")
    assert not [path.name for path in tmp_path.iterdir() if path.name.startswith(".")]  # nothing left beside it


def members(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        return archive.namelist()


def test_the_python_is_shipped_compiled_by_the_runtime_itself(first_build: Path, fetched: Path):
    """What the app's start imports is shipped as the runtime's own bytecode in place of its source (a phone
    compiled it at every start): json from the standard library, the worker and the pages from the archives;
    the rest keeps its source, as does anyio, which reads its own, with its bytecode in `__pycache__`."""
    pinned = [name for name in members(fetched / "python_stdlib.zip") if name.endswith(".py")]
    shipped = members(first_build / "pyodide" / "python_stdlib.zip")
    compiled = {name[:-1] for name in shipped if name.endswith(".pyc")}
    assert {"json/__init__.py", "asyncio/__init__.py", "zipfile/__init__.py"} <= compiled
    assert 100 < len(compiled) < len(pinned) / 2  # what the start imports, not all
    assert sorted([*compiled, *(name for name in shipped if name.endswith(".py"))]) == sorted(pinned)  # each once
    with zipfile.ZipFile(first_build / "pyodide" / "python_stdlib.zip") as archive:
        magic = archive.read("json/__init__.pyc")[:4]
    assert magic != importlib.util.MAGIC_NUMBER  # Python 3.14's bytecode, not this Python's
    info = json.loads((first_build / "build.json").read_text())
    names = [name for kind in ("lean", "pages") for name in members(first_build / info["archives"][kind])]
    assert {"ginscore/pocket/worker.pyc", "ginscore/web/asgi.pyc", "starlette/applications.pyc"} <= set(names)
    assert "ginscore/pocket/worker.py" not in names
    assert {"anyio/__init__.py", "anyio/__pycache__/__init__.cpython-314.pyc"} <= set(names)


def test_without_node_the_python_is_shipped_as_sources_and_the_build_says_so(run, tmp_path: Path, cached: Path,
                                                                             monkeypatch: pytest.MonkeyPatch):
    from ginscore.pocket import ahead

    real = shutil.which
    monkeypatch.setattr(ahead.shutil, "which", lambda name: None if name == "node" else real(name))
    monkeypatch.setattr(ahead, "compiled", ahead.compiled.__wrapped__)  # conftest's: compiled once a session
    result = run("app", tmp_path / "site")
    site = tmp_path / "site"
    assert result.exit_code == 0, result.stderr
    assert result.stderr == "" and result.stdout == wrote(site, str(site), SOURCES_LINE.format("Node.js is not installed"))
    assert (site / "pyodide" / "python_stdlib.zip").read_bytes() == (cached / "python_stdlib.zip").read_bytes()
    info = json.loads((site / "build.json").read_text())
    assert not [name for kind in ("lean", "pages") for name in members(site / info["archives"][kind]) if name.endswith(".pyc")]


def test_a_rebuild_keeps_cname_nojekyll_and_git(run, built: Path):
    (built / "CNAME").write_text("cards.example.org\n")
    (built / ".nojekyll").write_bytes(b"")
    (built / ".git" / "refs").mkdir(parents=True)
    (built / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (built / "static" / "house.css").write_text("body { color: teal }\n")  # beside ginscore's own, in its folder
    before = snapshot(built)
    result = run("app", built)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == wrote(built, str(built), "Kept what ginscore did not write: .git, .nojekyll, CNAME")
    assert snapshot(built) == before  # the same code builds the same bytes, and the rest is untouched


def test_files_of_the_earlier_build_no_longer_written_are_removed_and_only_those(run, built: Path, tmp_path: Path):
    info = json.loads((built / "build.json").read_text())
    info["written"] += ["py/lean-000000000000.zip", "old/gone.js", "../outside.txt", "/etc/hostname"]
    (built / "build.json").write_text(json.dumps(info))
    (built / "py" / "lean-000000000000.zip").write_bytes(b"an earlier build's archive")
    (built / "old").mkdir()
    (built / "old" / "gone.js").write_text("ours")
    (built / "py" / "mine.zip").write_bytes(b"the person's")
    (tmp_path / "outside.txt").write_text("not in the folder")
    result = run("app", built)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == wrote(built, str(built)) and result.stderr == ""
    assert not (built / "py" / "lean-000000000000.zip").exists() and not (built / "old").exists()
    assert (built / "py" / "mine.zip").read_bytes() == b"the person's"
    assert (tmp_path / "outside.txt").read_text() == "not in the folder"
    assert json.loads((built / "build.json").read_text())["written"] == info["written"][:-4]


@pytest.mark.parametrize("earlier", [False, True], ids=["never-a-build", "an-earlier-build"])
def test_a_file_at_a_name_the_app_writes_is_refused_naming_it_and_forced_over(run, tmp_path: Path, cached: Path, earlier: bool):
    site = tmp_path / "site"
    if earlier:
        assert run("app", site).exit_code == 0
        info = json.loads((site / "build.json").read_text())
        info["written"].remove("index.html")  # as if another tool had put it there
        (site / "build.json").write_text(json.dumps(info))
    else:
        site.mkdir()
    (site / "index.html").write_text("<p>my own page</p>\n")
    (site / "CNAME").write_text("cards.example.org\n")
    before = snapshot(site)
    result = run("app", site)
    assert result.exit_code == 1
    assert one_error_line(result) == (f"error: {site / 'index.html'}: the app writes this name, and no earlier ginscore build wrote "
                                      "what is there: move it away, or pass --force to replace it")
    assert snapshot(site) == before
    forced = run("app", site, "--force")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stderr == ""
    assert forced.stdout == wrote(site, str(site), "Replaced, as --force asks: index.html", "Kept what ginscore did not write: CNAME")
    assert (site / "index.html").read_text() != "<p>my own page</p>\n" and (site / "CNAME").read_text() == "cards.example.org\n"
    assert "index.html" in json.loads((site / "build.json").read_text())["written"]


def test_a_folder_that_is_not_an_earlier_build_is_refused_without_force_and_kept_with_it(run, tmp_path: Path, cached: Path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    result = run("app", site)
    assert result.exit_code == 1
    assert one_error_line(result) == (f"error: {site} is not empty and holds no earlier app build (notes.txt): pass --force to add "
                                      "the app beside what it holds (which is kept), or give an empty folder")
    assert snapshot(site) == {"notes.txt": b"mine"}
    for number in range(9):
        (site / f"n{number}.txt").write_text(str(number))
    before = snapshot(site)
    many = run("app", site)
    assert many.exit_code == 1
    assert "(n0.txt, n1.txt, n2.txt, n3.txt, n4.txt and 5 more): pass --force" in one_error_line(many)
    forced = run("app", site, "--force")
    assert forced.exit_code == 0, forced.stderr
    kept = "Kept what ginscore did not write: n0.txt, n1.txt, n2.txt, n3.txt, n4.txt, n5.txt, n6.txt, n7.txt and 2 more"
    assert forced.stdout == wrote(site, str(site), kept) and forced.stderr == ""
    assert {name: data for name, data in snapshot(site).items() if name in before} == before


def test_a_folder_holding_only_hidden_entries_is_built_into_without_force(run, tmp_path: Path, cached: Path):
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    result = run("app", site)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == wrote(site, str(site), "Kept what ginscore did not write: .git")
    assert (site / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"


def test_a_folder_where_the_app_writes_a_file_is_refused_even_with_force(run, tmp_path: Path, cached: Path):
    site = tmp_path / "site"
    (site / "page.js").mkdir(parents=True)
    (site / "page.js" / "keep.txt").write_text("mine")
    for extra in ((), ("--force",)):
        result = run("app", site, *extra)
        assert result.exit_code == 1
        assert one_error_line(result) == f"error: {site / 'page.js'}: a folder where the app writes a file: move it away, then build again"
        assert snapshot(site) == {"page.js": "/", "page.js/keep.txt": b"mine"}


def test_a_link_is_built_through_and_stays_a_link(run, tmp_path: Path, cached: Path):
    real, link = tmp_path / "real", tmp_path / "site"
    real.mkdir()
    link.symlink_to(real)
    for kept in ((), ("Kept what ginscore did not write: CNAME",)):
        result = run("app", link)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == wrote(real, str(link), *kept) and result.stderr == ""
        assert link.is_symlink() and os.readlink(link) == str(real)
        assert (real / "build.json").is_file()
        (real / "CNAME").write_text("cards.example.org\n")
    assert (real / "CNAME").read_text() == "cards.example.org\n"


def test_a_link_to_nowhere_and_a_file_are_bad_input(run, tmp_path: Path):
    (tmp_path / "site").symlink_to(tmp_path / "gone")
    result = run("app", tmp_path / "site")
    assert result.exit_code == 2
    assert one_error_line(result) == (f"error: {tmp_path / 'site'} is a link to {tmp_path / 'gone'}, which does not exist: "
                                      "create that folder, or remove the link")
    assert not (tmp_path / "gone").exists()
    (tmp_path / "file").write_text("x")
    result = run("app", tmp_path / "file")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: {tmp_path / 'file'}: not a folder"


def stop_at(call: int, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's `call`-th rename into place raises `error`, as a full disk or a Ctrl-C would stop it there."""
    from ginscore.pocket import placing

    renames = iter(range(1, 1000))
    rename = os.replace

    def failing(source: str, target: str) -> None:
        if next(renames) == call:
            raise error
        rename(source, target)

    monkeypatch.setattr(placing.os, "replace", failing)


def stop_after(name: str, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's next rename after the one that puts `name` in place raises `error`, as a Ctrl-C would."""
    from ginscore.pocket import placing

    rename = os.replace
    placed = False

    def failing(source: str, target: str) -> None:
        nonlocal placed
        if placed:
            raise error
        rename(source, target)
        placed = Path(target).as_posix().endswith(name)

    monkeypatch.setattr(placing.os, "replace", failing)


def test_a_build_into_a_new_folder_that_fails_part_way_leaves_no_folder(run, tmp_path: Path, cached: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    stop_at(6, OSError(errno.ENOSPC, "No space left on device", "icon.svg"), monkeypatch)
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    assert one_error_line(result) == "error: 'icon.svg': the disk is full"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cache"]


def test_a_rebuild_stopped_part_way_is_finished_by_the_next(run, built: Path, monkeypatch: pytest.MonkeyPatch):
    info = json.loads((built / "build.json").read_text())
    lean = info["archives"]["lean"]
    info["written"] = sorted({*info["written"], "py/lean-000000000000.zip"} - {lean})  # an earlier build, older code
    (built / "build.json").write_text(json.dumps(info))
    (built / lean).rename(built / "py" / "lean-000000000000.zip")
    (built / "CNAME").write_text("cards.example.org\n")
    with monkeypatch.context() as patch:
        stop_after(lean, KeyboardInterrupt(), patch)  # the new lean archive in place, the old one not yet gone
        stopped = run("app", built)
    assert stopped.exit_code == 130 and stopped.stdout == "" and stopped.stderr == "\ninterrupted\n"
    assert (built / lean).is_file() and (built / "py" / "lean-000000000000.zip").is_file()
    result = run("app", built)  # no --force: the new archive is known as ginscore's, listed while the files moved
    assert result.exit_code == 0, result.stderr
    assert result.stdout == wrote(built, str(built), "Kept what ginscore did not write: CNAME")
    on_disk = sorted(str(path.relative_to(built)) for path in built.rglob("*") if path.is_file())
    assert json.loads((built / "build.json").read_text())["written"] == [name for name in on_disk if name != "CNAME"]


def test_a_runtime_folder_without_the_runtime_is_bad_input(run, tmp_path: Path):
    result = run("app", tmp_path / "site", "--runtime", tmp_path)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith(f"error: --runtime {tmp_path}: not an unpacked pyodide 314.0.7 package (no pyodide.mjs")
    assert not (tmp_path / "site").exists()


CHANGES = {
    "a line appended to pyodide.mjs": ("pyodide.mjs", lambda data: data + b"console.log('hello');\n"),
    "the wasm cut to 1,000 bytes": ("pyodide.asm.wasm", lambda data: data[:1000]),
    "a garbage wasm": ("pyodide.asm.wasm", lambda data: bytes(len(data))),
}
SAID = {
    "a line appended to pyodide.mjs": "pyodide.mjs is longer than pyodide 314.0.7's (17,953 bytes, not 17,931)",
    "the wasm cut to 1,000 bytes": "pyodide.asm.wasm is cut short (1,000 of pyodide 314.0.7's 9,598,218 bytes)",
    "a garbage wasm": "pyodide.asm.wasm is not pyodide 314.0.7's (same size, another sha256)",
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_cached_runtime_is_one_error_line_and_nothing_is_written(run, built: Path, cached: Path, change: str):
    name, alter = CHANGES[change]
    (cached / name).write_bytes(alter((cached / name).read_bytes()))
    before = snapshot(built)
    for site in (built, built.parent / "fresh"):
        result = run("app", site)
        assert result.exit_code == 1
        assert one_error_line(result) == (f"error: {cached / SAID[change]}, so the cached runtime was changed after it was fetched: "
                                          f"delete {cached} and run ginscore app again, which fetches it afresh")
    assert snapshot(built) == before and not (built.parent / "fresh").exists()


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_runtime_folder_is_bad_input_and_nothing_is_written(run, tmp_path: Path, fetched: Path, change: str):
    given = tmp_path / "pyodide"
    shutil.copytree(fetched, given)
    name, alter = CHANGES[change]
    (given / name).write_bytes(alter((given / name).read_bytes()))
    result = run("app", tmp_path / "site", "--runtime", given)
    assert result.exit_code == 2
    assert one_error_line(result) == (f"error: --runtime {given}: {SAID[change]}: pass the folder of an unpacked pyodide 314.0.7 "
                                      "npm package, or leave out --runtime to fetch it through npm")
    assert not (tmp_path / "site").exists()
    assert not (tmp_path / "cache").exists()  # --runtime given: the cache is not touched


def test_a_runtime_folder_that_is_the_pinned_one_builds(run, tmp_path: Path, fetched: Path):
    given = tmp_path / "pyodide" / "package"  # a tarball unpacked as npm packs it
    shutil.copytree(fetched, given)
    result = run("app", tmp_path / "site", "--runtime", given.parent)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == wrote(tmp_path / "site", str(tmp_path / "site")) and result.stderr == ""
    assert not (tmp_path / "cache" / f"pyodide-{runtime.PYODIDE_VERSION}").exists()  # the runtime not fetched
    assert sorted(path.name for path in (tmp_path / "cache").iterdir()) == ["jsqr-1.4.0"]  # only the scan page's decoder


def test_a_cache_whose_record_was_changed_is_refused(run, tmp_path: Path, cached: Path):
    record = json.loads((cached / runtime.CACHE_RECORD).read_text())
    record["files"]["pyodide.mjs"]["bytes"] += 1
    (cached / runtime.CACHE_RECORD).write_text(json.dumps(record))
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    assert one_error_line(result) == (f"error: {cached / runtime.CACHE_RECORD} does not record the files of pinned pyodide 314.0.7, "
                                      f"so the cached runtime was changed after it was fetched: delete {cached} and run ginscore app "
                                      "again, which fetches it afresh")
    assert not (tmp_path / "site").exists()


def test_the_session_fetch_recorded_the_shipped_list_beside_the_runtime(fetched: Path):
    shipped = json.loads(Path(runtime.PINNED_FILES).read_text())
    assert shipped["pyodide"] == runtime.PYODIDE_VERSION and shipped["integrity"] == runtime.PYODIDE_INTEGRITY
    assert json.loads((fetched / runtime.CACHE_RECORD).read_text()) == shipped
    assert runtime.measured_files(str(fetched)) == shipped["files"]


def test_the_shipped_list_is_package_data():
    import tomllib

    with open(Path(__file__).parent.parent / "pyproject.toml", "rb") as handle:
        shipped = tomllib.load(handle)["tool"]["setuptools"]["package-data"]["ginscore"]
    assert "pocket/pyodide.json" in shipped


def fake_npm(folder: Path, tarball: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An `npm` first on PATH (the only thing there) whose `pack` hands over `tarball`, so no fetch is made."""
    folder.mkdir()
    script = folder / "npm"
    script.write_text(f"#!{sys.executable}\nimport shutil\nshutil.copy({str(tarball)!r}, 'pyodide-{runtime.PYODIDE_VERSION}.tgz')\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))


def packed(runtime_files: Path, into: Path, changed: str | None = None) -> Path:
    """A tarball of the runtime files as npm packs them (under `package/`), with one file `changed` if asked."""
    source = into.parent / "packing"
    shutil.copytree(runtime_files, source)
    if changed:
        (source / changed).write_bytes((source / changed).read_bytes() + b"\n")
    with tarfile.open(into, "w:gz", compresslevel=1) as archive:
        for name in runtime.RUNTIME_FILES:
            archive.add(source / name, arcname=f"package/{name}")
    return into


def test_a_tarball_that_is_not_the_pinned_one_is_refused_and_nothing_kept(run, tmp_path: Path, fetched: Path, monkeypatch: pytest.MonkeyPatch):
    fake_npm(tmp_path / "bin", packed(fetched, tmp_path / "other.tgz"), monkeypatch)
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line.startswith("error: pyodide-314.0.7.tgz from npm is not the pinned one (its integrity is sha512-")
    assert line.endswith(f"expected {runtime.PYODIDE_INTEGRITY}); nothing was kept")
    assert runtime.missing_files(runtime.cache_root()) == list(runtime.RUNTIME_FILES) and not (tmp_path / "site").exists()


def test_a_tarball_whose_files_are_not_the_shipped_list_is_refused_and_nothing_kept(run, tmp_path: Path, fetched: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch):
    tarball = packed(fetched, tmp_path / "other.tgz", changed="pyodide.mjs")
    fake_npm(tmp_path / "bin", tarball, monkeypatch)
    integrity = runtime.integrity_of(str(tarball))
    shipped = json.loads(Path(runtime.PINNED_FILES).read_text())
    (tmp_path / "pyodide.json").write_text(json.dumps(dict(shipped, integrity=integrity)))
    monkeypatch.setattr(runtime, "PYODIDE_INTEGRITY", integrity)  # a pin that matches the tarball, a list that does not
    monkeypatch.setattr(runtime, "PINNED_FILES", str(tmp_path / "pyodide.json"))
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    assert one_error_line(result) == (f"error: pyodide-314.0.7.tgz matches its pin, but not the list of its files in {tmp_path / 'pyodide.json'}: "
                                      "install ginscore again; nothing was kept")
    assert not os.path.exists(runtime.cache_root()) and not (tmp_path / "site").exists()


def test_a_cache_without_its_record_is_fetched_again(run, tmp_path: Path, fetched: Path, cached: Path, monkeypatch: pytest.MonkeyPatch):
    (cached / runtime.CACHE_RECORD).unlink()
    (cached / "pyodide.mjs").write_bytes(b"changed")  # a cache from before records: not trusted, replaced
    runtime.decoder()  # the scan page's decoder in this cache, fetched by the real npm: the fake one packs pyodide only
    fake_npm(tmp_path / "bin", packed(fetched, tmp_path / "pinned.tgz"), monkeypatch)
    monkeypatch.setattr(runtime, "PYODIDE_INTEGRITY", runtime.integrity_of(str(tmp_path / "pinned.tgz")))
    shipped = json.loads(Path(runtime.PINNED_FILES).read_text())
    (tmp_path / "pyodide.json").write_text(json.dumps(dict(shipped, integrity=runtime.PYODIDE_INTEGRITY)))
    monkeypatch.setattr(runtime, "PINNED_FILES", str(tmp_path / "pyodide.json"))
    result = run("app", tmp_path / "site")
    assert result.exit_code == 0, result.stderr
    assert (cached / "pyodide.mjs").read_bytes() == (fetched / "pyodide.mjs").read_bytes()
    assert (cached / runtime.CACHE_RECORD).is_file()


def test_without_npm_one_line_says_what_to_install_or_pass(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line == ("error: npm is not installed: install Node.js (which brings npm) to fetch pyodide 314.0.7, "
                    "or pass --runtime DIR, an unpacked pyodide npm package")
    assert not (tmp_path / "site").exists()


def test_without_npm_under_ci_the_app_tests_fail_rather_than_skip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="npm is not installed"):
        require_npm()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="^CI runs the app's build, but npm"):
        require_npm()


def test_the_archives_hold_only_what_the_worker_imports():
    import io
    import zipfile

    from ginscore.pocket.build import python_archives

    lean, pages = python_archives()
    lean_names = zipfile.ZipFile(io.BytesIO(lean)).namelist()
    page_names = zipfile.ZipFile(io.BytesIO(pages)).namelist()
    assert "ginscore/game/check.py" in lean_names and "tomlkit/__init__.py" in lean_names
    assert "starlette/applications.py" in page_names and "ginscore/web/templates/base.html" in page_names
    every = lean_names + page_names
    assert not [name for name in every if name.startswith(("ginscore/cli/", "ginscore/render/", "idna/")) or name.endswith((".so", ".pyd", ".pyc"))]
    assert "ginscore/web/server.py" not in every and "markupsafe/_speedups.c" not in every


def test_the_pages_archive_holds_every_template_compiled_and_the_pages_shown_from_them_are_the_same(tmp_path: Path,
                                                                                                      monkeypatch: pytest.MonkeyPatch):
    import io

    from jinja2 import ModuleLoader
    from pages import HOSTILE, SAMPLE_FILES, signed_in, write_hostile_hollywood

    from ginscore.pocket.build import python_archives
    from ginscore.web.page_helpers import HERE, TEMPLATES

    with zipfile.ZipFile(io.BytesIO(python_archives()[1])) as archive:
        archive.extractall(tmp_path / "site")
    compiled = tmp_path / "site" / "ginscore" / "web" / "templates_compiled"
    templates = sorted(os.listdir(os.path.join(HERE, "templates")))
    loader = ModuleLoader(str(compiled))
    assert len(os.listdir(compiled)) == len(templates)
    for name in templates:  # each one there, under the name a page asks for
        loader.load(TEMPLATES.env, name)
    folder = tmp_path / "matches"
    folder.mkdir()
    for sample in SAMPLE_FILES:
        shutil.copy(sample, folder)
    write_hostile_hollywood(folder / "hostile.toml")  # each name escaped as the template's source escapes it
    paths = ["/", "/check", "/stats", "/m/standard.toml", "/m/standard.toml/record", "/m/standard.toml/edit/1",
             "/m/oklahoma.toml/check", "/m/counts_only.toml/undo", "/m/hostile.toml", "/no/such/page"]

    def shown() -> list[tuple[int, str]]:
        TEMPLATES.env.cache.clear()
        with signed_in(folder) as client:
            return [(answer.status_code, answer.text) for answer in map(client.get, paths)]

    from_sources = shown()
    assert [status for status, _ in from_sources] == [200] * 9 + [404]
    assert HOSTILE not in from_sources[8][1]
    monkeypatch.setattr(TEMPLATES.env, "loader", loader)
    assert shown() == from_sources
    TEMPLATES.env.cache.clear()


@pytest.mark.parametrize("edited", ["index.html", "static/style.css", "pyodide/pyodide.mjs"])
def test_a_rebuild_over_a_file_changed_since_the_build_wrote_it_is_refused_naming_it(run, built: Path, edited: str):
    (built / edited).write_bytes((built / edited).read_bytes() + b"\n<!-- my own line -->\n")  # a person's edit
    (built / "CNAME").write_text("cards.example.org\n")
    before = snapshot(built)
    result = run("app", built)
    assert result.exit_code == 1
    assert one_error_line(result) == (f"error: {built / edited}: an earlier build wrote this file, and it was changed since: "
                                      "move it away to keep the change, or pass --force to replace it with the app's")
    assert snapshot(built) == before  # the edit kept, byte for byte, and nothing else written
    forced = run("app", built, "--force")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stdout == wrote(built, str(built), f"Replaced, as --force asks: {edited}", "Kept what ginscore did not write: CNAME")
    assert b"my own line" not in (built / edited).read_bytes()
    again = run("app", built)  # the replaced file is ginscore's again
    assert again.exit_code == 0, again.stderr


def test_build_json_holds_the_sha256_of_every_file_written(built: Path):
    import hashlib

    info = json.loads((built / "build.json").read_text())
    assert sorted(info["sha256"]) == sorted(set(info["written"]) - {"build.json"})
    for path, digest in info["sha256"].items():
        assert hashlib.sha256((built / path).read_bytes()).hexdigest() == digest, path


def test_a_file_no_longer_written_but_changed_since_is_kept(run, built: Path):
    import hashlib

    info = json.loads((built / "build.json").read_text())
    info["written"] += ["old/gone.js", "old/changed.js"]
    info["sha256"].update({"old/gone.js": hashlib.sha256(b"ours").hexdigest(), "old/changed.js": hashlib.sha256(b"ours").hexdigest()})
    (built / "build.json").write_text(json.dumps(info))
    (built / "old").mkdir()
    (built / "old" / "gone.js").write_bytes(b"ours")
    (built / "old" / "changed.js").write_bytes(b"ours, and my own line")
    result = run("app", built)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == wrote(built, str(built), "Kept, as they were changed since ginscore wrote them: old/changed.js")
    assert not (built / "old" / "gone.js").exists()
    assert (built / "old" / "changed.js").read_bytes() == b"ours, and my own line"
    assert "old/changed.js" not in json.loads((built / "build.json").read_text())["written"]


def test_a_compile_that_fails_in_node_says_why_in_one_line(tmp_path: Path):
    needs("Node is not installed" if shutil.which("node") is None else None, "the compile's test")
    from ginscore.pocket import ahead

    done, why = ahead.compiled.__wrapped__(str(tmp_path / "no-runtime"), b"", [])  # conftest's: the compile itself
    assert done is None
    assert why.startswith("node failed (Error [ERR_MODULE_NOT_FOUND]: Cannot find module ") and "\n" not in why, why
