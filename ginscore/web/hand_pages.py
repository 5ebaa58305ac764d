"""The record and edit pages: a hand's form, by counts or by cards, its live preview, and the save."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypedDict

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..errors import GinscoreError, IllegalHandError, InputError, NotFoundError, StaleError
from ..files.served import Folder
from ..game.numbers import read_whole
from ..match.entry import HAND_FIELDS, about
from ..match.records import HandRecord
from ..match.scored import entry_of, make_record
from ..match.spread_choice import SpreadChoice, choices, spread_of
from ..match.tally import HandLine, add_hand
from ..sheets.words import LaidDown, counts_words, hand_words, laid_down, sides_words, verdict
from .fields import ENTERED, hand_entry
from .file_words import problem_words
from .page_helpers import (
    FormValues,
    MatchInfo,
    escaped,
    folder_of,
    hand_number,
    match_info,
    next_game_view,
    page_path,
    redirect,
    render,
)
from .picker import DECK_CHOICES, Picker, card_face, cards_face, judge, picker_from

if TYPE_CHECKING:
    from ..match.entry import HandEntry

PICKED = tuple(name for name in HAND_FIELDS if about(name).kind == "cards")
"""The hand's fields the card picker holds (`cards`, `opponent_cards`)."""
KEPT = (*(name for name in HAND_FIELDS if name not in PICKED and name != "cancelled"), "how", "expected_hands")
"""A hand form's fields that are re-rendered as they were typed: the hand's own but the picked cards and
`cancelled` (which the form says by `how`), how it is entered and the count of hands the page saw."""


def _hand_sides(players: list[str], knocker: str) -> list[tuple[str, str, str]]:
    """The picker's two sides, named after the players when the knocker is chosen."""
    opponent = next((p for p in players if p != knocker), "") if knocker in players else ""
    return [("knocker", "cards", f"{knocker}'s cards" if knocker in players else "Knocker's cards"),
            ("opponent", "opponent_cards", f"{opponent}'s cards" if opponent else "Opponent's cards")]


def entered_by(form: Mapping[str, str]) -> str:
    """How the form enters the hand: as it says (`counts`, `cards` or `cancelled`), else by cards once any is picked."""
    return form.get("how") or ("cards" if form.get("cards", "").strip() or form.get("opponent_cards", "").strip() else "counts")


def picked(form: Mapping[str, str], picker: Picker) -> dict[str, str]:
    """The form as its picker leaves it, the pressed card applied: what it would post next."""
    return {**form, **{side.field: side.value for side in picker.sides}}


def _complete(form: Mapping[str, str], picker: Picker) -> bool:
    """Whether the form says enough for a preview worth showing while the person is still picking."""
    how = entered_by(picked(form, picker))
    if how == "cancelled":
        return True
    if not form.get("knocker"):
        return False
    if how == "cards":
        return len(picker.cards("knocker")) in (10, 11) and len(picker.cards("opponent")) == 10
    return bool(form.get("deadwood", "").strip() and form.get("opponent_deadwood", "").strip())


def count_warning(form: Mapping[str, str], picker: Picker, players: list[str]) -> str:
    """Before Save, when cards are being picked: a warning that either side has the wrong number, naming how
    many each has; empty when both are right or no card is picked yet."""
    how = entered_by(picked(form, picker))
    mine, theirs = len(picker.cards("knocker")), len(picker.cards("opponent"))
    if how != "cards" or (not mine and not theirs) or (mine in (10, 11) and theirs == 10):
        return ""
    knocker = form.get("knocker", "") if form.get("knocker", "") in players else "the knocker"
    opponent = next((player for player in players if player != knocker), "") if knocker in players else "the opponent"
    wrong = ([] if mine in (10, 11) else [f"{knocker}'s hand needs 10 or 11"]) + ([] if theirs == 10 else [f"{opponent}'s hand needs 10"])
    return f"{knocker}: {mine} card{'s' if mine != 1 else ''} picked; {opponent}: {theirs} picked. " + "; ".join(wrong) + "."


def _choice_words(choice: SpreadChoice, knocker: str, opponent: str) -> str:
    """A spread's result in the sheet's words, with the players' names for `knocker` and `opponent`."""
    result = choice.result
    winner = {"knocker": knocker, "opponent": opponent}.get(result.winner or "", result.winner)
    return hand_words(result.result, winner, result.points)


def _laid(choice: SpreadChoice) -> LaidDown:
    return laid_down(choice.scored.spread, choice.scored.discard)


@dataclass(frozen=True)
class Choice:
    """One radio button of the spread question."""

    value: str
    label: str
    checked: bool


