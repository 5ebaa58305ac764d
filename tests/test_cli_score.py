"""`ginscore score`: the worked examples, given spreads, presets and knobs, Oklahoma, refusals and bad input."""

from __future__ import annotations

import re

import pytest
from conftest import json_object, one_error_line

SCORE_KEYS = {
    "result",
    "winner",
    "points",
    "knocker_deadwood",
    "opponent_deadwood",
    "knocker_melds",
    "opponent_melds",
    "layoffs",
    "discard",
    "knock_limit",
}

# The three worked examples of ../shared/rules/000_201ab7a16466a253.txt, hands rebuilt to fit the text.
KNOCK_K, KNOCK_O = "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"
UNDERCUT_K, UNDERCUT_O = "4h 4d 4c 6h 6d 6c 10s Js Qs 8h Kd", "9s 9d 9c Jh Qh Kh 4s 6s Ks Ad"
GIN_K, GIN_O = "5h 6h 7h Ks Kc Kd 2c 3c 4c 5c 2d", "9s 9d 9c 6d 7d 8d 8h Qs 4s As"
BIG_GIN_K, BIG_GIN_O = "7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks", "Qs Qd Qc 6d 7d 8d 8h Js 4s As"

EVERY_KNOB = [
    "knock_limit",
    "oklahoma",
    "oklahoma_ace",
    "spades_double",
    "gin_bonus",
    "big_gin_bonus",
    "undercut_bonus",
    "undercut_on_tie",
    "target",
    "game_bonus",
    "shutout",
    "shutout_bonus",
    "box_bonus",
    "gin_boxes",
    "undercut_boxes",
    "next_dealer",
]


def melds(groups: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(group) for group in groups}


def spread(text: str) -> set[frozenset[str]]:
    """`"5c 5d 5h | 7s 8s 9s"` as a set of melds."""
    return {frozenset(group.split()) for group in text.split("|")}


