"""What a person sees: Rich text for the terminal, plain text when piped. The only package that imports rich.

One module a screen: `hand` (check and score), `rules`, `sheet` (show, record, edit), `chart`, `stats`;
`console` holds the pieces they share.
"""

from .console import console

__all__ = ["console"]