@dataclass(frozen=True)
class Preview:
    """The preview box: the score the hand will get and the spread used, both spreads when they differ; or why
    the hand cannot be recorded, beside the field it is about."""

    words: str = ""
    result: str = ""
    spread: LaidDown | None = None
    """The knocker's spread scored, for a hand given by cards."""
    sides: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    choice_question: str = ""
    error: str = ""
    field: str | None = None
    mended: bool = False
    """Whether the hand as entered must change before it can be saved (an illegal knock, a wrong card); a
    refusal about the match instead (over, changed meanwhile, damaged) leaves Save to say what to do next."""


def refused_preview(error: GinscoreError) -> Preview:
    return Preview(error=problem_words(error), field=error.field, mended=isinstance(error, (InputError, IllegalHandError)))


def save_reason(preview: Preview | None, warning: str) -> str:
    """Why Save is off, said beside it: the hand's refusal, or the card-count warning; empty when Save may be
    tapped (a refusal about the match, or one the preview did not foresee, comes back from the save itself)."""
    if preview is not None and preview.error and preview.mended:
        return f"Save waits until the hand can be recorded: {preview.error.rstrip('.')}."
    return f"Save waits for the cards: {warning}" if warning else ""


def preview_view(folder: Folder, name: str, entry: HandEntry, number: int | None = None) -> Preview:
    """The preview box for `entry`, recorded or (with `number`) in the place of hand `number`; its `spread`, when
    given, picks which of two spreads the box shows."""
    try:
        change = folder.preview(name, replace(entry, spread=None), number)
    except GinscoreError as error:
        return refused_preview(error)
    line = change.sheet.lines[-1 if number is None else number - 1]
    knocker = line.knocker or ""
    opponent = change.match.other(knocker) if knocker else ""
    both = choices(line.scored)
    if both is None:
        spread = _laid(spread_of(line.scored)) if line.scored is not None else None
        return Preview(hand_words(line.result, line.winner, line.points), line.result, spread,
                       tuple(sides_words(line.scored, knocker, opponent, card_face)))
    lowest, best = both
    shown = lowest if entry.spread == "lowest" else best
    buttons = (
        Choice("best", f"Best for {knocker}: {_laid(best).words(card_face)} ({_choice_words(best, knocker, opponent)})",
               shown is best),
        Choice("lowest", f"Least deadwood: {_laid(lowest).words(card_face)} ({_choice_words(lowest, knocker, opponent)})",
               shown is lowest),
    )
    words = hand_words(line.result, line.winner, line.points) if shown is best else _choice_words(lowest, knocker, opponent)
    return Preview(words, line.result, _laid(shown), tuple(sides_words(shown.scored, knocker, opponent, card_face)), buttons,
                   "Which spread was laid down? They score differently.")


def _record_context(request: Request, info: MatchInfo, form: Mapping[str, str], picker: Picker, *,
                    heading: str, action: str, live_url: str, save_label: str, preview: bool,
                    number: int | None = None) -> dict[str, Any]:
    kept = FormValues({key: form.get(key, "") for key in KEPT})
    kept["how"] = entered_by(picked(form, picker))
    context: dict[str, Any] = {
        "name": info.name, "players": info.players, "hands_seen": info.hands, "form": kept,
        "score": info.sheet.score_text(), "picker": picker,
        "heading": heading, "action": action, "live_url": live_url, "save_label": save_label,
        "oklahoma": bool(info.rules.oklahoma), "big_gin": info.rules.big_gin or bool(form.get("big_gin")), "deck": DECK_CHOICES,
        "discard_choices": [(code, card_face(code)) for code in picker.cards("knocker")] if len(picker.cards("knocker")) > 10 else [],
        "check": judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if kept["how"] == "cards" else None,
        "preview": None, "count_warning": count_warning(form, picker, info.players),
    }
    if preview:
        context["preview"] = _preview_of(folder_of(request), info.name, form, picker, number)
    context["save_reason"] = save_reason(context["preview"], context["count_warning"])
    return context


def _preview_of(folder: Folder, name: str, form: Mapping[str, str], picker: Picker, number: int | None) -> Preview:
    shown = picked(form, picker)
    try:
        entry, _ = hand_entry(shown, entered=entered_by(shown))
    except GinscoreError as error:
        return refused_preview(error)
    return preview_view(folder, name, entry, number)


HAND_PLACES = tuple(name for name in HAND_FIELDS if name != "spread")
"""The hand form's fields an error can be shown beside (every one but the spread's buttons); any other refusal is
shown at the top of the form."""


