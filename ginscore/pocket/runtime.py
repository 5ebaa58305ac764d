"""The Pyodide runtime the app runs on: pinned with its npm integrity, fetched through npm once, checked, cached.

`runtime_folder(given)` is the folder holding the runtime's files: `given` (an unpacked `pyodide` npm package, for
a machine without Node) after checking that every file is there, or else the user's cache, filled on first use by
`npm pack pyodide@VERSION` in a temporary folder. The tarball's sha512 must be the one pinned here, or nothing is
kept. Only the files the app loads are unpacked (`RUNTIME_FILES`).

The QR decoder of the scan page (jsQR, pinned in `web/decoder.py`) is fetched the same way, by `decoder`, into
the same cache, where `serve` finds it too.

Every build then reads the files through `verified_files`, which holds each one to its size and sha256 as
`pyodide.json` (shipped beside this module, measured from the pinned tarball) gives them; the cache also keeps
its own record (`CACHE_RECORD`), written when the tarball's integrity was checked, and must agree with the
shipped one. A file changed, cut short or replaced after the fetch stops the build before it writes anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile

from ..errors import GinscoreError, InputError
from ..web.decoder import (
    DECODER_NAME,
    JSQR_INTEGRITY,
    JSQR_MEMBER,
    JSQR_VERSION,
    cached_decoder,
    decoder_folder,
    is_pinned,
)

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
PINNED_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyodide.json")
"""Each runtime file's size and sha256, measured from the pinned tarball (`python -m ginscore.pocket.runtime`)."""
CACHE_RECORD = "ginscore-record.json"
"""The cache's own record of the files' sizes and sha256, written beside them when the tarball was checked."""


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
    """The folder of the runtime's files: `given`, checked, or the cache, filled through npm when it is not whole
    (a file or its record missing)."""
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
    if not missing_files(folder) and os.path.isfile(os.path.join(folder, CACHE_RECORD)):
        return folder
    fetch_into(folder)
    return folder


def verified_files(given: str | None = None) -> dict[str, bytes]:
    """Every runtime file's bytes, each held to the size and sha256 pinned for this version: from `given` (an
    `InputError` when one differs) or from the cache (a `NoRuntimeError`, saying to delete it)."""
    folder = runtime_folder(given)
    pinned = pinned_files()
    if given is None:
        _check_record(folder, pinned)
    files: dict[str, bytes] = {}
    for name in RUNTIME_FILES:
        path = os.path.join(folder, name)
        with open(path, "rb") as handle:
            data = handle.read()
        wrong = _how_it_differs(data, pinned[name])
        if wrong and given is not None:
            raise InputError(f"--runtime {given}: {name} {wrong}: pass the folder of an unpacked pyodide {PYODIDE_VERSION} "
                             "npm package, or leave out --runtime to fetch it through npm")
        if wrong:
            raise NoRuntimeError(f"{path} {wrong}, so the cached runtime was changed after it was fetched: delete {folder} "
                                 "and run ginscore app again, which fetches it afresh")
        files[name] = data
    return files


def pinned_files() -> dict[str, dict[str, object]]:
    """Each runtime file's `bytes` and `sha256` as the pinned tarball holds it, from the list shipped in ginscore."""
    try:
        with open(PINNED_FILES, encoding="utf-8") as handle:
            pinned = json.load(handle)
        files = pinned["files"]
        if pinned["pyodide"] != PYODIDE_VERSION or pinned["integrity"] != PYODIDE_INTEGRITY or sorted(files) != sorted(RUNTIME_FILES):
            raise ValueError("another runtime")
        return {name: {"bytes": int(files[name]["bytes"]), "sha256": str(files[name]["sha256"])} for name in RUNTIME_FILES}
    except (OSError, ValueError, KeyError, TypeError):
        raise NoRuntimeError(f"{PINNED_FILES}: not the list of pyodide {PYODIDE_VERSION}'s files this ginscore ships: "
                             "install ginscore again") from None


