"""Guided entry at the table: one question at a time, each hand saved as soon as it is complete.

Every answer is checked as soon as it is typed, against what is known of the hand so far, so a
typo or an impossible answer asks that one question again, offering the refused answer for editing.
Questions are short; `?` at any of them explains what it takes. The questions and answers go
through callables, so the same loop serves a terminal and a test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import GinscoreError, InputError, quote
from ..game.cards import Card, parse_card, parse_cards
from ..game.numbers import parse_whole, read_whole
from .entry import HandEntry
from .records import Match, check_note
from .scored import ScoredRecord, canonical_cards, make_record
from .spread_choice import choices, gain_text
from .tally import HandLine, Sheet

T = TypeVar("T")
CANCEL_WORDS = ("cancelled", "cancel", "c", "dead")
QUIT_WORDS = ("quit", "q", "exit")
NOTE = re.compile(r"note\s+(\S.*)", re.IGNORECASE | re.DOTALL)
HELP_WORDS = ("?", "help")
HINT = "Type ? at any question for help, q to stop. 'note TEXT' keeps a note with the hand."
HELP_END = "q stops; 'note TEXT' keeps a note."
"""The end of every question's help: the help itself never says how to stop."""


class StopPlay(Exception):
    """End of input, or the player asked to stop: every complete hand is already saved."""


@dataclass
class Table:
    """How `play` talks to the people at the table, and how it saves."""

    ask: Callable[[str, str], str | None]
    """Show a question and return the answer, or None at the end of input. The second argument is text to
    offer for editing (a refused answer), or ""."""
    tell: Callable[[str], None]
    show: Callable[[HandLine, Sheet], None]
    commit: Callable[[HandEntry], tuple[Match, Sheet]]
    """Save one more hand, as entered, and return the match as it now stands on disk (the service records it)."""
    took: Callable[[str, str], None] = lambda question, answer: None
    """The answer a question took (the part meant, never a refused one), for a terminal's history of it."""
    prefills: bool = False
    """Whether `ask` puts the offered text on the line, where what is typed next lands after it (readline)."""


def play(match: Match, sheet: Sheet, table: Table) -> Sheet:
    """Ask for hands until the match is over; raises StopPlay when the players stop early."""
    if not sheet.finished:
        table.tell(HINT)
    while not sheet.finished:
        table.tell(f"\nHand {len(sheet.lines) + 1}: {sheet.next_dealer} deals. Score: {sheet.score_text()}.")
        match, sheet = table.commit(_HandQuestions(match, table).entry())
        table.show(sheet.lines[-1], sheet)
    return sheet