def score_json(run, knocker: str, opponent: str, *options: str) -> dict:
    result = run("score", "--knocker", knocker, "--opponent", opponent, *options, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    data = json_object(result)
    assert SCORE_KEYS <= data.keys(), f"missing keys: {SCORE_KEYS - data.keys()}"
    return data


def rows(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        match = re.match(r"(\S+)\s+(.*)$", line)
        if match and match[1] not in found:
            found[match[1]] = match[2]
    return found


# --- the worked examples -----------------------------------------------------------------------


def test_worked_example_knock_scores_22(run):
    data = score_json(run, KNOCK_K, KNOCK_O)
    assert (data["result"], data["winner"], data["points"]) == ("knock", "knocker", 22)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (2, 24)
    assert melds(data["knocker_melds"]) == spread("5c 5d 5h | 7s 8s 9s | 9c 10c Jc")
    assert melds(data["opponent_melds"]) == spread("Kd Kh Ks")
    assert sorted(data["layoffs"]) == ["6s", "Qc"]
    assert data["discard"] == "9h"
    assert data["knock_limit"] == 10


def test_worked_example_undercut_scores_17_to_the_opponent(run):
    data = score_json(run, UNDERCUT_K, UNDERCUT_O)
    assert (data["result"], data["winner"], data["points"]) == ("undercut", "opponent", 17)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (8, 1)
    assert melds(data["knocker_melds"]) == spread("4c 4d 4h | 6c 6d 6h | 10s Js Qs")
    assert melds(data["opponent_melds"]) == spread("9c 9d 9s | Jh Qh Kh")
    assert sorted(data["layoffs"]) == ["4s", "6s", "Ks"]
    assert data["discard"] == "Kd"
    assert data["knock_limit"] == 10


def test_worked_example_gin_scores_43_and_nothing_is_laid_off(run):
    data = score_json(run, GIN_K, GIN_O)
    assert (data["result"], data["winner"], data["points"]) == ("gin", "knocker", 43)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (0, 23)
    assert melds(data["knocker_melds"]) == spread("2c 3c 4c 5c | 5h 6h 7h | Kc Kd Ks")
    assert melds(data["opponent_melds"]) == spread("6d 7d 8d | 9c 9d 9s")
    assert data["layoffs"] == []  # the 8h would continue the heart run, but not against gin
    assert data["discard"] == "2d"
    assert data["knock_limit"] == 10


def test_human_output_shows_spreads_layoffs_counts_and_result(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O)
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = rows(result.stdout)
    for meld in ("5c 5d 5h", "7s 8s 9s", "9c 10c Jc"):
        assert meld in lines["knocker"]
    assert "9h" in lines["knocker"]  # the discard
    assert "Kd Kh Ks" in lines["opponent"]
    assert lines["lay-offs"].split() == ["6s", "Qc"]
    assert "2" in lines["counts"] and "24" in lines["counts"]
    assert lines["result"].startswith("knock") and "knocker" in lines["result"] and "22" in lines["result"]


def test_human_output_undercut_names_the_opponent(run):
    result = run("score", "--knocker", UNDERCUT_K, "--opponent", UNDERCUT_O)
    assert result.exit_code == 0
    assert result.stderr == ""
    line = rows(result.stdout)["result"]
    assert line.startswith("undercut") and "opponent" in line and "17" in line


def test_human_output_gin_has_no_layoffs(run):
    result = run("score", "--knocker", GIN_K, "--opponent", GIN_O)
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = rows(result.stdout)
    assert lines["lay-offs"] == "none"
    assert lines["result"].startswith("gin") and "43" in lines["result"]


def test_gin_is_never_undercut(run):
    data = score_json(run, "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c", "2s 3s 4s 5d 6d 7d 8d Qh Qc Qs")
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (0, 0)
    assert (data["result"], data["winner"], data["points"]) == ("gin", "knocker", 20)


# --- the knocker's spread: given, discarded, or the best legal one -----------------------------


def test_spread_given_with_groups_and_discard(run):
    data = score_json(run, "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 2d 9h", KNOCK_O, "--discard", "9h")
    assert (data["result"], data["points"], data["discard"]) == ("knock", 22, "9h")
    assert melds(data["knocker_melds"]) == spread("7s 8s 9s | 9c 10c Jc | 5c 5d 5h")
    assert data["knocker_deadwood"] == 2


def test_spread_of_ten_given_with_groups(run):
    data = score_json(run, "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 2d", KNOCK_O)
    assert (data["result"], data["points"], data["discard"]) == ("knock", 22, None)


def test_given_gin_spread_allows_no_layoffs(run):
    data = score_json(run, "2c 3c 4c 5c | 5h 6h 7h | Kc Kd Ks | 2d", GIN_O, "--discard", "2d")
    assert (data["result"], data["points"], data["layoffs"]) == ("gin", 43, [])


# The lowest count (2: A-2-3c, A-2-3h and the sixes, 2s dead) lets the opponent lay off 4c, 4h and 5h and undercut
# for 11. Spreading only A-2-3c and the sixes (8 dead) lets off just the 4c: the knocker wins 10 - 8 = 2.
BEST_K, BEST_O = "Ac 6c 6h 3c 2s 6d 3h 2c Ah 2h", "2d 5s As 5h 3d 4c 3s 4d 4s 4h"


def test_given_spread_is_used_as_is_even_when_another_is_better(run):
    data = score_json(run, "Ac 2c 3c | Ah 2h 3h | 6c 6h 6d | 2s", BEST_O)
    assert (data["result"], data["winner"], data["points"]) == ("undercut", "opponent", 11)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (2, 1)
    assert sorted(data["layoffs"]) == ["4c", "4h", "5h"]


def test_cards_only_score_the_best_legal_spread_not_the_lowest_count(run):
    data = score_json(run, BEST_K, BEST_O)
    assert (data["result"], data["winner"], data["points"]) == ("knock", "knocker", 2)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (8, 10)
    assert melds(data["knocker_melds"]) == spread("Ac 2c 3c | 6c 6d 6h")
    assert data["layoffs"] == ["4c"]


def test_human_output_says_when_the_best_spread_is_not_the_lowest_count(run):
    result = run("score", "--knocker", BEST_K, "--opponent", BEST_O)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert rows(result.stdout)["result"].startswith("knock")
    assert "not the lowest count" in result.stdout
    assert "undercut: opponent scores 11" in result.stdout  # the lowest-count spread's result, to compare


def test_human_output_is_silent_when_the_lowest_count_is_best(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "lowest" not in result.stdout


def test_discard_chosen_by_the_player_is_respected(run):
    data = score_json(run, KNOCK_K, KNOCK_O, "--discard", "2d")
    assert (data["discard"], data["knocker_deadwood"], data["opponent_deadwood"]) == ("2d", 9, 24)
    assert (data["result"], data["points"]) == ("knock", 15)


def test_eleven_melding_cards_are_gin_with_a_discard_under_standard(run):
    data = score_json(run, BIG_GIN_K, BIG_GIN_O)
    assert (data["result"], data["points"], data["opponent_deadwood"]) == ("gin", 43, 23)
    assert data["discard"] in ("7s", "10s", "Kc", "Kd", "Kh", "Ks")


def test_big_gin_under_tournament(run):
    data = score_json(run, BIG_GIN_K, BIG_GIN_O, "--rules", "tournament")
    assert (data["result"], data["winner"], data["points"]) == ("big_gin", "knocker", 31 + 23)
    assert data["discard"] is None
    assert data["layoffs"] == []
    assert sum(len(group) for group in data["knocker_melds"]) == 11


# --- presets and knobs -------------------------------------------------------------------------


def test_tournament_preset(run):
    assert score_json(run, GIN_K, GIN_O, "--rules", "tournament")["points"] == 25 + 23
    undercut = score_json(run, UNDERCUT_K, UNDERCUT_O, "--rules", "tournament")
    assert (undercut["result"], undercut["points"]) == ("undercut", 8 - 1 + 25)
    assert score_json(run, KNOCK_K, KNOCK_O, "--rules", "tournament")["points"] == 22


def test_set_gin_bonus(run):
    assert score_json(run, GIN_K, GIN_O, "--set", "gin_bonus=25")["points"] == 48


def test_the_002_variant_by_two_settings(run):
    options = ("--rules", "standard", "--set", "gin_bonus=25", "--set", "undercut_bonus=20")
    assert score_json(run, GIN_K, GIN_O, *options)["points"] == 48
    assert score_json(run, UNDERCUT_K, UNDERCUT_O, *options)["points"] == 8 - 1 + 20


TIE_K, TIE_O = "3h 4h 5h Kc Kd Ks 7c 8c 9c 5d", "As 2s 3s 10d Jd Qd 8h 8s 8d 5c"  # 5 against 5


def test_equal_counts_are_an_undercut_by_default(run):
    data = score_json(run, TIE_K, TIE_O)
    assert (data["result"], data["winner"], data["points"]) == ("undercut", "opponent", 10)
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (5, 5)


def test_equal_counts_tie_when_undercut_on_tie_is_off(run):
    data = score_json(run, TIE_K, TIE_O, "--set", "undercut_on_tie=false")
    assert (data["result"], data["winner"], data["points"]) == ("tie", None, 0)


def test_straight_gin_by_knock_limit_zero(run):
    data = score_json(run, GIN_K, GIN_O, "--set", "knock_limit=0")
    assert (data["result"], data["knock_limit"]) == ("gin", 0)


# --- Oklahoma ----------------------------------------------------------------------------------


def test_oklahoma_spade_upcard_sets_the_limit_and_doubles(run):
    data = score_json(run, KNOCK_K, KNOCK_O, "--rules", "oklahoma", "--upcard", "5s")
    assert data["knock_limit"] == 5
    assert (data["result"], data["winner"], data["points"]) == ("knock", "knocker", 2 * 22)


def test_oklahoma_other_suit_does_not_double(run):
    data = score_json(run, KNOCK_K, KNOCK_O, "--rules", "oklahoma", "--upcard", "5h")
    assert (data["knock_limit"], data["points"]) == (5, 22)


def test_oklahoma_gin_with_spade_upcard_doubles_gin(run):
    data = score_json(run, GIN_K, GIN_O, "--rules", "oklahoma", "--upcard", "9s")
    assert (data["result"], data["knock_limit"], data["points"]) == ("gin", 9, 2 * (25 + 23))


def test_oklahoma_human_output_says_doubled(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--rules", "oklahoma", "--upcard", "5s")
    assert result.exit_code == 0
    assert result.stderr == ""
    line = rows(result.stdout)["result"]
    assert "44" in line and "doubled" in line
    assert "limit 5" in rows(result.stdout)["counts"]


def test_oklahoma_without_upcard_is_refused_as_input(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--rules", "oklahoma")
    assert result.exit_code == 2
    assert "--upcard" in one_error_line(result)


def test_upcard_turns_on_the_up_card_limit_under_the_rules_chosen(run):
    """Issue 9: `--upcard` works without `--rules oklahoma`; the standard rules keep their bonuses, and a spade
    doubles nothing, since only the Oklahoma preset doubles spades."""
    data = score_json(run, KNOCK_K, KNOCK_O, "--upcard", "5s")
    assert (data["knock_limit"], data["multiplier"], data["points"]) == (5, 1, 22)
    over = run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--upcard", "As")
    assert over.exit_code == 1
    assert "only gin may go down" in one_error_line(over)  # a limit of 0 said as what it means


def test_rules_oklahoma_brings_the_rest_of_the_preset(run):
    plain = score_json(run, GIN_K, GIN_O, "--upcard", "9s")
    oklahoma = score_json(run, GIN_K, GIN_O, "--rules", "oklahoma", "--upcard", "9s")
    assert (plain["result"], plain["points"]) == ("gin", 20 + 23)
    assert (oklahoma["result"], oklahoma["points"]) == ("gin", 2 * (25 + 23))


def test_knock_limit_is_short_for_set_knock_limit(run):
    by_option = run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--knock-limit", "1")
    by_set = run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--set", "knock_limit=1")
    assert by_option.exit_code == by_set.exit_code == 1
    assert one_error_line(by_option) == one_error_line(by_set)
    assert "limit of 1" in one_error_line(by_option)


def test_knock_limit_with_an_upcard_is_refused(run):
    result = run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--knock-limit", "3", "--upcard", "5h")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line == "error: --knock-limit: give a knock limit or the up-card, not both: the up-card sets the knock limit"


def test_cards_and_opponent_cards_name_the_hands_as_record_does(run):
    new = run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--json")
    old = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--json")
    mixed = run("score", "--knocker", KNOCK_K, "--opponent-cards", KNOCK_O, "--json")
    assert json_object(new) == json_object(old) == json_object(mixed)
    assert json_object(new)["points"] == 22


@pytest.mark.parametrize("cards", ["--cards", "--knocker"])
def test_missing_opponent_cards_is_one_usage_line_naming_todays_option(run, cards):
    result = run("score", cards, KNOCK_K)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: missing --opponent-cards (the opponent's 10 cards)\n"
        "try 'ginscore score --help'\n"
    )


def test_oklahoma_ace_upcard_is_gin_only(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--rules", "oklahoma", "--upcard", "As")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "2" in line and "only gin may go down" in line
    gin = score_json(run, GIN_K, GIN_O, "--rules", "oklahoma", "--upcard", "Ah")
    assert (gin["result"], gin["knock_limit"], gin["points"]) == ("gin", 0, 25 + 23)


# --- refusals: exit 1, one line -----------------------------------------------------------------


def test_knock_over_the_limit_is_refused(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--set", "knock_limit=1")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert re.search(r"\b2 deadwood\b", line), line
    assert re.search(r"\blimit of 1\b", line), line
    assert "face up" in line


def test_given_spread_over_the_limit_is_refused(run):
    result = run("score", "--knocker", "7s 8s 9s | 9c 10c Jc | 5h 5d | 2d Qh", "--opponent", KNOCK_O)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert re.search(r"\b22 deadwood\b", line) and re.search(r"\blimit of 10\b", line), line
    assert "face up" in line


def test_card_in_both_hands_is_refused(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9h")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "9h" in line and "both" in line


def test_group_that_is_not_a_meld_is_refused(run):
    result = run("score", "--knocker", "7s 8s 9s | 9c 10c Jc | 5h 5d 2c | 2d", "--opponent", KNOCK_O)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "5h 5d 2c" in line and "not a meld" in line


def test_discard_not_in_the_hand_is_refused(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--discard", "3d")
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "3d" in line and "not in" in line


def test_discard_inside_a_meld_group_is_refused(run):
    result = run("score", "--knocker", "7s 8s 9s | 9c 10c Jc | 5h 5d 5c 9h | 2d", "--opponent", KNOCK_O, "--discard", "9h")
    assert result.exit_code == 1
    assert "9h" in one_error_line(result)


# --- bad input: exit 2, one line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "quoted"),
    [
        (["--knocker", "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9x", "--opponent", KNOCK_O], "'9x'"),
        (["--knocker", KNOCK_K, "--opponent", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 1d"], "'1d'"),
        (["--knocker", KNOCK_K, "--opponent", KNOCK_O, "--discard", "9z"], "'9z'"),
        (["--knocker", KNOCK_K, "--opponent", KNOCK_O, "--rules", "oklahoma", "--upcard", "11s"], "'11s'"),
        (["--knocker", "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 2x", "--opponent", KNOCK_O], "'2x'"),
        (["--knocker", KNOCK_K, "--opponent", "Kh Kd Ks 6s Qc 8d 4c 2h Ac Ac"], "'Ac'"),
    ],
    ids=["knocker", "opponent", "discard", "upcard", "spread", "duplicate"],
)
def test_bad_notation_keeps_exit_2(run, options, quoted):
    result = run("score", *options)
    assert result.exit_code == 2
    assert quoted in one_error_line(result)


@pytest.mark.parametrize(
    ("knocker", "opponent", "count"),
    [
        (KNOCK_K, "Kh Kd Ks 6s Qc 8d 4c 2h Ac", "9"),
        (KNOCK_K + " Ah", KNOCK_O, "12"),
        ("7s 8s 9s", KNOCK_O, "3"),
    ],
    ids=["opponent-9", "knocker-12", "knocker-3"],
)
def test_wrong_number_of_cards_is_exit_2(run, knocker, opponent, count):
    result = run("score", "--knocker", knocker, "--opponent", opponent)
    assert result.exit_code == 2
    assert f"{count} were given" in one_error_line(result)


def test_eleven_cards_spread_without_discard_is_exit_2(run):
    result = run("score", "--knocker", "7s 8s 9s | 9c 10c Jc | 5h 5d 5c | 2d 9h", "--opponent", KNOCK_O)
    assert result.exit_code == 2
    assert "--discard" in one_error_line(result)


def test_unknown_preset_lists_the_presets(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--rules", "nosuch")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'nosuch'" in line
    for name in ("standard", "tournament", "oklahoma"):
        assert name in line


def test_unknown_knob_lists_every_knob(run):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--set", "gin_bonuss=25")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "'gin_bonuss'" in line
    for knob in EVERY_KNOB:
        assert knob in line


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("gin_bonus=abc", ["gin_bonus", "'abc'", "whole number"]),
        ("knock_limit=11", ["knock_limit", "11", "0", "10"]),
        ("shutout=triple", ["shutout", "'triple'", "flat", "double", "none"]),
        ("undercut_on_tie=maybe", ["undercut_on_tie", "'maybe'", "true", "false"]),
        ("next_dealer=loser", ["next_dealer", "winner", "alternate"]),
        ("gin_bonus", ["'gin_bonus'", "an equals sign and its value, e.g. gin_bonus=25"]),
    ],
)
def test_bad_knob_values_are_exit_2_and_say_what_is_allowed(run, setting, expected):
    result = run("score", "--knocker", KNOCK_K, "--opponent", KNOCK_O, "--set", setting)
    assert result.exit_code == 2
    line = one_error_line(result)
    for part in expected:
        assert part in line, line


def test_layoffs_chain_onto_a_run_and_the_fourth_card_onto_a_set(run):
    data = score_json(run, "5h 6h 7h Kc Kd Ks 2c 3c 4c Ad", "8h 9h Kh 10d Jd Qd 7s 7c 7d 2s")
    assert sorted(data["layoffs"]) == ["8h", "9h", "Kh"]  # 8h then 9h onto 5-6-7h, Kh onto the kings
    assert melds(data["opponent_melds"]) == spread("7c 7d 7s | 10d Jd Qd")
    assert (data["knocker_deadwood"], data["opponent_deadwood"]) == (1, 2)
    assert (data["result"], data["winner"], data["points"]) == ("knock", "knocker", 1)
