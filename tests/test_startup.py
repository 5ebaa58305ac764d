"""What `ginscore show` loads at start-up (benchmarks/bench_startup.py times it): the chance of a preset's game
from the shipped scored hands, with no simulated hand imported, piped with no rich console (its lines are written
as plain text), and the collector back on for the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "sample_matches" / "standard.toml"

PROBE = """\
import gc, sys
sys.argv = ["ginscore", "show", *sys.argv[1:]]
from ginscore.cli import main
try:
    main()
except SystemExit:
    pass
loaded = [m for m in ("ginscore.game.baseline", "ginscore.game.simulate", "rich.console", "rich.text") if m in sys.modules]
sys.stderr.write(f"collecting={gc.isenabled()} loaded={','.join(loaded)}\\n")
"""


def show_in_a_process(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROBE, str(path), *options], capture_output=True, text=True, timeout=60)


def in_play(tmp_path: Path, hands: int) -> Path:
    """The first `hands` hands of the sample match, alone in a folder: a game in play."""
    path = tmp_path / "friday.toml"
    path.write_text("\n[[hands]]\n".join(SAMPLE.read_text(encoding="utf-8").split("\n[[hands]]\n")[: hands + 1]), encoding="utf-8")
    return path


def test_show_prints_the_chance_of_a_preset_game_without_the_simulated_hands(tmp_path):
    done = show_in_a_process(in_play(tmp_path, 7))
    assert "Chances: Maria 54% to win this game, Tom 46%" in done.stdout, done.stderr
    assert done.stderr == "collecting=True loaded=\n"


def test_rules_no_preset_has_score_the_simulated_hands_again(tmp_path):
    """The other way round: the probe sees the simulated hands once the rules are not a preset's."""
    path = in_play(tmp_path, 7)
    path.write_text(path.read_text(encoding="utf-8").replace("box_bonus = 20", "box_bonus = 25"), encoding="utf-8")
    done = show_in_a_process(path)
    assert "from the built-in model for standard rules, scored under these rules" in done.stdout, done.stderr
    assert done.stderr == "collecting=True loaded=ginscore.game.baseline\n"


def test_the_probe_sees_rich_where_show_draws_a_chart():
    """A piped `show` loads no rich console (above); the probe would see one: `--chart` draws with rich."""
    done = show_in_a_process(SAMPLE, "--chart")
    assert "Tom wins by 139" in done.stdout, done.stderr
    assert done.stderr == "collecting=True loaded=rich.console,rich.text\n"


def test_importing_the_cli_imports_no_typer():
    """`ginscore.cli` holds the entry point; Typer is imported in it, while the collector is off."""
    code = "import ginscore.cli, sys; print('typer' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "False\n", "")


def test_a_command_run_inside_another_program_freezes_nothing():
    """Freezing keeps whatever garbage the process holds: only a process the `ginscore` command started does."""
    code = (
        "import gc, sys\n"
        "from typer.testing import CliRunner\n"
        "from ginscore.cli import app\n"
        "done = CliRunner().invoke(app, ['show', sys.argv[1]])\n"
        "print(done.exit_code, gc.get_freeze_count(), gc.isenabled())\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(SAMPLE)], capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.stderr) == ("0 0 True\n", "")
