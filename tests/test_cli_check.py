"""`ginscore check`: hands as arguments or lines of stdin, human and JSON output, the knock limit, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import json_object, one_error_line

KNOCK = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"  # the example: three melds and the 2d, deadwood 2
CHECK_KEYS = {"cards", "deadwood", "melds", "deadwood_cards", "discards", "knock_limit", "can_knock", "gin", "big_gin"}


def melds_of(data: dict) -> set[frozenset[str]]:
    """The melds of a JSON answer, with the order of melds and of cards left out."""
    return {frozenset(meld) for meld in data["melds"]}


def check_json(run, *args: str) -> dict:
    result = run("check", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    data = json_object(result)
    assert CHECK_KEYS <= data.keys(), f"missing keys: {CHECK_KEYS - data.keys()}"
    return data


def assert_consistent(data: dict) -> None:
    """Melds and deadwood cards partition the hand (less one discard for 11 cards), and add up."""
    shown = [card for meld in data["melds"] for card in meld] + data["deadwood_cards"]
    assert len(shown) == len(set(shown))
    cards = set(data["cards"])
    if len(cards) == 11 and not data["big_gin"]:
        left_out = cards - set(shown)
        assert len(left_out) == 1 and left_out <= set(data["discards"])
    else:
        assert set(shown) == cards


# --- the same hand, typed every way ------------------------------------------------------------


def test_separate_arguments_and_one_comma_string_give_the_same_json(run):
    separate = run("check", *KNOCK.split(), "--json")
    quoted = run("check", "3h,4h,5h,ks,kc,kd,7c,8c,9c,2d", "--json")
    assert separate.exit_code == 0 and quoted.exit_code == 0
    assert separate.stderr == "" and quoted.stderr == ""
    assert json.loads(separate.stdout) == json.loads(quoted.stdout)
    assert json.loads(separate.stdout)["cards"] == KNOCK.split()
    assert json.loads(quoted.stdout)["cards"] == ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d"]


def test_commas_and_spaces_mix_across_arguments(run):
    mixed = check_json(run, "3h, 4h 5h,", "KS KC", "KD,7c", "8c", "9c ,2d")
    assert mixed == check_json(run, *KNOCK.split())


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param("3♥ 4♥ 5♥ K♠ K♣ K♦ 7♣ 8♣ 9♣ 2♦", id="suit-symbols"),
        pytest.param("3♡ 4♡ 5♡ K♤ K♧ K♢ 7♧ 8♧ 9♧ 2♢", id="outlined-symbols"),
        pytest.param("3♥\ufe0f 4♥\ufe0f 5♥\ufe0f K♠\ufe0f K♣\ufe0f K♦\ufe0f 7♣\ufe0f 8♣\ufe0f 9♣\ufe0f 2♦\ufe0f", id="fe0f"),
        pytest.param("3♥\ufe0e 4h 5♡ k♠\ufe0f kc K♢ 7C 8♣ 9c 2D", id="fe0e-and-mixed"),
    ],
)
def test_suit_symbols_read_like_letters(run, typed):
    assert check_json(run, *typed.split()) == check_json(run, *KNOCK.split())


def test_ten_as_t_or_10(run):
    assert check_json(run, "Ts Js Qs 2h 2d 2c 5c 6c 7c 9d") == check_json(run, "10s Js Qs 2h 2d 2c 5c 6c 7c 9d")
    assert check_json(run, "tS Js Qs 2h 2d 2c 5c 6c 7c 9d")["cards"][0] == "10s"


# --- hand-checked answers ----------------------------------------------------------------------


def test_json_knock(run):
    data = check_json(run, *KNOCK.split())
    assert data["cards"] == ["3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "9c", "2d"]
    assert data["deadwood"] == 2
    assert melds_of(data) == {frozenset({"3h", "4h", "5h"}), frozenset({"7c", "8c", "9c"}), frozenset({"Kc", "Kd", "Ks"})}
    assert data["deadwood_cards"] == ["2d"]
    assert data["discards"] == []
    assert data["knock_limit"] == 10
    assert data["can_knock"] is True
    assert data["gin"] is False
    assert data["big_gin"] is False
    assert_consistent(data)


def test_json_knock_at_exactly_ten(run):
    data = check_json(run, "3h 4h 5h Kc Kd Ks 7c 8c 9c 10d")
    assert (data["deadwood"], data["can_knock"], data["gin"]) == (10, True, False)
    assert data["deadwood_cards"] == ["10d"]


def test_json_cannot_knock_at_eleven(run):
    data = check_json(run, "3h 4h 5h 6h Kc Kd Ks Kh 5d 6s")
    assert data["deadwood"] == 11
    assert melds_of(data) == {frozenset({"3h", "4h", "5h", "6h"}), frozenset({"Kc", "Kd", "Kh", "Ks"})}
    assert sorted(data["deadwood_cards"]) == ["5d", "6s"]
    assert (data["can_knock"], data["gin"], data["big_gin"]) == (False, False, False)
    assert_consistent(data)


def test_json_cannot_knock(run):
    data = check_json(run, "3h 4h 5h 6h Kc Kd Qs 7c 8c 9c")
    assert data["deadwood"] == 30
    assert melds_of(data) == {frozenset({"3h", "4h", "5h", "6h"}), frozenset({"7c", "8c", "9c"})}
    assert sorted(data["deadwood_cards"]) == ["Kc", "Kd", "Qs"]
    assert data["discards"] == []
    assert (data["knock_limit"], data["can_knock"], data["gin"], data["big_gin"]) == (10, False, False, False)


def test_json_gin(run):
    data = check_json(run, "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c")
    assert data["deadwood"] == 0
    assert melds_of(data) == {frozenset({"3h", "4h", "5h", "6h"}), frozenset({"7c", "8c", "9c"}), frozenset({"Kc", "Kd", "Ks"})}
    assert data["deadwood_cards"] == []
    assert (data["can_knock"], data["gin"], data["big_gin"]) == (True, True, False)
    assert_consistent(data)


def test_json_big_gin(run):
    data = check_json(run, "7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks", "--rules", "tournament")  # rules that pay big gin
    assert data["deadwood"] == 0
    assert melds_of(data) == {
        frozenset({"7s", "8s", "9s", "10s"}),
        frozenset({"2h", "3h", "4h"}),
        frozenset({"Kc", "Kd", "Kh", "Ks"}),
    }
    assert data["deadwood_cards"] == []
    # Any end of the long run or any king can go and leave gin; never a card from the middle of a run.
    assert sorted(data["discards"]) == sorted(["7s", "10s", "Kc", "Kd", "Kh", "Ks"])
    assert (data["can_knock"], data["gin"], data["big_gin"]) == (True, True, True)
    assert_consistent(data)


def test_json_eleven_cards_with_two_equal_discards(run):
    data = check_json(run, *KNOCK.split(), "2s")
    assert data["deadwood"] == 2
    assert sorted(data["discards"]) == ["2d", "2s"]
    assert melds_of(data) == {frozenset({"3h", "4h", "5h"}), frozenset({"7c", "8c", "9c"}), frozenset({"Kc", "Kd", "Ks"})}
    assert len(data["deadwood_cards"]) == 1 and data["deadwood_cards"][0] in ("2d", "2s")
    assert (data["can_knock"], data["gin"], data["big_gin"]) == (True, False, False)
    assert_consistent(data)


def test_json_eleven_cards_the_openspiel_shortcut_hand_is_gin(run):
    data = check_json(run, "4d 3c 4c 2d As 4h Ah Ac Ad 2c 3d")
    assert data["discards"] == ["4h"]
    assert data["deadwood"] == 0
    assert (data["gin"], data["big_gin"]) == (True, False)
    assert_consistent(data)


def test_json_eleven_cards_worked_example_discards_the_nine_of_hearts(run):
    data = check_json(run, "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h")
    assert data["discards"] == ["9h"]
    assert data["deadwood"] == 2 and data["deadwood_cards"] == ["2d"]
    assert_consistent(data)


# --- human output ------------------------------------------------------------------------------


def rows(text: str) -> dict[str, str]:
    """`label  value` lines as a dict."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"(\S+)\s+(.*)$", line)
        if match:
            found[match[1]] = match[2]
    return found