class _HandQuestions:
    """The questions of one hand; each answer is checked against the answers before it."""

    def __init__(self, match: Match, table: Table):
        self.match, self.table = match, table
        self.fields: dict[str, Any] = {}
        """The entry's fields answered so far, named as `HandEntry` names them."""
        self.note = ""

    def entry(self) -> HandEntry:
        """The hand, question by question, as one entry for the service to record."""
        rules = self.match.rules
        if rules.oklahoma:
            self.fields["upcard"] = str(self.ask("Up-card: ", parse_card, UPCARD_HELP))
        knocker = self.ask(who_question(self.match), self.knocker, who_help(self.match))
        if knocker is None:
            return HandEntry(cancelled=True, note=self.note)
        self.fields["knocker"] = knocker
        opponent = self.match.other(knocker)
        knock = self.ask(f"{knocker}'s cards or count: ", self.knock, KNOCK_HELP)
        if isinstance(knock, str):
            self.fields["cards"] = knock
            if _needs_discard(knock, rules.big_gin):
                self.fields["discard"] = str(self.ask("Discarded face down: ", self.discard, DISCARD_HELP))
            answer = self.ask(f"{opponent}'s cards or count after lay-offs: ", self.opponent, OPPONENT_HELP)
            self.fields["opponent_deadwood" if isinstance(answer, int) else "opponent_cards"] = answer
            if "|" not in knock:
                self.ask_which_spread(knocker, opponent)
        else:
            knocker_count, opponent_count = knock
            self.fields["deadwood"] = knocker_count
            if knocker_count == 0 and rules.big_gin:
                self.fields["big_gin"] = self.ask("Big gin, all 11 melded? (y/N): ", _yes_no, BIG_GIN_HELP)
            if opponent_count is None:
                opponent_count = self.ask(f"{opponent}'s count after lay-offs: ", self.opponent_count, COUNT_HELP)
            self.fields["opponent_deadwood"] = opponent_count
        return HandEntry(**self.fields, note=self.note)

    def ask_which_spread(self, knocker: str, opponent: str) -> None:
        """When the cards alone allow two spreads that score differently (the least deadwood, and one that
        blocks lay-offs), ask which was laid down: the entry's `spread`, which the service keeps, grouped."""
        both = choices(make_record(self.match, HandEntry(**self.fields)).scored)
        if both is None:
            return
        self.table.tell(f"These cards can be spread two ways that score differently. Which did {knocker} lay down?")
        for number, choice in enumerate(both, start=1):
            gain = gain_text(choice.result, knocker, opponent)
            self.table.tell(f"  {number}: {choice.cards} ({choice.result.knocker_deadwood} deadwood): {gain}")
        self.fields["spread"] = both[self.ask("Spread laid down (1/2): ", _one_or_two, SPREAD_HELP) - 1].name

    def ask(self, question: str, parse: Callable[[str], T], help: str = "") -> T:
        """Ask until the answer parses; a typo is explained, quoting it, and the answer offered again for editing.

        A quit word stops play, `?` explains the question, and `note TEXT` keeps a note with the hand,
        unless the answer is a real one (a player may be called Q).
        """
        offered = ""
        while True:
            answer = self.table.ask(question, offered)
            if answer is None:
                raise StopPlay
            text = fresh_part(answer.strip(), offered, parse) if self.table.prefills else answer.strip()
            offered = ""
            try:
                taken = parse(text)
            except GinscoreError as error:
                if text.lower() in QUIT_WORDS:
                    raise StopPlay from None
                note = NOTE.fullmatch(text)
                if text.lower() in HELP_WORDS:
                    self.table.tell(f"  {help or 'Type the answer and press Enter.'} {HELP_END}")
                elif note:
                    self.keep_note(note.group(1).strip())
                else:
                    self.table.tell(f"  {error}. Try again.")
                    offered = text
                continue
            self.table.took(question, text)
            return taken

    def keep_note(self, text: str) -> None:
        """Keep a note with the hand; one with a control character is refused and the question asked again."""
        try:
            self.note = check_note(text)
        except GinscoreError as error:
            self.table.tell(f"  {error}. Try again.")
            return
        self.table.tell(f"  Note for this hand: {self.note}")

    def check(self, **more: Any) -> ScoredRecord:
        """The hand so far with `more`, scored under the match's rules; an error refuses the answer.

        Before the opponent's answer the knock is scored against a count of 0: what that
        refuses, the real hand would refuse too.
        """
        return make_record(self.match, HandEntry(**({"opponent_deadwood": 0} | self.fields | more)))

    def knocker(self, text: str) -> str | None:
        """A player by name, initial or number, or None for a cancelled hand; a name wins over the rest."""
        try:
            return self.match.player(text, short=False)
        except InputError:
            if text.lower() in CANCEL_WORDS:
                return None
            if text.lower() not in QUIT_WORDS:
                try:
                    return self.match.player(text)
                except InputError:
                    pass
            choices = ", ".join(f"{' or '.join(keys)} for {name}" for name, keys in player_keys(self.match))
            raise InputError(f"{quote(text)} is not a player: type {choices}, or c for a cancelled hand") from None

    def knock(self, text: str) -> str | tuple[int, int | None]:
        """The knocker's cards, or their count and perhaps the opponent's, refused at once when they cannot knock."""
        counts = _counts(text)
        if counts is not None:
            knocker, opponent = counts
            self.check(deadwood=knocker, **({} if opponent is None else {"opponent_deadwood": opponent}))
            return counts
        cards = canonical_cards(text)
        if _needs_discard(cards, self.match.rules.big_gin):
            self._check_some_discard(cards)
        else:
            self.check(cards=cards)
        return cards

    def _check_some_discard(self, cards: str) -> None:
        """A spread of 11 cards in groups is refused unless some discard from its loose cards makes a legal knock."""
        loose = [card for group in cards.split("|") if len(group.split()) < 3 for card in parse_cards(group)]
        if not loose:
            raise InputError("11 cards are spread in melds only: put the card discarded face down in a group of its own")
        errors = []
        for card in sorted(loose, key=lambda card: -card.value):  # the highest discard leaves the lowest count
            try:
                self.check(cards=cards, discard=str(card))
                return
            except GinscoreError as error:
                errors.append(error)
        raise errors[0]

    def discard(self, text: str) -> Card:
        card = parse_card(text)
        self.check(discard=str(card))
        return card

    def opponent(self, text: str) -> str | int:
        count = read_whole(text)
        if count is not None:
            self.check(opponent_deadwood=count)
            return count
        cards = canonical_cards(text)
        self.check(opponent_cards=cards, opponent_deadwood=None)
        return cards

    def opponent_count(self, text: str) -> int:
        count = read_whole(text)
        if count is None:
            raise InputError(f"{quote(text)} is not a count: with the knocker's count, type the opponent's as a number, like 23")
        self.check(opponent_deadwood=count)
        return count


def player_keys(match: Match) -> list[tuple[str, tuple[str, ...]]]:
    """Each player with the short answers that pick them: the initial, when it is theirs alone, and their number."""
    initials = [name[0].lower() for name in match.players]
    keys: list[tuple[str, tuple[str, ...]]] = []
    for number, (name, initial) in enumerate(zip(match.players, initials), start=1):
        usable = initials.count(initial) == 1 and initial not in CANCEL_WORDS + QUIT_WORDS and not initial.isdigit()
        keys.append((name, (initial, str(number)) if usable else (str(number),)))
    return keys


