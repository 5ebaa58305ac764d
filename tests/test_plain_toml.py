"""The fast reader of plain match files agrees with tomllib wherever it answers, and answers for
every file ginscore writes."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginscore.files import plain_toml, reading, storage

SAMPLES = sorted(Path(__file__).parent.parent.joinpath("sample_matches").glob("*.toml"))

# Lines that sit at the edges of the plain layout, valid TOML or not.
EDGE_LINES = [
    "[[hands]]", "[hands.totals]", "[match]", "[rules]", "[hands]", "[ match ]", '["match"]', "[match.x]",
    "[[hands]] # c", "[hands.totals] # c", "\t[[hands]]", " [hands.totals]", "[[ hands ]]", "[[match]]",
    'a = "x"', 'a = "x" # c', "a = 1", "a = -0", "a = +1", "a = 07", "a = 1_000", "a = 1.5", "a = 0x1f",
    "a = true", "a = True", "a = 2026-01-01", 'a = "x\\"y"', "a = 'x'", 'a = """x"""', 'a = "tab\there"',
    'a = "bell\x07"', "a = [", '"x",', '"x"', "]", "a = []", 'a = ["x"]', "a.b = 1", '"a" = 2', '"" = 3',
    "totals = 1", "hands = 1", "format = 2", "# comment", "#\x07", "# é ünïcode", "", "   ", "\t",
    'Ann = 5', '"Ann Lee" = 5', "José = 1", '"José" = 1', "a = 1 b = 2", "a = ", "= 1", "a = [ # c",
    '  "x", # c', "a = 99999999999999999999", "a\x0c= 1", "\x0c[[hands]]", "a = \"x\"\r",
]


def read_as_tomllib_reads_it_or_left_to_it(text: str) -> None:
    """The fast reader gives tomllib's document, or None; always None where tomllib refuses the text."""
    fast = plain_toml.read(text)
    try:
        expected = tomllib.loads(text)
    except ValueError:  # TOMLDecodeError, or a number too long for Python
        assert fast is None
    else:
        assert fast is None or fast == expected


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_every_sample_is_read_by_the_fast_path_as_tomllib_reads_it(path):
    text = path.read_text(encoding="utf-8")
    assert plain_toml.read(text) == tomllib.loads(text)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_what_storage_writes_is_read_by_the_fast_path(path):
    match, sheet = reading.load(str(path))
    text = storage.dumps(match, sheet)
    assert plain_toml.read(text) == tomllib.loads(text)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SAMPLES), st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(EDGE_LINES)), max_size=4))
def test_a_sample_with_edge_lines_put_in_is_read_as_tomllib_reads_it_or_left_to_it(path, inserts):
    lines = path.read_text(encoding="utf-8").split("\n")
    for position, line in inserts:
        lines.insert(position % (len(lines) + 1), line)
    text = "\n".join(lines)
    read_as_tomllib_reads_it_or_left_to_it(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(EDGE_LINES), max_size=12))
def test_edge_lines_alone_are_read_as_tomllib_reads_them_or_left_to_it(lines):
    text = "\n".join(lines)
    read_as_tomllib_reads_it_or_left_to_it(text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SAMPLES), st.integers(0, 10_000), st.text(alphabet='[]"=#,.\\ \t\n-+0123456789aeh\x07é', max_size=6))
def test_a_sample_with_stray_characters_is_read_as_tomllib_reads_it_or_left_to_it(path, position, stray):
    text = path.read_text(encoding="utf-8")
    position %= len(text) + 1
    text = text[:position] + stray + text[position:]
    read_as_tomllib_reads_it_or_left_to_it(text)


def test_the_plain_layout_is_the_fast_paths_and_nothing_more():
    text = (
        '# c\nformat = 2\n[match]\nplayers = [\n  "A",\n  "B", # c\n]\n[[hands]]\nknocker = "A"\nknocker_deadwood = 0\n'
        'cancelled = false\n\n[hands.totals]\nA = 25\n"B C" = -0\n'
    )
    assert plain_toml.read(text) == tomllib.loads(text)
    assert plain_toml.read(text.replace("= 25", "= 2_5")) is None
    assert plain_toml.read(text.replace('"B C"', "A")) is None


@pytest.mark.parametrize(
    "items", [['"A",', '"B",'], ['"A",', '"B"'], ['"A"', '"B"'], ['"A"', '"B",'], [",", '"A"'], ['"A",', ","], ['"A",,']]
)
def test_a_list_over_lines_needs_its_commas_as_tomllib_does(items):
    text = "\n".join(["players = [", *items, "]"])
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assert plain_toml.read(text) is None
    else:
        assert plain_toml.read(text) == expected
