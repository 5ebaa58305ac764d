"""`advise --match`: the game's side of the advice, under the hand's, ending in the one play to make."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..game.advise_game import GameAdvice
from ..game.one_play import final_words


def _span(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f" ({interval[0]:.0%}–{interval[1]:.0%})"


def game_report(game: GameAdvice, out: Console) -> None:
    """The chance to win the game now, then for each discard that may knock: knocking now against playing on."""
    state = game.state
    dealt = "you dealt" if state.dealing else "you did not deal"
    out.print()
    out.print(Text.assemble(
        ("For the game: ", "bold"),
        f"{state.mine} to {state.theirs}, first to {state.target}, {dealt}; your chance now {game.now:.0%}",
    ))
    if not game.choices:
        out.print("No discard may knock: play on.")
        return
    for choice in game.choices:
        best = "knock" if choice.knocks else "play on"
        out.print(
            f"  discard {choice.discard}: knock now {choice.knock_now:.0%}{_span(choice.knock_interval)}, "
            f"play on {choice.play_on:.0%}{_span(choice.play_on_interval)} over {choice.rollouts} hands played out "
            f"({choice.play_on_careless:.0%} if they knock into undercuts): {best}"
        )
    words = final_words(game)
    if words is not None:
        out.print(Text.assemble(("Advice: ", "bold"), words))
    elif game.best is not None:
        play = "knock" if game.best.knocks else "play on"
        out.print(Text.assemble(("Advice: ", "bold"), f"{play}, discarding {game.best.discard}, for the game."))
