"""The docs show real output, and their links lead somewhere.

Every `$ command` in a console block of README.md or docs/*.md is run, and what it prints must be the lines shown
under it. Each page runs in its own fresh copy of `sample_matches/`, its blocks in order, so a later block may use a
file an earlier one made. A command that starts with `COLUMNS=N ` runs on a pseudo-terminal N columns wide, the way
a person at such a terminal sees it (with `NO_COLOR=1`, and escape codes taken out). A command that cannot run is
listed in NOT_RUN with the reason; a reason whose command no longer appears in any page fails the tests.

A plain `ginscore ARGS` (its output perhaps sent to /dev/null) runs in this process, as tests/conftest.py's `run`
runs a command; anything else a shell would read (a pipe, `$?`, a loop) runs in a shell. A page's commands stamp
what they write (a match's start, a hand) by a clock that moves on at least a second a stamp, so that its matches
start as far apart as a person typing the commands would start them (a series orders matches by the second they
started) however fast the commands run here.

After a change to what a command prints, regenerate the shown output and review the diff:

    python tests/test_readme.py --update              # every page
    python tests/test_readme.py --update docs/cards.md

(This module keeps its old name because tests/test_play.py reads the `play` transcript through `console_commands`.)
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from terminal import run_on_terminal

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

NOT_RUN = {
    "python3 -m venv": "installs ginscore into a new virtual environment",
    "pipx install": "installs ginscore for the user, outside the test's environment",
    "pip install \".[test]\" && python -m pytest": "installs the test tools and runs this test suite from inside itself",
    "python -m pytest -m": "runs part of this test suite from inside itself",
    "python tests/test_readme.py --update": "rewrites the pages this test reads",
    "python benchmarks/": "a benchmark takes minutes, and its figures depend on the machine and its load",
    "ginscore play table.toml": "waits for a person at its prompts; tests/test_play.py types the transcript's answers "
    "into it and checks what it prints",
}
"""Commands shown but not run, by prefix, each with why."""

INSTALLS = ("python", "pip", "sudo", "apt")
"""Commands that are never run unless NOT_RUN says why: they install, or run tests or benchmarks."""

BLOCK = re.compile(r"(```console\n)(.*?)(```)", re.S)
TERMINAL = re.compile(r"COLUMNS=(\d+) ")
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def console_commands(pages: list[Path] | None = None) -> list[tuple[str, list[str]]]:
    """Each `$ command` of the pages' console blocks with the lines shown under it, in order."""
    steps = []
    for page in PAGES if pages is None else pages:
        for block in BLOCK.finditer(page.read_text(encoding="utf-8")):
            steps.extend(_chunks(block.group(2)))
    return steps


def _chunks(block: str) -> list[tuple[str, list[str]]]:
    before, *chunks = re.split(r"^\$ ", block, flags=re.M)
    assert not before.strip(), f"a console block must start with a `$ command` line, not {before!r}"
    steps = []
    for chunk in chunks:
        command, *shown = chunk.rstrip("\n").split("\n")
        steps.append((command, shown))
    return steps


def reason_not_run(command: str) -> str | None:
    """Why a command is shown but not run, or None when it runs."""
    return next((reason for prefix, reason in NOT_RUN.items() if command.startswith(prefix)), None)


def unneeded_reasons(commands: list[str], not_run: dict[str, str] = NOT_RUN) -> list[str]:
    """The NOT_RUN prefixes that no shown command starts with any more."""
    return [prefix for prefix in not_run if not any(command.startswith(prefix) for command in commands)]


def run(command: str, folder: Path) -> list[str]:
    """What a command prints, line by line: piped, or on a terminal of the width a `COLUMNS=N ` prefix gives."""
    env = {
        **os.environ,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"],
        "NO_COLOR": "1",
        "GINSCORE_CACHE_DIR": str(folder / ".cache"),
    }
    env.pop("COLUMNS", None)
    terminal = TERMINAL.match(command)
    argv = in_process(command)
    if terminal is not None:
        text = _on_a_terminal(command, folder, env, int(terminal.group(1)))
    elif argv is not None:
        text = _in_this_process(argv, folder, env, quiet=command.endswith(QUIET))
    else:
        done = subprocess.run(command, shell=True, cwd=folder, env=env, capture_output=True, text=True, timeout=120)
        text = done.stdout + done.stderr
    return [line.rstrip() for line in text.rstrip("\n").split("\n")] if text.strip("\n") else []


QUIET = " > /dev/null"
PLAIN = re.compile(r"[^|&;<>`$*?~(){}\[\]\\]*")


