"""`ginscore advise`: the JSON contract, bad input, the terminal output and the progress bar."""

from __future__ import annotations

import io
import json
import re

import pytest
from conftest import json_object, one_error_line
from rich.console import Console

from ginscore.game.advise import advise
from ginscore.game.cards import DECK, parse_cards
from ginscore.game.rulebook import PRESETS
from ginscore.render import advise as render_advise

HAND = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"
UNSEEN = "2h 6h 7h Kh 6c 10c Jc Ac 2c 3c 3d 4s"
SEEN = " ".join(str(c) for c in DECK if c not in parse_cards(HAND) and c not in parse_cards(UNSEEN))
# The tables, then the keys added beyond them.
TOP_KEYS = {"cards", "knock_limit", "unseen", "model", "samples", "exact", "seed"} | {"opponent_turns", "stock", "stock_assumed"}
ELEVEN_KEYS = TOP_KEYS | {"options", "play", "recommended", "big_gin", "big_gin_points"}
TEN_KEYS = TOP_KEYS | {"deadwood", "outs"}
OPTION_KEYS = {"discard", "deadwood", "can_knock", "gin", "spread", "win", "undercut", "tie", "expected_points", "outs"} | {
    "standard_error", "interval"
}


def advise_json(run, *args: str) -> dict:
    return json_object(run("advise", *args, "--json"))


def test_eleven_cards_json_contract(run):
    data = advise_json(run, *HAND.split(), "--seen", SEEN, "--model", "deal", "--seed", "4")
    assert data.keys() == ELEVEN_KEYS
    assert data["cards"] == HAND.split()
    assert (data["knock_limit"], data["unseen"], data["model"], data["seed"]) == (10, 12, "deal", 4)
    assert (data["samples"], data["exact"], data["big_gin"]) == (66, True, False)
    options = data["options"]
    assert [o.keys() == OPTION_KEYS for o in options] == [True] * 11
    assert [o["standard_error"] for o in options] == [None] * 11  # exact: nothing was sampled
    assert [o["interval"] for o in options] == [None] * 11
    assert sorted(o["discard"] for o in options) == sorted(HAND.split())
    knocks = [o for o in options if o["can_knock"]]
    assert [o["discard"] for o in knocks] == ["Qs", "2d"]
    assert options[:2] == knocks and (data["play"], data["recommended"]) == ("knock", "Qs")
    best = knocks[0]
    assert best["spread"] == [["3h", "4h", "5h"], ["7c", "8c", "9c"], ["Kc", "Kd", "Ks"]]
    assert best["deadwood"] == 2 and best["gin"] is False
    assert best["win"] + best["undercut"] + best["tie"] == pytest.approx(1)
    # Unrounded: the mean over 66 hands, exactly as the core has it.
    core = advise(parse_cards(HAND), PRESETS["standard"], seed=4, seen=parse_cards(SEEN), model="deal")
    assert best["expected_points"] == core.recommended.knock.expected_points
    assert best["expected_points"] != round(best["expected_points"], 2)
    assert best["outs"]["knock"] == [str(c) for c in sorted(parse_cards(UNSEEN))]  # ten cards that knock: any draw
    assert best["outs"]["gin"] == ["2h", "6c", "6h", "10c", "Kh"]  # each melds the 2d's place away
    assert set(best["outs"]["gin"]) <= set(best["outs"]["knock"])
    for option in options[2:]:
        assert option["can_knock"] is False
        assert [option[k] for k in ("spread", "win", "undercut", "tie", "expected_points")] == [None] * 5
        assert set(option["outs"]) == {"knock", "gin"}


def test_ten_cards_json_contract(run):
    data = advise_json(run, "3h", "4h", "5h", "Ks", "Kc", "Kd", "7c", "8c", "2d", "Qs", "--seed", "9")
    assert data.keys() == TEN_KEYS
    assert (data["deadwood"], data["unseen"], data["samples"], data["seed"]) == (27, 42, 0, 9)
    assert data["outs"] == {"knock": ["6c", "9c"], "gin": []}


def test_sampled_runs_give_standard_errors_and_repeat_with_their_seed(run):
    first = advise_json(run, *HAND.split(), "--samples", "200")
    assert first["model"] == "improved" and first["exact"] is False and first["samples"] == 200
    assert first["stock_assumed"] is True and first["opponent_turns"] == 7
    assert isinstance(first["seed"], int)
    errors = first["options"][0]["standard_error"]
    assert set(errors) == {"win", "undercut", "tie", "expected_points"} and errors["expected_points"] > 0
    again = advise_json(run, *HAND.split(), "--samples", "200", "--seed", str(first["seed"]))
    assert again == first


