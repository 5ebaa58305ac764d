"""No command-line words on a phone page: every page and refusal of serve's pad, and of the offline app (its shell's
page and scripts, a file it refuses to open, its first check before the pages load), read for the phrases a player
should never meet (an option, a command, `knob=value`, a `<=` verdict, an `error:` prefix, a bearer token, the
TOML parser's words about a damaged file), and for a card written as the command line takes it (`3h`) where the
phone says `3♥`."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pages import samples_and_a_broken_file, signed_in

COMMAND_WORDS = re.compile(
    r"(^|\s|\()--[a-z]|ginscore [a-z]|knob=value|rule knobs|No match files|File name: |<= ?\d|can knock \(|"
    r"\berror: |Authorization: Bearer|Starting Python|not valid TOML|Expected '='|"
    # what issue 39's evening met: a file "from the command line", a knob as `gin_bonus=25`, the "preset's" target,
    # downloads named by their formats, a seed to repeat, an ace up-card as a knock limit of 0, a chance "solved
    # exactly" or counted "at this table", and games finished called won
    r"from the command line|\b[a-z]+_[a-z_]+ ?=|preset's|\((?:HTML|SVG|CSV|Markdown)\)|\bSeed \d|same seed|"
    r"knock limit of 0|solved exactly|at this table|\d games? won ·",
)

CARD_CODES = re.compile(r"(?<![\w'’-])(?:10|[2-9AJQK])[cdhs](?![\w'’-])")
"""A card in the command line's notation, `3h` or `10c`, standing alone as a word."""


SHOWN_ATTRIBUTES = re.compile(r'\b(?:placeholder|aria-label|title|alt)="([^"]*)"')
"""The attributes a person reads or hears: a box's placeholder, a button's name, a tip, a picture's words."""


