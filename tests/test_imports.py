"""The core is pure: importing it pulls in neither typer nor rich. `python -m ginscore` works."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "ginscore.errors",
    "ginscore.cards",
    "ginscore.melds",
    "ginscore.layoffs",
    "ginscore.rulebook",
    "ginscore.scoring",
    "ginscore.advise",
    "ginscore.match",
    "ginscore.play",
    "ginscore.stats",
    "ginscore.export",
    "ginscore.export_html",
    "ginscore.export_svg",
    "ginscore.sheet_words",
    "ginscore.folder",
    "ginscore.storage",
    "ginscore.api",
]


def python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60)


def test_core_imports_neither_typer_nor_rich():
    code = (
        f"import {', '.join(CORE)}, sys\n"
        "loaded = sorted(m for m in ('typer', 'rich', 'click') if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    done = python("-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "\n", f"the core imported {done.stdout.strip()}"


def test_the_probe_would_see_rich_if_it_were_imported():
    """The check above can fail: the same probe sees rich once render (the one rich module) is imported."""
    done = python("-c", "import ginscore.render, sys; print('rich' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True\n"


def test_python_m_ginscore_help():
    done = python("-m", "ginscore", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("Usage: ") and "ginscore" in done.stdout.splitlines()[0]  # click names it "python -m ginscore"
    assert "check" in done.stdout and "score" in done.stdout and "rules" in done.stdout