def record_page(request: Request, form: dict[str, str]) -> Response:
    """Record a hand: the knocker, then counts or cards, a preview of the score, and save."""
    name = request.path_params["name"]
    info = match_info(folder_of(request), name)
    if info.sheet.finished:
        return _finished(request, info, 200)
    form = {"expected_hands": str(info.hands)}
    picker = picker_from(form, _hand_sides(info.players, ""), "The cards")
    return render(request, "record.html", _record_context(request, info, form, picker, preview=False, **_labels(request, name, None)))


def _finished(request: Request, info: MatchInfo, status: int, since: list[dict[str, Any]] | None = None) -> Response:
    """A finished match takes no more hands: who won (with the hands recorded while this phone typed its own),
    and the next game to start instead."""
    return render(request, "finished.html", {"name": info.name, "players": info.players, "verdict": verdict(info.sheet),
                                             "next_game": next_game_view(info.sheet, folder_of(request), info.name), "recorded_since": since or []}, status)


def record_post(request: Request, form: dict[str, str]) -> Response:
    """The record form posted: a card toggled, a preview asked for, or the hand saved."""
    return _hand_post(request, request.path_params["name"], form, number=None)


def _hand_post(request: Request, name: str, form: dict[str, str], number: int | None) -> Response:
    folder = folder_of(request)
    if form.get("action") == "save" or form.get("also"):  # the file is read once, by the save itself
        return _save(request, folder, name, form, number)
    info = match_info(folder, name)
    if not form.get("expected_hands"):
        form["expected_hands"] = str(info.hands)
    if form.get("action") == "gin":  # the Gin button: the knocker's count is 0
        form.update(how="counts", deadwood="0")
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    preview = form.get("action") == "preview" or _complete(form, picker)
    return render(request, "record.html", _record_context(request, info, form, picker, preview=preview, number=number,
                                                          **_labels(request, name, number)))


class Labels(TypedDict):
    """What differs between the record and the edit page's forms."""

    heading: str
    action: str
    live_url: str
    save_label: str


def _labels(request: Request, name: str, number: int | None) -> Labels:
    if number is None:
        return {"heading": "Record a hand", "action": page_path(request, "record", name=name),
                "live_url": page_path(request, "record_live", name=name), "save_label": "Save the hand"}
    return {"heading": f"Edit hand {number}", "action": page_path(request, "edit", name=name, number=number),
            "live_url": page_path(request, "edit_live", name=name, number=number), "save_label": f"Replace hand {number}"}


def _save(request: Request, folder: Folder, name: str, form: dict[str, str], number: int | None) -> Response:
    """Save the hand the form enters, read straight into its `HandEntry`; a refusal comes back to `hand_refused`,
    through the pages' guard."""
    entry, expected = hand_entry(form, entered=entered_by(form))
    if form.get("also"):  # "record mine as well", after seeing the hand someone else recorded
        expected = _seen_count(form, "also")
        if expected is None:
            raise InputError("the page did not say which hands it showed: reload it and try again", field="also")
    if number is None:
        change = folder.record(name, entry, expected)
        return redirect(request, "match", f"recorded={len(change.match.hands)}", name=name)
    folder.edit(name, number, entry, expected)
    return redirect(request, "match", f"edited={number}", name=name)


def hand_refused(request: Request, form: dict[str, str], error: GinscoreError) -> Response:
    """A hand's form again, as it was typed, with the refusal beside the field it is about."""
    name = request.path_params["name"]
    number = hand_number(request.path_params["number"]) if "number" in request.path_params else None
    folder = folder_of(request)
    info = match_info(folder, name)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    seen = _seen_count(form)
    since = _hands_since(info, seen) if number is None and seen is not None and seen < info.hands else []
    if info.sheet.finished and number is None:  # finished, perhaps by the hand recorded meanwhile
        return _finished(request, info, error.http_status, since)
    message = str(error)
    place = error.field if error.field in HAND_PLACES else ""
    context = _record_context(request, info, form, picker, preview=False, **_labels(request, name, number))
    if isinstance(error, StaleError):
        place = "stale"
        if since:
            # Another phone or the command line recorded while this hand was entered: show what beside mine, and ask.
            mine = _mine_beside(info, seen or 0, form)
            same = mine is not None and any(line.same_hand_as(mine[0]) for line in info.sheet.lines[seen:])
            message = ("While you were entering this hand, the same hand was recorded." if same else
                       "While you were entering this hand, another one was recorded, not the same as yours.")
            context.update(recorded_since=since, also=str(info.hands), same_hand=same,
                           mine=_hand_said(*mine) if mine is not None else None)
        else:
            form["expected_hands"] = str(info.hands)  # once seen, the change may go
            context["form"]["expected_hands"] = str(info.hands)
    context["errors"] = {place: message}
    return render(request, "record.html", context, error.http_status)