def in_process(command: str) -> list[str] | None:
    """The arguments of a plain `ginscore ARGS` (or `ginscore ARGS > /dev/null`) that needs no shell; else None."""
    line = command.removesuffix(QUIET)
    if not line.startswith("ginscore ") or not PLAIN.fullmatch(line):
        return None
    return shlex.split(line)[1:] or None


@contextlib.contextmanager
def a_second_a_stamp() -> Iterator[None]:
    """Every time stamp written in this process, a page's commands', at least a second after the one before:
    run here, they follow each other within a second, and a series, which orders matches by their start to
    the second, would not be what the page shows (docs/matches.md's club.toml: tried, and it failed two runs in
    three)."""
    from ginscore.files import changes
    from ginscore.match import records

    last = [0]

    def now() -> str:
        last[0] = max(int(time.time()), last[0] + 1)
        return datetime.fromtimestamp(last[0], UTC).isoformat()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records, "now", now)
        patch.setattr(changes, "now", now)  # its own name for it, imported
        yield


def _in_this_process(argv: list[str], folder: Path, env: dict[str, str], quiet: bool) -> str:
    """What `ginscore ARGV` prints, stdout then stderr, run here as a fresh process would run it: in `folder`,
    with the page's environment, output piped. A crash fails the test rather than printing a traceback."""
    from typer.testing import CliRunner

    from ginscore.cli import app

    here = {name: env.get(name) for name in ("NO_COLOR", "GINSCORE_CACHE_DIR", "COLUMNS")}
    with contextlib.chdir(folder):
        result = CliRunner().invoke(app, argv, env=here, prog_name="ginscore")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"ginscore {shlex.join(argv)} crashed") from result.exception
    return ("" if quiet else result.stdout) + result.stderr


def _on_a_terminal(command: str, folder: Path, env: dict[str, str], columns: int) -> str:
    ran = run_on_terminal(command, {**env, "TERM": "xterm"}, columns=columns, cwd=folder)
    return ESCAPE.sub("", ran.output.decode("utf-8").replace("\r\n", "\n"))


def check_page(text: str, folder: Path, update: bool = False) -> tuple[str, list[str]]:
    """Run a page's commands in order in `folder`: the page with each run command's output as printed now, and
    the mismatches between what it shows and what was printed."""
    mismatches = []

    def block(found: re.Match[str]) -> str:
        rebuilt = []
        for command, shown in _chunks(found.group(2)):
            if reason_not_run(command) is None:
                assert not command.startswith(INSTALLS), f"$ {command}: list it in NOT_RUN with the reason it is not run"
                printed = run(command, folder)
                if printed != [line.rstrip() for line in shown]:
                    mismatches.append(f"$ {command}\nshown:   {shown}\nprinted: {printed}")
                    if update:
                        shown = printed
            rebuilt.append("".join(f"{line}\n" for line in [f"$ {command}", *shown]))
        return found.group(1) + "".join(rebuilt) + found.group(3)

    with a_second_a_stamp():
        return BLOCK.sub(block, text), mismatches


def fresh_folder(parent: Path) -> Path:
    """A folder holding a copy of sample_matches/, as a reader who just cloned the repository has."""
    shutil.copytree(ROOT / "sample_matches", parent / "sample_matches")
    return parent


# --- the commands ------------------------------------------------------------------------------------------------


def test_the_pages_have_commands_to_check():
    readme = [command for command, _ in console_commands([ROOT / "README.md"]) if reason_not_run(command) is None]
    everywhere = [command for command, _ in console_commands() if reason_not_run(command) is None]
    assert len(readme) >= 8 and len(everywhere) >= 60


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_command_prints_what_the_page_shows(page, tmp_path):
    _, mismatches = check_page(page.read_text(encoding="utf-8"), fresh_folder(tmp_path))
    hint = "\n\nIf the new output is right: python tests/test_readme.py --update " + str(page.relative_to(ROOT))
    assert not mismatches, "\n\n".join(mismatches) + hint


def test_every_command_not_run_is_still_shown():
    assert unneeded_reasons([command for command, _ in console_commands()]) == []


def test_a_reason_for_a_command_gone_is_caught():
    assert unneeded_reasons(["ginscore check 2c"], {"ginscore check": "a", "ginscore show x --chart": "b"}) == [
        "ginscore show x --chart"
    ]


def test_a_stale_output_is_caught_and_updated(tmp_path):
    stale = "```console\n$ ginscore check 3h 4h 5h KS KC KD 7c 8c 9c 2d\ndeadwood  3\n```\n"
    updated, mismatches = check_page(stale, fresh_folder(tmp_path), update=True)
    assert len(mismatches) == 1 and "deadwood  2\nverdict   can knock (2 <= 10)\n```" in updated


