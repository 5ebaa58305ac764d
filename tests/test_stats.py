"""`ginscore.match.stats.collect` on hand-built sheets: every figure below is worked out by hand.

The card hands are the sample match's (`sample_matches/README.md`), whose results, counts and
lay-offs `tests/test_samples.py` checks from the cards; here Ann and Bob play them.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ginscore.game.rulebook import PRESETS, Rules
from ginscore.match.entry import HandEntry
from ginscore.match.records import Match
from ginscore.match.scored import make_record
from ginscore.match.stats import HeadToHead, PairStats, collect, contribution, player_record
from ginscore.match.tally import Sheet, add_hand, tally

STANDARD = PRESETS["standard"]

# Ann knocks, discards Ks, 2c left (2); Bob has 30 after laying off 6h: knock, Ann scores 28, 1 lay-off
KNOCK_1_LAYOFF = dict(cards="3h 4h 5h 9c 9d 9s Jd Qd Kd 2c Ks", discard="Ks", opponent_cards="7c 7d 7s 10h 10c 2d 3s 4c Ac 6h")
# Bob knocks with 4s (4); Ann lays off 4c and Jd and keeps Ah 2h (3): undercut, Ann scores 4-3+10 = 11, 2 lay-offs
UNDERCUT_2_LAYOFFS = dict(cards="5c 6c 7c Qh Qs Qc 8d 9d 10d 4s", opponent_cards="6s 7s 8s Kh Kd Kc Ah 2h Jd 4c")
# gin (discards Kd); the other holds 2s 3s 6d 7c = 18, no lay-offs on a gin: 20 + 18 = 38
GIN = dict(cards="9h 10h Jh Qh 4d 4s 4c Ac 2c 3c Kd", discard="Kd", opponent_cards="5h 6h 7h Jc Js Jd 2s 3s 6d 7c")
# knocker spreads with 5c (5); the other lays off 4d and keeps Kh Kd 7c (27): 27 - 5 = 22, 1 lay-off
SPREAD = "Ad 2d 3d | 8h 8c 8s | 10s Js Qs | 5c"
SPREAD_OPPONENT = "9d 9h 9s 3s 4s 5s Kh Kd 4d 7c"


def sheet_of(players: tuple[str, str], *hands: dict, rules: Rules = STANDARD, hollywood: bool = False) -> Sheet:
    """A match played hand by hand through the core, as `record` does."""
    match = Match(players, rules, players[0], hollywood=hollywood)
    sheet = tally(match)
    for hand in hands:
        match, sheet = add_hand(match, make_record(match, HandEntry(**hand)))
    return sheet


def counts(knocker: str, k: int, o: int) -> dict:
    return dict(knocker=knocker, deadwood=k, opponent_deadwood=o)


CANCELLED = dict(cancelled=True)


def game_a() -> Sheet:
    """Ann v Bob to 100: Ann 102, Bob 42."""
    return sheet_of(
        ("Ann", "Bob"),
        dict(knocker="Ann", **KNOCK_1_LAYOFF),  # 1: Ann 28 (cards), Bob left with 30, Bob laid off 1
        CANCELLED,  # 2
        dict(knocker="Bob", **UNDERCUT_2_LAYOFFS),  # 3: undercut, Ann 11 (cards), Bob (knocker) left with 4, Ann laid off 2
        counts("Bob", 5, 25),  # 4: Bob 20 (counts)
        counts("Ann", 0, 18),  # 5: gin by counts, Ann 20+18 = 38
        counts("Bob", 5, 27),  # 6: Bob 22 (counts)
        counts("Ann", 1, 26),  # 7: Ann 25: 28+11+38+25 = 102 reaches 100
    )


def game_b() -> Sheet:
    """Names in another case and order, target 40: bob 48, ANN shut out."""
    return sheet_of(
        ("bob", "ANN"),
        counts("ANN", 10, 10),  # 1: a tie is an undercut: bob 0+10 = 10; ANN knocked with 10
        dict(knocker="bob", **GIN),  # 2: gin with cards, bob 38 (48 >= 40); ANN left with 18, no lay-offs
        rules=replace(STANDARD, target=40),
    )


def game_c() -> Sheet:
    """Another pair, unfinished; an equal count scores nothing."""
    return sheet_of(
        ("Cy", "Dee"),
        counts("Cy", 5, 5),  # 1: tie, nobody scores; Cy knocked with 5
        counts("Dee", 3, 20),  # 2: Dee 17
        rules=replace(STANDARD, undercut_on_tie=False),
    )


def by_name(pair) -> dict[str, dict]:
    return {name.casefold(): figures for name, figures in pair.as_dict()["by_player"].items()}


def test_the_games_themselves_are_as_worked_out():
    a, b, c = game_a(), game_b(), game_c()
    # a: Ann won hands 1, 3, 5, 7 (4 boxes = 80), Bob 4, 6 (2 boxes = 40); Ann 102+100+80 = 282, Bob 42+40 = 82
    assert a.games[0].final == {"Ann": 282, "Bob": 82} and a.games[0].margin == 200
    assert [line.result for line in a.lines] == ["knock", "cancelled", "undercut", "knock", "gin", "knock", "knock"]
    # b: bob 48, ANN 0: shutout 200 flat; 2 boxes = 40: 288
    assert b.games[0].final == {"bob": 288, "ANN": 0} and b.games[0].margin == 288
    assert [line.result for line in c.lines] == ["tie", "knock"] and not c.finished


def test_head_to_head_figures_over_two_files_with_names_in_different_case():
    pairs = collect([game_a(), game_b(), game_c()])
    assert [tuple(name.casefold() for name in pair.players) for pair in pairs] == [("ann", "bob"), ("cy", "dee")]
    ann_bob = pairs[0]
    assert ann_bob.players == ("Ann", "Bob")  # spelt as in the first file read
    # 2 matches, both games finished, 7 + 2 hands (the cancelled one counts as a hand played)
    assert (ann_bob.matches, ann_bob.games, ann_bob.hands) == (2, 2, 9)
    figures = by_name(ann_bob)
    assert figures["ann"] == {
        "games_won": 1,
        "margin": 200 - 288,  # won a by 200, lost b by 288
        "hands_won": 4,  # a: 1, 3, 5, 7
        "gins": 1,  # a5
        "undercuts_given": 1,  # a3
        "undercuts_suffered": 1,  # b1
        "average_hand": 25.5,  # (28 + 11 + 38 + 25) / 4
        "biggest_hand": 38,
        "knocks": 4,  # a1, a5, a7, b1
        "knock_rate": 0.44,  # 4 / 9
        "average_knock_count": 3.25,  # (2 + 0 + 1 + 10) / 4
        "layoffs": 2,  # a3
        "average_deadwood_when_losing": 18.0,  # b2 only (a4, a6 are counts-only)
    }
    assert figures["bob"] == {
        "games_won": 1,
        "margin": 288 - 200,
        "hands_won": 4,  # a4, a6, b1, b2
        "gins": 1,  # b2
        "undercuts_given": 1,  # b1
        "undercuts_suffered": 1,  # a3
        "average_hand": 22.5,  # (20 + 22 + 10 + 38) / 4
        "biggest_hand": 38,
        "knocks": 4,  # a3, a4, a6, b2
        "knock_rate": 0.44,
        "average_knock_count": 3.5,  # (4 + 5 + 5 + 0) / 4
        "layoffs": 1,  # a1
        "average_deadwood_when_losing": 17.0,  # a1 30 and a3 4 (the knocker, undercut); a5, b1 are counts-only
    }


def test_another_pair_is_reported_separately_and_a_tie_is_nobodys_hand():
    pairs = collect([game_a(), game_c()])
    cy_dee = pairs[1]
    assert cy_dee.players == ("Cy", "Dee")
    assert (cy_dee.matches, cy_dee.games, cy_dee.hands) == (1, 0, 2)
    figures = by_name(cy_dee)
    assert figures["cy"] == {
        "games_won": 0, "margin": 0, "hands_won": 0, "gins": 0, "undercuts_given": 0, "undercuts_suffered": 0,
        "average_hand": None, "biggest_hand": None, "knocks": 1, "knock_rate": 0.5, "average_knock_count": 5.0,
        "layoffs": 0, "average_deadwood_when_losing": None,
    }
    assert figures["dee"]["hands_won"] == 1 and figures["dee"]["average_hand"] == 17.0
    assert figures["dee"]["knocks"] == 1 and figures["dee"]["average_knock_count"] == 3.0
    # and Cy/Dee figures do not leak into Ann/Bob's
    assert collect([game_a()])[0].as_dict() == pairs[0].as_dict()


def test_the_same_pair_is_one_pair_whatever_the_order_of_the_files_and_names():
    forward = collect([game_a(), game_b()])
    backward = collect([game_b(), game_a()])
    assert len(forward) == len(backward) == 1
    assert backward[0].players == ("ANN", "bob")  # sorted, spelt as in b, the first file read
    assert by_name(forward[0]) == by_name(backward[0])


def test_cards_only_figures_ignore_counts_and_a_mixed_hand():
    """A hand with the knocker's cards but the opponent's count says nothing about lay-offs."""
    sheet = sheet_of(
        ("Ann", "Bob"),
        dict(knocker="Ann", cards=SPREAD, opponent_deadwood=27),  # knocker's cards, opponent's count: Ann 22
        counts("Ann", 2, 40),  # Ann 38
    )
    figures = by_name(collect([sheet])[0])
    assert figures["bob"]["layoffs"] == 0 and figures["bob"]["average_deadwood_when_losing"] is None
    assert figures["ann"]["average_knock_count"] == 3.5  # 5 from the spread, 2 typed
    with_cards = sheet_of(("Ann", "Bob"), dict(knocker="Ann", cards=SPREAD, opponent_cards=SPREAD_OPPONENT))
    figures = by_name(collect([with_cards])[0])
    assert figures["bob"]["layoffs"] == 1 and figures["bob"]["average_deadwood_when_losing"] == 27.0


def test_hollywood_counts_each_column_as_a_game():
    rules = replace(STANDARD, target=50)
    # Ann 10 (g1), Ann 40 (g1, g2: g1 closes, Bob shut out), Bob 5 (g2), Ann 10 (g2, g3: g2 closes), Bob 5 (g3), Ann 40 (g3)
    sheet = sheet_of(
        ("Ann", "Bob"),
        counts("Ann", 1, 11), counts("Ann", 1, 41), counts("Bob", 1, 6),
        counts("Ann", 1, 11), counts("Bob", 1, 6), counts("Ann", 1, 41),
        rules=rules, hollywood=True,
    )
    assert sheet.finished
    pair = collect([sheet])[0]
    assert (pair.games, pair.hands) == (3, 6)
    figures = by_name(pair)
    assert figures["ann"]["games_won"] == 3 and figures["bob"]["games_won"] == 0
    # margins per column: 290 (shutout 200 + 2 boxes), 190 - 25 = 165, 165
    assert figures["ann"]["margin"] == 620 and figures["bob"]["margin"] == -620
    # a hand counts once however many columns it went into
    assert figures["ann"]["hands_won"] == 4 and figures["ann"]["average_hand"] == 25.0


def test_nothing_read_gives_no_pairs():
    assert collect([]) == []


@pytest.mark.parametrize("kind", ["gin", "undercut"])
def test_gins_and_undercuts_are_credited_to_the_right_side(kind):
    hand = counts("Bob", 0, 30) if kind == "gin" else counts("Bob", 9, 4)
    figures = by_name(collect([sheet_of(("Ann", "Bob"), hand)])[0])
    if kind == "gin":
        assert (figures["bob"]["gins"], figures["ann"]["gins"]) == (1, 0)
        assert figures["bob"]["biggest_hand"] == 50  # 20 + 30
    else:
        assert (figures["bob"]["undercuts_suffered"], figures["ann"]["undercuts_given"]) == (1, 1)
        assert (figures["ann"]["undercuts_suffered"], figures["bob"]["undercuts_given"]) == (0, 0)
        assert figures["ann"]["biggest_hand"] == 15 and figures["ann"]["hands_won"] == 1  # 9 - 4 + 10


def test_contributions_round_trip_as_plain_data_and_fold_like_collect():
    sheets = [game_a(), game_b(), game_c(), game_a()]
    records = [json.loads(json.dumps(contribution(sheet).as_record())) for sheet in sheets]
    head_to_head = HeadToHead()
    for record in records:
        head_to_head.add(PairStats.from_record(record))
    assert [pair.as_dict() for pair in head_to_head.pairs()] == [pair.as_dict() for pair in collect(sheets)]
    assert PairStats.from_record(records[0]) == contribution(sheets[0])
    # Ann's biggest hand is the largest of any match, not a sum
    ann = by_name(head_to_head.pairs()[0])["ann"]
    assert ann["biggest_hand"] == 38 and ann["hands_won"] == 8


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r.pop("games"),
        lambda r: r["by_player"].pop(r["players"][0]),
        lambda r: r["by_player"][r["players"][0]].pop("gins"),
        lambda r: r["by_player"][r["players"][0]].update(extra=1),
        lambda r: r.update(players=["Ann"]),
    ],
)
def test_a_record_of_another_shape_is_refused(damage):
    record = contribution(game_a()).as_record()
    damage(record)
    with pytest.raises((ValueError, KeyError, TypeError)):
        PairStats.from_record(record)


def test_head_to_head_keeps_each_matchs_margin_as_the_sheets_give_it():
    sheets = [game_a(), game_c(), game_b(), game_a()]
    head_to_head = HeadToHead()
    for sheet in sheets:
        head_to_head.add(contribution(sheet))
    expected: dict[tuple[str, str], list[int]] = {pair.players: [] for pair in head_to_head.pairs()}
    for sheet in sheets:  # naive: the first player's wins minus losses, game by game
        players = next(p for p in expected if sorted(n.casefold() for n in p) == sorted(n.casefold() for n in sheet.match.players))
        finished = [game for game in sheet.games if game.finished and game.winner is not None]
        expected[players].append(sum(g.margin if g.winner.casefold() == players[0].casefold() else -g.margin for g in finished))
    assert head_to_head.margins() == expected
    assert head_to_head.margins()[("Ann", "Bob")] == [200, -288, 200]  # Ann's net margin, match by match


@pytest.mark.parametrize("key, value, shown", [
    ("average_hand", 16.0, "16.0"),
    ("average_hand", 25.75, "25.8"),
    ("average_knock_count", 5.33, "5.3"),
    ("average_knock_count", 5, "5.0"),
    ("average_deadwood_when_losing", 18.25, "18.3"),  # half up, as a person rounds
    ("average_hand", None, "none"),
    ("biggest_hand", None, "none"),
    ("knock_rate", 0.5, "50%"),
    ("margin", 139, "+139"),
    ("margin", -139, "-139"),
    ("knocks", 0, "0"),
])
def test_each_figure_has_one_precision_and_nothing_is_none(key, value, shown):
    from ginscore.match.stats import stat_text

    assert stat_text(key, value) == shown


def test_a_players_record_sums_their_pairs_and_keeps_each_head_to_head():
    ann_cy = sheet_of(("Ann", "Cy"), counts("Ann", 0, 90))  # Ann gins: 20 + 90 = 110, shutout: one game, one hand
    pairs = collect([game_a(), game_b(), ann_cy])
    ann = player_record(pairs, "ANN")
    assert ann is not None
    assert ann.name == "Ann" and ann.games == 3 and ann.hands == 10  # 7 + 2 against Bob, 1 against Cy
    figures = ann.figures.as_dict(ann.hands)
    assert (figures["games_won"], figures["hands_won"], figures["gins"], figures["biggest_hand"]) == (2, 5, 2, 110)
    assert [pair.players for pair in ann.opponents] == [("Ann", "Bob"), ("Ann", "Cy")]
    assert ann.as_dict()["opponents"] == [pair.as_dict() for pair in ann.opponents]
    assert player_record(pairs, "Dee") is None
