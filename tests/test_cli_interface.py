"""One interface (issue 9) and one rule for input (issue 8): usage errors as one line, --version, -h, shell
completion, help placeholders, sentences for system errors, ASCII numbers, short quotes of long tokens,
near-miss suggestions, the byte-order mark, and NO_COLOR."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
import typer.main
from conftest import json_object, one_error_line
from terminal import run_on_terminal
from test_cli_help import COMMANDS
from typer._completion_classes import BashComplete

import ginscore
from ginscore.cli import app

GINSCORE = str(Path(sys.executable).parent / "ginscore")
KNOCK = "3h 4h 5h KS KC KD 7c 8c 9c 2d"
KNOCK_K, KNOCK_O = "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "Kh Kd Ks 6s Qc 8d 4c 2h Ac 9d"


def usage_error(result) -> tuple[str, str]:
    """The two lines of a usage error: `error: ...` and `try '... --help'`; exit 2, nothing on stdout."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.endswith("\n")
    first, second = result.stderr.splitlines()
    assert first.startswith("error: ") and second.startswith("try 'ginscore")
    return first, second


# --- version and help -----------------------------------------------------------------------------


def test_version_is_printed_and_kept_in_one_place(run):
    result = run("--version")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == f"ginscore {ginscore.__version__}\n"
    assert version("ginscore") == ginscore.__version__


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_dash_h_is_help_on_every_command(run, path):
    short, long = run(*path, "-h"), run(*path, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stderr == long.stderr == ""
    assert short.stdout == long.stdout
    assert "-h, --help" in short.stdout


def test_dash_h_on_the_app(run):
    result = run("-h")
    assert result.exit_code == 0 and result.stderr == ""
    assert "--version" in result.stdout and "--install-completion" in result.stdout


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_placeholders_are_words_and_examples_fit_80_columns(run, path):
    text = run(*path, "--help").stdout
    assert not re.search(r"\{\w+\}|<\w+>", text), text
    for line in text.splitlines():
        assert len(line) <= 80, line


@pytest.mark.parametrize(
    "path, placeholders",
    [
        (("check",), ["Usage: ginscore check [OPTIONS] CARDS...", "--upcard CARD", "--knock-limit N", "--rules PRESET", "--set KNOB=VALUE"]),
        (("score",), ["--cards, --knocker CARDS", "--opponent-cards, --opponent CARDS", "--discard CARD"]),
        (("record",), ["Usage: ginscore record [OPTIONS] FILE", "--knocker NAME", "--deadwood N", "--cards CARDS"]),
        (("edit",), ["Usage: ginscore edit [OPTIONS] FILE N"]),
        (("new",), ["Usage: ginscore new [OPTIONS] FILE [NAME...]", "--dealer NAME", "--next FINISHED"]),
        (("rules",), ["Usage: ginscore rules [OPTIONS] [PRESET]"]),
        (("stats",), ["Usage: ginscore stats [OPTIONS] PATH..."]),
        (("validate",), ["Usage: ginscore validate [OPTIONS] FILE..."]),
        (("show",), ["--export FILE"]),
    ],
)
def test_help_reads_file_cards_name_n(run, path, placeholders):
    text = run(*path, "--help").stdout
    for placeholder in placeholders:
        assert placeholder in text, (placeholder, text)


# --- usage errors -----------------------------------------------------------------------------------


def test_unknown_option_is_one_line_and_a_hint(run):
    assert usage_error(run("check", KNOCK, "--bogus")) == (
        "error: no such option: --bogus",
        "try 'ginscore check --help'",
    )


def test_unknown_option_near_a_real_one_says_which(run):
    first, _ = usage_error(run("check", KNOCK, "--jsn"))
    assert first == "error: no such option: --jsn (did you mean --json or --set?)"


def test_missing_argument_is_one_line_and_a_hint(run):
    assert usage_error(run("edit", "game.toml")) == (
        "error: missing N (the hand to replace, numbered as `show` numbers them)",
        "try 'ginscore edit --help'",
    )


def test_bad_value_is_one_line_and_a_hint(run):
    assert usage_error(run("check", KNOCK, "--knock-limit", "ten")) == (
        "error: --knock-limit: 'ten' is not a whole number: write it with the digits 0-9",
        "try 'ginscore check --help'",
    )


def test_unknown_command_suggests_the_near_one(run):
    assert usage_error(run("chek", KNOCK)) == (
        "error: no such command 'chek' (did you mean 'check'?)",
        "try 'ginscore --help'",
    )


def test_option_without_its_value_is_one_line(run):
    result = run("check", KNOCK, "--upcard")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "error: option '--upcard' requires an argument\n"


def test_a_huge_unknown_option_is_quoted_short(run):
    first, _ = usage_error(run("check", KNOCK, "--" + "x" * 100_000))
    assert first == "error: no such option: --" + "x" * 38 + "…"
    first, _ = usage_error(run("x" * 100_000))
    assert first == "error: no such command '" + "x" * 39 + "…'"


# --- numbers: ASCII digits everywhere ---------------------------------------------------------------


@pytest.mark.parametrize("count", ["３", "٤٠", "1_0", "+5", "4.0"])
def test_record_refuses_numbers_not_in_ascii_digits(run, tmp_path, count):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    before = path.read_bytes()
    first, second = usage_error(run("record", path, "--knocker", "Ann", "--deadwood", count, "--opponent-deadwood", "20"))
    assert first == f"error: --deadwood: {count!r} is not a whole number: write it with the digits 0-9"
    assert second == "try 'ginscore record --help'"
    assert path.read_bytes() == before


def test_knock_limit_in_fullwidth_digits_is_refused_by_set_too(run):
    result = run("check", KNOCK, "--set", "knock_limit=１０")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --set: knock_limit must be a whole number from 0 to 10, not '１０'"


@pytest.mark.parametrize(
    "knob, text, message",
    [
        ("knock_limit", '"10"', "knock_limit must be a whole number, not the string '10': in a match file, write it without quotes"),
        ("target", '"250"', "target must be a whole number, not the string '250': in a match file, write it without quotes"),
        ("undercut_on_tie", '"true"', "undercut_on_tie must be true or false, not the string 'true': in a match file, write it without quotes"),
        ("gin_bonus", "25.0", "gin_bonus must be a whole number from 0 to 1000, not 25.0"),
    ],
)
def test_a_knob_written_as_a_string_in_the_file_is_refused(run, tmp_path, knob, text, message):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    lines = [f"{knob} = {text}" if line.startswith(f"{knob} = ") else line for line in lines]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"{path}: rules.{knob}: {message}\n"


# --- check and score take the same rule options -------------------------------------------------------


def test_check_takes_rules_set_and_knock_limit_alike(run):
    by_set = json_object(run("check", KNOCK, "--set", "knock_limit=1", "--json"))
    by_option = json_object(run("check", KNOCK, "--knock-limit", "1", "--json"))
    assert by_set == by_option
    assert (by_set["knock_limit"], by_set["can_knock"]) == (1, False)


def test_check_with_rules_oklahoma_needs_the_upcard(run):
    result = run("check", KNOCK, "--rules", "oklahoma")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --upcard is missing: these rules use the knock card: give the up-card"
    data = json_object(run("check", KNOCK, "--rules", "oklahoma", "--upcard", "2s", "--json"))
    assert (data["knock_limit"], data["can_knock"]) == (2, True)


def test_knock_limit_under_oklahoma_without_an_upcard_asks_for_the_upcard(run):
    """No --upcard was typed, so the error must not say it was given."""
    for rules in (["--rules", "oklahoma"], ["--set", "oklahoma=true"]):
        result = run("check", KNOCK, *rules, "--knock-limit", "5")
        assert result.exit_code == 2
        assert one_error_line(result) == (
            "error: --knock-limit: these rules use the knock card, so a knock limit does not apply: give the up-card"
        )


def test_check_and_score_agree_on_the_upcard_limit(run):
    checked = json_object(run("check", "7s 8s 9s 9c 10c Jc 5h 5d 5c 2d 9h", "--upcard", "3d", "--json"))
    scored = json_object(run("score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O, "--upcard", "3d", "--json"))
    assert checked["knock_limit"] == scored["knock_limit"] == 3
    assert checked["can_knock"] is True and scored["result"] == "knock"


def test_unknown_preset_and_knob_are_refused_alike(run):
    for command in (["check", KNOCK], ["score", "--cards", KNOCK_K, "--opponent-cards", KNOCK_O]):
        preset = run(*command, "--rules", "gin-rummy")
        assert preset.exit_code == 2
        assert one_error_line(preset) == "error: --rules: unknown rules 'gin-rummy': choose one of standard, tournament, oklahoma"
        knob = run(*command, "--set", "jokers=2")
        assert knob.exit_code == 2
        assert one_error_line(knob).startswith("error: --set: unknown rule knob 'jokers': choose from knock_limit, ")


# --- cards: long tokens, long lines, the byte-order mark, near misses --------------------------------


def test_a_long_bad_token_is_quoted_short(run):
    result = run("check", "3h 4h 5h KS KC KD 7c 8c 9c " + "Z" * 500 + "h")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: '" + "Z" * 40 + "…' is not a card: unknown rank '" + "Z" * 40 + "…' (use A 2 3 4 5 6 7 8 9 10 T J Q K)"


def test_a_line_far_longer_than_a_hand_is_refused_unparsed(run):
    long_line = " ".join([KNOCK] * 200_000)  # 6 MB of valid cards
    result = run(["check", "-", "--json"], input=f"{KNOCK}\n{long_line}\n")
    assert result.exit_code == 2
    assert json_object_line(result.stdout)["deadwood"] == 2
    assert result.stderr == (
        "error: line 2: the line is far longer than any hand (more than 1000 characters): type 10 or 11 cards\n"
    )


def json_object_line(text: str) -> dict:
    import json

    (line,) = text.splitlines()
    return json.loads(line)


def test_a_byte_order_mark_at_the_start_of_a_line_is_accepted(run):
    result = run(["check", "-", "--json"], input=f"\ufeff{KNOCK}\n\ufeff# a comment\n")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert json_object_line(result.stdout)["deadwood"] == 2


@pytest.mark.parametrize(
    "card, message",
    [
        ("ten", "'ten' is not a card: write ten as '10', like '10h'"),
        ("tenh", "'tenh' is not a card: write ten as '10', like '10h'"),
        ("queens", "'queens' is not a card: write queen as 'Q', like 'Qs'"),
        ("1O", "'1O' is not a card: that is the letter O, not a zero; write '10' and a suit, like '10h'"),
        ("1Oc", "'1Oc' is not a card: that is the letter O, not a zero; did you mean '10c'?"),
        (
            "3h\u0301",
            "'3h\u0301' is not a card: it has a combining accent (U+0301 combining acute accent); type the card without it",
        ),
    ],
)
def test_near_misses_get_a_suggestion(run, card, message):
    result = run("check", "3h 4h 5h KS KC KD 7c 8c 9c", card)
    assert result.exit_code == 2
    assert one_error_line(result) == f"error: {message}"


# --- raw system errors become sentences ----------------------------------------------------------------


def test_a_system_error_reaching_a_command_is_one_sentence(capsys):
    from ginscore.cli.command import reports_errors

    def reads_a_folder() -> None:
        raise IsADirectoryError(21, "Is a directory", "adir")

    with pytest.raises(typer.Exit) as caught:
        reports_errors(reads_a_folder)()
    assert caught.value.exit_code == 1
    assert capsys.readouterr() == ("", "error: 'adir' is a folder, not a file\n")


@pytest.mark.parametrize(
    "error, sentence",
    [
        (IsADirectoryError(21, "Is a directory", "adir"), "'adir' is a folder, not a file"),
        (PermissionError(13, "Permission denied", "m.toml"), "'m.toml': permission denied"),
        (OSError(28, "No space left on device", "m.toml"), "'m.toml': the disk is full"),
        (OSError(5, "Input/output error"), "the file: input/output error"),
    ],
)
def test_system_errors_read_as_sentences(error, sentence):
    from ginscore.cli.command import os_error_text

    assert os_error_text(error) == sentence
    assert "Errno" not in os_error_text(error)


# --- shell completion --------------------------------------------------------------------------------------


def completions(words: list[str], incomplete: str) -> list[str]:
    complete = BashComplete(typer.main.get_command(app), {}, "ginscore", "_GINSCORE_COMPLETE")
    return [item.value for item in complete.get_completions(words, incomplete)]


def test_completion_of_commands_and_options():
    assert completions([], "s") == ["show", "score", "stats", "standings", "serve"]  # in the order help lists them
    assert completions(["check"], "--k") == ["--knock-limit"]
    assert set(completions(["score"], "--opp")) == {"--opponent-cards", "--opponent"}


def test_completion_of_presets_and_knobs():
    assert completions(["check", "--rules"], "") == ["standard", "tournament", "oklahoma"]
    assert completions(["score", "--rules"], "t") == ["tournament"]
    assert completions(["check", "--set"], "gin") == ["gin_bonus=", "gin_boxes="]
    assert completions(["check", "--set"], "shutout=") == ["shutout=flat", "shutout=double", "shutout=none"]
    assert completions(["rules"], "ok") == ["oklahoma"]


def test_completion_of_the_players_after_knocker(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "m.toml", "Ann", "Bob").exit_code == 0
    assert completions(["record", "m.toml", "--knocker"], "") == ["Ann", "Bob"]
    assert completions(["record", "m.toml", "--knocker"], "B") == ["Bob"]
    assert completions(["edit", "m.toml", "1", "--knocker"], "") == ["Ann", "Bob"]
    assert completions(["record", "missing.toml", "--knocker"], "") == []


def test_completion_of_toml_files_and_folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    for name in ("a.toml", "b.toml", "notes.txt", ".hidden.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / "games" / "c.toml").write_text("")
    assert completions(["show"], "") == ["a.toml", "b.toml", "games/"]
    assert completions(["validate", "a.toml"], "games/") == ["games/c.toml"]
    assert completions(["stats"], "g") == ["games/"]


@pytest.mark.parametrize(
    "shell, start",
    [("bash", "_ginscore_completion() {"), ("zsh", "#compdef ginscore"), ("fish", "complete --command ginscore")],
)
def test_show_completion_prints_the_script_for_each_shell(shell, start):
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    done = subprocess.run([GINSCORE, "--show-completion", shell], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.startswith(start)
    assert "_GINSCORE_COMPLETE=complete_" + shell in done.stdout


@pytest.mark.parametrize(
    "shell, script, rc",
    [
        ("bash", ".bash_completions/ginscore.sh", ".bashrc"),
        ("zsh", ".zfunc/_ginscore", ".zshrc"),
        ("fish", ".config/fish/completions/ginscore.fish", None),
    ],
)
def test_install_completion_writes_the_script_for_each_shell(tmp_path, shell, script, rc):
    env = {**os.environ, "HOME": str(tmp_path), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    done = subprocess.run([GINSCORE, "--install-completion", shell], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert f"completion installed in {tmp_path / script}\n" in done.stdout
    assert f"_GINSCORE_COMPLETE=complete_{shell}" in (tmp_path / script).read_text()
    if rc is not None:
        assert (tmp_path / rc).is_file()


def test_install_completion_detects_the_shell_it_runs_in(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", None)
    # Not the command alone: bash would exec it in its own place, and Typer would find whatever shell (or none)
    # started the tests. Followed by `exit`, it runs as bash's child.
    done = subprocess.run(["bash", "-c", f"'{GINSCORE}' --install-completion; exit $?"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    script = tmp_path / ".bash_completions" / "ginscore.sh"
    assert done.stdout == f"bash completion installed in {script}\nCompletion will take effect once you restart the terminal\n"
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text()


def test_the_shell_asks_and_gets_the_players(run, tmp_path):
    assert run("new", tmp_path / "m.toml", "Ann", "Bob").exit_code == 0
    env = {**os.environ, "COMP_WORDS": "ginscore record m.toml --knocker ", "COMP_CWORD": "4", "_GINSCORE_COMPLETE": "complete_bash"}
    done = subprocess.run([GINSCORE], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 0
    assert done.stderr == ""
    assert done.stdout.split() == ["Ann", "Bob"]


# --- NO_COLOR ------------------------------------------------------------------------------------------------


def on_a_terminal(*args: str, no_color: str | None) -> str:
    """What `ginscore ARGS` writes to a pseudo-terminal, with NO_COLOR as given (None: not set)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env |= {"TERM": "xterm-256color", "COLUMNS": "100", "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}
    if no_color is not None:
        env["NO_COLOR"] = no_color
    ran = run_on_terminal([GINSCORE, *args], env, timeout=60)
    assert ran.returncode == 0, ran.output
    return ran.output.decode("utf-8")


COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7]|38;)")


def test_no_color_takes_the_colour_away_and_keeps_the_symbols():
    coloured = on_a_terminal("check", KNOCK, no_color=None)
    plain = on_a_terminal("check", KNOCK, no_color="1")
    assert COLOUR.search(coloured), coloured
    assert not COLOUR.search(plain), plain
    assert "3♥ 4♥ 5♥" in re.sub(r"\x1b\[[0-9;]*m", "", plain)


def test_an_empty_no_color_is_not_set():
    """no-color.org: NO_COLOR counts when it is present and not an empty string."""
    assert COLOUR.search(on_a_terminal("check", KNOCK, no_color=""))


def test_any_long_quoted_token_in_an_error_is_cut(run, tmp_path):
    """The cut happens where every error line is printed, so a module that quotes a name whole is covered too."""
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    before = path.read_bytes()
    result = run("record", path, "--knocker", "Z" * 1_000_000, "--deadwood", "1", "--opponent-deadwood", "20")
    assert result.exit_code == 2
    assert one_error_line(result) == "error: --knocker: unknown player '" + "Z" * 40 + "…': the players are Ann and Bob"
    assert path.read_bytes() == before


# --- a run builds only the command it names ----------------------------------------------------------------


def test_a_run_builds_only_the_command_named(monkeypatch):
    from ginscore.cli import _app_for

    assert [info.callback.__name__ for info in _app_for(["check", KNOCK]).registered_commands] == ["check"]
    assert [info.name for info in _app_for(["rules"]).registered_commands] == ["rules"]
    assert len(app.registered_commands) >= 11  # the app itself is left whole
    for args in ([], ["--help"], ["--version"], ["chek"]):
        assert _app_for(args) is app
    monkeypatch.setenv("_GINSCORE_COMPLETE", "complete_bash")
    assert _app_for(["check"]) is app


def test_each_command_is_found_in_the_module_that_registers_it():
    from typer.main import get_command_name

    from ginscore.cli import COMMAND_MODULES

    found = {info.name or get_command_name(info.callback.__name__): info.callback.__module__ for info in app.registered_commands}
    assert found == {name: f"ginscore.cli.{module}" for name, module in COMMAND_MODULES.items()}


@pytest.mark.parametrize("command, module", [("show", "sheet"), ("check", "hand"), ("record", "records")])
def test_a_run_imports_only_the_module_of_its_command(command, module):
    """The other command modules' options and imports are a tenth of `show`'s start-up."""
    from ginscore.cli import MODULES

    code = (f"import sys; sys.argv = ['ginscore', {command!r}, '--help']\n"
            "from ginscore.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            f"print(sorted(name for name in sys.modules if name.split('.')[-1] in {MODULES!r} and name.startswith('ginscore.cli.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == str([f"ginscore.cli.{module}"]), done.stderr


@pytest.mark.parametrize("args", [["check", "--help"], ["score", "--cards", "3h"], ["rules", "--json", "x"], ["check", KNOCK]])
def test_the_one_command_app_answers_as_the_whole_app(run, args):
    whole = run(*args)
    done = subprocess.run([GINSCORE, *args], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}, timeout=60)
    # Help is wrapped to the width each runner reports, so it is compared word by word.
    assert (done.returncode, done.stdout.split(), done.stderr) == (whole.exit_code, whole.stdout.split(), whole.stderr)


def test_a_run_with_its_output_closed_says_so_and_changes_nothing(tmp_path):
    """`ginscore ... >&-` leaves Python no standard output: one line on stderr and status 2, not a traceback, and a
    command that would write a file writes nothing."""
    match = tmp_path / "friday.toml"
    done = subprocess.run(["sh", "-c", f"'{GINSCORE}' new '{match}' Ann Bob >&-"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("error: standard output is closed, so ginscore could print nothing and did nothing: "
                           "send its output to a terminal, a file or a pipe\n")
    assert not match.exists()
