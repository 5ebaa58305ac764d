"""`ginscore review`: each knock recorded with eleven cards judged by the game chance it cost (issue 57)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import RunCli, json_object, one_error_line
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.files.table import table_of
from ginscore.game.cards import parse_card
from ginscore.match.review import KINDS, Choice, judge, judgement, review

# Ann throws the end of her four-card run and keeps the king: a knock with 10 where throwing the king is gin.
THROWN_RUN = "4c 5c 6c 7c 9d 9h 9s Qd Qh Qs Kh"
BOB = "2c 3d 5d 8h Js Ah 2h 3s 6s 10c"
GIN = "3h 4h 5h 6h 8c 8d 8s Jc Jd Jh 2d"  # gin discarding 2d
OPPONENT_OF_GIN = "Kc Ks Kd 7h 7d Ad 4s 5s 10h 10d"
ROOT = Path(__file__).resolve().parent.parent


def _new(run: RunCli, path: Path, *more: str) -> None:
    assert run("new", path, "Ann", "Bob", "--dealer", "Bob", *more).exit_code == 0


def _record(run: RunCli, path: Path, *args: str) -> None:
    result = run("record", path, *args)
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with `review.toml` (Ann's knock thrown away, a hand of counts, Bob's ten cards without the
    discard) and `fresh.toml` (the same players and rules, no hand yet: `advise --match` there is at 0 to 0,
    Bob dealing, with the same table model as the review's first hand)."""
    from typer.testing import CliRunner

    from ginscore.cli import app

    runner = CliRunner()

    def run(*args: object) -> object:
        return runner.invoke(app, [str(a) for a in args], env={"NO_COLOR": "1"})

    folder = tmp_path_factory.mktemp("evening")
    for name in ("review.toml", "fresh.toml"):
        assert run("new", folder / name, "Ann", "Bob", "--dealer", "Bob").exit_code == 0  # type: ignore[attr-defined]
    path = folder / "review.toml"
    for args in (
        ("--knocker", "Ann", "--cards", THROWN_RUN, "--discard", "4c", "--opponent-cards", BOB),
        ("--knocker", "Bob", "--deadwood", "3", "--opponent-deadwood", "20"),
        ("--knocker", "Ann", "--cards", "3h 4h 5h | 8c 8d 8s | Jc Jd Jh | 2d", "--opponent-cards", OPPONENT_OF_GIN),
    ):
        result = run("record", path, *args)
        assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
    return folder


@pytest.fixture(scope="module")
def reviewed(evening: Path) -> object:
    path = str(evening / "review.toml")
    table = table_of(path)
    sheet = table.sheet_at(path)
    return review(sheet, table.odds(sheet).model.outcomes)


def test_the_review_and_advise_match_agree_to_the_last_digit(run: RunCli, evening: Path, reviewed: object) -> None:
    first = reviewed.hands[0]  # type: ignore[attr-defined]
    assert first.reviewed and first.scores == (0, 0) and not first.dealt
    data = json_object(run("advise", *THROWN_RUN.split(), "--match", evening / "fresh.toml", "--player", "Ann",
                           "--seed", str(first.seed), "--json"))
    options = {option["discard"]: option for option in data["game"]["options"]}
    for choice in (first.taken, first.best):
        option = options[str(choice.discard)]
        assert choice.chance == pytest.approx(option["knock_now" if choice.knocks else "play_on"], abs=1e-9)
    assert {(str(c.discard), c.knocks) for c in first.choices} == {(d, k) for d in options for k in (True, False)}


def test_the_seed_is_the_live_checks() -> None:
    from ginscore.game.advise import hand_seed
    from ginscore.web.hands import hand_seed as live_seed

    cards = THROWN_RUN.split()
    assert hand_seed(sorted(cards), None) == live_seed(cards, None)
    assert hand_seed(sorted(cards), parse_card("Ks")) == live_seed(list(reversed(cards)), parse_card("Ks"))


def test_throwing_a_melded_card_for_more_deadwood_is_an_error(reviewed: object) -> None:
    first = reviewed.hands[0]  # type: ignore[attr-defined]
    assert first.kind == "knock" and first.deadwood == 10 and str(first.taken.discard) == "4c"
    assert first.best.discard == parse_card("Kh") and first.lost >= 5 and not first.close
    assert first.judgement in ("mistake", "blunder")
    assert first.words().startswith(f"hand 1: knocking with 10 gave away {first.lost:.0f} points of game chance; ")


