"""The Pyodide runtime the app runs on: pinned with its npm integrity, fetched through npm once, checked, cached.

`runtime_folder(given)` is the folder holding the runtime's files: `given` (an unpacked `pyodide` npm package, for
a machine without Node) after checking that every file is there, or else the user's cache, filled on first use by
`npm pack pyodide@VERSION` in a temporary folder. The tarball's sha512 must be the one pinned here, or nothing is
kept. Only the files the app loads are unpacked (`RUNTIME_FILES`).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile

from ..errors import GinscoreError, InputError

PYODIDE_VERSION = "314.0.7"
"""The Pyodide release the app runs on (Python 3.14.2)."""
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
"""`npm view pyodide@314.0.7 dist.integrity`: the tarball npm hands over must hash to exactly this."""
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
"""What the worker loads: the loader, the compiled interpreter and the standard library. `pyodide-lock.json` is
read at start-up (no package from it is ever fetched); `package.json` names the version, for the Node test."""


class NoRuntimeError(GinscoreError):
    """The runtime cannot be had: npm is missing, the fetch failed, or the tarball is not the pinned one."""


def cache_root() -> str:
    """Where runtimes are kept: `$GINSCORE_CACHE_DIR/pyodide-VERSION`, else under the user's cache folder."""
    from ..files.stats_cache import cache_folder

    return os.path.join(cache_folder(), f"pyodide-{PYODIDE_VERSION}")


def missing_files(folder: str) -> list[str]:
    """The runtime files `folder` lacks."""
    return [name for name in RUNTIME_FILES if not os.path.isfile(os.path.join(folder, name))]


def runtime_folder(given: str | None = None) -> str:
    """The folder of the runtime's files: `given`, checked, or the cache, filled through npm when empty."""
    if given is not None:
        folder = given
        if os.path.isdir(os.path.join(given, "package")) and not os.path.isfile(os.path.join(given, "pyodide.mjs")):
            folder = os.path.join(given, "package")  # a tarball unpacked as npm packs it
        lacking = missing_files(folder)
        if lacking:
            raise InputError(f"--runtime {given}: not an unpacked pyodide {PYODIDE_VERSION} package (no {', '.join(lacking)})")
        _check_version(folder, f"--runtime {given}")
        return folder
    folder = cache_root()
    if not missing_files(folder):
        return folder
    fetch_into(folder)
    return folder


def _check_version(folder: str, shown: str) -> None:
    import json

    try:
        with open(os.path.join(folder, "package.json"), encoding="utf-8") as handle:
            version = json.load(handle).get("version")
    except (OSError, ValueError, AttributeError):
        version = None
    if version != PYODIDE_VERSION:
        raise InputError(f"{shown}: pyodide {version or 'of unknown version'}, but this ginscore runs on {PYODIDE_VERSION}")


def integrity_of(path: str) -> str:
    """A file's integrity in npm's spelling: `sha512-` and the base64 digest."""
    digest = hashlib.sha512()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def fetch_into(folder: str) -> None:
    """`npm pack pyodide@VERSION` in a temporary folder, the tarball checked against the pin, the runtime files
    unpacked into `folder` (renamed into place whole, so a half-fetched runtime is never used)."""
    npm = shutil.which("npm")
    if npm is None:
        raise NoRuntimeError(f"npm is not installed: install Node.js (which brings npm) to fetch pyodide {PYODIDE_VERSION}, "
                            "or pass --runtime DIR, an unpacked pyodide npm package")
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ginscore-pyodide-", dir=os.path.dirname(folder)) as work:
        try:
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=work, capture_output=True,
                                  text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise NoRuntimeError(f"npm pack pyodide@{PYODIDE_VERSION} failed ({error}): check the network, or pass --runtime DIR") from None
        tarball = os.path.join(work, f"pyodide-{PYODIDE_VERSION}.tgz")
        if done.returncode != 0 or not os.path.isfile(tarball):
            said = " ".join((done.stderr or done.stdout).split())[:200] or f"exit status {done.returncode}"
            raise NoRuntimeError(f"npm pack pyodide@{PYODIDE_VERSION} failed ({said}): check the network, or pass --runtime DIR")
        found = integrity_of(tarball)
        if found != PYODIDE_INTEGRITY:
            raise NoRuntimeError(f"pyodide-{PYODIDE_VERSION}.tgz from npm is not the pinned one (its integrity is {found}, "
                                f"expected {PYODIDE_INTEGRITY}); nothing was kept")
        unpacked = os.path.join(work, "runtime")
        os.mkdir(unpacked)
        with tarfile.open(tarball, "r:gz") as archive:
            for name in RUNTIME_FILES:
                try:
                    member = archive.getmember(f"package/{name}")
                except KeyError:
                    raise NoRuntimeError(f"pyodide-{PYODIDE_VERSION}.tgz has no {name}") from None
                source = archive.extractfile(member)
                if source is None:
                    raise NoRuntimeError(f"pyodide-{PYODIDE_VERSION}.tgz: {name} is not a file")
                with source, open(os.path.join(unpacked, name), "wb") as target:
                    shutil.copyfileobj(source, target)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.replace(unpacked, folder)
