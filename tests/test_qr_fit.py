"""`ginscore qr` on a terminal: every code fits its width and height, in half blocks, and the codes read off the
text (rebuilt as a picture and decoded) join back to the file's exact bytes."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from conftest import one_error_line
from handover_matches import long_match
from terminal import Session, run_on_terminal

from ginscore.files.handover import joined
from ginscore.sheets.qr_codes import alphanumeric_capacity, largest_version

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
LIGHT = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
"""Each character of a drawn code: whether its upper and its lower module is light."""
LABEL = re.compile(r"([0-9]+) of ([0-9]+)")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env["NO_COLOR"] = "1"
    return env


def on_terminal(path: Path, columns: int, rows: int) -> tuple[int, list[str]]:
    """`ginscore qr path` with stdout on a pseudo-terminal of `columns` by `rows`: its exit status and lines."""
    done = run_on_terminal([GINSCORE, "qr", str(path)], _env(), columns=columns, rows=rows, stderr_too=False, timeout=60)
    assert done.stderr == b""
    return done.returncode, done.output.decode("utf-8").replace("\r\n", "\n").splitlines()


def drawn_codes(lines: list[str]) -> list[list[str]]:
    """The codes in the output: each a run of lines of half blocks, with the label under it when there is one."""
    codes: list[list[str]] = [[]]
    for line in lines:
        if line and set(line) <= set(LIGHT):
            codes[-1].append(line)
        elif codes[-1]:
            codes[-1].append(line)
            codes.append([])
    return [code for code in codes if code]


def decoded(code: list[str]) -> str:
    """A drawn code's text, read from a picture rebuilt from its half blocks, 4 pixels a module."""
    width = max(len(line) for line in code)
    picture = Image.new("L", (width * 4, len(code) * 8), 0)
    for y, line in enumerate(code):
        for x, character in enumerate(line):
            for half, light in enumerate(LIGHT[character]):
                if light:
                    picture.paste(255, (x * 4, y * 8 + half * 4, x * 4 + 4, y * 8 + half * 4 + 4))
    found = zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, "\n".join(code)
    return found[0].text


@pytest.fixture(scope="module")
def thirty(tmp_path_factory) -> Path:
    return long_match(tmp_path_factory.mktemp("qr") / "friday.toml", 30)


def test_on_80_by_24_every_code_fits_and_the_codes_join_to_the_file(thirty):
    status, lines = on_terminal(thirty, 80, 24)
    assert status == 0
    codes = drawn_codes(lines[1:])
    assert lines[0] == f"{len(codes)} codes: show them in turn; the phone takes them in any order."
    assert len(codes) > 1
    assert max(len(line) for line in lines) <= 80
    labelled = [code[:-1] for code in codes]
    assert [code[-1] for code in codes] == [f"{number} of {len(codes)}" for number in range(1, len(codes) + 1)]
    assert max(len(code) for code in codes) <= 24  # a code and its label
    assert "▀" in lines[1] or "▄" in "".join(lines)
    assert joined([decoded(code) for code in reversed(labelled)]) == thirty.read_bytes()


def test_a_larger_terminal_takes_fewer_larger_codes(thirty):
    status, small = on_terminal(thirty, 80, 24)
    status, large = on_terminal(thirty, 120, 60)
    assert status == 0
    small_codes, large_codes = drawn_codes(small[1:]), drawn_codes(large[1:])
    assert len(large_codes) < len(small_codes)
    assert max(len(code) for code in large_codes) <= 60 and max(len(line) for line in large) <= 120
    assert joined([decoded(code[:-1]) for code in large_codes]) == thirty.read_bytes()


def test_a_match_just_started_is_one_code_without_a_label_and_reads_back(run, tmp_path):
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    status, lines = on_terminal(path, 80, 30)  # its id, 16 random bytes, takes it past one code of 80 by 24
    assert status == 0
    assert len(lines) <= 29 and all(set(line) <= set(LIGHT) for line in lines)
    assert joined([decoded(lines)]) == path.read_bytes()


def test_off_a_terminal_the_codes_fit_80_by_24(run, thirty):
    result = run("qr", thirty)
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    codes = drawn_codes(lines[1:])
    assert max(len(line) for line in lines) <= 80 and max(len(code) for code in codes) <= 24
    assert joined([decoded(code[:-1]) for code in codes]) == thirty.read_bytes()


def test_a_terminal_too_small_for_any_code_is_refused_with_the_size_it_needs(thirty):
    done = run_on_terminal([GINSCORE, "qr", str(thirty)], _env(), columns=30, rows=12, stderr_too=False, timeout=60)
    assert done.returncode == 1
    assert done.output == b""
    assert done.stderr.decode("utf-8").splitlines()[0] == (
        "error: a terminal of 30 columns and 12 lines is too small for a QR code: make it at least 33 columns "
        "and 18 lines, or write the codes as pictures with --output")


def test_on_a_terminal_with_a_keyboard_enter_shows_the_next_code(thirty):
    session = Session([GINSCORE, "qr", str(thirty)], _env(), columns=80, rows=24)
    session.until(b"1 of ")
    count = int(session.until(b": press Enter for the next ").split(b":")[0])
    session.type(b"\r")
    session.until(f"2 of {count}".encode())
    session.type(b"\x04")  # the input closed: no more codes
    assert session.finish() == 0
    assert f"{count} of {count}".encode() not in session.seen


@pytest.mark.parametrize("columns, rows, version", [(80, 24, 5), (45, 23, 5), (44, 80, 4), (200, 100, 40), (32, 80, 1), (28, 80, 0)])
def test_the_largest_version_drawn_fits(columns, rows, version):
    assert largest_version(columns, rows) == version


def test_the_capacity_is_the_standard_s_table():  # ISO/IEC 18004 table 7, alphanumeric at M
    assert [alphanumeric_capacity(version) for version in (1, 2, 5, 10, 15, 40)] == [20, 38, 122, 311, 600, 3391]


@pytest.mark.parametrize("version", [2, 5, 9, 10, 26, 27])
def test_the_capacity_fills_a_code_of_that_version_and_one_more_character_does_not_fit(version):
    import segno

    capacity = alphanumeric_capacity(version)
    assert segno.make_qr("A" * capacity, error="m", boost_error=False).version == version
    assert segno.make_qr("A" * (capacity + 1), error="m", boost_error=False).version == version + 1


def test_a_broken_file_is_refused_before_any_code(run, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[match]\nplayers = 3\n", encoding="utf-8")
    result = run("qr", broken)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"error: {broken}")
