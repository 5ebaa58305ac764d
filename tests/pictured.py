"""The pages the docs' pictures show, and a fingerprint of each, so that a test notices when a pictured page has
changed since its picture was made.

`docs/make_pictures.sh` takes the pictures (tests/test_first_screen_browser.py takes serve's from `pictured_folder`,
tests/test_export_browser.py the exports'), then runs this file with `--write`, which stores each picture's
fingerprint in docs/pictures.json. tests/test_pictures.py renders the same pages in process and compares.

A fingerprint is a SHA-256 of what the picture is drawn from: for a page of `ginscore serve`, its HTML as the server
sends it (the per-session CSRF value and the file's version masked) and the stylesheet; for an export, the file
`ginscore show --export` writes, which carries its own style.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from pages import ROOT, SAMPLES, signed_in

from ginscore.files import storage
from ginscore.game.rulebook import preset
from ginscore.match.records import HandRecord, Match

DOCS = ROOT / "docs"
RECORD = DOCS / "pictures.json"
STYLE = ROOT / "ginscore" / "web" / "static" / "style.css"
PHONE = {"width": 390, "height": 844}

TWELVE = [("Ann", 2, 8), ("Bob", 3, 9), ("Ann", 1, 7), ("Bob", 4, 6), ("Ann", 5, 11), ("Ann", 2, 4),
          ("Bob", 0, 7), ("Ann", 3, 10), ("Bob", 6, 9), ("Ann", 2, 5), ("Bob", 1, 3), ("Ann", 4, 12)]
"""Twelve hands that leave a standard match in play: (knocker, knocker's count, opponent's count)."""
WON = [("Ann", 2, 40), ("Bob", 1, 30), ("Ann", 3, 45), ("Ann", 2, 30)]
"""Ann reaches 108 on the fourth hand: the game over, Ann 268 to Bob 49 with the bonuses."""
HOLLYWOOD = [("Ann", 0, 60), ("Bob", 2, 30), ("Ann", 1, 20), ("Bob", 0, 15), ("Ann", 3, 40)]
"""A Hollywood match, target 100, where game 1 is over and games 2 and 3 are in play."""
HOLLYWOOD_WON = [("Cy", 0, 90), ("Di", 0, 95), ("Cy", 0, 98)] * 2
"""A Hollywood match to 150 between Cy and Di, all three games over on the sixth hand: the longest game-over block
(a shutout bonus column, three lines of how the games ended)."""


@dataclass(frozen=True)
class Pictured:
    """One picture of a serve page: its file in docs/, the page's address, and how the phone shows it."""

    picture: str
    path: str
    dark: bool = False
    scroll_to: str = ""
    """A selector scrolled into view before the picture is taken (the first screen otherwise)."""


SERVED = (
    Pictured("serve-scoreboard.png", "/m/twelve.toml"),
    Pictured("serve-result.png", "/m/won.toml?recorded=4"),
    Pictured("serve-hollywood.png", "/m/hollywood.toml"),
    Pictured("serve-phone.png", "/m/standard.toml"),
    Pictured("serve-dark.png", "/m/standard.toml", dark=True, scroll_to=".chart-box"),
)
"""serve's pictures, taken at 390 x 844 from `pictured_folder` (docs/serve.md's walkthrough and the README's phone)."""

EXPORTED = {
    "standard.png": "standard.html", "standard-phone.png": "standard.html", "oklahoma.png": "oklahoma.html",
    "counts_only.png": "counts_only.html", "oklahoma-chart.png": "oklahoma.svg",
}
"""The export pictures (tests/test_export_browser.py) and the export each is drawn from, of sample_matches/."""

MASKS = (
    (re.compile(r'(name="csrf" value=")[^"]*'), r"\1…"),
    (re.compile(r'(data-version=")[^"]*'), r"\1…"),
)
"""What differs between two renderings of the same page: the session's CSRF value, and the file's version (its
modification time and place on the disk)."""


def _write(path: Path, hands: list[tuple[str, int, int]], hollywood: bool = False, target: int = 100,
           players: tuple[str, str] = ("Ann", "Bob")) -> None:
    records = tuple(HandRecord(knocker=who, deadwood=mine, opponent_deadwood=theirs) for who, mine, theirs in hands)
    match = Match(players=players, rules=replace(preset("standard"), target=target), first_dealer=players[1],
                  hands=records, hollywood=hollywood, preset="standard")
    path.write_text(storage.dumps(match), encoding="utf-8")


def pictured_folder(folder: Path) -> Path:
    """Write the matches serve's pictures show into `folder`, and return it."""
    _write(folder / "twelve.toml", TWELVE)
    _write(folder / "won.toml", WON)
    _write(folder / "hollywood.toml", HOLLYWOOD, hollywood=True)
    _write(folder / "hollywood-won.toml", HOLLYWOOD_WON, hollywood=True, target=150, players=("Cy", "Di"))
    shutil.copy(SAMPLES / "standard.toml", folder / "standard.toml")
    return folder


def fingerprint(*parts: str) -> str:
    """The SHA-256 of the parts, each with its volatile values masked."""
    digest = hashlib.sha256()
    for part in parts:
        for pattern, mask in MASKS:
            part = pattern.sub(mask, part)
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def fingerprints() -> dict[str, str]:
    """Each picture's fingerprint, from the pages as this checkout renders them."""
    from typer.testing import CliRunner

    from ginscore.cli import app

    found: dict[str, str] = {}
    style = STYLE.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "served"
        folder.mkdir()
        pictured_folder(folder)
        with signed_in(folder) as client:
            for shown in SERVED:
                answer = client.get(shown.path)
                assert answer.status_code == 200, (shown.path, answer.status_code)
                found[shown.picture] = fingerprint(answer.text, style)
        exports = Path(temporary) / "exports"
        exports.mkdir()
        for name in sorted(set(EXPORTED.values())):
            sample = SAMPLES / f"{Path(name).stem}.toml"
            result = CliRunner().invoke(app, ["show", str(sample), "--export", str(exports / name)], env={"NO_COLOR": "1"})
            assert result.exit_code == 0, result.output
        for picture, name in EXPORTED.items():
            found[picture] = fingerprint((exports / name).read_text(encoding="utf-8"))
    return dict(sorted(found.items()))


def main(arguments: list[str]) -> int:
    """`--write`: store the fingerprints in docs/pictures.json (docs/make_pictures.sh, after the pictures)."""
    if arguments != ["--write"]:
        print("usage: python tests/pictured.py --write", file=sys.stderr)
        return 2
    RECORD.write_text(json.dumps(fingerprints(), indent=2) + "\n", encoding="utf-8")
    print(f"Wrote the fingerprints of {len(SERVED) + len(EXPORTED)} pictures to {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
