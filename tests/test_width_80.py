"""At 80 columns, `standings` and `stats` fit: no line wider than the terminal, no heading cut to `play…`, and no
line broken inside parentheses whose words fit a line."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from terminal import run_on_terminal

from ginscore.render.console import wrap_spans

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LONG = ("Alexandra Montgomery-Smythe", "Bartholomew Featherstonehaugh")


def on_terminal(args: list[str], columns: int = 80) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env["NO_COLOR"] = "1"
    done = run_on_terminal([GINSCORE, *args], env, columns=columns, rows=50, stderr_too=False, timeout=60)
    assert (done.returncode, done.stderr) == (0, b"")
    return ESCAPE.sub("", done.output.decode("utf-8").replace("\r\n", "\n")).splitlines()


def balanced(line: str) -> bool:
    return line.count("(") == line.count(")")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Finished games of five-letter names and of long ones."""
    from ginscore.files import changes
    from ginscore.game.rulebook import PRESETS
    from ginscore.match.entry import HandEntry, NewMatch

    path = tmp_path_factory.mktemp("width")
    for name, players in (("short.toml", ("Maria", "Tomas")), ("also.toml", ("Ingri", "Maria")), ("long.toml", LONG)):
        rules = PRESETS["standard"]
        changes.start(str(path / name), NewMatch(list(players), rules, "standard"))
        changes.record(str(path / name), HandEntry(knocker=players[1], deadwood=3, opponent_deadwood=30, note="(a note)"))
        changes.record(str(path / name), HandEntry(knocker=players[0], deadwood=0, opponent_deadwood=90))  # 110: over
    return path


def test_standings_fit_80_columns_with_every_heading_whole(folder):
    lines = on_terminal(["standings", str(folder)])
    assert max(len(line) for line in lines) <= 80
    assert "…" not in "".join(lines[:3])
    headings = " ".join(lines[:2]).split()
    for word in ("#", "player", "rating", "games", "won", "win", "%", "gins", "margin"):
        assert word in headings
    assert all(balanced(line) for line in lines)
    assert "(RD 110 or more)." in " ".join(lines)
    assert any(line.startswith(" 1  ") for line in lines)


def test_standings_with_only_five_letter_names_keep_the_player_heading(tmp_path):
    from ginscore.files import changes
    from ginscore.game.rulebook import PRESETS
    from ginscore.match.entry import HandEntry, NewMatch

    path = tmp_path / "m.toml"
    changes.start(str(path), NewMatch(["Maria", "Tomas"], PRESETS["standard"], "standard"))
    changes.record(str(path), HandEntry(knocker="Maria", deadwood=0, opponent_deadwood=90))
    lines = on_terminal(["standings", str(tmp_path)])
    assert max(len(line) for line in lines) <= 80
    assert "player" in " ".join(lines[:2]).split() and "play…" not in "\n".join(lines)
    assert all(balanced(line) for line in lines)


def test_stats_with_long_names_show_each_name_whole_in_its_heading(folder):
    lines = on_terminal(["stats", str(folder)])
    assert max(len(line) for line in lines) <= 80
    assert "…" not in "\n".join(lines)
    start = next(index for index, line in enumerate(lines) if line.startswith(LONG[0]))
    heading = " ".join(lines[start + 2:start + 6]).split()
    assert all(part in heading for name in LONG for part in name.split())


def test_piped_standings_keep_one_line_a_heading(run, folder):
    result = run("standings", folder)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split()[:2] == ["#", "player"]
    assert "(RD 110 or more)" in result.stdout.splitlines()[-1]


@pytest.mark.parametrize("text, width, lines", [
    ("a coin flip calls 50%. Log-loss 0.693 (a coin: 0.693), Brier 0.250 (a coin: 0.250); lower", 70,
     ["a coin flip calls 50%. Log-loss 0.693 (a coin: 0.693), Brier 0.250", "(a coin: 0.250); lower"]),
    ("  Tomas: 50 points + 200 shutout bonus (the other player scored nothing) + 20 for boxes", 80,
     ["  Tomas: 50 points + 200 shutout bonus (the other player scored nothing) + 20", "for boxes"]),
    ("(one two three four five)", 10, ["(one two", "three four", "five)"]),  # wider than a line: at its spaces
    ("abcdefghij klm", 4, ["abcd", "efgh", "ij", "klm"]),
    ("", 10, []),
])
def test_wrap_spans(text, width, lines):
    assert [text[start:end] for start, end in wrap_spans(text, width)] == lines