def words(page: str) -> str:
    """A page's text as a person reads it: no tags, no scripts or styles, with the words its attributes show."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    shown = " ".join(SHOWN_ATTRIBUTES.findall(text))
    return html.unescape(re.sub(r"<[^>]+>", " ", text) + " " + shown)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return samples_and_a_broken_file(tmp_path)


def test_no_page_or_refusal_speaks_the_command_lines_words(folder: Path):
    with signed_in(folder) as client:
        pages = ["/", "/check", "/stats", "/stats/pair?a=Maria&b=Tom", "/stats/player?name=Ines", "/m/standard.toml",
                 "/m/oklahoma.toml", "/m/standard.toml/edit/1", "/m/standard.toml/edit/3",
                 "/m/oklahoma.toml/record", "/m/counts_only.toml/record", "/m/counts_only.toml/edit/1",
                 "/m/counts_only.toml/undo", "/m/oklahoma.toml/check", "/m/broken.toml", "/m/missing.toml",
                 "/stats/pair?a=No&b=One", "/m/counts_only.toml/edit/99", "/no/such/page",
                 "/standings", "/standings?season=month", "/stats/pair?a=Ines&b=Tom",
                 "/m/counts_only.toml/review"]
        said = {url: client.get(url).text for url in pages}
        csrf = re.search(r'name="csrf" value="([^"]+)"', said["/"])
        assert csrf
        refusals = {
            "new, one name": ("/new", {"player1": "Ann", "player2": "", "file": "x"}),
            "new, a bad knob": ("/new", {"player1": "Ann", "player2": "Bob", "settings": "gin_bonus"}),
            "new, a bad name": ("/new", {"player1": "Ann", "player2": "Bob", "file": ".hidden"}),
            "record, an illegal knock": ("/m/counts_only.toml/record", {"how": "counts", "knocker": "1", "deadwood": "30", "opponent_deadwood": "40"}),
            "check, a bad card": ("/check", {"cards": "3h 4h Xx"}),
            "check, eleven cards and which to discard": ("/check", {"cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "action": "check"}),
            "new, a match in play": ("/new", {"player1": "Ann", "player2": "Bob", "file": "inplay", "settings": "gin bonus 30"}),
            "new, an Oklahoma match in play": ("/new", {"player1": "Cy", "player2": "Di", "rules": "oklahoma", "file": "okla"}),
            "the match's check, eleven cards and the game weighed": ("/m/inplay.toml/check", {
                "cards": "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d 9h", "action": "check"}),
            "record, an ace up-card and a knock": ("/m/okla.toml/record", {
                "how": "counts", "knocker": "1", "deadwood": "2", "opponent_deadwood": "40", "upcard": "As", "action": "preview"}),
            "edit, a card hand previewed": ("/m/standard.toml/edit/1", {
                "how": "cards", "knocker": "Maria", "action": "preview",
                "cards": "3h 4h 5h 9c 9d 9s Jd Qd Kd 2c Ks", "opponent_cards": "7c 7d 7s 10h 10c 2d 3s 4c Ac 6h"}),
        }
        for name, (url, form) in refusals.items():
            said[name] = client.post(url, data={"csrf": csrf.group(1), **form}).text
    assert "Spread:" in words(said["edit, a card hand previewed"])  # the preview, its spread and both sides, is read
    assert "Which discard?" in words(said["check, eleven cards and which to discard"])  # the advice table is read
    assert "For the game" in words(said["the match's check, eleven cards and the game weighed"])  # with the game's side
    assert "where only gin may go down" in words(said["record, an ace up-card and a knock"])
    assert "The chart as a picture" in words(said["/m/standard.toml"])  # the downloads are read
    assert "Each knock recorded" in words(said["/m/counts_only.toml/review"])  # the review's account, read at once
    assert "Target left empty: 100 for standard" in " ".join(words(said["/"]).split())
    assert "Fetching the score pad" in (SHELL / "progress.js").read_text(encoding="utf-8")
    for place, page in said.items():
        for pattern in (COMMAND_WORDS, CARD_CODES):
            found = pattern.search(words(page))
            assert found is None, (place, found and " ".join(words(page)[max(0, found.start() - 120):found.end() + 60].split()))


def test_the_card_check_can_fail():
    """What the sheet said before the glyphs is found; a word such as `As` at a sentence's start is a card only
    when it is one (`As` is the ace of spades here), and glyphs, counts and times are not cards."""
    assert CARD_CODES.search("Maria laid down 3h 4h 5h | 9c 9d 9s") and CARD_CODES.search("up-card 10d")
    assert CARD_CODES.search("the best one 3h 4h")
    assert not CARD_CODES.search("Maria laid down 3♥ 4♥ 5♥ | (2♦) · 2 / 30 · 14:52 · hands · 10 cards · Ks-ready")


def test_the_page_a_stranger_gets_speaks_a_phones_words(folder: Path):
    from starlette.testclient import TestClient

    from ginscore.web.asgi import create_app

    with TestClient(create_app(str(folder), "t", ["127.0.0.1:8000"]), base_url="http://127.0.0.1:8000") as stranger:
        page = stranger.get("/")
    assert page.status_code == 401 and COMMAND_WORDS.search(words(page.text)) is None


SHELL = Path(__file__).resolve().parent.parent / "ginscore" / "pocket" / "shell"
NOT_TOML = '[match]\nplayers = ["Ann", "Bob"]\nfirst_dealer "Ann"\n'
"""A match file damaged on its third line: a key without its `=`."""


def test_the_damaged_file_is_said_in_a_players_words_on_the_list_and_its_page(tmp_path: Path):
    (tmp_path / "damaged.toml").write_text(NOT_TOML, encoding="utf-8")
    line = " line 3 is not a score sheet line" if sys.version_info >= (3, 14) else " it cannot be read as a score sheet"
    with signed_in(tmp_path) as client:
        listed, shown = words(client.get("/").text), words(client.get("/m/damaged.toml").text)
    assert "damaged.toml" in listed and f"broken: this file is damaged:{line}" in " ".join(listed.split())
    assert f"damaged.toml: this file is damaged:{line}" in " ".join(shown.split())
    for page in (listed, shown):
        assert COMMAND_WORDS.search(page) is None


def test_a_record_page_whose_file_is_damaged_meanwhile_says_so_in_a_players_words(tmp_path: Path):
    (tmp_path / "damaged.toml").write_text(NOT_TOML, encoding="utf-8")
    with signed_in(tmp_path) as client:
        csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
        assert csrf
        live = client.post("/m/damaged.toml/record/live", data={"csrf": csrf.group(1), "how": "counts", "deadwood": "3"})
    assert live.status_code == 422 and "damaged.toml: this file is damaged:" in words(live.text)
    assert COMMAND_WORDS.search(words(live.text)) is None


def test_the_apps_shell_speaks_a_players_words():
    page = words((SHELL / "index.html").read_text(encoding="utf-8"))
    assert "Getting the score pad ready" in page
    said = {"index.html": page}
    for script in sorted(path.name for path in SHELL.glob("*.js")):
        source = (SHELL / script).read_text(encoding="utf-8")
        said |= {f"{script}: {text}": text for text in re.findall(r'"((?:[^"\\\n]|\\.)*)"', source)}  # every string it can show
    assert any("was not opened" in text for text in said), "the open-file refusal is among the scripts' strings"
    for place, text in said.items():
        assert COMMAND_WORDS.search(text) is None, place


def test_the_apps_refusals_and_its_first_check_speak_a_players_words(pocket: Any):
    refused = {
        "not TOML": pocket.opened("damaged.toml", NOT_TOML.encode(), ""),
        "not UTF-8": pocket.opened("latin.toml", b'[match]\nplayers = ["Jos\xe9", "Ann"]\n', ""),
        "a hidden name": pocket.before_reading(".hidden.toml", 10),
        "no .toml": pocket.before_reading("holly", 10),
        "too big": pocket.before_reading("big.toml", 70 * 2**20),
    }
    said = {place: json.loads(answer)["error"] for place, answer in refused.items()}
    for place, cards in (("a bad card", "3h 4h Xx"), ("too few cards", "3h 4h 5h")):  # the check page's HTML
        refusal = re.search(r'<p class="error" role="alert">([^<]*)</p>', pocket.check(cards))
        assert refusal, place
        said[place] = html.unescape(refusal.group(1))
    assert said["not TOML"].startswith("damaged.toml: this file is damaged: ")
    assert said["no .toml"] == "'holly' cannot be a match file's name: a match file's name ends in .toml, like holly.toml"
    checked = pocket.check("3h 4h 5h Ks Kc Kd 7c 8c 9c 2d")
    verdict = re.search(r'<p class="knock-verdict">([^<]*)\.</p>', checked)
    assert verdict and verdict.group(1) == "You can knock: 2 deadwood, limit 10"
    melds = re.findall(r'<span class="meld">((?:<span class="card-chip[^"]*">[^<]*</span>)+)</span>', checked)
    assert [re.findall(r">([^<]+)<", meld) for meld in melds] == [["3♥", "4♥", "5♥"], ["7♣", "8♣", "9♣"], ["K♣", "K♦", "K♠"]]
    said["the verdict"] = verdict.group(1)
    for place, text in said.items():
        assert COMMAND_WORDS.search(text) is None, (place, text)