def test_human_output_lists_melds_deadwood_and_verdict(run):
    result = run("check", *KNOCK.split())
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = rows(result.stdout)
    for meld in ("3h 4h 5h", "7c 8c 9c", "Kc Kd Ks"):
        assert meld in lines["melds"]
    assert "2d" in lines["melds"]
    assert lines["deadwood"] == "2"
    assert "can knock" in lines["verdict"] and "cannot" not in lines["verdict"]
    assert "\x1b[" not in result.stdout  # NO_COLOR and not a terminal: plain text


@pytest.mark.parametrize(
    ("hand", "verdict"),
    [
        ("3h 4h 5h 6h Kc Kd Qs 7c 8c 9c", "cannot knock"),
        ("3h 4h 5h 6h Kc Kd Ks 7c 8c 9c", "gin"),
        ("7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks", "big gin"),
    ],
)
def test_human_verdicts(run, hand, verdict):
    result = run("check", *hand.split(), "--rules", "tournament")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert rows(result.stdout)["verdict"].startswith(verdict)


def test_human_output_names_every_best_discard(run):
    result = run("check", *KNOCK.split(), "2s")
    assert result.exit_code == 0
    assert result.stderr == ""
    discard_line = rows(result.stdout)["discard"]
    assert "2d" in discard_line and "2s" in discard_line
    assert rows(result.stdout)["deadwood"] == "2"


