"""A match handed to another phone by its camera: the match's QR codes, and the scan page that reads them.

`GET /m/{name}/qr` draws the match file's codes (`files.handover`, `sheets.qr_codes`) as SVG, all in a column;
`static/handover.js` shows them one at a time, in a loop, each labelled "2 of 5". `GET /scan` is the camera's
page: the script reads the codes (BarcodeDetector where the browser has it, else the pinned jsQR decoder,
`decoder.py`) and posts them whole; `POST /scan` joins them here and merges the match by the one rule
(`merge_pages.merge_answer`), so a conflict is shown and chosen as every other copy's is.
"""

from __future__ import annotations

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response

from ..errors import GinscoreError, InputError
from ..files.handover import FIELD, joined
from ..sheets.qr_codes import codes, svg
from .decoder import cached_decoder
from .file_words import problem_words
from .merge_pages import merge_answer
from .page_helpers import folder_of, load_sheet, render

SHOW_MS = 700
"""How long each code of several is shown before the next: a phone's camera reads one in a few frames."""


def qr_page(request: Request, form: dict[str, str]) -> Response:
    """A match's QR codes, for another phone's "Scan a match"."""
    name = request.path_params["name"]
    folder = folder_of(request)
    sheet = load_sheet(folder, name)  # a broken file is refused here, as its page would be
    found = folder.table.file(name).read
    text = found.text if found is not None else ""
    try:
        drawn = codes(text.encode("utf-8"))
    except InputError as error:  # too large for codes: said of the match as its page names it
        raise error.named(name) from None
    shown = [Markup(svg(code, f"Code {number} of {len(drawn)}")) for number, code in enumerate(drawn, 1)]  # segno's own SVG
    return render(request, "qr.html", {"name": name, "players": sheet.match.players, "codes": shown, "hands": len(sheet.lines),
                                       "show_ms": SHOW_MS})


def scan_page(request: Request, form: dict[str, str]) -> Response:
    """The camera's page: the codes read so far, then the merge."""
    return render(request, "scan.html", {"codes": ""})


def scan_post(request: Request, form: dict[str, str]) -> Response:
    """The codes read, one a line: joined into the match file's text and merged like any other copy."""
    data = joined(line for line in form.get(FIELD, "").splitlines() if line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the codes do not hold a match file's text", field=FIELD) from None
    return merge_answer(request, text, None)


def scan_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The codes could not be joined or merged: why, with the camera page again to scan once more."""
    return render(request, "scan.html", {"codes": "", "refusal": problem_words(error)}, error.http_status)


def decoder_script(request: Request, form: dict[str, str]) -> Response:
    """The pinned QR decoder, from ginscore's cache, for a browser without BarcodeDetector; 404 when it is not
    there (the scan page then says that this browser cannot read codes)."""
    data = cached_decoder()
    if data is None:
        return Response("", 404, media_type="text/javascript", headers={"Cache-Control": "no-store"})
    return Response(data, media_type="text/javascript", headers={"Cache-Control": "private, max-age=86400"})