def who_question(match: Match) -> str:
    """The first question of a hand, short: each player with one key, and c for a cancelled hand."""
    players = ", ".join(f"{name} ({keys[0]})" for name, keys in player_keys(match))
    return f"Who knocked? {players}, c cancelled: "


def who_help(match: Match) -> str:
    """What the first question takes, in full."""
    keys = ", ".join(f"{' or '.join(keys)} for {name}" for name, keys in player_keys(match))
    return f"Type who knocked: their name, or {keys}. Type c for a cancelled hand (nobody scores)."


UPCARD_HELP = "Type the up-card, the knock card turned at the start, like 7h: its value is the knock limit."
KNOCK_HELP = (
    "Type the knocker's 10 or 11 cards, like 3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h; put | between the melds to give the"
    " spread laid down. Or type their count, like 4, or both counts, the knocker's then the opponent's, like 4 23, 4/23"
    " or 4, 23 (gin 30 for a gin)."
)
DISCARD_HELP = "Type the card the knocker discarded face down, like 9h: it is one of the 11 typed, in a group of its own."
OPPONENT_HELP = "Type the opponent's 10 cards, to work out the lay-offs, or their count after lay-offs, like 23."
COUNT_HELP = "Type the opponent's count after lay-offs, like 23: with the knocker's count, only a count is taken."
BIG_GIN_HELP = "Type y when the knocker melded all 11 cards (big gin), n or Enter for a plain gin."
SPREAD_HELP = "Type 1 or 2: the spread the knocker laid down, as listed above. It decides what could be laid off."


def fresh_part(text: str, offered: str, parse: Callable[[str], object]) -> str:
    """The answer meant when a refused answer was left on the line and more was typed straight after it.

    What was typed replaces the old text when it is an answer, or a word such as `q`, on its own: `Annn` left on
    the line and `b` typed reads `b`, not `Annnb`. The line stays whole when it is a good answer as a whole, or
    when what was typed starts with a space: that adds to the old text, as when a missing card is put back.
    """
    if not offered or text == offered or not text.startswith(offered):
        return text
    typed = text[len(offered):]
    if typed[:1].isspace() or _answers(parse, text):
        return text
    if typed.lower() in QUIT_WORDS or typed.lower() in HELP_WORDS or NOTE.fullmatch(typed) or _answers(parse, typed):
        return typed
    return text


def _answers(parse: Callable[[str], object], text: str) -> bool:
    """Whether the question takes `text` as its answer."""
    try:
        parse(text)
    except GinscoreError:
        return False
    return True


def _needs_discard(cards: str, big_gin: bool) -> bool:
    """Whether a spread typed in groups leaves a card to discard face down (11 cards, not a big gin)."""
    if "|" not in cards:
        return False
    groups = [group.split() for group in cards.split("|")]
    return sum(map(len, groups)) == 11 and (not big_gin or any(len(group) < 3 for group in groups))


COUNTS = re.compile(r"(gin|[0-9]+)(?:(?:\s*[/,]\s*|\s+)([0-9]+))?", re.IGNORECASE)
"""Counts as the sheet and `show` write them: the knocker's alone, or both, apart by spaces, a slash or a comma
(`6 18`, `6/18`, `6 / 18`, `6, 18`); `gin` stands for the knocker's 0 (`gin 30`)."""
COUNT_WORD = re.compile(r"gin|[0-9]+|[/,]", re.IGNORECASE)
COUNTS_EXAMPLE = "4 23, 4/23 or gin 30"


def _counts(text: str) -> tuple[int, int | None] | None:
    """One count (the knocker's) or two (the knocker's, then the opponent's), in any of the notations `COUNTS`
    takes; None when the text is not counts (cards, say)."""
    typed = text.strip()
    if not typed:
        raise InputError(f"type the cards, like 3h 4h 5h ..., a count like 7, or both counts like {COUNTS_EXAMPLE}")
    found = COUNTS.fullmatch(typed)
    if found is not None:
        knocker = 0 if found[1].lower() == "gin" else parse_whole(found[1])
        return knocker, (None if found[2] is None else parse_whole(found[2]))
    words = [word for word in re.split(r"\s+|(?<=[/,])|(?=[/,])", typed) if word]
    if not all(COUNT_WORD.fullmatch(word) for word in words):
        return None
    numbers = [word for word in words if word not in "/,"]
    if len(numbers) > 2:
        raise InputError(f"{quote(text)} has {len(numbers)} numbers: type the knocker's count, or both counts like {COUNTS_EXAMPLE}")
    raise InputError(f"{quote(text)} is not counts: type the knocker's count, or both counts like {COUNTS_EXAMPLE}")


def _one_or_two(text: str) -> int:
    if text in ("1", "2"):
        return int(text)
    raise InputError(f"{quote(text)} is not one of the spreads: type 1 or 2")


def _yes_no(text: str) -> bool:
    if text.lower() in ("y", "yes"):
        return True
    if text.lower() in ("", "n", "no"):
        return False
    raise InputError(f"{quote(text)} is not an answer: type y or n")
