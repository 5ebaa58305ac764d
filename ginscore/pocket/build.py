"""`ginscore app DIR`: the offline phone app written as a static folder (docs/app.md).

What the folder holds:

- `index.html`, `page.js` and the modules it imports (the shell: it sends each navigation, form and the pages' own
  `fetch()` calls to the worker and shows the answer), `worker.js` (Pyodide, and the match files in IndexedDB),
  `sw.js` (the service worker and its versioned precache), `manifest.webmanifest` and `icons/`: every file of
  `pocket/shell`;
- `static/`: serve's own style sheet and scripts, as web/static has them (`common.js`, the module serve's
  `pages.js` and the shell both import, among them), and the QR decoder the scan page falls back on (`jsQR.js`,
  pinned, fetched through npm like the runtime);
- `pyodide/`: the pinned runtime (`runtime.py`), what the app's start imports of its standard library
  compiled to bytecode (`ahead.py`);
- `py/lean-*.zip` (ginscore's pure layers and the pure-Python packages they use) and `py/pages-*.zip` (the web
  layer, its templates, Starlette, Jinja2 and what they import), packed from the installed packages, compiled
  likewise, and named by their sources' digest;
- `build.json`: the version, the archives, every file the service worker precaches (`files`) and every file the
  build wrote (`written`), which is what the next build may replace or remove.

Every file is made, and the runtime checked against its pin, before anything is written; `placing.py` then
puts the files into DIR, keeping what no build of ginscore wrote there.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from ..errors import RefusedError
from ..version import __version__
from ..web.decoder import DECODER_NAME
from . import ahead, icons, placing
from .runtime import PYODIDE_VERSION, RUNTIME_FILES, decoder, runtime_folder, verified_files

HERE = os.path.dirname(os.path.abspath(__file__))
SHELL = os.path.join(HERE, "shell")
PACKAGE = os.path.dirname(HERE)

LEAN = ("__init__.py", "version.py", "errors.py", "game/", "match/", "files/", "sheets/",
        "web/__init__.py", "web/fields.py", "web/hands.py", "pocket/__init__.py", "pocket/held.py", "pocket/worker.py",
        "pocket/reviewer.py")
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
    "segno": ("segno",),
}
"""The pages' packages (segno draws the QR codes of a match handed to another phone). Only `.py` files are packed:
markupsafe's C speedups are optional (it falls back to pure Python), and nothing else here has any. idna, which
anyio names, is never imported by the pages."""
SKIPPED_FILES = ("anyio/pytest_plugin.py", "anyio/_backends/_trio.py")
"""Files of those packages the worker never imports."""
DECODER_PATH = f"static/{DECODER_NAME}"
"""The scan page's QR decoder (jsQR, `web/decoder.py`) in the build, fetched and checked like the runtime."""
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every archive member's time, so that the same code packs to the same bytes and the same build version."""


@dataclass(frozen=True)
class Built:
    """A build written into its folder."""

    info: Mapping[str, object]
    """Its `build.json`: the version, the archives, the precached files and every file written."""
    plan: placing.Plan
    """What it found in the folder and did there beyond writing its files: kept, replaced, removed."""
    not_compiled: str = ""
    """Why its Python is shipped as sources alone (`ahead.py`), or "" when it is compiled ahead."""


def build(target: str, runtime: str | None = None, force: bool = False) -> Built:
    """Write the app into `target` (a folder, or a link to one), keeping what no build of ginscore wrote there.

    `runtime` is an unpacked pyodide package (else the cache, filled through npm), held file by file to the pin.
    A name the app writes that holds something else, or a non-empty folder that was never a build, is refused
    unless `force`. Nothing is written until every file is made and checked (`placing.py`).
    """
    placing.real_folder(target)
    files = _app_files()
    names = {*files, *(f"pyodide/{name}" for name in RUNTIME_FILES), DECODER_PATH, "sw.js", placing.RECORD}
    plan = placing.plan(target, names, force)  # the folder's refusals come before a fetch of the runtime
    files.update((f"pyodide/{name}", data) for name, data in verified_files(runtime).items())
    not_compiled = _compile(files, runtime_folder(runtime))
    files[DECODER_PATH] = decoder()
    info = _record(files)
    placing.put(plan, files, info)
    return Built(info, plan, not_compiled)


