"""The errors ginscore raises; the CLI turns each into one line and an exit status."""


class GinscoreError(Exception):
    """Base of every error ginscore reports to a person."""


class CardNotationError(GinscoreError, ValueError):
    """Text that is not a card, or not a list of cards (bad input: exit status 2)."""


class UsageError(GinscoreError, ValueError):
    """An option or value that is not valid for the command (bad input: exit status 2)."""


class IllegalHandError(GinscoreError):
    """Cards that are well written but cannot be played: a duplicate, a wrong count, an illegal knock."""


class RefusedError(GinscoreError):
    """An action refused by the rules or the match's state (exit status 1)."""


class MatchFileError(GinscoreError):
    """A match file that cannot be read, with every problem and its place."""

    def __init__(self, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}: {p}" for p in problems))
