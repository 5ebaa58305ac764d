"""The record and edit pages: a hand's form, by counts or by cards, its live preview, and the save."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..errors import GinscoreError, InputError, StaleError
from ..sheets.words import hand_words
from .page_helpers import (
    FormValues,
    MatchInfo,
    error_place,
    escaped,
    folder_of,
    load_sheet,
    match_info,
    page_path,
    problem_page,
    redirect,
    render,
)
from .picker import DECK_CHOICES, Picker, judge, picker_from
from .service import Folder, NotFoundError, status_of

KEPT = ("knocker", "how", "deadwood", "opponent_deadwood", "big_gin", "discard", "upcard", "note", "expected_hands", "spread")
"""A hand form's fields that are re-rendered as they were typed."""


def _hand_sides(players: list[str], knocker: str) -> list[tuple[str, str, str]]:
    """The picker's two sides, named after the players when the knocker is chosen."""
    opponent = next((p for p in players if p != knocker), "") if knocker in players else ""
    return [("knocker", "cards", f"{knocker}'s cards" if knocker in players else "Knocker's cards"),
            ("opponent", "opponent_cards", f"{opponent}'s cards" if opponent else "Opponent's cards")]


def hand_fields(form: Mapping[str, str], picker: Picker, choice: dict[str, Any] | None = None) -> dict[str, str]:
    """The service's hand fields from the form: only those of the way the hand is entered."""
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    fields = {"note": form.get("note", ""), "expected_hands": form.get("expected_hands", "")}
    if how == "cancelled":
        return {**fields, "cancelled": "on"}
    fields.update(knocker=form.get("knocker", ""), upcard=form.get("upcard", ""))
    if how == "cards":
        fields.update(cards=" ".join(picker.cards("knocker")), opponent_cards=" ".join(picker.cards("opponent")),
                      discard=form.get("discard", ""))
        if choice is not None:
            fields.update(cards=choice["cards"], discard=choice.get("discard") or "")
    else:
        fields.update(deadwood=form.get("deadwood", ""), opponent_deadwood=form.get("opponent_deadwood", ""),
                      big_gin=form.get("big_gin", ""))
    return fields


def _complete(form: Mapping[str, str], picker: Picker) -> bool:
    """Whether the form says enough for a preview worth showing while the person is still picking."""
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    if how == "cancelled":
        return True
    if not form.get("knocker"):
        return False
    if how == "cards":
        return len(picker.cards("knocker")) in (10, 11) and len(picker.cards("opponent")) == 10
    return bool(form.get("deadwood", "").strip() and form.get("opponent_deadwood", "").strip())


def _choice_words(choice: dict[str, Any], knocker: str, opponent: str) -> str:
    """A spread's result in the sheet's words, with the players' names for `knocker` and `opponent`."""
    winner = {"knocker": knocker, "opponent": opponent}.get(choice["winner"], choice["winner"])
    return hand_words(choice["result"], winner, choice["points"])


def preview_view(folder: Folder, name: str, fields: Mapping[str, str], chosen: str) -> dict[str, Any]:
    """The preview box: the score the hand will get and the spread used; both spreads when they differ."""
    try:
        found = folder.preview(name, {k: v for k, v in fields.items() if k != "expected_hands"})
    except GinscoreError as error:
        return {"error": str(error)}
    hand = found["hand"]
    view: dict[str, Any] = {"words": hand_words(hand["result"], hand["winner"], hand["points"]), "choices": []}
    best, lowest = found.get("spread"), found.get("lowest")
    if best:
        view["spread"] = best["cards"]
    knocker = hand["knocker"] or ""
    opponent = next((name for name in hand["totals"] if name != knocker), "")
    if best and lowest and (lowest["points"], lowest["winner"]) != (best["points"], best["winner"]):
        view["choice_question"] = "Which spread was laid down? They score differently."
        view["choices"] = [
            {"value": "best", "label": f"Best for {knocker}: {best['cards']} ({_choice_words(best, knocker, opponent)})",
             "checked": chosen != "lowest"},
            {"value": "lowest", "label": f"Least deadwood: {lowest['cards']} ({_choice_words(lowest, knocker, opponent)})",
             "checked": chosen == "lowest"},
        ]
        if chosen == "lowest":
            view["words"], view["spread"] = _choice_words(lowest, knocker, opponent), lowest["cards"]
    return view


