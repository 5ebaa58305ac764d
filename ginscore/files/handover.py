"""A match file handed to another phone as QR codes: its bytes as text payloads, and the payloads back to bytes.

Pure, no I/O. A file's bytes are compressed (zlib, with the text most match files share as its preset
dictionary) and written in base45 (RFC 9285), whose 45 characters are exactly those of a QR code's alphanumeric
mode, so a code holds about 16.5 bits for every 16 of the compressed file; the text is cut into parts of at
most `PART_CHARS` characters, each one payload:

    GS1:3FA09C21D4E7:2:5:<base45 text>

the format tag, the whole's id (the first 12 hex digits of the sha256 of the file's bytes, so that the codes
of two matches, or of two copies of one match, never mix), the part's number, the number of parts, and its
text. A camera's reader (BarcodeDetector's `rawValue`, jsQR's `data`) gives the payload back as this string,
unchanged. `joined` takes the payloads in any order, repeated or not, and gives back the bytes only when every
part is there and the bytes hash to the id.
"""

from __future__ import annotations

import hashlib
import math
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import InputError, quote

TAG = "GS1"
"""The format tag each payload starts with: ginscore's handover, format 1."""
PART_CHARS = 577
"""The most base45 characters a part carries: a payload is then at most 600 characters, a QR code of version 15
at error correction M (77 modules a side), which a phone reads off another's screen at arm's length."""
MOST_PARTS = 99
"""The most parts a handover has: about 47 kB compressed, far past any match file."""
MOST_BYTES = 16 * 1024 * 1024
"""The most a handover unpacks to: a larger one is refused before it fills memory."""
ID_DIGITS = 12
PRESET = b"""# ginscore match file: the score sheet. Edit it by hand if you like, then run
# `ginscore validate` on it. Each hand's dealer and totals are recomputed on load.

format = 2
created = "2026-

[match]
players = [
]
first_dealer = "
hollywood = false
preset = "standard"
preset = "oklahoma"

[rules]
knock_limit = 10
oklahoma = false
oklahoma_ace = "gin"
spades_double = false
gin_bonus = 20
big_gin_bonus = 0
undercut_bonus = 10
undercut_on_tie = true
target = 100
game_bonus = 100
shutout = "flat"
shutout_bonus = 200
box_bonus = 20
gin_boxes = 1
undercut_boxes = 1
next_dealer = "winner"

[[hands]]
cancelled = true
knocker_deadwood =
opponent_deadwood =
upcard = "
note = "
big_gin = true
opponent_cards = "
[hands.totals]

[[hands]]
dealer = "
knocker = "
knocker_cards = "
spread = "
opponent_cards = "
recorded = "2026-
+00:00"
"""
"""zlib's preset dictionary: the text most match files share, so that a match just started fits one code. It is
part of the format: the tag changes if it ever does."""
FIELD = "codes"
"""The field a handover's refusal is about: the codes read."""

BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_VALUE = {character: value for value, character in enumerate(BASE45)}
_PAYLOAD = re.compile(rf"{TAG}:([0-9A-F]{{{ID_DIGITS}}}):([0-9]{{1,2}}):([0-9]{{1,2}}):(.*)", re.DOTALL)


@dataclass(frozen=True)
class Part:
    """One payload read: which handover it belongs to, and its place there."""

    id: str
    """The whole's id: the first hex digits of its bytes' sha256, in capitals."""
    number: int
    """This part's number, from 1."""
    count: int
    """How many parts the whole has."""
    text: str
    """This part's base45 text."""

    def payload(self) -> str:
        """The payload's text, as a QR code holds it (`read_part` reads it back)."""
        return f"{TAG}:{self.id}:{self.number}:{self.count}:{self.text}"


def id_of(data: bytes) -> str:
    """A file's id in its payloads."""
    return hashlib.sha256(data).hexdigest()[:ID_DIGITS].upper()


def parts(data: bytes, most: int = PART_CHARS) -> list[Part]:
    """A file's bytes as parts of at most `most` characters each, of near equal length (so every code is drawn
    at the same size)."""
    packer = zlib.compressobj(9, zdict=PRESET)
    text = b45encode(packer.compress(data) + packer.flush())
    count = max(1, math.ceil(len(text) / most))
    if count > MOST_PARTS:
        raise InputError(f"is too large to hand over by codes ({len(data):,} bytes, {count} codes; the most is {MOST_PARTS})",
                         field="file")
    size, longer = divmod(len(text), count)
    starts = [number * size + min(number, longer) for number in range(count + 1)]
    found = id_of(data)
    return [Part(found, number + 1, count, text[starts[number]:starts[number + 1]]) for number in range(count)]


