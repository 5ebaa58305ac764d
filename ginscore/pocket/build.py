"""`ginscore app DIR`: the offline phone app written as a static folder (docs/app.md).

What the folder holds:

- `index.html`, `app.js` (the shell: it sends each navigation, form and the pages' own `fetch()` calls to the
  worker and shows the answer), `worker.js` (Pyodide, and the match files in IndexedDB), `sw.js` (the service
  worker and its versioned precache), `manifest.webmanifest` and `icons/`;
- `static/`: serve's own style sheet and script, as web/static has them;
- `pyodide/`: the pinned runtime (`runtime.py`);
- `py/lean-*.zip` (ginscore's pure layers and the pure-Python packages they use) and `py/pages-*.zip` (the web
  layer, its templates, Starlette, Jinja2 and what they import), packed from the installed packages;
- `build.json`: the version, the archives, and every file the service worker precaches.

The build is written beside DIR and renamed into place, so a host serving DIR never serves half a build.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterable, Iterator, Mapping

from ..errors import InputError, RefusedError
from ..version import __version__
from . import icons
from .runtime import PYODIDE_VERSION, RUNTIME_FILES, runtime_folder

HERE = os.path.dirname(os.path.abspath(__file__))
SHELL = os.path.join(HERE, "shell")
PACKAGE = os.path.dirname(HERE)
MARK = "ginscore app"
"""`build.json`'s `made_by`: a folder holding it is an earlier build, replaced without `--force`."""

LEAN = ("__init__.py", "version.py", "errors.py", "game/", "match/", "files/", "sheets/",
        "web/__init__.py", "web/fields.py", "web/hands.py", "pocket/__init__.py", "pocket/worker.py")
"""ginscore's part of the lean archive (paths inside the package): enough to check a hand, list the matches and
read, write and sum up match files, imported while the pages load."""
PAGES = ("web/",)
"""The rest of what the worker imports: the web layer and its templates (its static files are served from
`static/`, and `web/server.py`, uvicorn's side, stays out)."""
LEFT_OUT = ("web/server.py", "web/static/")
LEAN_PACKAGES = {"tomli-w": ("tomli_w",), "tomlkit": ("tomlkit",)}
"""Installed distributions packed into the lean archive, with the import names kept from each."""
PAGE_PACKAGES = {
    "starlette": ("starlette",),
    "anyio": ("anyio",),
    "jinja2": ("jinja2",),
    "markupsafe": ("markupsafe",),
    "python-multipart": ("python_multipart",),
    "typing-extensions": ("typing_extensions.py",),
}
"""The pages' packages. Only `.py` files are packed: markupsafe's C speedups are optional (it falls back to pure
Python), and nothing else here has any. idna, which anyio names, is never imported by the pages."""
SKIPPED_FILES = ("anyio/pytest_plugin.py", "anyio/_backends/_trio.py")
"""Files of those packages the worker never imports."""
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every archive member's time, so that the same code packs to the same bytes and the same build version."""


