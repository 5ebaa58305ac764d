"""Bash completion that behaves as zsh's and fish's do: a knob's values after `--set knob=`, a name with spaces
quoted as one word, and no space after a folder or a `knob=`, so that typing can go on.

Typer's bash script hands over only the words bash split, and bash splits at `=` and `:` (its COMP_WORDBREAKS),
so `--set shutout=` reached us as three words and the shell fell back to file names. Our script also hands over
the line up to the cursor, which is split here as the command will read it; each answer is then cut to the part
bash replaces (after the last word break) and quoted for the line it goes into. Only used while the shell asks.
"""

from __future__ import annotations

import os
import re

from typer import _completion_shared
from typer._click.shell_completion import add_completion_class, split_arg_string
from typer._completion_classes import BashComplete

BASH_SCRIPT = """
%(complete_func)s() {
    local IFS=$'\\n'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   COMP_LINE="${COMP_LINE:0:COMP_POINT}" \\
                   COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
                   %(autocomplete_var)s=complete_bash $1 ) )
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[/=] ]]; then
        compopt -o nospace
    fi
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s
"""

_SAFE = re.compile(r"[^\w@%+,./:=-]")
"""Characters a bare word must escape with a backslash to stay one word."""


class LineBashComplete(BashComplete):
    """Completions for bash, read from the line (COMP_LINE) when the script gives it, from the words otherwise
    (a script installed by an older version)."""

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMP_LINE")
        if line is None:
            return super().get_completion_args()
        words = split_arg_string(line)
        if line[-1:].isspace() and not (len(words) > 1 and words[-1][-1:].isspace()):
            return words[1:], ""
        return words[1:-1], words[-1] if len(words) > 1 else ""

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        line = os.environ.get("COMP_LINE")
        answers = [item.value for item in self.get_completions(args, incomplete)]
        if line is None:
            return "\n".join(answers)
        quote = _open_quote(line)
        start = 0 if quote else _replaced_from(incomplete, os.environ.get("COMP_WORDBREAKS", "=:"))
        return "\n".join(_quoted(answer[start:] if answer.startswith(incomplete[:start]) else answer, quote) for answer in answers)


def _replaced_from(incomplete: str, breaks: str) -> int:
    """Where the part of the word bash replaces begins: after the last word-break character in it."""
    marks = [char for char in breaks if not char.isspace() and char not in "\"'"]
    return max((incomplete.rfind(char) + 1 for char in marks), default=0)


def _quoted(answer: str, quote: str | None) -> str:
    """An answer as it goes into the line: as it is inside an open quote, with backslashes outside one."""
    if quote == '"':
        return re.sub(r'(["\\$`])', r"\\\1", answer)
    if quote == "'":
        return answer.replace("'", "'\\''")
    return _SAFE.sub(lambda found: "\\" + found.group(), answer)


def _open_quote(line: str) -> str | None:
    """The quote the line ends inside, if any."""
    quote, escaped = None, False
    for char in line:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char in "\"'":
            quote = char
        elif char == quote:
            quote = None
    return quote


def players_in(words: list[object]) -> list[str]:
    """The players named in the first of `words` that is a match file, read through its folder's storage as every
    command reads a file (`Disk`: a regular file, not too big, UTF-8); none when there is none or it cannot be read.
    Only its document is parsed, by the plain layout's fast reader when it can (`plain_toml`, else tomllib), and not
    through `reading`, whose imports alone (the tally) would make the shell wait a fifth longer: no hand is scored."""
    from ..errors import GinscoreError
    from ..files.disk import Disk
    from ..files.plain_toml import read

    for word in words:
        if not isinstance(word, str) or not word:
            continue
        storage, name = Disk(os.path.dirname(word) or "."), os.path.basename(word)
        if not name or not storage.is_file(name):
            continue
        try:
            text = storage.text(name).removeprefix("\ufeff")  # a byte-order mark, as `reading` skips it
            document = read(text)
            if document is None:
                import tomllib

                document = tomllib.loads(text)
            players = document["match"]["players"]
        except (GinscoreError, ValueError, KeyError, TypeError, RecursionError):
            return []
        return [player for player in players if isinstance(player, str)] if isinstance(players, list) else []
    return []


def use_line_completion_for_bash() -> None:
    """Make bash complete through `LineBashComplete` and its script (`--show-completion`, `--install-completion`)."""
    add_completion_class(LineBashComplete, "bash")
    _completion_shared._completion_scripts["bash"] = BASH_SCRIPT
