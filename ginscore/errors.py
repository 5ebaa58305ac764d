"""The errors ginscore reports; the CLI prints each as one line and exits with its `exit_code`."""

from __future__ import annotations


class GinscoreError(Exception):
    """Base of every error ginscore reports to a person: a refused action, exit status 1."""

    exit_code = 1
    field: str | None = None
    """The record field the error is about, when it came from one (for `hands[3].opponent_cards: ...`)."""


class InputError(GinscoreError, ValueError):
    """Input that cannot be read or is the wrong shape for the command: exit status 2."""

    exit_code = 2


class CardNotationError(InputError):
    """Text that is not a card."""


class CardListError(InputError):
    """Cards that do not make the hand asked for: a card given twice, or the wrong number of cards."""


class IllegalHandError(GinscoreError):
    """Well-written cards that cannot be played so: a card in both hands, a knock over the limit,
    a spread group that is not a meld, a discard not in the hand."""


class RefusedError(GinscoreError):
    """An action the match's state refuses: a finished game, a file that exists."""


class MatchFileError(GinscoreError):
    """A match file that cannot be used, with every problem and its place."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}: {problem}" for problem in problems))
