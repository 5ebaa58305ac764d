"""The check pages: can I knock, with the card picker, and for 11 cards which discard `advise` says is best."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..errors import GinscoreError
from ..game.cards import Card
from ..game.rulebook import PRESETS, Rules
from . import hands
from .hands import judged
from .page_helpers import FormValues, MatchInfo, escaped, folder_of, match_info, page_path, render
from .picker import DECK_CHOICES, Judgement, judge, picker_from


def check_page(request: Request, form: dict[str, str]) -> Response:
    """Can I knock? The card picker, the solver's answer, and for 11 cards which discard is best."""
    return _check(request, {"rules": "standard"}, None)


def match_check_page(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    return _check(request, {}, info)


def _judged_by(form: Mapping[str, str], info: MatchInfo | None) -> tuple[Rules, Card | None] | None:
    """The rules a check is judged by: the match's, or the page's preset and up-card."""
    if info is not None:
        return info.judged_by(form.get("upcard", ""))
    return judged({key: form[key] for key in ("rules", "upcard") if form.get(key)})


def _check_context(form: Mapping[str, str], info: MatchInfo | None) -> dict[str, Any]:
    picker = picker_from(form, [("hand", "cards", "Your cards")], "Your 10 or 11 cards")
    cards = picker.cards("hand")
    try:
        judged_by = _judged_by(form, info)
    except GinscoreError as error:
        return {"picker": picker, "form": FormValues(form), "check": Judgement(error=str(error)), "advice": None}
    check = judge(cards, judged_by)
    context: dict[str, Any] = {"picker": picker, "form": FormValues(form), "check": check, "advice": None}
    if len(cards) == 11 and judged_by is not None and not (check and check.error):
        context["advice"] = advice_view(cards, *judged_by)
    return context


def advice_view(cards: list[str], rules: Rules, upcard: Card | None) -> dict[str, Any]:
    """`advise`'s table for 11 cards: each discard's deadwood, chance to win and points a hand."""
    try:
        advice = hands.advise(cards, rules, upcard)
    except GinscoreError as error:
        return {"error": str(error)}
    options = []
    for option in advice["options"]:
        options.append({
            "discard": option["discard"], "deadwood": option["deadwood"], "can_knock": option["can_knock"],
            "win": "" if option["win"] is None else f"{option['win']:.0%}",
            "points": "" if option["expected_points"] is None else f"{option['expected_points']:+.1f}",
            "recommended": option["discard"] == advice["recommended"],
        })
    best = advice["recommended"]
    summary = f"Discard {best}." if best else "No discard lets you knock: draw on."
    model = "an opponent who has drawn since the deal" if advice["model"] == "improved" else "an opponent's hand as dealt"
    return {"options": options, "summary": summary, "samples": advice["samples"], "model": model}


def _check(request: Request, form: Mapping[str, str], info: MatchInfo | None, status: int = 200) -> Response:
    context = _check_context(form, info)
    if info is None:
        context.update(name="", action=page_path(request, "check"), live_url=page_path(request, "check_live"))
    else:
        limit = "the up-card's value" if info.rules.oklahoma else info.rules.knock_limit
        context.update(name=info.name, players=info.players, knock_limit=limit, oklahoma=bool(info.rules.oklahoma),
                       action=page_path(request, "match_check", name=info.name),
                       live_url=page_path(request, "match_check_live", name=info.name))
    context.update(presets=list(PRESETS), deck=DECK_CHOICES)
    return render(request, "check.html", context, status)


def check_post(request: Request, form: dict[str, str]) -> Response:
    return _check(request, form, None)


def match_check_post(request: Request, form: dict[str, str]) -> Response:
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    return _check(request, form, info)


def check_live(request: Request, form: dict[str, str]) -> Response:
    info = None
    if "name" in request.path_params:
        try:
            info = match_info(folder_of(request), request.path_params["name"])
        except GinscoreError as error:
            return HTMLResponse(f'<p class="error">{escaped(str(error))}</p>', error.http_status)
    return render(request, "_check_answer.html", _check_context(form, info))