def test_counts_and_a_missing_discard_are_said_not_skipped(reviewed: object) -> None:
    hands = reviewed.hands  # type: ignore[attr-defined]
    assert [hand.number for hand in hands] == [1, 2, 3]
    assert hands[1].reason == "the knocker's cards were not recorded, only the counts"
    assert "without the card discarded face down" in (hands[2].reason or "")


def test_going_gin_to_reach_the_target_is_never_an_error(run: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    _new(run, path)
    _record(run, path, "--knocker", "Ann", "--deadwood", "0", "--opponent-deadwood", "70")  # Ann 90: gin 70 + 20
    _record(run, path, "--knocker", "Ann", "--cards", GIN, "--discard", "2d", "--opponent-cards", OPPONENT_OF_GIN)
    table = table_of(str(path))
    sheet = table.sheet_at(str(path))
    hand = review(sheet, table.odds(sheet).model.outcomes).hands[1]
    assert hand.kind == "gin" and hand.scores == (90, 0)
    assert hand.taken.chance == pytest.approx(1.0) and hand.lost == 0 and hand.judgement == "none"


def test_each_players_sums_are_their_hands(reviewed: object) -> None:
    for player in reviewed.players:  # type: ignore[attr-defined]
        mine = [hand for hand in reviewed.hands if hand.knocker == player.player and hand.reviewed]  # type: ignore[attr-defined]
        assert player.hands == len(mine)
        assert player.total == pytest.approx(sum(hand.counted for hand in mine))
        assert sum(player.counts.values()) == len(mine)
        assert player.worst is (max(mine, key=lambda hand: hand.counted) if player.total else None)


chances = st.floats(0, 1)


@st.composite
def choices(draw: st.DrawFn) -> Choice:
    chance = draw(chances)
    spread = draw(st.none() | st.floats(0, 0.2))
    interval = None if spread is None else (max(0.0, chance - spread), min(1.0, chance + spread))
    return Choice(parse_card(draw(st.sampled_from(["Kh", "4c", "2d"]))), draw(st.booleans()), chance, interval, 100)


@settings(max_examples=60, deadline=None)
@given(choices(), st.lists(choices(), max_size=6))
def test_chance_lost_is_never_negative(taken: Choice, others: list[Choice]) -> None:
    best, lost, close = judge(taken, (taken, *others))
    assert lost >= 0 and best.chance >= taken.chance
    assert lost == pytest.approx((best.chance - taken.chance) * 100)
    assert judgement(lost) in KINDS and (lost > 0 or not close)


def test_the_thresholds() -> None:
    assert [judgement(lost) for lost in (0, 1.99, 2, 4.99, 5, 9.99, 10, 40)] == [
        "none", "none", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_counts_only_match_has_nothing_to_review(run: RunCli) -> None:
    result = run("review", "sample_matches/counts_only.toml")
    assert result.exit_code == 0 and result.stderr == ""
    assert "\nNothing to review: no knock has the knocker's eleven cards recorded. Next time record" in result.stdout
    assert "Hand 1, Lena: not reviewed: the knocker's cards were not recorded, only the counts." in result.stdout
    data = json_object(run("review", "sample_matches/counts_only.toml", "--json"))
    assert data["nothing"].startswith("nothing to review") and not any(h["reviewed"] for h in data["hands"])


def test_the_cli_text_json_and_player(run: RunCli, evening: Path) -> None:
    path = evening / "review.toml"
    result = run("review", path, "--player", "ann")
    assert result.exit_code == 0 and result.stderr == ""
    assert "Hand 1, Ann (0 to 0, did not deal): knocking with 10, " in result.stdout
    assert "Hand 2, Bob" not in result.stdout and "\nBob:" not in result.stdout
    assert "\nAnn: 1 hand reviewed, " in result.stdout
    data = json_object(run("review", path, "--json"))
    assert [hand["hand"] for hand in data["hands"]] == [1, 2, 3]
    first = data["hands"][0]
    assert first["taken"]["play"] == "knock" and first["taken"]["discard"] == "4c" and first["lost"] >= 5
    assert first["judgement"] in ("mistake", "blunder") and first["opponent_hands"] == 2000
    assert [p["player"] for p in data["players"]] == ["Ann", "Bob"]
    assert data["thresholds"] == {"blunder": 10.0, "mistake": 5.0, "inaccuracy": 2.0}


def test_the_cli_refuses_with_one_line(run: RunCli, evening: Path, tmp_path: Path) -> None:
    result = run("review", evening / "review.toml", "--player", "Cy")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --player: unknown player 'Cy': the players are Ann and Bob"
    result = run("review", tmp_path / "none.toml")
    assert result.exit_code == 1
    assert one_error_line(result).startswith("error: ")


def test_a_folder_sums_each_player_over_its_matches(run: RunCli, evening: Path) -> None:
    data = json_object(run("review", evening, "--json"))
    assert sorted(each["file"] for each in data["files"]) == ["fresh.toml", "review.toml"]
    ann = next(each for each in data["players"] if each["player"] == "Ann")
    mine = [hand for each in data["files"] for hand in each["hands"] if hand["knocker"] == "Ann" and hand["reviewed"]]
    assert ann["hands"] == len(mine) == 1
    assert ann["total_lost"] == pytest.approx(sum(0 if hand["close"] else hand["lost"] for hand in mine))
    assert ann["worst"]["file"] == "review.toml" and ann["worst"]["hand"] == 1
    result = run("review", evening, "--player", "ann")
    assert result.exit_code == 0 and result.stderr == ""
    assert "\nOver the 2 matches\nAnn: 1 hand reviewed, " in result.stdout
    assert "\n  worst: review.toml, hand 1: knocking with 10 gave away " in result.stdout
    result = run("review", evening, "--player", "Cy")
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: --player: nobody called 'Cy' plays in a match in {evening}"


def test_stats_gives_each_players_mean_chance_lost_as_the_folders_review(run: RunCli, tmp_path: Path) -> None:
    import shutil

    shutil.copy(Path(__file__).resolve().parent.parent / "sample_matches" / "oklahoma.toml", tmp_path / "oklahoma.toml")
    folder = json_object(run("review", tmp_path, "--json"))
    expected = [{"player": each["player"], "hands": each["hands"], "total_lost": each["total_lost"], "mean_lost": each["mean_lost"]}
                for each in folder["players"] if each["hands"]]
    assert expected and any(each["mean_lost"] > 0 for each in expected)
    first = run("stats", tmp_path, "--review", "--json")
    assert first.exit_code == 0 and first.stderr == ""
    assert json_object(first)["review"] == expected
    assert json_object(run("stats", tmp_path, "--review", "--json"))["review"] == expected  # from the cache
    assert "review" not in json_object(run("stats", tmp_path, "--json"))
    text = run("stats", tmp_path, "--review")
    assert text.exit_code == 0
    lines = text.stdout.splitlines()
    assert lines[lines.index("Mean chance lost a knock (`ginscore review`), close hands counting none:") + 1:] == [
        f"  {each['player']}: {each['mean_lost']:.1f} points over {each['hands']} knock{'s' if each['hands'] != 1 else ''}"
        for each in expected]


ON_TWO_CORES = """
import json, multiprocessing.pool, sys
import ginscore.cli.cores as cores
from ginscore.cli import app
cores.cores = lambda: 2  # two workers, whatever this machine lends
pools = []
made = multiprocessing.pool.Pool.__init__
def counted(self, *args, **kwargs):
    pools.append(1)
    made(self, *args, **kwargs)
multiprocessing.pool.Pool.__init__ = counted
try:
    app(["review", sys.argv[1], "--json"])
except SystemExit as stopped:
    print(json.dumps({"exit": stopped.code, "pools": len(pools)}), file=sys.stderr)
"""


def test_a_review_on_every_core_is_the_review_made_here_to_the_bit(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from ginscore.match.review_json import review_dict

    path = ROOT / "sample_matches" / "standard.toml"
    table = table_of(str(path))
    sheet = table.sheet_at(str(path))
    here = review_dict(review(sheet, table.odds(sheet).model.outcomes))
    # A process of its own: forking is safe only where no other thread runs, as in a command, not in a test worker.
    done = subprocess.run([sys.executable, "-c", ON_TWO_CORES, str(path)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"}, check=False)
    assert json.loads(done.stderr.splitlines()[-1]) == {"exit": 0, "pools": 1}, done.stderr
    assert json.loads(done.stdout) == here