def test_human_output_for_ten_cards_has_no_discard_line(run):
    result = run("check", *KNOCK.split())
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "discard" not in rows(result.stdout)


# --- the knock limit ---------------------------------------------------------------------------


def test_knock_limit_zero_is_gin_only(run):
    data = check_json(run, *KNOCK.split(), "--knock-limit", "0")
    assert (data["knock_limit"], data["deadwood"], data["can_knock"], data["gin"]) == (0, 2, False, False)
    gin = check_json(run, "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c", "--knock-limit", "0")
    assert (gin["knock_limit"], gin["can_knock"], gin["gin"]) == (0, True, True)
    human = run("check", *KNOCK.split(), "--knock-limit", "0")
    assert human.exit_code == 0
    assert human.stderr == ""
    assert rows(human.stdout)["verdict"].startswith("cannot knock")


def test_upcard_value_is_the_limit(run):
    eight = "3h 4h 5h Kc Kd Ks 7c 8c 9c 8d"  # deadwood 8
    under_seven = check_json(run, *eight.split(), "--upcard", "7h")
    assert (under_seven["knock_limit"], under_seven["deadwood"], under_seven["can_knock"]) == (7, 8, False)
    under_eight = check_json(run, *eight.split(), "--upcard", "8s")
    assert (under_eight["knock_limit"], under_eight["can_knock"]) == (8, True)
    assert check_json(run, *KNOCK.split(), "--upcard", "7h")["can_knock"] is True


@pytest.mark.parametrize(("upcard", "limit"), [("Kd", 10), ("Q♥", 10), ("10c", 10), ("2s", 2)])
def test_upcard_face_cards_count_ten(run, upcard, limit):
    assert check_json(run, *KNOCK.split(), "--upcard", upcard)["knock_limit"] == limit


