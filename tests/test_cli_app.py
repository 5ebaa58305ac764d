"""`ginscore app`: its refusals as one `error:` line, the runtime checked against the pin, a rebuild in place."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import needs, one_error_line

from ginscore.pocket import runtime


def test_a_folder_that_is_not_an_earlier_build_is_refused_without_force(run, tmp_path: Path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine")
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    assert "pass --force to replace it" in one_error_line(result)
    assert (tmp_path / "site" / "notes.txt").read_text() == "mine"


def test_a_runtime_folder_without_the_runtime_is_bad_input(run, tmp_path: Path):
    result = run("app", tmp_path / "site", "--runtime", tmp_path)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith(f"error: --runtime {tmp_path}: not an unpacked pyodide 314.0.7 package (no pyodide.mjs")
    assert not (tmp_path / "site").exists()


def test_without_npm_one_line_says_what_to_install_or_pass(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setenv("PATH", str(tmp_path))
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "npm is not installed" in line and "install Node.js" in line and "--runtime DIR" in line


def needs_npm() -> None:
    needs("npm is not installed (it fetches the pinned Pyodide runtime)" if shutil.which("npm") is None else None, "the app's build")


def test_a_tarball_that_is_not_the_pinned_one_is_refused_and_nothing_kept(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    needs_npm()
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(runtime, "PYODIDE_INTEGRITY", "sha512-" + "A" * 86 + "==")
    result = run("app", tmp_path / "site")
    assert result.exit_code == 1
    assert "is not the pinned one" in one_error_line(result)
    assert runtime.missing_files(runtime.cache_root()) == list(runtime.RUNTIME_FILES)


def test_the_app_is_built_from_a_runtime_folder_and_rebuilt_in_place(run, tmp_path: Path):
    needs_npm()
    folder = runtime.runtime_folder()  # the cache, filled through npm once for the test session
    first = run("app", tmp_path / "site", "--runtime", folder)
    assert first.exit_code == 0, first.stderr
    assert first.stderr == "" and first.stdout.startswith("Wrote the app (version 0.")
    info = json.loads((tmp_path / "site" / "build.json").read_text())
    assert info["pyodide"] == "314.0.7" and all((tmp_path / "site" / f).exists() for f in info["files"] if f != "./")
    assert info["version"] in (tmp_path / "site" / "sw.js").read_text()
    manifest = json.loads((tmp_path / "site" / "manifest.webmanifest").read_text())
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    assert (tmp_path / "site" / "icons" / "icon-192.png").read_bytes().startswith(b"\x89PNG")
    again = run("app", tmp_path / "site", "--runtime", folder)  # an earlier build: replaced without --force
    assert again.exit_code == 0, again.stderr
    assert json.loads((tmp_path / "site" / "build.json").read_text())["version"] == info["version"]  # same code, same build


def test_the_archives_hold_only_what_the_worker_imports(tmp_path: Path):
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