def test_big_gin_and_the_spade_doubling(run):
    big = advise_json(run, "7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks", "--rules", "tournament", "--samples", "50", "--seed", "1")
    assert big["big_gin"] is True and big["big_gin_points"] > max(o["expected_points"] or 0 for o in big["options"])
    plain = advise_json(run, "7s 8s 9s 10s 2h 3h 4h Kh Kd Kc Ks", "--samples", "50", "--seed", "1")
    assert plain["big_gin"] is False and plain["big_gin_points"] is None
    # Both up-cards seen in both runs, so that the opponent hands are the same.
    args = ("3c 4c 5c 9d 9h 9s Jh Qh Kh 2d 6d", "--rules", "oklahoma", "--samples", "100", "--seed", "2", "--model", "deal", "--seen", "5s 5h")
    doubled = advise_json(run, *args, "--upcard", "5s")
    single = advise_json(run, *args, "--upcard", "5h")
    assert doubled["knock_limit"] == single["knock_limit"] == 5
    assert doubled["options"][0]["expected_points"] == 2 * single["options"][0]["expected_points"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((*HAND.split(), "--seen", "Qs 5d"), "error: Qs cannot be both in your hand and seen"),
        ((*HAND.split(), "--opponent-took", "7c"), "error: 7c cannot be both in your hand and taken by the opponent"),
        ((*HAND.split(), "--seen", SEEN + " 2h 6h 7h"), "error: --seen: the opponent needs 10 more cards but only 9 are unseen"),
        ((*HAND.split(), "--opponent-took", "Ah 2h 3s 4s 5s 6s 7s 8s 9s 10s Js"), "error: the opponent holds 10 cards, but 11 were given"),
        ((*HAND.split(), "--stock", "40"), "error: --stock: a stock of 40 is impossible"),
        ((*HAND.split(), "--model", "clever"), "error: --model: unknown model 'clever': choose deal or improved"),
        ((*HAND.split(), "--samples", "0"), "error: --samples: the samples must be from 1 to 1000000, not 0"),
        ((*HAND.split(), "--rules", "oklahoma"), "error: --upcard is missing: these rules use the knock card: give the up-card"),
        (("3h", "4h", "5h"), "error: a hand to advise on needs 10 or 11 cards, but 3 were given"),
        ((*HAND.split()[:-1], "4x"), "error: '4x' is not a card"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run, args, message):
    result = run("advise", *args)
    assert result.exit_code == 2
    assert one_error_line(result).startswith(message)


def test_terminal_output_names_the_play_the_model_and_the_uncertainty(run):
    result = run("advise", *HAND.split(), "--seen", SEEN, "--model", "deal", "--seed", "4")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "hand    3h 4h 5h Ks Kc Kd 7c 8c 9c 2d Qs"
    assert lines[1] == "advice  discard Qs and knock: 3h 4h 5h | 7c 8c 9c | Kc Kd Ks | (2d)"
    assert lines[2].startswith("worth   +") and "win " in lines[2] and "±" not in lines[2] and "(" not in lines[2]
    assert lines[3] == "model   deal: every one of the 66 hands the opponent could hold (exact), each once, from 12 unseen cards"
    assert lines[4] == "seed    4"
    header = next(line for line in lines if line.split()[:1] == ["discard"])
    assert header.split() == ["discard", "deadwood", "win", "undercut", "points", "outs"]  # the melds are in the advice
    assert sum("cannot knock" in line for line in lines) == 9
    assert lines[-4:] == [
        "win, undercut: shares of the opponent hands; points: the mean from your side.",
        "Exact: every hand the opponent could hold under the model above, each once.",
        "outs: unseen cards that, drawn next, let the ten kept knock / go gin.",
        "--wide shows each discard's melds and ranges; --json gives every figure.",
    ]
    assert not any("estimate" in line for line in lines)  # exact is not an estimate
    assert all(line == line.rstrip() for line in lines)


def test_terminal_output_states_an_assumed_stock(run):
    result = run("advise", *HAND.split(), "--samples", "100", "--seed", "3")
    assert result.exit_code == 0 and result.stderr == ""
    assert "stock     17 cards (assumed mid-hand: give --stock)" in result.stdout.splitlines()
    assert "opponent  drew 7 cards since the deal, keeping their best ten each turn" in result.stdout.splitlines()
    assert "seed      3" in result.stdout.splitlines()


def test_terminal_output_for_ten_cards(run):
    result = run("advise", "3h 4h 5h Ks Kc Kd 7c 8c 2d Qs", "--seed", "1")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines() == [
        "hand      3h 4h 5h Ks Kc Kd 7c 8c 2d Qs",
        "melds     3h 4h 5h | Kc Kd Ks | (2d 7c 8c Qs)",
        "deadwood  27",
        "outs      to knock: 6c 9c (2 of 42 unseen, 4.8% the next card); to gin: none",
        "chance    each of the 42 unseen cards is taken as equally likely to come next",
    ]


def test_no_discard_may_knock(run):
    result = run("advise", "3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh", "--seed", "1")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[1].startswith("advice  no discard may knock: discard Jh to keep the least deadwood (27)")
    assert json.loads(run("advise", "3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh", "--json", "--seed", "1").stdout)["recommended"] is None


# --- the progress bar ------------------------------------------------------------------------


def terminal() -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=80)


