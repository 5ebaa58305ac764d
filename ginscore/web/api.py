"""The JSON API under `/api`: the same contract as the command line, one route a few lines each.

Every route needs the token (see `security`). Bodies are JSON objects of the CLI's long options spelled with
underscores, read into the service's typed entries (`fields`). Answers are what the matching `--json` command
prints (`answers`); errors are `{"error": ..., "field": ...}` with the status the error's kind carries, answered
in one place (`app`). File work runs in the thread pool, off the event loop.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import InputError
from ..files.served import Folder
from . import answers
from .blocking import blocking
from .exports import export_of
from .fields import hand_entry, json_integer, new_match_entry, number_field
from .hands import advise_fields, check_fields


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; an `InputError` for anything else."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}", parse_int=json_integer)
    except (ValueError, RecursionError):
        raise InputError("the request body is not JSON: send an object like {\"knocker\": \"Ann\", ...}", field="body") from None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object of fields, like {\"knocker\": \"Ann\", ...}", field="body")
    try:
        json.dumps(data, ensure_ascii=False, default=repr).encode("utf-8")  # repr: a `LongNumber`, refused by its field
    except UnicodeEncodeError:  # JSON's \ud800 escapes can name half a character, which no file can hold
        raise InputError("the request body holds a lone surrogate (\\ud800 to \\udfff), which is not text: send whole characters", field="body") from None
    return data


def _folder(request: Request) -> Folder:
    folder: Folder = request.app.state.folder
    return folder


async def _run(function: Callable[..., Any], *args: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(await blocking(function, *args), status, headers={"cache-control": "no-store"})


async def matches(request: Request) -> Response:
    """GET: every match file in the folder. POST: start one (`new`'s fields); 409 when the file exists."""
    folder = _folder(request)
    if request.method == "POST":
        file, new = new_match_entry(await _body(request))
        def started() -> dict[str, Any]:
            name, sheet = folder.new(file, new)
            return answers.new_dict(name, folder.table.show(sheet))

        return await _run(started, status=201)
    return await _run(lambda: [summary.as_json() for summary in folder.listing()])


async def match(request: Request) -> Response:
    """GET: exactly what `show --json` prints."""
    return await _run(_folder(request).show, request.path_params["file"])


async def version(request: Request) -> Response:
    """GET: `{"version": ...}`, which changes whenever the file does (for polling)."""
    folder, name = _folder(request), request.path_params["file"]
    return await _run(lambda: {"version": folder.version(name)})


async def hands(request: Request) -> Response:
    """POST: record one hand; 201 with the hand as `show --json` gives it."""
    folder, name = _folder(request), request.path_params["file"]
    entry, expected = hand_entry(await _body(request))

    def recorded() -> dict[str, Any]:
        sheet = folder.record(name, entry, expected).sheet
        return answers.hand_dict(sheet, len(sheet.match.hands))

    return await _run(recorded, status=201)


async def preview(request: Request) -> Response:
    """POST: score a hand as `record` would, writing nothing."""
    folder, name = _folder(request), request.path_params["file"]
    entry, _ = hand_entry(await _body(request))
    return await _run(lambda: answers.preview_dict(folder.preview(name, entry)))


async def last_hand(request: Request) -> Response:
    """DELETE `?expected_hands=N`: undo the last hand."""
    folder, name = _folder(request), request.path_params["file"]
    expected = number_field("expected_hands", request.query_params.get("expected_hands"))
    if expected is None:
        raise InputError("give the number of hands you saw, so that only that last hand is removed", field="expected_hands")
    return await _run(lambda: answers.undo_dict(folder.undo(name, expected)))


async def hand(request: Request) -> Response:
    """PUT: replace hand N with `record`'s fields."""
    folder, name = _folder(request), request.path_params["file"]
    number = number_field("number", request.path_params["number"])
    if number is None:
        raise InputError("say which hand to replace, numbered as the sheet numbers them", field="number")
    entry, expected = hand_entry(await _body(request))
    return await _run(lambda: answers.hand_dict(folder.edit(name, number, entry, expected).sheet, number))


async def export(request: Request) -> Response:
    """GET: the sheet as `show --export` writes it, as a download."""
    name, kind = request.path_params["file"], request.path_params["kind"]
    data, media_type = await blocking(export_of, _folder(request), name, kind)
    filename = name.removesuffix(".toml") + "." + kind
    plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\;' else "_" for c in filename)
    disposition = f"attachment; filename=\"{plain}\"; filename*=UTF-8''{_quoted(filename)}"
    return Response(data, media_type=media_type, headers={"content-disposition": disposition})


def _quoted(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="")


async def standings(request: Request) -> Response:
    """GET: the folder's standings, `standings --json`'s object with `files` the match files read and `copies` the
    files left out as copies of another's match, by name; `since` and `until` (YYYY-MM-DD) in the query keep a
    window."""
    from ..files.copies import copies_listed
    from ..match.standings import parse_day, standings_of_sheets, window_of

    since, until = request.query_params.get("since"), request.query_params.get("until")
    first = parse_day(since, "since") if since else None
    last = parse_day(until, "until") if until else None
    window_of(first, last)
    folder = _folder(request)

    def table() -> dict[str, Any]:
        sheets = folder.sheets()
        copies = copies_listed(folder.table.copies().items())
        return {"files": len(sheets), "copies": copies, **standings_of_sheets(sheets, first, last).as_json()}

    return await _run(table)


async def merge(request: Request) -> Response:
    """POST `{"text", "name", "choice", "expected_hands"}`: a copy of a match file merged into the folder by the
    rule (`ginscore merge`'s); a conflict is answered with the hands that differ, nothing written."""
    body = await _body(request)
    text, name, choice = body.get("text"), body.get("name"), body.get("choice", "")
    if not isinstance(text, str) or not text.strip():
        raise InputError("give the copy's whole text, as the match file holds it", field="text")
    if name is not None and not isinstance(name, str):
        raise InputError("the copy's name is a file name, like friday.toml", field="name")
    if not isinstance(choice, str):
        raise InputError("choose mine, theirs or both", field="choice")
    expected = number_field("expected_hands", body.get("expected_hands"))
    return await _run(lambda: answers.merged_dict(_folder(request).merge(text, name, choice, expected)))


async def check_hand(request: Request) -> Response:
    """POST: `check --json` for `{"cards": ...}` and the rule fields."""
    return await _run(check_fields, await _body(request))


async def advise_hand(request: Request) -> Response:
    """POST: `advise --json` for `{"cards": ...}` and advise's options."""
    return await _run(advise_fields, await _body(request))


routes = [
    Route("/matches", matches, methods=["GET", "POST"]),
    Route("/matches/{file}", match, methods=["GET"]),
    Route("/matches/{file}/version", version, methods=["GET"]),
    Route("/matches/{file}/hands", hands, methods=["POST"]),
    Route("/matches/{file}/preview", preview, methods=["POST"]),
    Route("/matches/{file}/hands/last", last_hand, methods=["DELETE"]),
    Route("/matches/{file}/hands/{number}", hand, methods=["PUT"]),
    Route("/matches/{file}/export/{kind}", export, methods=["GET"]),
    Route("/merge", merge, methods=["POST"], name="api_merge"),
    Route("/standings", standings, methods=["GET"], name="api_standings"),
    Route("/check", check_hand, methods=["POST"]),
    Route("/advise", advise_hand, methods=["POST"]),
]
