"""The tests that touch the terminal, signals or the shell, run as a headless runner (a CI agent, a cron job, an
IDE) starts them: no shell among their ancestors, no controlling terminal (a session of their own), standard
input from /dev/null, and SIGINT ignored, as a non-interactive shell leaves it for a background job.

A launcher sets SIGINT to ignored and starts a small runner in a new session, then exits at once, so that the
runner is adopted by the system's first process (or the nearest subreaper), never by a shell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THE_TESTS = [
    "tests/test_cli_interface.py::test_install_completion_detects_the_shell_it_runs_in",
    "tests/test_play.py::test_ctrl_c_keeps_every_complete_hand",
    "tests/test_cli_serve.py::test_serve_prints_the_url_answers_with_the_token_and_stops_cleanly_on_ctrl_c",
]
SHELLS = {"sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "ash", "busybox"}
LAUNCHER = """
import os, signal, subprocess, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
with open(sys.argv[1], "wb") as out:
    subprocess.Popen([sys.executable, "-c", sys.argv[2], str(os.getpid()), *sys.argv[3:]], stdin=subprocess.DEVNULL, stdout=out,
                     stderr=subprocess.STDOUT, start_new_session=True)
"""
RUNNER = """
import json, os, signal, subprocess, sys, time
launcher, began = int(sys.argv.pop(1)), time.monotonic()  # its pid: it may have exited before this line
while os.getppid() == launcher and time.monotonic() - began < 20:  # adopted once the launcher has exited, however slow
    time.sleep(0.01)
try:
    os.close(os.open("/dev/tty", os.O_RDWR))
    terminal = True
except OSError:
    terminal = False
ancestors, pid = [], os.getpid()
while pid > 1:
    with open(f"/proc/{pid}/stat") as stat:
        pid = int(stat.read().rsplit(")", 1)[1].split()[1])
    with open(f"/proc/{pid}/comm") as comm:
        ancestors.append((pid, comm.read().strip()))
facts = {"sigint_ignored": signal.getsignal(signal.SIGINT) is signal.SIG_IGN, "own_session": os.getsid(0) == os.getpid(),
         "terminal": terminal, "stdin": os.path.realpath("/proc/self/fd/0"), "ancestors": ancestors}
facts["code"] = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *sys.argv[2:]]).returncode
with open(sys.argv[1] + ".new", "w") as out:
    json.dump(facts, out)
os.rename(sys.argv[1] + ".new", sys.argv[1])
"""


def test_the_tests_that_need_a_terminal_pass_when_started_headless(tmp_path):
    output, verdict = tmp_path / "output.txt", tmp_path / "verdict.json"
    launcher = subprocess.run([sys.executable, "-c", LAUNCHER, str(output), RUNNER, str(verdict), *THE_TESTS],
                              cwd=ROOT, stdin=subprocess.DEVNULL, timeout=30)
    assert launcher.returncode == 0
    deadline = time.monotonic() + 120  # the three tests take a few seconds; the bound only stops a hung run
    while not verdict.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    shown = output.read_text(errors="replace") if output.exists() else ""
    assert verdict.exists(), f"the headless run did not finish: {shown}"
    facts = json.loads(verdict.read_text())
    # It really ran as a headless runner starts it ...
    assert (facts["sigint_ignored"], facts["own_session"], facts["terminal"], facts["stdin"]) == (True, True, False, os.devnull)
    shells = [(pid, name) for pid, name in facts["ancestors"] if name in SHELLS]
    if shells == [(1, facts["ancestors"][-1][1])]:
        pytest.skip(f"this system's first process is a shell ({shells[0][1]}): no process here is without one")
    assert shells == [], facts["ancestors"]
    # ... and the tests passed.
    assert facts["code"] == 0, shown
    assert f"{len(THE_TESTS)} passed" in shown, shown
