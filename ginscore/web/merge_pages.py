"""Merging a copy of a match from the pages: a copy opened, scanned or restored is merged by the one rule
(`Folder.merge`), and a conflict is shown side by side until the person chooses; a backup of the folder as a zip."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..errors import GinscoreError, InputError
from ..sheets.words import hand_count, told_hand
from .fields import number_field
from .file_words import problem_words
from .page_helpers import folder_of, redirect, render

MERGED_WORDS = {
    "new": "This match was not here before: it is kept as it came.",
    "unchanged": "This match already had every hand of the copy: nothing changed.",
    "kept": "This match is kept as it was, as you chose; the copy was left out.",
    "replaced": "The copy's hands replaced this match's, as you chose.",
    "both": "The copy is kept as a match of its own, as you chose: this is it.",
}
"""What a match's page says after a merge, by its outcome (`added` says how many hands)."""


def merge_post(request: Request, form: dict[str, str]) -> Response:
    """A copy of a match file posted whole (`text`, with the `name` it came under): merged, or its conflict shown;
    with `choice`, the person's answer to that conflict, the copy then coming back as the conflict page put it
    (`copy`)."""
    expected = number_field("expected_hands", form.get("expected_hands", ""))
    text = form["text"] if "text" in form else unpacked(form.get("copy", ""))
    return merge_answer(request, text, form.get("name") or None, form.get("choice", ""), expected)


def packed(text: str) -> str:
    """A copy's text for a page's hidden field, in base64: a browser posting a form turns every line break into
    CR LF, and the copy must come back byte for byte."""
    return base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


def unpacked(copy: str) -> str:
    """The text `packed` put in a form; an `InputError` for anything else."""
    try:
        return base64.b64decode(copy.encode("ascii"), validate=True).decode("utf-8")
    except (ValueError, UnicodeError):
        raise InputError("the page's copy of the match was damaged on the way: open or scan it again", field="copy") from None


def merge_answer(request: Request, text: str, name: str | None, choice: str = "", expected_hands: int | None = None) -> Response:
    """The answer to a copy of a match file in hand, for any page that has one (opened, scanned or restored):
    the match's page saying what the merge did, or the conflict side by side with the three choices."""
    if not text.strip():
        raise InputError("the copy is empty: open or scan a match file", field="text")
    done = folder_of(request).merge(text, name, choice, expected_hands)
    if done.outcome != "conflict":
        outcome = "kept" if choice == "mine" else done.outcome
        return redirect(request, "match", f"merged={outcome}&added={done.added}", name=done.name)
    mine, theirs = done.mine, done.theirs  # a conflict carries both sheets
    rows = [(number, told_hand(mine, number), told_hand(theirs, number)) for number in done.differing] if mine and theirs else []
    return render(request, "merge.html", {"name": done.name, "players": mine.match.players if mine else (), "rows": rows,
                                          "copy": packed(text), "copy_name": name or "", "hands": done.hands})


def merge_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """A copy that cannot be merged (not a match file, or a choice that came too late): why, on a page of its own."""
    return render(request, "problem.html", {"heading": "This copy cannot be merged", "message": problem_words(error)},
                  error.http_status)


def merged_words(query: Any) -> str:
    """What a match's page says after a merge, from the link's query; empty when the link says none."""
    outcome = query.get("merged", "")
    if outcome == "added":
        added = query.get("added", "")
        count = int(added) if added.isascii() and added.isdigit() and len(added) < 7 else 0
        return f"The copy added {hand_count(count)} after this match's own." if count else ""
    return MERGED_WORDS.get(outcome, "")


def backup_download(request: Request, form: dict[str, str]) -> Response:
    """Every match file of the folder in one zip, byte for byte."""
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    return Response(folder_of(request).backup(), media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="ginscore-backup-{day}.zip"',
                             "Cache-Control": "no-store"})
