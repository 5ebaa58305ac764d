"""A match file's QR codes drawn: SVG for the pages, PNG for a file, text for a terminal (segno).

Each code holds one payload of `files.handover`, at error correction M (segno raises it where the same size
holds more), in QR's alphanumeric mode, which the payload's characters are made for.
"""

from __future__ import annotations

import io
from typing import Any

from ..errors import RefusedError
from ..files.handover import ID_DIGITS, MOST_PARTS, TAG, parts, payloads

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


def fitted(data: bytes, columns: int, lines: int) -> list[Any]:
    """A file's bytes as the fewest QR codes each of which, drawn by `terminal` with one line under it for its
    label, fits a terminal `columns` wide and `lines` tall; a `RefusedError` when even the smallest would not."""
    import segno

    version = largest_version(columns, lines - 1)
    if version < SMALLEST_VERSION:
        side = _side(SMALLEST_VERSION) + 2 * BORDER
        raise RefusedError(f"a terminal of {columns} columns and {lines} lines is too small for a QR code: make it at least "
                           f"{side} columns and {(side + 1) // 2 + 1} lines, or write the codes as pictures with --output",
                           field="terminal")
    most = alphanumeric_capacity(version) - len(f"{TAG}:{'0' * ID_DIGITS}:{MOST_PARTS}:{MOST_PARTS}:")
    return [segno.make_qr(part.payload(), error=ERROR) for part in parts(data, most)]


SMALLEST_VERSION = 2
"""The smallest code `fitted` draws: version 1 holds fewer characters than a payload's header."""


def _side(version: int) -> int:
    """The modules a side of a QR code of `version` has, without its border."""
    return 17 + 4 * version


def largest_version(columns: int, lines: int) -> int:
    """The largest QR code version whose `terminal` drawing (border included) fits `columns` by `lines`; 0 when none."""
    modules = min(columns, 2 * lines) - 2 * BORDER
    return max(0, min(40, (modules - 17) // 4))


def alphanumeric_capacity(version: int) -> int:
    """The characters of QR's alphanumeric mode a code of `version` holds at error correction M (ISO/IEC 18004's
    table 7): its data bits less the mode indicator (4 bits) and the character count (9, 11 or 13 bits), at 11 bits
    for every two characters and 6 for a last odd one."""
    from segno import consts

    table: dict[int, dict[int, int]] = consts.SYMBOL_CAPACITY  # type: ignore[assignment]  # segno's is untyped
    bits = table[version][consts.ERROR_LEVEL_M] - 4 - (9 if version < 10 else 11 if version < 27 else 13)
    return bits // 11 * 2 + (1 if bits % 11 >= 6 else 0)


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
    """One code as lines of text for a terminal: a module a column and two a line, in half blocks (▀ ▄ █), light
    modules drawn and dark ones left blank, as for a terminal of light text on a dark ground."""
    out = io.StringIO()
    code.terminal(out=out, compact=True, border=BORDER)
    return out.getvalue()