def test_no_progress_bar_when_piped():
    with render_advise.progress_bar(Console(file=io.StringIO(), force_terminal=False)) as progress:
        assert progress is None


def test_a_progress_bar_appears_on_a_terminal_only_for_a_long_run(monkeypatch):
    clock = iter([0.0, 0.01, 0.02, 100.0, 100.1, 100.2, 100.3])
    monkeypatch.setattr(render_advise.time, "monotonic", lambda: next(clock))
    quick = terminal()
    with render_advise.progress_bar(quick) as progress:
        progress(100, 1000)  # 0.01 s for a tenth: the whole run looks like 0.1 s
    assert quick.file.getvalue() == ""
    slow = terminal()
    with render_advise.progress_bar(slow) as progress:
        progress(100, 1000)  # 100 s for a tenth
        progress(200, 1000)
    assert "opponent hands" in slow.file.getvalue()


class Utf8Text(io.StringIO):
    """A terminal's stream as rich sees it: one that speaks UTF-8."""

    encoding = "utf-8"


def test_on_a_terminal_cards_show_their_suits_and_fit_the_width():
    advice = advise(parse_cards(HAND), PRESETS["standard"], seed=3, samples=200)
    # soft_wrap as `console()` makes it: rich then wraps only what is printed to wrap
    out = Console(file=Utf8Text(), force_terminal=True, width=100, color_system=None, soft_wrap=True)
    render_advise.advice_report(advice, out)
    text = out.file.getvalue()
    assert "discard Q♠ and knock: 3♥ 4♥ 5♥ | 7♣ 8♣ 9♣ | K♣ K♦ K♠ | (2♦)" in text
    words = " ".join(text.split())  # the footer wraps at the terminal's width
    assert "95% intervals" in words and "not a certainty" in words
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_rule_options_mean_what_they_mean_for_check(run):
    tight = advise_json(run, *HAND.split(), "--knock-limit", "1", "--samples", "50", "--seed", "1")
    assert tight["knock_limit"] == 1 and tight["recommended"] is None
    upcard = advise_json(run, *HAND.split(), "--upcard", "3s", "--samples", "50", "--seed", "1")
    check = json_object(run("check", *HAND.split(), "--upcard", "3s", "--json"))
    assert upcard["knock_limit"] == check["knock_limit"] == 3 and upcard["recommended"] == "Qs"
    both = run("advise", *HAND.split(), "--knock-limit", "5", "--upcard", "3s")
    assert both.exit_code == 2
    assert one_error_line(both).startswith("error: --knock-limit: give a knock limit or the up-card, not both")


# --- fitting the terminal, saying only what applies, one recommendation -------------------------------------------

KNOCKS = "10h Jh Qh Kh 7s 7c 7d Ac Ad 2c 2d"


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("hand, seen, headline", [
    (KNOCKS, "9h 5c Qs 3d", "advice discard 2c and knock: 7c 7d 7s | 10h Jh Qh Kh | (Ac Ad 2d)"),
    (HAND, "Jd 6s", "advice discard Qs and knock: 3h 4h 5h | 7c 8c 9c | Kc Kd Ks | (2d)"),  # its melds wrapped at 80
])
def test_each_row_is_one_line_at_60_and_80_columns_with_the_spread_in_the_headline(width, hand, seen, headline):
    advice = advise(parse_cards(hand), PRESETS["standard"], seed=7, seen=parse_cards(seen), stock=20, samples=300)
    out = Console(file=io.StringIO(), force_terminal=True, width=width, color_system=None, soft_wrap=True)
    render_advise.advice_report(advice, out)
    lines = out.file.getvalue().splitlines()
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["discard", "deadwood"])
    table = lines[header + 1 : lines.index("", header)]
    rows = [line for line in table if line.split()[:1] and line.split()[0] in hand.split()]
    assert len(rows) == 11 and len(table) <= 12  # one line a discard (and a rule under the header): none wrapped
    assert headline in " ".join(" ".join(lines[:4]).split())