def _seen_count(form: Mapping[str, str], key: str = "expected_hands") -> int | None:
    """A count of hands the page showed, as its form carries it: digits 0-9 only; None otherwise."""
    try:
        return read_whole(form.get(key, ""))
    except InputError:  # more digits than any match has hands
        return None


def _hands_since(info: MatchInfo, seen: int) -> list[dict[str, Any]]:
    """The hands recorded after the first `seen`, as the sheet says them: who knocked, the counts or cards, the score."""
    return [_hand_said(line, record) for line, record in zip(info.sheet.lines[seen:], info.sheet.match.hands[seen:])]


def _hand_said(line: HandLine, record: HandRecord) -> dict[str, Any]:
    how = f"cards {cards_face(record.cards)}" if record.cards else f"counts {counts_words(line)}" if line.knocker else ""
    return {"number": line.number, "knocker": line.knocker or "nobody (cancelled)", "how": how,
            "words": hand_words(line.result, line.winner, line.points), "note": record.note}


def _mine_beside(info: MatchInfo, seen: int, form: Mapping[str, str]) -> tuple[HandLine, HandRecord] | None:
    """This phone's hand, read as Save reads it, as it would have scored in the place of the first hand recorded
    meanwhile; None when it cannot be scored there (it is then not taken for the same hand)."""
    before = info.sheet.match.with_hands(info.sheet.match.hands[:seen])
    try:
        entry, _ = hand_entry(form, entered=entered_by(form))
        made = make_record(before, entry)
        _, sheet = add_hand(before, made)
    except GinscoreError:
        return None
    return sheet.lines[-1], made.record


def record_live(request: Request, form: dict[str, str]) -> Response:
    """The record form's live part: the picked cards judged, and the preview once the hand is complete."""
    return _live(request, request.path_params["name"], form, None)


def _live(request: Request, name: str, form: dict[str, str], number: int | None) -> Response:
    folder = folder_of(request)
    try:
        info = match_info(folder, name)
    except GinscoreError as error:
        return HTMLResponse(f'<p class="error">{escaped(problem_words(error))}</p>', error.http_status)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    how = entered_by(picked(form, picker))
    preview = _preview_of(folder, name, form, picker, number) if _complete(form, picker) else None
    warning = count_warning(form, picker, info.players)
    context = {
        "check": judge(picker.cards("knocker"), info.judged_by(form.get("upcard", ""))) if how == "cards" else None,
        "preview": preview, "count_warning": warning, "save_reason": save_reason(preview, warning),
    }
    return render(request, "_live_hand.html", context)


def edit_pick(request: Request, form: dict[str, str]) -> Response:
    """The match page's 'edit hand N' box, without script: on to that hand's form."""
    name = request.path_params["name"]
    number = hand_number(request.query_params.get("number", ""))
    return redirect(request, "edit", name=name, number=number)


def _record_form(info: MatchInfo, number: int) -> dict[str, str]:
    """Hand `number`'s record as the form's fields, as it was entered."""
    entry = entry_of(info.sheet.match.hands[number - 1])
    how = "cancelled" if entry.cancelled else "cards" if entry.cards else "counts"
    shown = {name: _text(getattr(entry, name)) for name in ENTERED[how] if name != "cancelled"}
    return {"expected_hands": str(info.hands), "how": how, **shown}


def _text(value: str | int | bool | None) -> str:
    """A field's value as the form's box (or checkbox, `on`) holds it."""
    return "" if value is None or value is False else "on" if value is True else str(value)


def edit_page(request: Request, form: dict[str, str]) -> Response:
    """Edit a past hand: its form filled with what was entered."""
    name, number = request.path_params["name"], hand_number(request.path_params["number"])
    info = match_info(folder_of(request), name)
    if not 1 <= number <= info.hands:
        raise NotFoundError(f"{name} has no hand {number} (it has {info.hands})", field="number")
    form = _record_form(info, number)
    picker = picker_from(form, _hand_sides(info.players, form.get("knocker", "")), "The cards")
    return render(request, "record.html", _record_context(
        request, info, form, picker, heading=f"Edit hand {number}", action=page_path(request, "edit", name=name, number=number),
        live_url=page_path(request, "edit_live", name=name, number=number), save_label=f"Replace hand {number}", preview=False))


def edit_post(request: Request, form: dict[str, str]) -> Response:
    return _hand_post(request, request.path_params["name"], form, number=hand_number(request.path_params["number"]))


def edit_live(request: Request, form: dict[str, str]) -> Response:
    return _live(request, request.path_params["name"], form, hand_number(request.path_params["number"]))
