"""The check pages: can I knock, with the card picker, and for 11 cards which discard `advise` says is best."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..errors import GinscoreError
from ..files.table import Table
from ..game.cards import Card
from ..game.one_play import final_advice, final_words
from ..game.rulebook import PRESETS, Rules
from ..match.tally import Sheet
from ..sheets.hand_check import HandCheck, hand_check_html
from . import hands
from .file_words import problem_words
from .hands import judged
from .page_helpers import FormValues, MatchInfo, escaped, folder_of, match_info, page_path, render
from .picker import DECK_CHOICES, card_face, judge, picker_from


@dataclass(frozen=True)
class GameQuestion:
    """What the check page of a match asks to weigh the game: the match and its table, whose hand it is, and a
    seed."""

    table: Table
    sheet: Sheet
    player: str
    seed: int | None


def check_page(request: Request, form: dict[str, str]) -> Response:
    """Can I knock? The card picker, the solver's answer, and for 11 cards which discard is best."""
    return _check(request, {"rules": "standard"}, None)


def match_check_page(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    return _check(request, {}, info)


def _judged_by(form: Mapping[str, str], info: MatchInfo | None) -> tuple[Rules, Card | None] | None:
    """The rules a check is judged by: the match's, or the page's preset and up-card. As on a match's pages, the
    up-card counts only under rules that use it (`oklahoma`), and under those nothing is judged until it is picked."""
    if info is not None:
        return info.judged_by(form.get("upcard", ""))
    preset = form.get("rules") or "standard"
    rules, _ = judged({"rules": preset})
    if not rules.oklahoma:
        return rules, None  # an up-card left picked under other rules is not theirs
    upcard = form.get("upcard", "")
    return judged({"rules": preset, "upcard": upcard}) if upcard else None


def _to_play(info: MatchInfo, form: Mapping[str, str]) -> str:
    """Whose hand the page weighs: the one picked, or by default the next dealer's opponent, who plays first."""
    if form.get("player") in info.players:
        return form["player"]
    return next((name for name in info.players if name != info.sheet.next_dealer), info.players[0])


def _game_question(request: Request, form: Mapping[str, str], info: MatchInfo) -> GameQuestion:
    seed = form.get("seed", "").strip()
    chosen = int(seed) if seed.isascii() and seed.isdigit() and len(seed) <= 18 else None  # else the hand's own seed
    folder = folder_of(request)
    return GameQuestion(folder.table, folder.sheet(info.name), _to_play(info, form), chosen)


def _check_context(form: Mapping[str, str], info: MatchInfo | None, game: GameQuestion | None = None) -> dict[str, Any]:
    picker = picker_from(form, [("hand", "cards", "Your cards")], "Your 10 or 11 cards")
    cards = picker.cards("hand")
    context: dict[str, Any] = {"picker": picker, "form": FormValues(form), "advice": None}
    try:
        judged_by = _judged_by(form, info)
    except GinscoreError as error:
        return {**context, "hand_check": Markup(hand_check_html(HandCheck(error=str(error))))}
    check = judge(cards, judged_by)
    context["hand_check"] = Markup(hand_check_html(check))  # escaped there, as the app inserts it
    if len(cards) == 11 and judged_by is not None and not (check and check.error):
        context["advice"] = advice_view(cards, *judged_by, game=game)
    return context


def advice_view(cards: list[str], rules: Rules, upcard: Card | None, game: GameQuestion | None = None) -> dict[str, Any]:
    """`advise`'s table for 11 cards: each discard's deadwood, chance to win and points a hand; with a match's
    `game`, as `advise --match` gives them, also each discard's chance to win the game if you knock now and if
    you play on, and the one play it ends in (`final_words`), which the page says in place of the hand's."""
    weighed, game_error = None, None
    try:
        advice = None
        if game is not None:
            try:
                seed = hands.hand_seed(cards, upcard) if game.seed is None else game.seed
                advice, weighed = hands.advise_for_game(cards, upcard, game.table, game.sheet, game.player, seed)
            except GinscoreError as error:
                if error.field == "cards":
                    raise
                game_error = str(error)  # the game cannot be weighed (a target too far off): the hand still can
        if advice is None:
            advice = hands.advise(cards, rules, upcard, {"seed": hands.hand_seed(cards, upcard)})
    except GinscoreError as error:
        return {"error": str(error)}
    choices = {} if weighed is None else {str(choice.discard): choice for choice in weighed.choices}
    final = None if weighed is None else final_advice(weighed)
    starred = advice["recommended"] if final is None else str(final.discard)  # the row of the one play the page says
    options = []
    for option in advice["options"]:
        choice = choices.get(option["discard"])
        options.append({
            "discard": card_face(option["discard"]), "deadwood": option["deadwood"], "can_knock": option["can_knock"],
            "win": "" if option["win"] is None else f"{option['win']:.0%}",
            "points": "" if option["expected_points"] is None else f"{option['expected_points']:+.1f}",
            "recommended": option["discard"] == starred,
            "knock_now": None if choice is None else _game_chance(choice.knock_now, choice.knock_interval),
            "play_on": None if choice is None else _game_chance(choice.play_on, choice.play_on_interval),
        })
    best = advice["recommended"]
    summary = f"Discard {card_face(best)}." if best else "No discard lets you knock: draw on."
    model = "an opponent who has drawn since the deal" if advice["model"] == "improved" else "an opponent's hand as dealt"
    view = {"options": options, "summary": summary, "samples": advice["samples"], "model": model, "game": None,
            "game_error": game_error}
    if weighed is not None and game is not None:
        view["game"] = {
            "player": game.player, "now": f"{weighed.now:.0%}", "seed": advice["seed"],
            "rollouts": max((choice.rollouts for choice in weighed.choices), default=0),
            "final": _unbroken(final_words(weighed, card_face)),  # the one play `advise --match` ends in, its words
        }
    return view


RANGE = re.compile(r"\(\d+%–\d+%\)")
"""A chance's 95% range as the words say it: `(52%–58%)`."""


def _unbroken(words: str | None) -> Markup | None:
    """`words` for the page, each range kept on one line (a line may break after its dash)."""
    if words is None:
        return None
    return Markup(RANGE.sub(lambda found: f'<span class="num">{found.group()}</span>', str(escape(words))))


def _game_chance(chance: float, interval: tuple[float, float] | None) -> dict[str, Any]:
    words = f"{chance:.0%}" if interval is None else f"{chance:.0%} ({interval[0]:.0%}–{interval[1]:.0%})"
    return {"value": chance, "words": words}


def _check(
    request: Request, form: Mapping[str, str], info: MatchInfo | None, status: int = 200, weigh: bool = False
) -> Response:
    game = _game_question(request, form, info) if weigh and info is not None and not info.sheet.finished else None
    context = _check_context(form, info, game)
    if info is None:
        context.update(name="", action=page_path(request, "check"), live_url=page_path(request, "check_live"),
                       upcard_rules=[name for name, rules in PRESETS.items() if rules.oklahoma])
    else:
        limit = "the up-card's value" if info.rules.oklahoma else info.rules.knock_limit
        context.update(name=info.name, players=info.players, knock_limit=limit, oklahoma=bool(info.rules.oklahoma),
                       player=_to_play(info, form), finished=info.sheet.finished,
                       action=page_path(request, "match_check", name=info.name),
                       live_url=page_path(request, "match_check_live", name=info.name))
    context.update(presets=list(PRESETS), deck=DECK_CHOICES)
    return render(request, "check.html", context, status)


def check_post(request: Request, form: dict[str, str]) -> Response:
    return _check(request, form, None)


def match_check_post(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    return _check(request, form, info, weigh=True)  # the game's columns on Check only: the live answer stays quick


def check_live(request: Request, form: dict[str, str]) -> Response:
    info = None
    if "name" in request.path_params:
        try:
            info = match_info(folder_of(request), request.path_params["name"])
        except GinscoreError as error:
            return HTMLResponse(f'<p class="error">{escaped(problem_words(error))}</p>', error.http_status)
    return render(request, "_check_answer.html", _check_context(form, info))