def measured_files(folder: str) -> dict[str, dict[str, object]]:
    """Each runtime file in `folder` as it is: its `bytes` and `sha256`."""
    measured: dict[str, dict[str, object]] = {}
    for name in RUNTIME_FILES:
        with open(os.path.join(folder, name), "rb") as handle:
            data = handle.read()
        measured[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return measured


def _how_it_differs(data: bytes, pinned: dict[str, object]) -> str | None:
    """None when `data` is the pinned file; else what is wrong with it, said after the file's name."""
    size = pinned["bytes"]
    assert isinstance(size, int)  # pinned_files made it so
    if len(data) < size:
        return f"is cut short ({len(data):,} of pyodide {PYODIDE_VERSION}'s {size:,} bytes)"
    if len(data) > size:
        return f"is longer than pyodide {PYODIDE_VERSION}'s ({len(data):,} bytes, not {size:,})"
    if hashlib.sha256(data).hexdigest() != pinned["sha256"]:
        return f"is not pyodide {PYODIDE_VERSION}'s (same size, another sha256)"
    return None


def _check_record(folder: str, pinned: dict[str, dict[str, object]]) -> None:
    """The cache's record, written at the fetch, must be the shipped list: else the cache is not what was fetched."""
    path = os.path.join(folder, CACHE_RECORD)
    try:
        with open(path, encoding="utf-8") as handle:
            recorded = json.load(handle).get("files")
    except (OSError, ValueError, AttributeError):
        recorded = None
    if recorded != pinned:
        raise NoRuntimeError(f"{path} does not record the files of pinned pyodide {PYODIDE_VERSION}, so the cached runtime was "
                             f"changed after it was fetched: delete {folder} and run ginscore app again, which fetches it afresh")


def _check_version(folder: str, shown: str) -> None:
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
    unpacked and held to the shipped list, then renamed into `folder` whole with the record of their sizes and
    sha256 (so a half-fetched runtime is never used)."""
    pinned = pinned_files()
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ginscore-pyodide-", dir=os.path.dirname(folder)) as work:
        unpacked = _unpacked(work)
        measured = measured_files(unpacked)
        if measured != pinned:
            raise NoRuntimeError(f"pyodide-{PYODIDE_VERSION}.tgz matches its pin, but not the list of its files in {PINNED_FILES}: "
                                 "install ginscore again; nothing was kept")
        with open(os.path.join(unpacked, CACHE_RECORD), "w", encoding="utf-8") as handle:
            handle.write(_record_text(measured))
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.replace(unpacked, folder)


def _unpacked(work: str) -> str:
    """The runtime files unpacked into a folder inside `work`, from `npm pack`'s tarball after its integrity check."""
    tarball = _packed(work, "pyodide", PYODIDE_VERSION, PYODIDE_INTEGRITY)
    unpacked = os.path.join(work, "runtime")
    os.mkdir(unpacked)
    with tarfile.open(tarball, "r:gz") as archive:
        for name in RUNTIME_FILES:
            _extract(archive, name, os.path.join(unpacked, name), f"pyodide-{PYODIDE_VERSION}.tgz")
    return unpacked


def _packed(work: str, package: str, version: str, integrity: str) -> str:
    """`npm pack PACKAGE@VERSION` run in `work`: the tarball's path, once its integrity is the one pinned."""
    spec, shown = f"{package}@{version}", f"{package}-{version}.tgz"
    npm = shutil.which("npm")
    if npm is None:
        other = (", or pass --runtime DIR, an unpacked pyodide npm package" if package == "pyodide" else
                 " (the scan page's QR code reader), or build once where npm is, which keeps it in the cache")
        raise NoRuntimeError(f"npm is not installed: install Node.js (which brings npm) to fetch {package} {version}{other}")
    mend = "check the network, or pass --runtime DIR" if package == "pyodide" else "check the network"
    try:
        done = subprocess.run([npm, "pack", spec, "--silent"], cwd=work, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise NoRuntimeError(f"npm pack {spec} failed ({error}): {mend}") from None
    tarball = os.path.join(work, shown)
    if done.returncode != 0 or not os.path.isfile(tarball):
        said = " ".join((done.stderr or done.stdout).split())[:200] or f"exit status {done.returncode}"
        raise NoRuntimeError(f"npm pack {spec} failed ({said}): {mend}")
    found = integrity_of(tarball)
    if found != integrity:
        raise NoRuntimeError(f"{shown} from npm is not the pinned one (its integrity is {found}, expected {integrity}); "
                             "nothing was kept")
    return tarball


def _extract(archive: tarfile.TarFile, member: str, target: str, shown: str) -> None:
    """One file of an npm tarball (under `package/`) written to `target`."""
    try:
        found = archive.getmember(f"package/{member}")
    except KeyError:
        raise NoRuntimeError(f"{shown} has no {member}") from None
    source = archive.extractfile(found)
    if source is None:
        raise NoRuntimeError(f"{shown}: {member} is not a file")
    with source, open(target, "wb") as handle:
        shutil.copyfileobj(source, handle)


def decoder() -> bytes:
    """The QR decoder the scan page falls back on (`web/decoder.py`), from the cache, fetched into it through
    npm first when it is not there whole; held to its pinned size and sha256 either way."""
    folder = decoder_folder()
    cached = cached_decoder()
    if cached is not None:
        return cached
    shown = f"jsqr-{JSQR_VERSION}.tgz"
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ginscore-jsqr-", dir=os.path.dirname(folder)) as work:
        tarball = _packed(work, "jsqr", JSQR_VERSION, JSQR_INTEGRITY)
        unpacked = os.path.join(work, "decoder")
        os.mkdir(unpacked)
        with tarfile.open(tarball, "r:gz") as archive:
            _extract(archive, JSQR_MEMBER, os.path.join(unpacked, DECODER_NAME), shown)
        with open(os.path.join(unpacked, DECODER_NAME), "rb") as handle:
            data = handle.read()
        if not is_pinned(data):
            raise NoRuntimeError(f"{shown} matches its pin, but its {JSQR_MEMBER} is not the one ginscore was made with: "
                                 "install ginscore again; nothing was kept")
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        os.replace(unpacked, folder)
    return data


def _record_text(files: dict[str, dict[str, object]]) -> str:
    """The files' sizes and sha256 as `pyodide.json` and the cache's record hold them."""
    return json.dumps({"pyodide": PYODIDE_VERSION, "integrity": PYODIDE_INTEGRITY, "files": files}, indent=1) + "\n"


def main() -> None:
    """Print `pyodide.json` for the version pinned here, measured from its tarball (after a pin is changed)."""
    with tempfile.TemporaryDirectory(prefix="ginscore-pin-") as work:
        print(_record_text(measured_files(_unpacked(work))), end="")


if __name__ == "__main__":
    main()