def test_a_sheet_shown_piped_is_not_what_a_narrow_terminal_shows(tmp_path):
    """`COLUMNS=60` is honoured: a narrow terminal's sheet differs from the piped one by its lines and widths."""
    folder = fresh_folder(tmp_path)
    piped = run("ginscore show sample_matches/standard.toml", folder)
    page = "```console\n$ COLUMNS=60 ginscore show sample_matches/standard.toml\n" + "\n".join(piped) + "\n```\n"
    _, mismatches = check_page(page, folder)
    narrow = run("COLUMNS=60 ginscore show sample_matches/standard.toml", folder)
    assert len(mismatches) == 1 and max(len(line) for line in narrow) <= 60 and narrow != piped


# --- the links ---------------------------------------------------------------------------------------------------

COMING: dict[str, str] = {}
"""Pages linked before they exist, each with why. Once one exists, the entry must go."""

LINK = re.compile(r"\]\(([^)\s]+)\)|<(?:img|a)\s[^>]*?(?:src|href)=\"([^\"]+)\"")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(text: str) -> set[str]:
    """The `#anchor` of each heading, as GitHub makes them: lower case, punctuation dropped, spaces to `-`, and a
    `-1`, `-2`, ... after a repeat."""
    seen: dict[str, int] = {}
    made = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#* *$", FENCE.sub("", text), flags=re.M):
        slug = "".join(c for c in heading.lower() if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        made.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return made


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Each relative link or `#anchor` on a page that leads to no file or heading."""
    broken = []
    text = page.read_text(encoding="utf-8")
    for found in LINK.finditer(FENCE.sub("", text)):
        target = found.group(1) or found.group(2)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if goal.is_relative_to(root) and str(goal.relative_to(root)) in COMING and not goal.exists():
            continue
        if "shared/" in path or not goal.is_relative_to(root) or not goal.exists():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and (goal.suffix != ".md" or anchor not in anchors(goal.read_text(encoding="utf-8"))):
            broken.append(f"{target}: no heading with that anchor")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    assert broken_links(page) == []


def test_every_page_still_coming_is_still_missing():
    assert [page for page in COMING if (ROOT / page).exists()] == [], "it exists now: remove it from COMING"


def test_a_broken_link_is_caught(tmp_path):
    (tmp_path / "a.md").write_text("# Keeping a match: new, `record`\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#keeping-a-match-new-record) [no](a.md#keeping) [gone](c.md) [up](../x)\n", encoding="utf-8")
    assert [line.split(":")[0] for line in broken_links(page, tmp_path)] == ["a.md#keeping", "c.md", "../x"]


def test_no_page_sends_readers_outside_the_repository():
    for page in PAGES:
        assert "shared/" not in page.read_text(encoding="utf-8"), page


# --- the shape ---------------------------------------------------------------------------------------------------


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8")) <= 12_500


NOT_WRAPPED = {"docs/architecture.md": "the source layout's page is kept as its authors wrote it, 120 columns"}


@pytest.mark.parametrize("page", [page for page in PAGES if str(page.relative_to(ROOT)) not in NOT_WRAPPED],
                         ids=lambda page: str(page.relative_to(ROOT)))
def test_prose_lines_fit_110_columns(page):
    prose = FENCE.sub("", page.read_text(encoding="utf-8")).split("\n")
    long = [line for line in prose if len(line) > 110 and not line.startswith(("|", "<img"))]
    assert long == []


# --- python tests/test_readme.py --update [PAGE...] ----------------------------------------------------------------


def update(pages: list[Path]) -> int | str:
    """Rewrite each page's shown output with what its commands print now; say which pages changed."""
    if shutil.which("ginscore", path=str(Path(sys.executable).parent)) is None:
        return f"no ginscore beside {sys.executable}: run this with the environment's Python, e.g. .venv/bin/python"
    for page in pages:
        with tempfile.TemporaryDirectory() as parent:
            text = page.read_text(encoding="utf-8")
            updated, mismatches = check_page(text, fresh_folder(Path(parent)), update=True)
        if updated != text:
            page.write_text(updated, encoding="utf-8")
        print(f"{page.relative_to(ROOT)}: {len(mismatches)} output(s) rewritten" if mismatches else f"{page.relative_to(ROOT)}: as shown")
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] != ["--update"]:
        sys.exit("usage: python tests/test_readme.py --update [PAGE...]  (run the checks with pytest)")
    sys.exit(update([Path(name).resolve() for name in arguments[1:]] or PAGES))
