"""A hand checked as a page shows it: its melds, its deadwood and whether it may knock, as one HTML fragment.

The one source of that fragment: serve's check page puts it in its answer (`web/check_pages.py`), and the app's
typed check (`pocket/worker.py` `check`) gives it to the shell, which inserts it as it is. Both judge the cards by
`checked_hand`, the game's own answer (`game.check`), so that the app answers as the page does before the pages
are loaded. Only the standard library and the layers below: the worker imports this before Jinja is in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import GinscoreError
from .words import RESULT_WORDS, knock_sentence

if TYPE_CHECKING:
    from ..game.cards import Card
    from ..game.rulebook import Rules


@dataclass(frozen=True)
class HandCheck:
    """What `check` says about one hand of 10 or 11 cards, in the words a page shows; or why it cannot (`error`),
    or, for a picker, how many cards are still to be picked (`waiting`)."""

    waiting: str = ""
    """How many cards are still to be picked, in words (a picker's; typed cards are judged or refused)."""
    error: str = ""
    """Why the cards cannot be judged, in the solver's words; the rest is then empty."""
    melds: tuple[tuple[str, ...], ...] = ()
    """The melds of the arrangement shown, lowest first, each in rank order."""
    deadwood_cards: tuple[str, ...] = ()
    """The cards in no meld, in rank order."""
    discards: tuple[str, ...] = ()
    """For 11 cards, the discards that leave the least deadwood, highest first; none for a big gin."""
    deadwood: int = 0
    verdict: str = ""
    """Whether the hand may knock, as a sentence (`knock_sentence`)."""
    gin: str = ""
    """`gin` when no deadwood is left (`big gin` when all 11 cards meld and the rules score it), said beside the
    count; else empty."""


def checked_hand(text: str, rules: Rules, upcard: Card | None = None) -> HandCheck:
    """The game's answer for the cards typed in `text` under `rules` (and an Oklahoma hand's up-card), or the
    error that refuses them. Where the rules pay no big gin, eleven melded cards are a gin with a discard, the
    other ten melded."""
    from ..game.check import check_hand

    try:
        answer = check_hand(text, rules.big_gin)
        limit = rules.knock_limit_for(upcard)
    except GinscoreError as error:
        return HandCheck(error=str(error))
    return HandCheck(
        melds=tuple(tuple(meld) for meld in answer.melds),
        deadwood_cards=tuple(answer.deadwood_cards),
        discards=() if answer.big_gin else tuple(answer.discards),
        deadwood=answer.deadwood,
        verdict=knock_sentence(answer.deadwood, answer.big_gin, limit),
        gin=RESULT_WORDS["big_gin" if answer.big_gin else "gin"] if answer.deadwood == 0 else "",
    )


def hand_check_html(check: HandCheck | None) -> str:
    """The check's answer as the pages show it, escaped: the `hand-check` box with the verdict, the melds and the
    deadwood as card chips; or the refusal, or what is still missing. Empty when nothing is picked (None)."""
    if check is None:
        return ""
    if check.error:
        said = f'<p class="error" role="alert">{escaped(check.error)}</p>'
    elif check.waiting:
        said = f'<p class="muted">{escaped(check.waiting)}</p>'
    else:
        discarding = f", discarding {' or '.join(map(chip, check.discards))}" if check.discards else ""
        melds = "".join(f'<span class="meld">{chips(meld)}</span>' for meld in check.melds) or "none"
        gin = f' <strong class="gin-mark">{escaped(check.gin)}</strong>' if check.gin else ""
        said = (
            f'<p class="knock-verdict">{escaped(check.verdict)}{discarding}.</p>\n'
            '<dl class="answer">\n'
            f'<dt>Melds</dt><dd class="melds">{melds}</dd>\n'
            f'<dt>Deadwood</dt><dd class="deadwood">{chips(check.deadwood_cards)} '
            f'<span class="deadwood-count">{check.deadwood}</span>{gin}</dd>\n'
            "</dl>"
        )
    return f'<div class="hand-check">\n{said}\n</div>\n'


def chip(code: str, kind: str = "") -> str:
    """A card as a chip with its suit's glyph, red for hearts and diamonds: `<span class="card-chip red">3♥</span>`;
    text that is not a card is shown as it is, black. `kind` adds a class (`dead`). Every page's chip is this one
    (the templates' `chip` macro)."""
    from ..game.cards import parse_card

    added = f" {escaped(kind)}" if kind else ""
    try:
        card = parse_card(code)
    except GinscoreError:
        return f'<span class="card-chip{added}">{escaped(code)}</span>'
    return f'<span class="card-chip{" red" if card.suit.is_red else ""}{added}">{escaped(card.symbol_text)}</span>'


def chips(codes: Iterable[str]) -> str:
    return "".join(map(chip, codes))


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


def escaped(text: str) -> str:
    """`text` safe as an element's text or a quoted attribute, escaped as the pages' templates escape it (Jinja's
    markupsafe), so that the fragment reads the same bytes wherever it is made."""
    return text.translate(_ESCAPES)
