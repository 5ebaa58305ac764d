"""A match's sheet as a download: the kinds `show --export` writes, with their media types, and the match file
itself, byte for byte, for `validate`, `merge` or another phone."""

from __future__ import annotations

from ..errors import InputError, quote
from ..files.served import Folder

EXPORT_TYPES = {
    "html": "text/html; charset=utf-8",
    "svg": "image/svg+xml",
    "csv": "text/csv; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "toml": "application/toml",
}


def export_of(folder: Folder, name: str, kind: str) -> tuple[bytes, str]:
    """The sheet of match `name` as `show --export` writes it (`html`, `svg`, `csv` or `md`), or (`toml`) the
    match file's exact bytes as stored, and its media type."""
    from ..sheets.export import export_text

    if kind not in EXPORT_TYPES:
        raise InputError(f"{quote(kind)} is not an export: use {', '.join(EXPORT_TYPES)}", field="kind")
    if kind == "toml":
        folder.resolve(name)
        return folder.table.storage.data(name), EXPORT_TYPES[kind]
    return export_text(folder.sheet(name), kind).encode("utf-8"), EXPORT_TYPES[kind]