def _record_context(request: Request, info: MatchInfo, form: Mapping[str, str], picker: Picker, *,
                    heading: str, action: str, live_url: str, save_label: str, preview: bool) -> dict[str, Any]:
    kept = FormValues({key: form.get(key, "") for key in KEPT})
    if not kept.get("how"):
        kept["how"] = "cards" if picker.cards("knocker") or picker.cards("opponent") else "counts"
    context: dict[str, Any] = {
        "name": info.name, "players": info.players, "hands_seen": info.hands, "form": kept,
        "score": info.sheet.score_text() if info.sheet is not None else "", "picker": picker,
        "heading": heading, "action": action, "live_url": live_url, "save_label": save_label,
        "oklahoma": bool(info.rules.get("oklahoma")), "deck": DECK_CHOICES,
        "discard_choices": [(code, code) for code in picker.cards("knocker")] if len(picker.cards("knocker")) > 10 else [],
        "check": judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if kept["how"] == "cards" else None,
        "preview": None,
    }
    if preview:
        context["preview"] = preview_view(folder_of(request), info.name, hand_fields(form, picker), form.get("spread", ""))
    return context


HAND_PLACES = ("knocker", "deadwood", "opponent_deadwood", "big_gin", "cards", "opponent_cards", "discard", "upcard", "note")
"""The hand form's fields an error can be shown beside."""


def _hand_error_place(message: str, fields: Mapping[str, str]) -> str:
    """Which field a hand's refusal is about, from its words, when the error does not name its field: the
    knocker's cards or count for an illegal knock, the up-card, the knocker, the discard, the opponent's side."""
    by_cards = "cards" in fields
    lowered = message.lower()
    if "upcard" in lowered or "up-card" in lowered or "knock card" in lowered:
        return "upcard"
    if "--knocker" in lowered or "who knocked" in lowered or "not a player" in lowered:
        return "knocker"
    if "discard" in lowered and by_cards:
        return "discard"
    if "big gin" in lowered and not by_cards:
        return "big_gin"
    if "opponent" in lowered:
        return "opponent_cards" if by_cards else "opponent_deadwood"
    if "knock" in lowered or "deadwood" in lowered or "hand needs" in lowered:
        return "cards" if by_cards else "deadwood"
    return ""


def record_page(request: Request, form: dict[str, str]) -> Response:
    """Record a hand: the knocker, then counts or cards, a preview of the score, and save."""
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    form = {"expected_hands": str(info.hands)}
    picker = picker_from(form, _hand_sides(info.players, ""), "The cards")
    return render(request, "record.html", _record_context(
        request, info, form, picker, heading="Record a hand", action=page_path(request, "record", name=name),
        live_url=page_path(request, "record_live", name=name), save_label="Save the hand", preview=False))


def record_post(request: Request, form: dict[str, str]) -> Response:
    """The record form posted: a card toggled, a preview asked for, or the hand saved."""
    name = request.path_params["name"]
    return _hand_post(request, name, form, number=None)


