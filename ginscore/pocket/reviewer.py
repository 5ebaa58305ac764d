"""The Python a review's helper worker runs (`shell/helper.js`): knocks of one match reviewed as the app's worker
asks (`web.review_share`), from the match file's text and the chance's model it was given."""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

from ..files.reading import loads
from ..game.odds import keep_table
from ..match.review import hand_at

if TYPE_CHECKING:
    from ..game.outcomes import Outcomes
    from ..match.tally import Sheet

_given: tuple[Sheet, Outcomes] | None = None
_from: tuple[str, bytes] | None = None


def start(text: str, model: Any, table: Any) -> None:
    """The match to review knocks of: its file's text, the chance's model (`Outcomes`, pickled) and the chance
    table every knock asks, as the worker solved it from 0 (`odds.table_bytes`; empty where none is solved). Bytes
    each, or the Uint8Array the shell hands over."""
    global _given, _from
    model, table = _bytes(model), _bytes(table)
    if _from == (text, model):  # the same review's next visit
        return
    _, sheet, problems = loads(text)
    if sheet is None:
        raise ValueError(f"the match cannot be read: {'; '.join(problems)}")
    outcomes = pickle.loads(model)  # bytes the app's own worker pickled
    rules = sheet.match.rules
    if table:
        keep_table(outcomes, rules.target, rules.next_dealer, 0, table)
    _given, _from = (sheet, outcomes), (text, model)


def _bytes(given: Any) -> bytes:
    return given if isinstance(given, bytes) else bytes(given.to_bytes())


def knock(index: int) -> bytes:
    """The knock of line `index` (0-based) reviewed, pickled."""
    if _given is None:
        raise LookupError("no match was given")
    sheet, outcomes = _given
    return pickle.dumps(hand_at(sheet, outcomes, index))
