"""The app's Python compiled to bytecode by the Python that runs this: the app's build runs it under the pinned
Pyodide itself, in Node (`ahead.py`), as a Python's bytecode is read only by its own version.

A phone then imports bytecode instead of compiling sources at every start: Pyodide ships its standard library as
sources only, and compiling what the start imports was most of that start. Only what the start imports is
compiled (`started`), the rest keeps its sources, which are smaller: bytecode about doubles a module's download.
Standard library only, and no I/O but the paths given: it runs inside the runtime.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import sys
import sysconfig
import zipfile
from collections.abc import Collection

UNCHECKED_HASH = (0b01).to_bytes(4, "little")
"""A pyc's flags (PEP 552): hash-based and unchecked, so that an archive's fixed member times never matter and a
module beside its source is imported from its bytecode without reading the source."""
READ_OWN_SOURCES = ("anyio/",)
"""Packages that read their own sources (anyio's lazy imports parse its `__init__.py`): their sources stay, their
bytecode beside them in `__pycache__`, where an import from the unpacked folder looks."""


def started() -> frozenset[str]:
    """The file of every module imported so far, named as inside its zip: the standard library's, or one of the
    app's archives, unpacked where Python finds its packages (frozen modules, which Python holds compiled, left
    out)."""
    packages = sysconfig.get_paths()["purelib"].strip("/") + "/"  # Pyodide's begins with two slashes
    found = set()
    for module in list(sys.modules.values()):
        origin = (getattr(getattr(module, "__spec__", None), "origin", None) or "").lstrip("/")
        if ".zip/" in origin:
            found.add(origin.split(".zip/", 1)[1])
        elif origin.startswith(packages):
            found.add(origin[len(packages):])
    return frozenset(found)


def compiled_zip(data: bytes, imported: Collection[str]) -> bytes:
    """`data`'s members in their order, each of the `imported` sources replaced by its bytecode under the same name
    and `.pyc` (which an import finds in a zip or a folder alike), or kept with its bytecode in `__pycache__` for
    the packages that read their own (`READ_OWN_SOURCES`); everything else as it is."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for member in source.infolist():
            text = source.read(member)
            if member.filename not in imported or not member.filename.endswith(".py"):
                archive.writestr(member, text)
                continue
            kept = member.filename.startswith(READ_OWN_SOURCES)
            if kept:
                archive.writestr(member, text)
            code = compile(text, member.filename, "exec", dont_inherit=True, optimize=0)
            pyc = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH + importlib.util.source_hash(text) + marshal.dumps(code)
            name = importlib.util.cache_from_source(member.filename) if kept else member.filename + "c"
            compiled = zipfile.ZipInfo(name, member.date_time)
            compiled.compress_type, compiled.external_attr = zipfile.ZIP_DEFLATED, member.external_attr
            archive.writestr(compiled, pyc)
    return buffer.getvalue()


def compile_file(source: str, target: str, imported: Collection[str]) -> None:
    """`compiled_zip` from one file to another (the runtime's file system, where Node puts and takes them)."""
    with open(source, "rb") as handle:
        data = handle.read()
    with open(target, "wb") as handle:
        handle.write(compiled_zip(data, imported))