def _compile(files: dict[str, bytes], runtime: str) -> str:
    """The standard library's zip and the two archives replaced by their compiled forms (`ahead.py`); "" when done,
    else why they could not be (and the sources stay)."""
    stdlib = "pyodide/python_stdlib.zip"
    archives = [path for path in sorted(files) if path.startswith("py/")]
    done, why = ahead.compiled(runtime, files[stdlib], [files[path] for path in archives])
    if done is not None:
        files.update(zip([stdlib, *archives], done))
    return why


def _app_files() -> dict[str, bytes]:
    """The build's files but the runtime, `sw.js` and `build.json`, by their paths in the folder."""
    files: dict[str, bytes] = {}
    static = os.path.join(PACKAGE, "web", "static")
    for name in sorted(os.listdir(static)):
        if os.path.isfile(os.path.join(static, name)):
            with open(os.path.join(static, name), "rb") as handle:
                files[f"static/{name}"] = handle.read()
    lean, pages = python_archives()
    files[_archive_name("lean", lean)], files[_archive_name("pages", pages)] = lean, pages
    files["icons/icon-192.png"], files["icons/icon-512.png"] = icons.png(192), icons.png(512)
    files["icons/icon.svg"] = icons.SVG.encode()
    for name in sorted(os.listdir(SHELL)):
        if name != "sw.js" and os.path.isfile(os.path.join(SHELL, name)):  # sw.js is written with the build's record
            with open(os.path.join(SHELL, name), "rb") as handle:
                files[name] = handle.read()
    return files


def _archive_name(kind: str, data: bytes) -> str:
    return f"py/{kind}-{_digest(data)[:12]}.zip"


def _record(files: dict[str, bytes]) -> dict[str, object]:
    """`build.json` for `files`, which then gain `sw.js`, holding the build's version and precache list."""
    build_hash = _digest(b"".join(path.encode() + b"\0" + _digest(data).encode() for path, data in sorted(files.items())))[:12]
    archives = {kind: next(path for path in files if path.startswith(f"py/{kind}-")) for kind in ("lean", "pages")}
    precached = ["./", *sorted(files), placing.RECORD]
    info: dict[str, object] = {
        "made_by": placing.MARK, "version": f"{__version__}+{build_hash}", "ginscore": __version__, "pyodide": PYODIDE_VERSION,
        "archives": archives, "files": precached,
        "written": sorted([*files, "sw.js", placing.RECORD]),
    }
    with open(os.path.join(SHELL, "sw.js"), encoding="utf-8") as handle:
        worker = handle.read()
    # the version is in sw.js's own bytes: a browser looks for a new service worker by comparing them; the sizes
    # let the first start say how much of the download has arrived
    sizes = {path: len(files["index.html" if path == "./" else path]) for path in precached if path in files or path == "./"}
    files["sw.js"] = worker.replace("__BUILD__", json.dumps({"version": info["version"], "files": info["files"], "sizes": sizes})).encode()
    info["sha256"] = {path: placing.digest(data) for path, data in sorted(files.items())}  # a file is ginscore's while it holds this
    return info


def python_archives() -> tuple[bytes, bytes]:
    """The lean archive and the pages' archive, as zip bytes, from the installed packages; the pages' archive
    holds the templates compiled too."""
    lean = _archive(_own_files(LEAN), _installed_files(LEAN_PACKAGES))
    with tempfile.TemporaryDirectory(prefix="ginscore-templates-") as compiled:
        pages = _archive(_own_files(PAGES, exclude=LEAN), _installed_files(PAGE_PACKAGES), _compiled_templates(compiled))
    return lean, pages


def _compiled_templates(folder: str) -> list[tuple[str, str]]:
    """The pages' templates compiled by Jinja into Python modules in `folder`, named as the pages' archive holds
    them, where `web/page_helpers.py` looks for them: a phone then shows each page the first time without
    compiling its templates (docs/speed.md)."""
    from ..web.page_helpers import COMPILED_TEMPLATES, TEMPLATES

    TEMPLATES.env.compile_templates(folder, zip=None, ignore_errors=False)
    inside = "ginscore/" + os.path.relpath(COMPILED_TEMPLATES, PACKAGE).replace(os.sep, "/")
    return [(f"{inside}/{name}", os.path.join(folder, name)) for name in sorted(os.listdir(folder))]


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
