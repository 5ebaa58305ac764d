"""A zip of Python files with each module's bytecode added, compiled by the Python that runs this: the app's build
runs it under the pinned Pyodide itself, in Node (`ahead.py`), as bytecode is read only by the Python that wrote it.

A phone then imports the bytecode and never compiles the sources: Pyodide ships its standard library as sources
only, and compiling what its start-up imports was most of that start-up. Standard library only, and no I/O but
the two paths: it runs inside the runtime.
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import zipfile

UNCHECKED_HASH = (0b01).to_bytes(4, "little")
"""A pyc's flags (PEP 552): hash-based and unchecked, so that an archive's fixed member times never matter and a
module beside its source is imported from its bytecode without reading the source."""


def compiled_zip(data: bytes, keep_sources: bool) -> bytes:
    """`data`'s members in their order, each `.py` with its bytecode: kept, and its bytecode in `__pycache__`
    where an import from a folder looks (`keep_sources`: the app unpacks its own archives, and a package may read
    its own sources, as anyio's lazy imports do), or replaced by a `.pyc` of the same name, which an import from
    the zip itself finds (the standard library's zip, whose sources nothing reads)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for member in source.infolist():
            text = source.read(member)
            if not member.filename.endswith(".py"):
                archive.writestr(member, text)
                continue
            if keep_sources:
                archive.writestr(member, text)
            code = compile(text, member.filename, "exec", dont_inherit=True, optimize=0)
            pyc = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH + importlib.util.source_hash(text) + marshal.dumps(code)
            name = importlib.util.cache_from_source(member.filename) if keep_sources else member.filename + "c"
            compiled = zipfile.ZipInfo(name, member.date_time)
            compiled.compress_type, compiled.external_attr = zipfile.ZIP_DEFLATED, member.external_attr
            archive.writestr(compiled, pyc)
    return buffer.getvalue()


def compile_file(source: str, target: str, keep_sources: bool) -> None:
    """`compiled_zip` from one file to another (the runtime's file system, where Node puts and takes them)."""
    with open(source, "rb") as handle:
        data = handle.read()
    with open(target, "wb") as handle:
        handle.write(compiled_zip(data, keep_sources))
