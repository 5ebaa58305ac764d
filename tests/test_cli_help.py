"""Every command has `--help` with a real example; `ginscore --help` lists the commands.

The commands are read from the Typer app itself, so a command added later is checked without editing this file.
"""

from __future__ import annotations

import pytest
import typer.main

from ginscore.cli import app


def command_paths(group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The argv of every command of the app, sub-commands of groups included."""
    paths = []
    for name, command in sorted(getattr(group, "commands", {}).items()):
        if getattr(command, "hidden", False):
            continue
        paths.append((*prefix, name))
        paths += command_paths(command, (*prefix, name))
    return paths


COMMANDS = command_paths(typer.main.get_command(app))


def test_the_app_has_the_commands_of_the_first_issues():
    assert {("check",), ("score",), ("rules",)} <= set(COMMANDS)
    assert len(COMMANDS) >= len(app.registered_commands)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_has_help_with_an_example(run, path):
    result = run(*path, "--help")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "Example" in result.stdout
    examples = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("ginscore ")]
    assert examples, result.stdout
    assert any(line.startswith(f"ginscore {' '.join(path)}") for line in examples), examples
    assert "Traceback" not in result.stdout


def test_top_level_help_lists_every_command(run):
    result = run("--help")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "Usage: ginscore" in result.stdout
    listed = {line.split()[0] for line in result.stdout.split("Commands:", 1)[1].splitlines() if line.strip()}
    assert {path[0] for path in COMMANDS} <= listed


def test_no_arguments_shows_the_help_and_is_no_error(run):
    """Bare `ginscore` asks what there is: the same help as `ginscore -h`, on stdout, exit 0."""
    result = run()
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == run("-h").stdout
    assert "Usage: ginscore" in result.stdout and "Commands:" in result.stdout


def listed_commands(help_text: str) -> list[tuple[str, str]]:
    """Each command named in the help's command list, with its summary as printed (continuation lines joined)."""
    rows: list[tuple[str, str]] = []
    for line in help_text.split("Commands:", 1)[1].splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            name, _, summary = line.strip().partition(" ")
            rows.append((name, summary.strip()))
        elif line.strip():
            rows[-1] = (rows[-1][0], rows[-1][1] + " " + line.strip())
    return rows


@pytest.mark.parametrize("columns", ["100", "80", "60"])
def test_top_level_help_lists_the_commands_in_the_order_a_player_meets_them_each_summary_whole(run, monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    rows = listed_commands(run("-h").stdout)
    names = [name for name, _ in rows]
    order = ["new", "play", "record", "show", "undo", "edit", "check", "score", "advise", "rules", "validate", "stats"]
    assert [name for name in names if name in order] == order
    for name, summary in rows:
        assert not summary.endswith("..."), (name, summary)
        assert summary.endswith((".", "?")), (name, summary)
        assert len(summary) <= 46, (name, summary)  # one line beside the names at 60 columns
