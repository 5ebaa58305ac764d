"""Commands about one hand: `check` (can I knock?), `score` (one knock) and `rules` (the presets)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

import typer

from ..errors import GinscoreError, InputError
from ..game.cards import EXAMPLE_HAND, MAX_HAND_TEXT, parse_card, parse_cards, parse_spread, require_count
from .command import command, print_json
from .options import JSON, KNOCK_LIMIT, RULES, SETTINGS, UPCARD, complete_preset, judged_rules


@command(short_help="Count a hand's deadwood: can I knock?")
def check(
    cards: list[str] = typer.Argument(..., help="10 or 11 cards, e.g. 3h 4h 5h KS KC KD 7c 8c 9c 2d; '-' reads one hand a line from stdin."),
    rules_name: str = RULES,
    settings: list[str] = SETTINGS,
    upcard: str | None = UPCARD,
    knock_limit: int | None = KNOCK_LIMIT,
    as_json: bool = typer.Option(False, "--json", help="One JSON object (a line each with '-')."),
) -> None:
    """Can I knock with this? Arrange a hand into melds and count its deadwood.

    \b
    Examples:
      ginscore check 3h 4h 5h KS KC KD 7c 8c 9c 2d
      ginscore check 2c 3c 4c 9d 9h 9s Jh Qh Kh 5d --upcard 3s
    """
    from ..game.melds import solve

    rules, card = judged_rules(rules_name, settings, knock_limit, upcard)
    limit = rules.knock_limit_for(card)
    if cards == ["-"]:
        if sys.stdin is None:
            raise InputError("standard input is closed: pipe hands in, or give the cards as arguments")
        raise typer.Exit(_check_lines(sys.stdin.buffer, limit, as_json, rules.big_gin))
    hand = parse_cards(cards)
    require_count(hand, (10, 11), "a hand to check")
    _show_check(solve(hand), limit, as_json, rules.big_gin)


def _show_check(solution: Any, limit: int, as_json: bool, big_gin_paid: bool) -> None:
    from ..game.check import answer_of
    from .answer import answer_printer

    answer_printer(limit, as_json)(answer_of(solution, big_gin_paid))


def _check_lines(stream: BinaryIO, limit: int, as_json: bool, big_gin_paid: bool) -> int:
    from ..game.check import check_hand
    from .answer import answer_printer

    show = answer_printer(limit, as_json)
    status, first, seen = 0, True, False
    for number, line in enumerate(_lines(stream), start=1):
        try:
            text = _line_text(line).lstrip("\ufeff").lstrip()  # a byte-order mark, as some editors begin a file with
            if not text or text[0] == "#":
                continue
            seen = True
            answer = check_hand(text, big_gin_paid)
        except GinscoreError as error:
            sys.stderr.write(f"error: line {number}: {error}\n")
            status, seen = 2, True
            continue
        if not as_json and not first:
            sys.stdout.write("\n")
        show(answer)
        first = False
    if not seen:
        raise InputError(f"no hands on standard input: type one hand a line, like '{EXAMPLE_HAND}'")
    return status


_LONGEST_LINE = 4 * MAX_HAND_TEXT + 1
"""Bytes read of a line at most: `MAX_HAND_TEXT` characters of up to 4 bytes each, and one more to tell."""


def _lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """Each line's bytes, or None for a line too long to be a hand, whose rest is skipped unread."""
    while line := stream.readline(_LONGEST_LINE):
        if len(line) < _LONGEST_LINE or line.endswith(b"\n"):
            yield line
            continue
        while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
            pass
        yield None


def _line_text(line: bytes | None) -> str:
    """One line of `check -` as text; an `InputError` for bytes that are not UTF-8 or a line far longer than a hand."""
    if line is not None:
        try:
            text = line.decode().rstrip("\r\n")
        except UnicodeDecodeError as error:
            raise InputError(
                f"cannot read byte 0x{line[error.start]:02x} at offset {error.start} of the line: not UTF-8 text"
            ) from None
        if len(text) <= MAX_HAND_TEXT:
            return text
    raise InputError(f"the line is far longer than any hand (more than {MAX_HAND_TEXT} characters): type 10 or 11 cards")


@command(short_help="Score one knock from both hands.")
def score(
    cards: str = typer.Option(
        ..., "--cards", "--knocker", help="The knocker's 10 or 11 cards, or the spread grouped with '|'."
    ),
    opponent_cards: str = typer.Option(
        ..., "--opponent-cards", "--opponent", help="The opponent's 10 cards."
    ),
    discard: str | None = typer.Option(None, "--discard", help="The card discarded face down, when 11 are given."),
    rules_name: str = RULES,
    settings: list[str] = SETTINGS,
    upcard: str | None = UPCARD,
    knock_limit: int | None = KNOCK_LIMIT,
    as_json: bool = JSON,
) -> None:
    """Score one knock from both hands: lay-offs, counts, undercut, gin, points.

    Given only cards, the knocker's best legal spread is scored (it may not be the lowest count).
    --knocker and --opponent, the old names of --cards and --opponent-cards, still work.

    \b
    Example:
      ginscore score --cards "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h" \\
                     --opponent-cards "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"
    """
    from ..game.scoring import knock_dict, score_cards

    rules, card = judged_rules(rules_name, settings, knock_limit, upcard)
    knocker_cards, groups = parse_spread(cards)
    scored = score_cards(
        knocker_cards,
        parse_cards(opponent_cards),
        rules,
        upcard=card,
        discard=None if discard is None else parse_card(discard),
        groups=groups,
    )
    if as_json:
        print_json(knock_dict(scored))
        return
    from ..render.console import console
    from ..render.hand import score_report

    score_report(scored, console())


@command(name="rules", short_help="Show the rule presets and their knobs.")
def rules_command(
    name: str | None = typer.Argument(None, autocompletion=complete_preset, help="A preset: standard, tournament or oklahoma."),
    settings: list[str] = SETTINGS,
    as_json: bool = typer.Option(False, "--json", help="The rules as one JSON object."),
) -> None:
    """Show the rule presets side by side, or one preset with every knob.

    \b
    Example:
      ginscore rules oklahoma --set target=250
    """
    from ..game.rulebook import PRESETS, rules_from

    if name is None and not settings:
        if as_json:
            print_json({preset: rules.to_dict() for preset, rules in PRESETS.items()})
            return
        from ..render.console import console
        from ..render.rules import rules_table

        rules_table(list(PRESETS), console())
        return
    rules = rules_from(name or "standard", settings)
    if as_json:
        print_json(rules.to_dict())
        return
    from ..render.console import console
    from ..render.rules import rules_detail

    rules_detail((name or "standard").lower(), rules, console())