def test_wide_adds_the_melds_and_the_range_of_each_figure(run):
    args = (*KNOCKS.split(), "--seen", "9h 5c Qs 3d", "--stock", "20", "--seed", "7", "--samples", "300")
    narrow, wide = run("advise", *args).stdout, run("advise", *args, "--wide").stdout
    header = next(line for line in wide.splitlines() if line.split()[:1] == ["discard"])
    assert header.split() == ["discard", "deadwood", "melds", "win", "undercut", "points", "outs"]
    row = next(line for line in wide.splitlines() if line.split()[:1] == ["2c"])
    assert row.split()[:9] == ["2c", "4", "7c", "7d", "7s", "|", "10h", "Jh", "Qh"]
    assert re.search(r"\d+\.\d% \(\d+\.\d–\d+\.\d%\)", row) and re.search(r"[+-]\d+\.\d ±\d+\.\d", row)
    assert "melds" not in narrow.split("\n\n")[1].splitlines()[0] and "--wide shows" in narrow and "--wide shows" not in wide


def test_with_no_discard_able_to_knock_only_what_applies_is_said_and_the_outs_are_named(run):
    result = run("advise", "3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh", "--seed", "1")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[1:4] == [
        "advice  no discard may knock: discard Jh to keep the least deadwood (27)",
        "outs    2 unseen cards would let you knock: 6c 9c",
        "model   none ran: no discard may knock, so no opponent hand was needed",
    ]
    assert lines[-1] == "outs: unseen cards that, drawn next, let the ten kept knock / go gin."
    text = result.stdout
    for absent in ("win", "undercut", "points", "exact", "estimate", "±"):
        assert absent not in text, absent
    data = advise_json(run, "3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh", "--seed", "1")
    assert (data["model"], data["samples"], data["exact"], data["play"], data["recommended"]) == (None, 0, None, "keep", None)


def test_one_sample_says_there_is_no_error_estimate(run):
    result = run("advise", *KNOCKS.split(), "--samples", "1", "--seed", "3")
    worth = next(line for line in result.stdout.splitlines() if line.startswith("worth"))
    assert worth.endswith("(1 sample: no error estimate)") and "±" not in result.stdout
    assert "One sample gives no error estimate" in result.stdout
    option = advise_json(run, *KNOCKS.split(), "--samples", "1", "--seed", "3")["options"][0]
    assert (option["standard_error"], option["interval"]) == (None, None)


def test_sampled_json_carries_wilson_intervals_that_hold_the_share(run):
    data = advise_json(run, *KNOCKS.split(), "--samples", "200", "--seed", "5")
    for option in data["options"]:
        if option["interval"] is None:
            assert not option["can_knock"]
            continue
        for name in ("win", "undercut", "tie"):
            low, high = option["interval"][name]
            assert 0 <= low <= option[name] <= high <= 1
        assert option["interval"]["win"][1] - option["interval"]["win"][0] > 0  # never a zero-width ±0.0%
        low, high = option["interval"]["expected_points"]
        assert low < option["expected_points"] < high


@pytest.mark.parametrize("hand, rules", [
    ("7s 8s 9s 10s Js 2h 3h 4h Kc Kd Kh", "tournament"),  # big gin beats every knock
    (KNOCKS, "tournament"),
    (HAND, "standard"),
    ("3h 4h 5h Ks Kc Kd 7c 8c 2d Qs Jh", "standard"),  # nothing may knock
])
def test_the_text_and_the_json_recommend_the_same_play(run, hand, rules):
    args = (*hand.split(), "--rules", rules, "--samples", "200", "--seed", "2")
    advice_line = next(line for line in run("advise", *args).stdout.splitlines() if line.startswith("advice"))
    data = advise_json(run, *args)
    said = {"big_gin": "big gin: lay down all 11 cards", "gin": "and go gin", "knock": "and knock", "keep": "no discard may knock"}
    assert said[data["play"]] in advice_line
    if data["recommended"] is not None:
        assert f"discard {data['recommended']} and" in advice_line
    else:
        assert data["play"] in ("big_gin", "keep")
