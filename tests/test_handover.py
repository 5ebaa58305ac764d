"""The handover codec (files/handover.py): a file's bytes to QR payloads and back, in any order, checked."""

from __future__ import annotations

import base64
import random
import re
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginscore.errors import InputError
from ginscore.files import handover
from ginscore.files.handover import BASE45, PART_CHARS, b45decode, b45encode, joined, payloads, read_part

ALPHANUMERIC = re.compile(r"[0-9A-Z $%*+\-./:]*")
"""The characters of a QR code's alphanumeric mode."""
SAMPLE = open("sample_matches/standard.toml", "rb").read()


def refusal(given: list[str]) -> str:
    with pytest.raises(InputError) as caught:
        joined(given)
    assert caught.value.field == "codes"
    return str(caught.value)


@given(st.binary(max_size=3000), st.randoms(use_true_random=False), st.integers(min_value=40, max_value=PART_CHARS))
def test_any_bytes_come_back_from_their_payloads_in_any_order_with_repeats(data, rng, most):
    made = payloads(data, most)
    shuffled = made + rng.sample(made, k=len(made) // 2)
    rng.shuffle(shuffled)
    assert joined(shuffled) == data
    assert all(ALPHANUMERIC.fullmatch(payload) for payload in made)
    header = len("GS1:") + handover.ID_DIGITS + len(":99:99:")
    assert all(len(payload) <= most + header for payload in made)


@given(st.binary(max_size=600))
def test_base45_round_trips_and_uses_its_45_characters(data):
    text = b45encode(data)
    assert b45decode(text) == data
    assert set(text) <= set(BASE45)


def test_base45_is_the_rfc_9285_encoding():
    assert b45encode(b"AB") == "BB8"
    assert b45encode(b"Hello!!") == "%69 VD92EX0"
    assert b45encode(b"ietf!") == "QED8WEX0"
    assert b45decode("QED8WEX0") == b"ietf!"


@pytest.mark.parametrize("text", ["A", "GGW", "ZZ", "a0"])
def test_a_text_that_is_not_base45_is_refused(text):
    with pytest.raises(ValueError):
        b45decode(text)


def test_a_payload_names_its_format_its_whole_its_place_and_the_count():
    made = payloads(SAMPLE)
    assert len(made) > 1
    first = read_part(made[0])
    assert (first.number, first.count) == (1, len(made))
    assert first.id == handover.id_of(SAMPLE)
    assert made[0].startswith(f"GS1:{first.id}:1:{len(made)}:")
    sizes = {len(read_part(payload).text) for payload in made}
    assert max(sizes) - min(sizes) <= 1  # near equal parts: every code drawn at one size


def test_a_match_just_started_is_one_small_code(run, tmp_path):
    assert run("new", tmp_path / "m.toml", "Ann", "Bob").exit_code == 0
    made = payloads((tmp_path / "m.toml").read_bytes())
    assert len(made) == 1
    assert len(made[0]) < 200


def test_codes_of_two_matches_never_mix():
    mine, theirs = payloads(SAMPLE), payloads(SAMPLE + b"\n")
    assert "2 different matches" in refusal([mine[0], theirs[1]])


def test_missing_codes_are_listed():
    made = payloads(SAMPLE, 200)
    assert len(made) >= 4
    said = refusal([made[0], made[2]])
    lacking = ", ".join(str(number) for number in range(1, len(made) + 1) if number not in (1, 3))
    assert f"codes {lacking} of {len(made)} are missing" in said
    whole = sum(len(read_part(payload).text) for payload in made)
    assert "code 2 of 2 is missing" in refusal(payloads(SAMPLE, whole // 2 + 1)[:1])


def test_a_damaged_code_is_refused_in_words():
    made = payloads(SAMPLE)
    part = read_part(made[1])
    changed = "0" if part.text[5] != "0" else "1"
    damaged = handover.Part(part.id, part.number, part.count, part.text[:5] + changed + part.text[6:]).payload()
    assert "damaged" in refusal([made[0], damaged, *made[2:]])
    assert "damaged" in refusal([made[0], made[1][:-3], *made[2:]])
    assert "damaged" in refusal([*made, damaged])  # two codes of one number that differ


@pytest.mark.parametrize("payload, said", [
    ("hello", "is not a code of a match shown by ginscore"),
    ("GS1:ABC:1:1:00", "is not a code of a match shown by ginscore"),
    ("GS1:0123456789AB:3:2:00", "says it is code 3 of 2"),
    ("GS1:0123456789AB:0:2:00", "says it is code 0 of 2"),
    ("GS1:0123456789AB:1:2:ab", "holds characters no code of ginscore's holds"),
])
def test_a_payload_that_is_not_ginscore_s_is_refused(payload, said):
    assert said in refusal([payload])


def test_nothing_read_is_refused():
    assert refusal([]) == "no codes were read"


def test_a_whole_whose_count_disagrees_is_damaged():
    made = payloads(SAMPLE)
    part = read_part(made[0])
    other = handover.Part(part.id, 1, part.count + 1, part.text).payload()
    assert "disagree on how many" in refusal([made[1], other])


def test_a_whole_that_unpacks_past_the_limit_is_refused_before_it_fills_memory(monkeypatch):
    monkeypatch.setattr(handover, "MOST_BYTES", 1000)
    assert "damaged" in refusal(payloads(bytes(5000)))


def test_a_file_too_large_for_codes_is_refused_by_its_file():
    noise = random.Random(1).randbytes(PART_CHARS * handover.MOST_PARTS)
    with pytest.raises(InputError) as caught:
        payloads(noise)
    assert caught.value.field == "file" and "too large to hand over by codes" in str(caught.value)


def test_the_payload_is_not_base64_but_fits_a_qr_code_s_alphanumeric_mode():
    data = SAMPLE
    assert sum(len(read_part(payload).text) for payload in payloads(data)) < len(base64.b64encode(zlib.compress(data, 9))) * 1.2
