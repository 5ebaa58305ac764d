"""The folder page: its matches, a pair's under their series, and the form that starts a new match, with the
players the folder knows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response

from ..errors import GinscoreError, InputError, quote
from ..files.served import Summary
from ..game.rulebook import PRESETS
from ..match.entry import NEW_FIELDS
from ..match.gives import MatchGives
from ..match.players import known_players
from ..match.records import COLUMNS_HOLLYWOOD, pair_key
from ..match.series import series_of
from ..sheets.words import series_words, won_words
from .fields import new_match_entry
from .page_helpers import FormValues, folder_of, redirect, render


def folder_page(request: Request, form: dict[str, str]) -> Response:
    """The folder: every match file with its score (a copy of another file's match said as one, with the merge that
    settles it), and the form that starts a new match."""
    return _folder_page(request, {"rules": "standard"})


def _folder_page(request: Request, form: Mapping[str, str], errors: dict[str, str] | None = None, status: int = 200) -> Response:
    entries = sorted(folder_of(request).listing(), key=lambda summary: summary.last_played or "", reverse=True)
    entries.sort(key=_folder_order)  # stable: the latest played first within each kind
    given, copies = folder_of(request).table.counted()
    groups = _by_pair(entries, given)
    known = known_players((entry.last_played or "", entry.players) for entry in entries)
    return render(request, "folder.html", {"groups": groups, "known": known, "when": when, "won": won_words, "form": FormValues(form),
                                           "presets": list(PRESETS), "targets": _targets(), "errors": errors or {},
                                           "copies": copies}, status)


def _targets() -> str:
    """Each preset's own target, for the new-match form: `100 for standard, 100 for tournament, 150 for oklahoma`."""
    return ", ".join(f"{rules.target} for {name}" for name, rules in PRESETS.items())


@dataclass(frozen=True)
class PairGroup:
    """A pair's matches in the folder's list, under the pair's names and series; the files that are not matches
    make a group with no players."""

    players: tuple[str, ...]
    series: str
    entries: tuple[Summary, ...]
    titles: Mapping[str, str] = field(default_factory=dict)
    """Each match's title under the pair's heading, by file name: `Game 2 · Oklahoma`."""


def _by_pair(entries: list[Summary], given: Sequence[tuple[str, MatchGives]]) -> list[PairGroup]:
    """The listing's lines grouped by pair, in the order the first line of each pair comes, each with its series
    over the folder's matches (`given`: each file with what its match gives, the first started first); the files
    that are not matches come last. What each match gives is all they need, so the list reads no match's text."""
    by_pair: dict[tuple[str, ...], list[tuple[str, MatchGives]]] = {}
    for named in given:
        by_pair.setdefault(pair_key(named[1].players), []).append(named)
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
        theirs = by_pair.get(pair, [])
        series = series_of(players, [gives for _, gives in theirs])
        made.append(PairGroup(players, series_words(series) if series.games else "", tuple(lines), _titles(theirs)))
    return sorted(made, key=lambda group: not group.players)


RULES_WORDS = {"standard": "standard rules", "tournament": "tournament rules", "oklahoma": "Oklahoma"}
"""A preset as a match's title says it; a match with no preset named is played by its own rules."""


def _titles(given: Sequence[tuple[str, MatchGives]]) -> dict[str, str]:
    """A pair's matches (`given`, the first started first) by file name, each titled by its games' places in the
    pair's series (the first started holds game 1; a Hollywood sheet holds three) and its rules: `Game 2 ·
    Oklahoma`, `Games 3–5 · standard rules, Hollywood`."""
    titles, first = {}, 1
    for name, gives in given:
        rules = RULES_WORDS.get(gives.preset, "their own rules")
        if gives.preset in PRESETS and PRESETS[gives.preset] != gives.rules:
            rules += ", changed"
        games = COLUMNS_HOLLYWOOD if gives.hollywood else 1
        numbers = f"Game {first}" if games == 1 else f"Games {first}–{first + games - 1}"
        titles[name] = f"{numbers} · {rules}{', Hollywood' if gives.hollywood else ''}"
        first += games
    return titles


NEW_PLACES = {"file": "file", "players": "players", "rules": "rules", "set": "settings", "target": "target", "dealer": "dealer",
              "note": "note", "hollywood": "hollywood"}
"""Where on the new-match form each field's refusal is shown (the knobs' box is `settings`)."""


def new_match(request: Request, form: dict[str, str]) -> Response:
    """Start a match from the folder page's form; a refusal comes back to `new_refused`, through the guard."""
    players = [form.get("player1", "").strip(), form.get("player2", "").strip()]
    settings = [_rule_line(line) for line in form.get("settings", "").splitlines() if line.strip()]
    fields = {"players": players, "rules": form.get("rules", "standard"), "set": settings, "target": form.get("target", ""),
              "dealer": form.get("dealer", ""), "note": form.get("note", ""), "hollywood": form.get("hollywood", "")}
    _, new = new_match_entry(fields, (*NEW_FIELDS, "target"))
    folder = folder_of(request)
    name, _ = folder.new(_toml_name(form.get("file", "")) or folder.fresh_name(players), new)
    return redirect(request, "match", name=name)


def new_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """The folder page again, the new-match form as it was typed, the refusal beside its field."""
    return _folder_page(request, form, {NEW_PLACES.get(error.field or "", ""): str(error)}, error.http_status)


def _rule_line(line: str) -> str:
    """A rule change as a player types it, `gin bonus 25` or `Gin bonus = 25`, as the rules read it:
    `gin_bonus=25`; a rule without its value is refused in the form's own words."""
    name, equals, value = line.partition("=")
    if not equals:
        words = line.split()
        if len(words) < 2:
            rule = " ".join(line.replace("_", " ").split())
            raise InputError(f"{quote(line.strip())} needs its new value after it, such as “{rule} 25”", field="set")
        name, value = " ".join(words[:-1]), words[-1]
    return f"{'_'.join(name.lower().split())}={value.strip()}"


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