def payloads(data: bytes, most: int = PART_CHARS) -> list[str]:
    """A file's bytes as the payloads of its QR codes, in order."""
    return [part.payload() for part in parts(data, most)]


def read_part(payload: str) -> Part:
    """One payload as a `Part`, or an `InputError` saying it is none of ginscore's."""
    found = _PAYLOAD.fullmatch(payload)
    if found is None:
        raise InputError(f"{quote(payload)} is not a code of a match shown by ginscore", field=FIELD)
    number, count = int(found[2]), int(found[3])
    if not 1 <= number <= count:
        raise InputError(f"{quote(payload)} is damaged: it says it is code {number} of {count}", field=FIELD)
    if any(character not in _VALUE for character in found[4]):
        raise InputError(f"code {number} of {count} is damaged: it holds characters no code of ginscore's holds", field=FIELD)
    return Part(found[1], number, count, found[4])


def missing(read: Iterable[Part]) -> list[int]:
    """The numbers of the parts not yet read, of a handover whose parts `read` are (all of one id)."""
    read = list(read)
    if not read:
        return []
    return sorted(set(range(1, read[0].count + 1)) - {part.number for part in read})


def joined(payloads: Iterable[str]) -> bytes:
    """The file's bytes from its payloads, in any order, repeats allowed. Refused (`InputError`, field `codes`):
    none given, one that is not a ginscore code, codes of two handovers, codes missing (listed), two codes of
    one number that differ, or a whole whose bytes do not hash to its id (damaged)."""
    read = [read_part(payload) for payload in payloads]
    if not read:
        raise InputError("no codes were read", field=FIELD)
    ids = sorted({part.id for part in read})
    if len(ids) > 1:
        raise InputError(f"these codes come from {len(ids)} different matches (or copies of one): scan the codes of "
                         "one match only", field=FIELD)
    counts = sorted({part.count for part in read})
    if len(counts) > 1:
        raise InputError(f"these codes disagree on how many there are ({' and '.join(map(str, counts))}): they are damaged",
                         field=FIELD)
    count = counts[0]
    by_number: dict[int, str] = {}
    for part in read:
        if by_number.setdefault(part.number, part.text) != part.text:
            raise InputError(f"two different codes say they are {part.number} of {count}: they are damaged", field=FIELD)
    lacking = missing(read)
    if lacking:
        listed = ", ".join(map(str, lacking))
        raise InputError(f"{'code' if len(lacking) == 1 else 'codes'} {listed} of {count} {'is' if len(lacking) == 1 else 'are'} "
                         "missing: scan them too", field=FIELD)
    data = _unpacked("".join(by_number[number] for number in range(1, count + 1)))
    if data is None or id_of(data) != ids[0]:
        raise InputError(f"the {count} {'code does' if count == 1 else 'codes do'} not make the match they were made from: "
                         "they are damaged; show them and scan again", field=FIELD)
    return data


def _unpacked(text: str) -> bytes | None:
    """The bytes a whole base45 text unpacks to, or None when it is not what `parts` makes."""
    try:
        packed = b45decode(text)
        unpacker = zlib.decompressobj(zdict=PRESET)
        data = unpacker.decompress(packed, MOST_BYTES)
    except (ValueError, zlib.error):
        return None
    if not unpacker.eof or unpacker.unconsumed_tail or unpacker.unused_data:
        return None
    return data


def b45encode(data: bytes) -> str:
    """Bytes in base45 (RFC 9285): each two bytes three characters, a last odd byte two."""
    out = []
    for start in range(0, len(data) - 1, 2):
        value = data[start] * 256 + data[start + 1]
        out.append(BASE45[value % 45] + BASE45[value // 45 % 45] + BASE45[value // 2025])
    if len(data) % 2:
        out.append(BASE45[data[-1] % 45] + BASE45[data[-1] // 45])
    return "".join(out)


def b45decode(text: str) -> bytes:
    """The bytes of a base45 text; a `ValueError` when it is not one."""
    if len(text) % 3 == 1:
        raise ValueError("a base45 text is never one longer than a multiple of three")
    out = bytearray()
    for start in range(0, len(text), 3):
        group = [_VALUE.get(character, -1) for character in text[start:start + 3]]
        if -1 in group:
            raise ValueError("a character outside base45")
        value = sum(digit * 45**place for place, digit in enumerate(group))
        if len(group) == 3:
            if value > 0xFFFF:
                raise ValueError("a base45 group over two bytes")
            out += bytes((value >> 8, value & 0xFF))
        else:
            if value > 0xFF:
                raise ValueError("a base45 group over one byte")
            out.append(value)
    return bytes(out)
