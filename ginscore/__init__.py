"""ginscore: scorekeeper and hand checker for Gin Rummy played with a real deck.

Also a library: `solve`, `score_knock`, `rules`, `load_match` and the rest of `__all__` are
documented in docs/API.md. They live in `ginscore.api`, imported on first use so that the
command line starts fast.
"""

from .version import __version__ as __version__

__all__ = [
    "PRESETS",
    "Arrangement",
    "Card",
    "GinscoreError",
    "Hand",
    "IllegalHandError",
    "InputError",
    "Knock",
    "Match",
    "MatchFileError",
    "Odds",
    "Rules",
    "Solved",
    "Standings",
    "load_match",
    "odds",
    "parse_card",
    "parse_cards",
    "rules",
    "save_match",
    "score_knock",
    "solve",
    "standings",
]

# `typing` is not imported: `ginscore check` loads this file first, and it must stay cheap.
# Type checkers take any name TYPE_CHECKING as true, see the names below, and not `__getattr__`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .api import (
        PRESETS,
        Arrangement,
        Card,
        GinscoreError,
        Hand,
        IllegalHandError,
        InputError,
        Knock,
        Match,
        MatchFileError,
        Odds,
        Rules,
        Solved,
        Standings,
        load_match,
        odds,
        parse_card,
        parse_cards,
        rules,
        save_match,
        score_knock,
        solve,
        standings,
    )

else:

    def __getattr__(name: str) -> object:
        """The library API, imported from `ginscore.api` the first time a name is used (PEP 562)."""
        if name not in __all__:
            raise AttributeError(f"module 'ginscore' has no attribute {name!r}")
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