def test_ace_upcard_means_gin_only(run):
    data = check_json(run, *KNOCK.split(), "--upcard", "As")
    assert (data["knock_limit"], data["can_knock"], data["gin"]) == (0, False, False)
    gin = check_json(run, "3h 4h 5h 6h Kc Kd Ks 7c 8c 9c", "--upcard", "As")
    assert (gin["knock_limit"], gin["can_knock"], gin["gin"]) == (0, True, True)
    human = run("check", *KNOCK.split(), "--upcard", "As")
    assert human.exit_code == 0
    assert human.stderr == ""
    assert "gin only" in rows(human.stdout)["verdict"]


def test_knock_limit_with_upcard_is_refused(run):
    result = run("check", *KNOCK.split(), "--knock-limit", "3", "--upcard", "7h")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line == "error: --knock-limit: give a knock limit or the up-card, not both: the up-card sets the knock limit"


@pytest.mark.parametrize("limit", ["11", "-1"])
def test_knock_limit_out_of_range(run, limit):
    result = run("check", *KNOCK.split(), "--knock-limit", limit)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert limit in line and "0" in line and "10" in line


def test_bad_upcard_is_bad_notation(run):
    result = run("check", *KNOCK.split(), "--upcard", "7x")
    assert result.exit_code == 2
    assert "'7x'" in one_error_line(result)


# --- bad input ---------------------------------------------------------------------------------

NINE = "2h 3h 4h 5h 6h 7h 8h 9h 10h".split()

BAD_HANDS = [
    pytest.param(["1h", *NINE], ["'1h'", "rank"], id="rank-1"),
    pytest.param([*NINE, "4x"], ["'4x'", "suit", "c, d, h, s"], id="suit-x"),
    pytest.param(["11s", *NINE], ["'11s'", "rank"], id="rank-11"),
    pytest.param(["3h,4h,5h,ks,kc,kd,7c,8c,9c,2q"], ["'2q'"], id="bad-token-in-comma-string"),
    pytest.param(["As", *NINE[:8], "2h"], ["'2h'", "twice"], id="duplicate"),
    pytest.param(["2♥", *NINE], ["'2h'", "twice"], id="duplicate-across-notations"),
    pytest.param(NINE, ["10 or 11", "9"], id="nine-cards"),
    pytest.param([*NINE, "Jh", "Qh", "Kh"], ["10 or 11", "12"], id="twelve-cards"),
    pytest.param([""], ["no cards"], id="empty-string"),
    pytest.param([" , ,"], ["no cards"], id="only-separators"),
]


@pytest.mark.parametrize(("cards", "expected"), BAD_HANDS)
def test_bad_hand_is_one_line_and_exit_2(run, cards, expected):
    result = run("check", *cards)
    assert result.exit_code == 2
    line = one_error_line(result)
    for part in expected:
        assert part in line, line
    assert "Traceback" not in result.stdout


@pytest.mark.parametrize(("cards", "expected"), BAD_HANDS)
def test_bad_hand_with_json_still_prints_no_json(run, cards, expected):
    result = run("check", *cards, "--json")
    assert result.exit_code == 2
    line = one_error_line(result)
    for part in expected:
        assert part in line, line


def test_check_with_no_arguments_is_the_missing_argument_error(run):
    """A bare `ginscore check` is a usage error like any other: one line and the hint, not the whole help."""
    result = run("check")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: missing CARDS... (10 or 11 cards, e.g. 3h 4h 5h KS KC KD 7c 8c 9c 2d; '-' reads one hand a line from stdin)\n"
        "try 'ginscore check --help'\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "1h", *NINE],
        ["check", "4x", *NINE[:9]],
        ["check", *NINE],
    ],
    ids=["rank", "suit", "count"],
)
def test_bad_input_in_a_real_process_has_no_traceback(argv):
    done = subprocess.run(
        [sys.executable, "-m", "ginscore", *argv],
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "PATH": "", "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


# --- several hands on stdin --------------------------------------------------------------------

ELEVEN = "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h"


def test_stdin_all_good_is_json_lines_and_exit_0(run):
    result = run(["check", "-", "--json"], input=f"{KNOCK}\n{ELEVEN}\n3h 4h 5h 6h Kc Kd Ks 7c 8c 9c\n")
    assert result.exit_code == 0
    assert result.stderr == ""
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 3
    assert [o["deadwood"] for o in objects] == [2, 2, 0]
    assert [o["discards"] for o in objects] == [[], ["9h"], []]
    assert objects[2]["gin"] is True
    assert objects[0] == check_json(run, *KNOCK.split())


def test_stdin_bad_line_reports_its_number_and_the_rest_are_checked(run):
    lines = [KNOCK, "2h 3h 4x 5h 6h 7h 8h 9h 10h Jh", "", "# a comment", "3h 4h 5h", ELEVEN]
    result = run(["check", "-", "--json"], input="\n".join(lines) + "\n")
    assert result.exit_code == 2
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["cards"][0] for o in objects] == ["3h", "7s"]
    errors = result.stderr.splitlines()
    assert len(errors) == 2, result.stderr
    assert "line 2" in errors[0] and "'4x'" in errors[0]
    assert "line 5" in errors[1] and "3" in errors[1]
    assert "Traceback" not in result.stderr


