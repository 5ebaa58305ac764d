"""A match file's QR codes drawn: SVG for the pages, PNG for a file, text for a terminal (segno).

Each code holds one payload of `files.handover`, at error correction M (segno raises it where the same size
holds more), in QR's alphanumeric mode, which the payload's characters are made for.
"""

from __future__ import annotations

import io
from typing import Any

from ..files.handover import payloads

ERROR = "m"
"""The error correction every code is made with, at least."""
BORDER = 4
"""The quiet zone around a code, in modules, as the QR standard asks."""
SVG_SCALE = 4
PNG_SCALE = 8
"""The pixels a module takes in a PNG: a code of version 13 is then 616 pixels a side with its border."""
KINDS = ("svg", "png")
"""What `written` draws, by a file name's ending."""


def codes(data: bytes) -> list[Any]:
    """A file's bytes as its QR codes (segno's), in order."""
    import segno

    return [segno.make_qr(payload, error=ERROR) for payload in payloads(data)]


def svg(code: Any, title: str) -> str:
    """One code as an SVG element to put in a page, scaled by its page (a `viewBox`, no fixed size)."""
    return str(code.svg_inline(scale=SVG_SCALE, border=BORDER, omitsize=True, title=title, svgclass="qr-code"))


def written(code: Any, kind: str) -> bytes:
    """One code as the bytes of an SVG or PNG file."""
    buffer = io.BytesIO()
    if kind == "svg":
        code.save(buffer, kind="svg", scale=SVG_SCALE, border=BORDER, xmldecl=True)
    else:
        code.save(buffer, kind="png", scale=PNG_SCALE, border=BORDER)
    return buffer.getvalue()


def terminal(code: Any) -> str:
    """One code as lines of text for a terminal: two rows of modules a line, in block characters."""
    out = io.StringIO()
    code.terminal(out=out, compact=True, border=BORDER)
    return out.getvalue()
