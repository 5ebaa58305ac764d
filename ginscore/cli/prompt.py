"""The questions `play` asks on a terminal: line editing and history where the platform has readline, a refused
answer offered again for editing, and every line wrapped at words to the terminal's width."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Callable
from types import ModuleType


def line_editor() -> ModuleType | None:
    """The standard library's readline, when standard input is a terminal and the platform has it; else None."""
    if not sys.stdin.isatty():
        return None
    try:
        import readline
    except ImportError:  # Windows, or a Python built without it
        return None
    return readline


class Prompt:
    """`play`'s questions on a terminal. `ask(question, offered)` gives the answer typed, None at the end of input
    (Ctrl-D). With an editor, `offered` is already on the line to be edited, and the arrow keys move along the
    line and back through the answers `took` kept for the same question: Up at "Who knocked?" recalls knockers,
    never a count, and never an answer that was refused."""

    def __init__(self, editor: ModuleType | None):
        self.editor = editor
        self.histories: dict[str, list[str]] = {}

    def ask(self, question: str, offered: str = "") -> str | None:
        asked = question
        *above, question = wrapped_question(question, terminal_width())
        for line in above:
            sys.stdout.write(line + "\n")
        editor = self.editor
        if editor is None:
            sys.stdout.write(question)
            sys.stdout.flush()
            line = sys.stdin.readline()
            return line.rstrip("\n") if line else None
        use_history(editor, self.histories.get(asked, []))
        editor.set_startup_hook(offer(editor, offered))
        try:
            return input(question)
        except EOFError:
            sys.stdout.write("\n")
            return None
        finally:
            editor.set_startup_hook(None)

    def took(self, question: str, answer: str) -> None:
        """Keep an answer the question took, for the arrow keys the next time it is asked."""
        past = self.histories.setdefault(question, [])
        if answer and answer not in past[-1:]:
            past.append(answer)


def use_history(editor: ModuleType, past: list[str]) -> None:
    """Make `past`, one question's earlier answers, the history the arrow keys go back through."""
    editor.clear_history()
    for line in past:
        editor.add_history(line)


def offer(editor: ModuleType, text: str) -> Callable[[], None] | None:
    """readline's start-up hook that puts `text` on the line before the person types; None for nothing."""
    if not text:
        return None

    def hook() -> None:
        editor.insert_text(text)

    return hook


def wrapped_question(question: str, width: int) -> list[str]:
    """A question's lines at `width`, wrapped at words; the last one keeps its trailing space for the answer."""
    if len(question) <= width:
        return [question]
    lines = textwrap.wrap(question, width, break_on_hyphens=False, break_long_words=False)
    return [*lines[:-1], lines[-1] + " "]


def terminal_width() -> int:
    """The terminal's width; piped output is never wrapped."""
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else sys.maxsize
