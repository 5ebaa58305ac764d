"""The API's answers: the service's typed answers in the shapes the command line's `--json` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..files.changes import Change
    from ..files.merging import Merged
    from ..match.tally import Sheet


def hand_dict(sheet: Sheet, number: int) -> dict[str, Any]:
    """Hand `number` (from 1) exactly as `show --json` gives it, without building the whole sheet's object."""
    from ..match.tally import hand_json

    return hand_json(sheet.lines[number - 1], sheet.match.hands[number - 1])


def new_dict(name: str, shown: dict[str, Any]) -> dict[str, Any]:
    """A new match: `show --json` of its empty sheet (`shown`, as the folder's table gives it), with its file's
    name."""
    return {**shown, "name": name}


def preview_dict(change: Change) -> dict[str, Any]:
    """A previewed hand as `record` would add it, and the knocker's spread. When the best spread for the knocker
    is not a lowest-deadwood one and scores differently, both are given, each as `cards` (grouped with `|`) and
    `discard` fields that `record` takes, so the player can say which one was laid down."""
    from ..match.spread_choice import choices, spread_of

    sheet = change.sheet
    scored = sheet.lines[-1].scored
    both = choices(scored)
    return {
        "hand": hand_dict(sheet, len(sheet.match.hands)),
        "expected_hands": len(change.before.match.hands),
        "spread": spread_of(scored).as_json() if scored is not None else None,
        "lowest": both[0].as_json() if both is not None else None,
    }


def undo_dict(change: Change) -> dict[str, Any]:
    """An undo: the removed hand, the count left, the totals and the next dealer."""
    return {
        "removed": hand_dict(change.before.sheet, len(change.before.match.hands)),
        "hands": len(change.match.hands),
        "totals": change.sheet.summed("totals"),
        "next_dealer": change.sheet.next_dealer,
    }


def error_dict(error: Exception, message: str) -> dict[str, Any]:
    """A refusal as the API answers it: its words and the field it is about (null when it is about none)."""
    return {"error": message, "field": getattr(error, "field", None)}


def merged_dict(merged: Merged) -> dict[str, Any]:
    """A merge: what it did to which file, the hands it added, and for a conflict the hands that differ and the
    count the file had (for a choice)."""
    return {"outcome": merged.outcome, "name": merged.name, "added": merged.added, "differing": list(merged.differing),
            "hands": merged.hands}
