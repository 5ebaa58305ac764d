"""ginscore: scorekeeper and hand checker for Gin Rummy played with a real deck.

Also a library: `solve`, `score_knock`, `make_rules`, `load_match` and the rest of `__all__` are
documented in docs/API.md. They live in `ginscore.api`, imported on first use so that the
command line starts fast.
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

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
    "Rules",
    "Solved",
    "load_match",
    "make_rules",
    "parse_card",
    "parse_cards",
    "save_match",
    "score_knock",
    "solve",
]

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
        Rules,
        Solved,
        load_match,
        make_rules,
        parse_card,
        parse_cards,
        save_match,
        score_knock,
        solve,
    )


def __getattr__(name: str) -> Any:
    """The library API, imported from `ginscore.api` the first time a name is used (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module 'ginscore' has no attribute {name!r}")
    from . import api

    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
