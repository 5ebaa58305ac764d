"""Completion in a real bash: an interactive `bash --norc` on a pseudo-terminal sources the script
`ginscore --show-completion bash` prints, TAB is pressed, and the line readline is left with is read back
(a key bound to print `$READLINE_LINE`)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from terminal import Session

BASH = shutil.which("bash")
GINSCORE = str(Path(sys.executable).with_name("ginscore"))
DONE = "\x14"  # Ctrl-T: prints the line between markers
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")


@pytest.fixture(scope="module")
def tabbed(tmp_path_factory):
    """`tabbed(keys)`: what bash shows after `keys` are typed (the listing a double TAB prints, if any), and the line."""
    folder = tmp_path_factory.mktemp("bash")
    subprocess.run([GINSCORE, "new", "g.toml", "Ann Marie", "Bob"], cwd=folder, check=True, capture_output=True)
    (folder / "sub").mkdir()
    (folder / "zzfile.txt").write_text("")
    script = folder / "ginscore.bash"
    # The shell is named, so Typer must not guess it from the process that started pytest (sh, an IDE, ...).
    named = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run([GINSCORE, "--show-completion", "bash"], check=True, capture_output=True, text=True, env=named)
    script.write_text(shown.stdout)
    env = {
        "PATH": f"{Path(GINSCORE).parent}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "HOME": str(folder),
        "TERM": "dumb",
        "PS1": "$ ",
        "INPUTRC": "/dev/null",
    }
    session = Session([BASH, "--norc", "--noprofile", "-i"], env, cwd=folder)  # bash, in the folder with the match file

    def until(marker: str) -> str:
        return session.until(marker.encode(), seconds=60).decode("utf-8", "replace")

    session.type(f"source '{script}'; bind -x '\"\\C-t\": printf \"<<%s>>\\n\" \"$READLINE_LINE\"'; echo re\"\"ady\n".encode())
    until("ready\r\n")

    def press(keys: str) -> tuple[str, str]:
        session.type((keys + DONE).encode())
        shown = until(">>")
        session.type(b"\x15")  # Ctrl-U: an empty line for the next keys
        before, _, line = shown.rpartition("<<")
        return before, line.split(">>")[0]

    yield press
    session.type(b"exit\n")
    session.finish()


def test_bash_completes_a_knobs_values_after_its_equals_sign(tabbed):
    shown, line = tabbed("ginscore check 3h --set shutout=\t\t")
    assert line == "ginscore check 3h --set shutout="
    assert re.search(r"\bdouble +flat +none\s", shown), shown
    assert "zzfile.txt" not in shown
    assert tabbed("ginscore check 3h --set shutout=d\t")[1] == "ginscore check 3h --set shutout=double "
    assert tabbed("ginscore check 3h --set spades\t")[1] == "ginscore check 3h --set spades_double="


def test_bash_quotes_a_name_with_a_space(tabbed):
    assert tabbed("ginscore record g.toml --knocker An\t")[1] == "ginscore record g.toml --knocker Ann\\ Marie "
    assert tabbed('ginscore record g.toml --knocker "An\t')[1] == 'ginscore record g.toml --knocker "Ann Marie" '


def test_bash_adds_no_space_after_a_folder(tabbed):
    assert tabbed("ginscore show su\t")[1] == "ginscore show sub/"
    assert tabbed("ginscore show g.\t")[1] == "ginscore show g.toml "


def test_bash_completes_commands_and_options(tabbed):
    assert tabbed("ginscore che\t")[1] == "ginscore check "
    assert tabbed("ginscore check 3h --upc\t")[1] == "ginscore check 3h --upcard "
