"""The README shows real output: every `$ ginscore ...` in its console blocks prints what it shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Commands that install, run the tests or benchmarks, wait for a person, or draw for a terminal.
NOT_RUN = ("python", "pip", "ginscore play", "ginscore show sample_matches/oklahoma.toml --chart")


def console_commands() -> list[tuple[str, list[str]]]:
    """Each `$ command` of the README's console blocks with the lines shown under it, in order."""
    steps = []
    for block in re.findall(r"```console\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *shown = chunk.rstrip("\n").split("\n")
            steps.append((command, shown))
    return steps


def test_the_readme_has_commands_to_check():
    assert sum(command.startswith("ginscore ") for command, _ in console_commands()) >= 20


def test_every_readme_command_prints_what_the_readme_shows(tmp_path):
    shutil.copytree(ROOT / "sample_matches", tmp_path / "sample_matches")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"], "NO_COLOR": "1"}
    mismatches = []
    for command, shown in console_commands():
        if command.startswith(NOT_RUN) or "ginscore" not in command:
            continue
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        printed = (done.stdout + done.stderr).rstrip("\n").split("\n") if done.stdout + done.stderr else []
        if printed != shown:
            mismatches.append(f"$ {command}\nshown:   {shown}\nprinted: {printed}")
    assert not mismatches, "\n\n".join(mismatches)
