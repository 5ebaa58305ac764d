"""`ginscore qr`: a match file's codes on the terminal or in picture files, decoded back to the file's bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import one_error_line
from handover_matches import long_match

from ginscore.files.handover import joined

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")


def decoded(path: Path) -> str:
    """The one QR code's text in a picture, as a phone's reader gives it."""
    found = zxingcpp.read_barcodes(Image.open(path), formats=zxingcpp.BarcodeFormat.QRCode)  # not a 1-D code seen in it
    assert len(found) == 1, path
    return found[0].text


@pytest.fixture
def fresh(run, tmp_path: Path) -> Path:
    """A match just started, as written before ids: one code (the id `new` writes now, 16 random bytes, takes a
    just-started match past one code of 80 by 24)."""
    path = tmp_path / "m.toml"
    assert run("new", path, "Ann", "Bob").exit_code == 0
    path.write_text(re.sub(r'(?m)^id = ".*"\n', "", path.read_text(encoding="utf-8")), encoding="utf-8")
    return path


@pytest.fixture
def thirty(tmp_path: Path) -> Path:
    return long_match(tmp_path / "friday.toml", 30)


def test_the_codes_of_a_30_hand_match_written_as_png_decode_to_its_exact_bytes(run, thirty, tmp_path):
    result = run("qr", thirty, "-o", tmp_path / "codes.png")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    written = sorted(tmp_path.glob("codes-*.png"), key=lambda path: int(path.stem.split("-")[1]))
    assert len(written) > 1
    assert result.stdout == f"Wrote the {len(written)} codes of {thirty}, to scan in any order: {', '.join(map(str, written))}\n"
    assert joined([decoded(path) for path in reversed(written)]) == thirty.read_bytes()


def test_one_code_is_written_to_the_name_given(run, fresh, tmp_path):
    target = tmp_path / "one.svg"
    result = run("qr", fresh, "--output", target)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"Wrote the code of {fresh} to {target}\n"
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "<svg" in text
    assert not list(tmp_path.glob("one-*"))


def test_the_terminal_shows_each_code_labelled_k_of_n(run, thirty):
    result = run("qr", thirty)
    assert (result.exit_code, result.stderr) == (0, "")
    labels = [line for line in result.stdout.splitlines() if " of " in line]
    assert labels == [f"{number} of {len(labels)}" for number in range(1, len(labels) + 1)]
    assert len(labels) > 1
    assert result.stdout.splitlines()[0] == f"{len(labels)} codes: show them in turn; the phone takes them in any order."
    assert "▀" in result.stdout and "█" in result.stdout


def test_one_code_on_the_terminal_has_no_label(run, fresh):
    result = run("qr", fresh)
    assert result.exit_code == 0
    assert " of " not in result.stdout and "▄" in result.stdout


def test_an_existing_picture_is_kept_unless_force_and_none_is_written(run, thirty, tmp_path):
    assert run("qr", thirty, "-o", tmp_path / "codes.svg").exit_code == 0
    second = tmp_path / "codes-2.svg"
    second.write_text("mine", encoding="utf-8")
    before = {path: path.read_bytes() for path in tmp_path.glob("codes-*.svg")}
    result = run("qr", thirty, "-o", tmp_path / "codes.svg")
    assert result.exit_code == 1
    assert one_error_line(result) == f"error: {tmp_path / 'codes-1.svg'} already exists: pick another name, or add --force to replace it"
    assert {path: path.read_bytes() for path in tmp_path.glob("codes-*.svg")} == before
    assert run("qr", thirty, "-o", tmp_path / "codes.svg", "--force").exit_code == 0
    assert second.read_text(encoding="utf-8").startswith("<?xml")


@pytest.mark.parametrize("name", ["codes.gif", "codes", ".svg"])
def test_a_picture_of_no_known_kind_is_bad_input(run, played, tmp_path, name):
    result = run("qr", played, "-o", tmp_path / name)
    assert result.exit_code == 2
    assert one_error_line(result) == (f"error: --output: cannot tell the format of {str(tmp_path / name)!r}: "
                                      "end the name in .svg or .png")
    assert not [path for path in tmp_path.iterdir() if path.suffix in (".svg", ".png", ".gif") or path.name == "codes"]


def test_a_broken_match_file_is_refused_and_nothing_printed(run, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[match]\nplayers = 3\n", encoding="utf-8")
    result = run("qr", broken)
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"error: {broken}")


def test_a_missing_file_is_refused(run, tmp_path):
    result = run("qr", tmp_path / "none.toml")
    assert result.exit_code == 1
    assert "no such file" in one_error_line(result)


def test_a_file_too_large_for_codes_is_refused_by_its_name(run, fresh, monkeypatch):
    from ginscore.files import handover

    monkeypatch.setattr(handover, "MOST_PARTS", 0)
    result = run("qr", fresh)
    assert result.exit_code == 2
    assert one_error_line(result).startswith(f"error: {fresh} is too large to hand over by codes (")
