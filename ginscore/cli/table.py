"""`play`: a whole game at the table, one question at a time, each hand saved as soon as it is entered."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .command import command
from .records import AT

if TYPE_CHECKING:
    from ..match.entry import HandEntry
    from ..match.records import Match
    from ..match.tally import Sheet


@command(short_help="Enter a game at the table, hand by hand.")
def play(file: str = typer.Argument(..., help="The match file; start one with `ginscore new`."), at: str | None = AT) -> None:
    """Walk a whole game at the table: it asks for each hand and saves it at once.

    Answer each question and press Enter; type ? at any question to hear what it takes.
    Pick the knocker by name, initial or number (c for a cancelled hand). Give the knocker's
    10 or 11 cards, with '|' between the melds for the spread laid down, or their count, or
    both counts as the sheet writes them ('4 23', '4/23', '4 / 23' or '4, 23'; 'gin 30' for a
    gin); then the opponent's 10 cards or their count after lay-offs. When the
    cards alone could be spread two ways that score differently, play asks which was laid down.

    A typo or an impossible answer is explained and offered again for editing: on a terminal
    the arrow keys move along the line and back through earlier answers. 'note TEXT' at any
    question keeps a note with the hand. q, Ctrl-C or Ctrl-D stops, with every hand entered so
    far saved; the next `play` carries on.

    --at WHEN enters a paper sheet on its night: the first hand entered is stamped WHEN and each
    next one a second later, so the stamps keep the hands' order.

    \b
    Examples:
      ginscore play match.toml
      ginscore play jan-06.toml --at 2026-01-06T19:30
    """
    from datetime import timedelta

    from ..files import changes
    from ..files.folder import check_writable
    from ..files.table import file_at
    from ..match.play import StopPlay, Table
    from ..match.play import play as play_hands
    from ..render.console import console, print_wrapped
    from ..render.sheet import hand_view
    from .prompt import Prompt, line_editor
    from .records import past

    out = console()
    when = past(at)
    entered = [0]

    def commit(entry: HandEntry) -> tuple[Match, Sheet]:
        moment = when + timedelta(seconds=entered[0]) if when is not None else None
        change = changes.record(file, entry, at=moment)
        entered[0] += 1
        return change.match, change.sheet

    read = file_at(file)
    match, sheet = read.match, read.sheet
    if not sheet.finished:
        check_writable(file)  # before the first question: a hand typed in full must not then be refused
    prompt = Prompt(line_editor())
    table = Table(ask=prompt.ask, tell=lambda text: print_wrapped(out, text), show=lambda line, sheet: hand_view(line, sheet, out),
                  commit=commit, took=prompt.took, prefills=prompt.editor is not None)
    try:
        play_hands(match, sheet, table)
    except (StopPlay, KeyboardInterrupt) as stop:
        sheet = file_at(file).sheet
        saved = "1 hand is" if len(sheet.lines) == 1 else f"{len(sheet.lines)} hands are"
        print_wrapped(out, f"\nStopped. {saved} saved in {file}; run `ginscore play {file}` to carry on.")
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    print_wrapped(out, f"\nThe match is over. `ginscore show {file}` prints the whole sheet.")
