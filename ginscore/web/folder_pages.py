"""The folder page: its matches, a pair's under their series, and the form that starts a new match, with the
players the folder knows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from ..errors import GinscoreError
from ..files.served import Summary
from ..game.rulebook import PRESETS
from ..match.entry import NEW_FIELDS
from ..match.players import known_players
from ..match.records import pair_key
from ..match.series import series_of
from ..match.tally import Sheet
from ..sheets.words import series_words, won_words
from .fields import new_match_entry
from .page_helpers import FormValues, folder_of, redirect, render


def folder_page(request: Request, form: dict[str, str]) -> Response:
    """The folder: every match file with its score, and the form that starts a new match."""
    return _folder_page(request, {"rules": "standard"})


def _folder_page(request: Request, form: Mapping[str, str], errors: dict[str, str] | None = None, status: int = 200) -> Response:
    entries = sorted(folder_of(request).listing(), key=lambda summary: summary.last_played or "", reverse=True)
    entries.sort(key=_folder_order)  # stable: the latest played first within each kind
    groups = _by_pair(entries, folder_of(request).sheets())
    known = known_players((entry.last_played or "", entry.players) for entry in entries)
    return render(request, "folder.html", {"groups": groups, "known": known, "when": when, "won": won_words, "form": FormValues(form),
                                           "presets": list(PRESETS), "errors": errors or {}}, status)


@dataclass(frozen=True)
class PairGroup:
    """A pair's matches in the folder's list, under the pair's names and series; the files that are not matches
    make a group with no players."""

    players: tuple[str, ...]
    series: str
    entries: tuple[Summary, ...]


def _by_pair(entries: list[Summary], sheets: Sequence[Sheet]) -> list[PairGroup]:
    """The listing's lines grouped by pair, in the order the first line of each pair comes, each with its series
    over `sheets` (the folder's matches); the files that are not matches come last."""
    groups: dict[tuple[str, ...], list[Summary]] = {}
    for entry in entries:
        key: tuple[str, ...] = pair_key((entry.players[0], entry.players[1])) if len(entry.players) == 2 else ()
        groups.setdefault(key, []).append(entry)
    made = []
    for pair, lines in groups.items():
        if not pair:
            made.append(PairGroup((), "", tuple(lines)))
            continue
        players = (lines[0].players[0], lines[0].players[1])
        series = series_of(players, sheets)
        made.append(PairGroup(players, series_words(series) if series.games else "", tuple(lines)))
    return sorted(made, key=lambda group: not group.players)


NEW_PLACES = {"file": "file", "players": "players", "rules": "rules", "set": "settings", "target": "target", "dealer": "dealer",
              "note": "note", "hollywood": "hollywood"}
"""Where on the new-match form each field's refusal is shown (the knobs' box is `settings`)."""


def new_match(request: Request, form: dict[str, str]) -> Response:
    """Start a match from the folder page's form; a refusal comes back to `new_refused`, through the guard."""
    players = [form.get("player1", "").strip(), form.get("player2", "").strip()]
    settings = [line.strip() for line in form.get("settings", "").splitlines() if line.strip()]
    fields = {"players": players, "rules": form.get("rules", "standard"), "set": settings, "target": form.get("target", ""),
              "dealer": form.get("dealer", ""), "note": form.get("note", ""), "hollywood": form.get("hollywood", "")}
    _, new = new_match_entry(fields, (*NEW_FIELDS, "target"))
    folder = folder_of(request)
    name, _ = folder.new(_toml_name(form.get("file", "")) or folder.fresh_name(players), new)
    return redirect(request, "match", name=name)


def new_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The folder page again, the new-match form as it was typed, the refusal beside its field."""
    return _folder_page(request, form, {NEW_PLACES.get(error.field or "", ""): str(error)}, error.http_status)


def _toml_name(typed: str) -> str:
    """The file name a person typed on the phone, `.toml` added when they left it off: `holly` is `holly.toml`."""
    name = typed.strip()
    return name if not name or name.lower().endswith(".toml") else f"{name}.toml"


def _folder_order(summary: Summary) -> int:
    """Matches in play first, then finished ones, then files that cannot be used."""
    return {"playing": 0, "finished": 1}.get(summary.status, 2)


def when(stamp: str | None) -> str:
    """An ISO 8601 time as a person reads it on a phone: `2026-11-30 23:11 UTC`."""
    if not stamp:
        return ""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(stamp)
        if moment.tzinfo is not None:
            return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (ValueError, OverflowError):  # the readers refuse a time out of range (`check_stamp`): shown as it is
        return stamp
    return moment.strftime("%Y-%m-%d %H:%M")