def _hand_post(request: Request, name: str, form: dict[str, str], number: int | None) -> Response:
    folder = folder_of(request)
    info = match_info(folder, name)
    if not form.get("expected_hands"):
        form["expected_hands"] = str(info.hands)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    if number is None:
        labels = {"heading": "Record a hand", "action": page_path(request, "record", name=name),
                  "live_url": page_path(request, "record_live", name=name), "save_label": "Save the hand"}
    else:
        labels = {"heading": f"Edit hand {number}", "action": page_path(request, "edit", name=name, number=number),
                  "live_url": page_path(request, "edit_live", name=name, number=number), "save_label": f"Replace hand {number}"}
    if form.get("action") == "save":
        choice = None
        fields = hand_fields(form, picker)
        try:
            if form.get("spread") == "lowest" and fields.get("cards"):
                choice = folder.preview(name, {k: v for k, v in fields.items() if k != "expected_hands"}).get("lowest")
                fields = hand_fields(form, picker, choice)
            if number is None:
                folder.record(name, fields)
                return redirect(request, "match", f"recorded={int(form['expected_hands'] or 0) + 1}", name=name)
            folder.edit(name, number, fields)
            return redirect(request, "match", f"edited={number}", name=name)
        except GinscoreError as error:
            place = error_place(error, HAND_PLACES) or _hand_error_place(str(error), fields)
            message = str(error)
            if isinstance(error, StaleError):
                message = f"Someone recorded first: {message}"
                form["expected_hands"] = str(len(load_sheet(folder, name).match.hands))  # a retry, once seen, may go
            context = _record_context(request, info, form, picker, preview=False, **labels)
            context["errors"] = {place: message}
            return render(request, "record.html", context, status_of(error))
    preview = form.get("action") == "preview" or _complete(form, picker)
    return render(request, "record.html", _record_context(request, info, form, picker, preview=preview, **labels))


def record_live(request: Request, form: dict[str, str]) -> Response:
    """The record form's live part: the picked cards judged, and the preview once the hand is complete."""
    return _live(request, request.path_params["name"], form)


def _live(request: Request, name: str, form: dict[str, str]) -> Response:
    folder = folder_of(request)
    try:
        info = match_info(folder, name)
    except GinscoreError as error:
        return HTMLResponse(f'<p class="error">{escaped(str(error))}</p>', status_of(error))
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    how = form.get("how") or ("cards" if picker.cards("knocker") else "counts")
    context = {
        "check": judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if how == "cards" else None,
        "preview": preview_view(folder, name, hand_fields(form, picker), form.get("spread", "")) if _complete(form, picker) else None,
    }
    return render(request, "_live_hand.html", context)


def edit_pick(request: Request, form: dict[str, str]) -> Response:
    """The match page's 'edit hand N' box, without script: on to that hand's form."""
    name = request.path_params["name"]
    number = request.query_params.get("number", "").strip()
    if not number.isdigit() or int(number) < 1:
        return problem_page(request, InputError(f"number: {number!r} is not a hand number: write it with the digits 0-9"))
    return redirect(request, "edit", name=name, number=int(number))


def _record_form(info: MatchInfo, number: int) -> dict[str, str]:
    """Hand `number`'s record as the form's fields, as it was entered."""
    assert info.sheet is not None
    record = info.sheet.match.hands[number - 1]
    form = {"expected_hands": str(info.hands), "note": record.note, "upcard": record.upcard or ""}
    if record.cancelled:
        return {**form, "how": "cancelled"}
    form["knocker"] = record.knocker or ""
    if record.knocker_cards:
        return {**form, "how": "cards", "cards": record.knocker_cards, "opponent_cards": record.opponent_cards or "",
                "discard": record.discard or ""}
    return {**form, "how": "counts", "deadwood": _text(record.knocker_deadwood),
            "opponent_deadwood": _text(record.opponent_deadwood), "big_gin": "on" if record.big_gin else ""}


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def edit_page(request: Request, form: dict[str, str]) -> Response:
    """Edit a past hand: its form filled with what was entered."""
    name, number = request.path_params["name"], request.path_params["number"]
    info = match_info(folder_of(request), name)
    if not 1 <= number <= info.hands:
        raise NotFoundError(f"{name} has no hand {number} (it has {info.hands})")
    form = _record_form(info, number)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    return render(request, "record.html", _record_context(
        request, info, form, picker, heading=f"Edit hand {number}", action=page_path(request, "edit", name=name, number=number),
        live_url=page_path(request, "edit_live", name=name, number=number), save_label=f"Replace hand {number}", preview=False))


def edit_post(request: Request, form: dict[str, str]) -> Response:
    return _hand_post(request, request.path_params["name"], form, number=request.path_params["number"])


def edit_live(request: Request, form: dict[str, str]) -> Response:
    return _live(request, request.path_params["name"], form)