def build(target: str, runtime: str | None = None, force: bool = False) -> dict[str, object]:
    """Write the app into `target`; its `build.json` is returned. `runtime` is an unpacked pyodide package (else
    the cache, filled through npm). A non-empty `target` that is not an earlier build is refused unless `force`."""
    target = os.path.abspath(target)
    _check_target(target, force)
    source = runtime_folder(runtime)
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.building-", dir=parent)
    try:
        os.chmod(work, 0o755)  # mkdtemp's 0700 would keep a web server's user out
        info = _write(work, source)
        if os.path.exists(target):
            old = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.old-", dir=parent)
            os.rename(target, os.path.join(old, "build"))
            os.rename(work, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return info


def _check_target(target: str, force: bool) -> None:
    if os.path.exists(target) and not os.path.isdir(target):
        raise InputError(f"{target}: not a folder")
    if not os.path.isdir(target) or not os.listdir(target) or force:
        return
    try:
        with open(os.path.join(target, "build.json"), encoding="utf-8") as handle:
            earlier = json.load(handle).get("made_by") == MARK
    except (OSError, ValueError, AttributeError):
        earlier = False
    if not earlier:
        raise RefusedError(f"{target} is not empty and holds no earlier app build: pass --force to replace it, or give a new folder")


def _write(folder: str, runtime: str) -> dict[str, object]:
    files: dict[str, bytes] = {}
    for name in RUNTIME_FILES:
        with open(os.path.join(runtime, name), "rb") as handle:
            files[f"pyodide/{name}"] = handle.read()
    static = os.path.join(PACKAGE, "web", "static")
    for name in sorted(os.listdir(static)):
        if os.path.isfile(os.path.join(static, name)):
            with open(os.path.join(static, name), "rb") as handle:
                files[f"static/{name}"] = handle.read()
    lean, pages = python_archives()
    archives = {"lean": f"py/lean-{_digest(lean)[:12]}.zip", "pages": f"py/pages-{_digest(pages)[:12]}.zip"}
    files[archives["lean"]], files[archives["pages"]] = lean, pages
    files["icons/icon-192.png"], files["icons/icon-512.png"] = icons.png(192), icons.png(512)
    files["icons/icon.svg"] = icons.SVG.encode()
    for name in ("index.html", "app.js", "app.css", "store.js", "worker.js", "manifest.webmanifest"):
        with open(os.path.join(SHELL, name), "rb") as handle:
            files[name] = handle.read()
    build_hash = _digest(b"".join(path.encode() + b"\0" + _digest(data).encode() for path, data in sorted(files.items())))[:12]
    info: dict[str, object] = {
        "made_by": MARK, "version": f"{__version__}+{build_hash}", "ginscore": __version__, "pyodide": PYODIDE_VERSION,
        "archives": archives, "files": ["./", *sorted(files), "build.json"],
    }
    files["build.json"] = (json.dumps(info, indent=1) + "\n").encode()
    with open(os.path.join(SHELL, "sw.js"), encoding="utf-8") as handle:
        worker = handle.read()
    # the version is in sw.js's own bytes: a browser looks for a new service worker by comparing them
    files["sw.js"] = worker.replace("__BUILD__", json.dumps({"version": info["version"], "files": info["files"]})).encode()
    for path, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
        with open(os.path.join(folder, path), "wb") as handle:
            handle.write(data)
    return info


def python_archives() -> tuple[bytes, bytes]:
    """The lean archive and the pages' archive, as zip bytes, from the installed packages."""
    lean = _archive(_own_files(LEAN), _installed_files(LEAN_PACKAGES))
    pages = _archive(_own_files(PAGES, exclude=LEAN), _installed_files(PAGE_PACKAGES))
    return lean, pages


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _own_files(parts: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[tuple[str, str]]:
    """ginscore's files under `parts` (paths inside the package), as (name in the archive, path on disk)."""
    left_out = tuple(exclude) + LEFT_OUT
    for part in parts:
        start = os.path.join(PACKAGE, part)
        paths = [start] if os.path.isfile(start) else [os.path.join(root, name) for root, _, names in os.walk(start) for name in names]
        for path in sorted(paths):
            inside = os.path.relpath(path, PACKAGE).replace(os.sep, "/")
            if "__pycache__" in inside or inside.startswith(left_out) or inside.endswith((".pyc", ".pyi")):
                continue
            yield f"ginscore/{inside}", path


def _installed_files(packages: Mapping[str, tuple[str, ...]]) -> Iterator[tuple[str, str]]:
    """The `.py` files of installed distributions, under the import names given, from their metadata's file lists."""
    for name, tops in packages.items():
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise RefusedError(f"{name} is not installed here, and the app needs it: pip install ginscore again") from None
        listed = [str(file) for file in distribution.files or ()]
        kept = [file for file in listed if file.endswith(".py") and file.split("/")[0] in tops and file not in SKIPPED_FILES]
        if not kept:
            raise RefusedError(f"{name} {distribution.version} lists no Python files to pack")
        for file in sorted(kept):
            yield file, str(distribution.locate_file(file))


def _archive(*groups: Iterable[tuple[str, str]]) -> bytes:
    """A zip of the files, in a fixed order with fixed times."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in sorted(item for group in groups for item in group):
            with open(path, "rb") as handle:
                data = handle.read()
            member = zipfile.ZipInfo(name, ZIP_TIME)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            archive.writestr(member, data)
    return buffer.getvalue()