def test_stdin_bad_first_and_last_lines(run):
    result = run(["check", "-", "--json"], input=f"1h\n{KNOCK}\n{KNOCK} 2d\n")
    assert result.exit_code == 2
    assert [json.loads(line)["deadwood"] for line in result.stdout.splitlines()] == [2]
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert "line 1" in errors[0] and "'1h'" in errors[0]
    assert "line 3" in errors[1] and "twice" in errors[1]


def test_stdin_human_output(run):
    result = run(["check", "-"], input=f"{KNOCK}\n1h\n{ELEVEN}\n")
    assert result.exit_code == 2
    assert result.stdout.count("verdict") == 2
    assert "discard" in result.stdout
    assert len(result.stderr.splitlines()) == 1 and "line 2" in result.stderr


def test_stdin_uses_the_knock_limit(run):
    result = run(["check", "-", "--json", "--upcard", "As"], input=f"{KNOCK}\n")
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert (data["knock_limit"], data["can_knock"]) == (0, False)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_check_on_a_terminal_without_unicode_prints_no_traceback(encoding):
    done = subprocess.run(
        [sys.executable, "-m", "ginscore", "check", *KNOCK.split()],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env={"NO_COLOR": "1", "PATH": "", "PYTHONIOENCODING": encoding},
        timeout=60,
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 0
    assert done.stderr == ""
    assert "can knock" in done.stdout


ALL_ELEVEN_MELD = "3h 4h 5h 6h Ks Kc Kd Kh 7c 8c 9c"


@pytest.mark.parametrize("rules, big_gin", [([], False), (["--rules", "tournament"], True), (["--set", "big_gin_bonus=25"], True),
                                            (["--set", "big_gin_bonus=off"], False)])
def test_check_says_big_gin_only_where_the_rules_pay_it(run, rules, big_gin):
    plain = run("check", *ALL_ELEVEN_MELD.split(), *rules)
    assert (plain.exit_code, plain.stderr) == (0, "")
    if big_gin:
        assert plain.stdout.endswith("melds     3h 4h 5h 6h | 7c 8c 9c | Kc Kd Kh Ks\ndeadwood  0\nverdict   big gin: all 11 cards meld\n")
    else:  # a plain gin: the highest card a meld spares is discarded, ten meld
        assert plain.stdout.endswith("melds     3h 4h 5h 6h | 7c 8c 9c | Kd Kh Ks\ndeadwood  0\nverdict   gin\n")
    piped = run("check", "-", *rules, input=ALL_ELEVEN_MELD + "\n")
    assert piped.stdout == plain.stdout
    answer = json.loads(run("check", *ALL_ELEVEN_MELD.split(), *rules, "--json").stdout)
    assert (answer["big_gin"], answer["gin"], answer["deadwood"]) == (big_gin, True, 0)
    assert len([card for meld in answer["melds"] for card in meld]) == (11 if big_gin else 10)
