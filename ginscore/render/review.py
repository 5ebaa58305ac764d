"""`ginscore review`: each knock judged by the game chance it cost, then each player's sums."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from ..game.cards import parse_card
from ..match.records import person_key
from ..match.review import JUDGEMENTS, KINDS, Choice, FolderReview, HandReview, PlayerReview, Review
from .console import count, is_fancy, print_wrapped

if TYPE_CHECKING:
    from rich.progress import TaskID

SHOW_AFTER_S = 1.0
"""A review shorter than this shows no progress bar."""
STYLES = {"none": "green", "close": "cyan", "inaccuracy": "yellow", "mistake": "bold yellow", "blunder": "bold red"}


def thresholds_words() -> str:
    """The judgements and their thresholds in one sentence, with the reason for them."""
    named = ", ".join(f"{name} from {least:g}" for name, least in reversed(JUDGEMENTS))
    return (f"Each knock is judged by the chance to win the game it gave away, in points: {named}; none under "
            f"{JUDGEMENTS[-1][1]:g}. A hand's score (about 25 points) moves a game to 100 by about 10 points of "
            "chance. Where the chance lost is within its error, its 95% range reaching 0 once the luck both plays "
            "shared is taken out, the hand is close and counts none.")


def _chance(choice: Choice) -> str:
    if choice.interval is None:
        return f"{choice.chance:.0%} (exact)"
    low, high = choice.interval
    what = "opponent hands" if choice.knocks else "hands played out"
    return f"{choice.chance:.0%} ({low:.0%}–{high:.0%} over {choice.sampled} {what})"


def _play(choice: Choice, face: Callable[[str], str]) -> str:
    return f"{choice.play}, discarding {face(str(choice.discard))}"


def hand_lines(hand: HandReview, face: Callable[[str], str]) -> list[Text]:
    """One hand: what was laid down at which score, the play taken and the best with their chances, the verdict."""
    head = Text(f"Hand {hand.number}, {hand.knocker}", style="bold")
    if hand.reason is not None:
        return [Text.assemble(head, f": not reviewed: {hand.reason}.")]
    mine, theirs = hand.scores
    dealt = "dealt" if hand.dealt else "did not deal"
    spread = " ".join(word if word == "|" else face(word) for word in hand.spread.split())
    lines = [Text.assemble(head, f" ({mine} to {theirs}, {dealt}): {hand.taken_words(face)}, {spread}")]
    if hand.kind == "big gin":
        lines.append(Text("  nothing scores more, and nothing can undercut it: no chance lost."))
        return lines
    if hand.taken is not None and hand.best is not None:
        lines.append(Text(f"  taken: {_play(hand.taken, face)}: {_chance(hand.taken)}"))
        if hand.best != hand.taken:
            lines.append(Text(f"  best:  {_play(hand.best, face)}: {_chance(hand.best)}"))
    verdict = hand.judgement
    lost = f"{hand.lost:.1f} points lost" if hand.lost else "no chance lost"
    lines.append(Text.assemble("  ", (verdict, STYLES[verdict]), f": {lost}",
                               " (within the estimates' error: counts none)" if verdict == "close" else ""))
    return lines


def player_lines(player: PlayerReview, face: Callable[[str], str]) -> list[Text]:
    """A player's sums: hands reviewed, chance lost in all and per hand, each judgement's count, the worst hand."""
    if not player.hands:
        return [Text.assemble((player.player, "bold"), ": no knock reviewed.")]
    judged = ", ".join(f"{player.counts[kind]} {kind}" for kind in KINDS)
    lines = [Text.assemble(
        (player.player, "bold"),
        f": {count(player.hands, 'hand', 'hands')} reviewed, {player.total:.1f} points of game chance lost "
        f"(mean {player.mean:.1f} a hand); {judged}.",
    )]
    if player.worst is not None:
        lines.append(Text(f"  worst: {player.worst.words(face)}."))
    return lines


def review_report(found: Review, out: Console, player: str | None = None) -> None:
    """The review: the thresholds, each hand (of `player` alone when given), then each player's sums."""
    fancy = is_fancy(out)

    def face(card: str) -> str:
        return parse_card(card).symbol_text if fancy else card

    print_wrapped(out, thresholds_words())
    if found.nothing is not None:
        out.print()
        print_wrapped(out, found.nothing[0].upper() + found.nothing[1:] + ".")
    for hand in found.hands:
        if player is not None and hand.knocker != player:
            continue
        out.print()
        for line in hand_lines(hand, face):
            print_wrapped(out, line)
    out.print()
    for summary in found.players:
        if player is not None and summary.player != player:
            continue
        for line in player_lines(summary, face):
            print_wrapped(out, line)


@contextmanager
def review_progress(out: Console) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar of the hands reviewed, on a terminal only, once the review has run for `SHOW_AFTER_S`."""
    if not out.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    start = time.monotonic()
    shown: list[tuple[Progress, TaskID]] = []

    def update(done: int, total: int) -> None:
        if not shown:
            if time.monotonic() - start < SHOW_AFTER_S:
                return
            bar = Progress(TextColumn("hands reviewed"), BarColumn(), MofNCompleteColumn(), console=out, transient=True)
            bar.start()
            shown.append((bar, bar.add_task("hands", total=total)))
        bar, task = shown[0]
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if shown:
            shown[0][0].stop()


def folder_report(found: FolderReview, out: Console, player: str | None = None) -> None:
    """A folder's review: each match's player lines, then each player's sums over the folder."""
    fancy = is_fancy(out)

    def face(card: str) -> str:
        return parse_card(card).symbol_text if fancy else card

    print_wrapped(out, thresholds_words())
    for file, each in found.files:
        if player is not None and not any(person_key(name.player) == person_key(player) for name in each.players):
            continue
        out.print()
        out.print(Text(file, style="bold"))
        if each.nothing is not None:
            print_wrapped(out, "  nothing to review: no knock has the knocker's eleven cards recorded.")
            continue
        for summary in each.players:
            if player is None or person_key(summary.player) == person_key(player):
                for line in player_lines(summary, face):
                    print_wrapped(out, Text.assemble("  ", line))
    out.print()
    out.print(Text(f"Over the {count(len(found.files), 'match', 'matches')}", style="bold"))
    for summary in found.players:
        if player is not None and person_key(summary.player) != person_key(player):
            continue
        lines = player_lines(summary, face)
        if summary.worst is not None:
            lines[-1] = Text(f"  worst: {found.worst_files[summary.player]}, {summary.worst.words(face)}.")
        for line in lines:
            print_wrapped(out, line)
