"""A match handed to another phone by its camera (issue 38), in Debian's Chromium: phone A shows a match's codes
("Show as QR"), the test reads A's screenshots back to the file's bytes with zxing-cpp, makes them the frames of
a fake camera (a .y4m file), and phone B, a second Chromium whose camera is that file, scans them ("Scan a
match") and merges the match into its own shorter copy; `show --json` of both copies is then equal.

Headless Chromium on Linux has no BarcodeDetector, so B reads with the pinned jsQR, fetched through npm into the
session's cache as `ginscore app` fetches it. The time from the scan page shown to the merged match's page is
printed (`pytest -s`) with the number of codes: docs/app.md gives the figures.
"""

from __future__ import annotations

import io
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from browsers import CHROMIUM, CHROMIUM_FLAGS, expect, require_browser
from conftest import needs
from handover_matches import long_match
from test_serve_browser import PHONE, Server, check_page, show_json

from ginscore.files.handover import joined, read_part

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")

WIDTH, HEIGHT, FPS = 640, 480, 10
"""The fake camera's picture and its frames a second."""
FRAMES_A_CODE = 5
"""How long the camera sees each code: half a second, as a hand held at a changing screen would."""


def decoded(png: bytes) -> str | None:
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)), formats=zxingcpp.BarcodeFormat.QRCode)  # not a 1-D code seen in it
    return found[0].text if len(found) == 1 else None


def shown_codes(page: Any) -> dict[int, bytes]:
    """Screenshots of each code phone A shows in turn, by its number: A's clock (installed before its page loaded)
    paused, then moved on one turn at a time, so that no code changes under a screenshot however busy the
    machine is."""
    expect(page.locator(".qr-code-item:not([hidden])")).to_have_count(1)  # one at a time, once the script runs
    every = int(page.locator(".qr-codes").get_attribute("data-show-ms"))
    page.clock.pause_at(page.evaluate("Date.now()") + every // 2)
    shots: dict[int, bytes] = {}
    while True:
        png = page.locator(".qr-code-item:not([hidden]) svg").screenshot()
        text = decoded(png)
        assert text is not None, "a code shown that zxing-cpp cannot read"
        part = read_part(text)
        if part.number in shots:
            break
        shots[part.number] = png
        page.clock.run_for(every)
    page.clock.resume()
    assert sorted(shots) == list(range(1, part.count + 1))
    return shots


def camera_file(shots: dict[int, bytes], path: Path) -> Path:
    """The codes as a .y4m video, each for FRAMES_A_CODE frames on white, in order (Chromium loops it)."""
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)
        for number in sorted(shots):
            code = Image.open(io.BytesIO(shots[number])).convert("L")
            side = HEIGHT - 40
            code = code.resize((side, side), Image.Resampling.BILINEAR)
            frame = Image.new("L", (WIDTH, HEIGHT), 255)
            frame.paste(code, ((WIDTH - side) // 2, (HEIGHT - side) // 2))
            for _ in range(FRAMES_A_CODE):
                out.write(b"FRAME\n" + frame.tobytes() + chroma + chroma)
    return path


def camera_phone(browser: Any, shots: dict[int, bytes], video: Path) -> tuple[Any, Any, list[str]]:
    """Phone B: a second Chromium whose camera sees A's codes in turn (written to `video`), its page, and the
    script errors that page meets."""
    second = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *CHROMIUM_FLAGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={camera_file(shots, video)}"])
    phone = second.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda error: problems.append(str(error)))
    return second, phone, problems


def prefix(whole: bytes, hands: int) -> bytes:
    """A match file's first `hands` hands, cut from its bytes: the copy a phone that stopped early keeps."""
    starts = [found.start() for found in re.finditer(rb"^\[\[hands\]\]$", whole, re.MULTILINE)]
    return whole[:starts[hands]].rstrip(b"\n") + b"\n"


@pytest.mark.parametrize("hands, kept", [(10, 6), (30, 20)])
def test_a_match_handed_over_by_camera_is_merged_into_the_other_phone_s_copy(browser: Any, tmp_path: Path, hands: int, kept: int):
    require_browser()
    needs("npm is not installed (it fetches the pinned QR decoder)" if shutil.which("npm") is None else None, "the camera test")
    from ginscore.pocket.runtime import decoder

    decoder()  # into the session's cache, where B's serve finds it
    mine, theirs = tmp_path / "a", tmp_path / "b"
    mine.mkdir()
    theirs.mkdir()
    whole = long_match(mine / "friday.toml", hands).read_bytes()
    (theirs / "friday.toml").write_bytes(prefix(whole, kept))
    a, b = Server(mine), Server(theirs)
    second = None
    try:
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        page = context.new_page()
        page.clock.install()
        page.goto(a.url)
        page.goto(a.base + "/m/friday.toml")
        page.get_by_role("link", name="Show as QR").click()
        expect(page.locator("h1")).to_have_text("Show as QR")
        shots = shown_codes(page)
        if hands == 30:
            check_page(page)
            page.goto(a.base + "/scan")  # A has no camera: the page says so, with the button to try again
            expect(page.get_by_role("button", name="Start the camera")).to_be_visible()
            expect(page.locator(".scan-said")).to_contain_text("The camera could not be used.")
            check_page(page)
        context.close()
        texts = [decoded(png) for png in shots.values()]
        assert joined([text for text in texts if text]) == whole  # A's screen holds the file's exact bytes

        second, phone, problems = camera_phone(browser, shots, tmp_path / "camera.y4m")
        phone.goto(b.url)
        phone.get_by_role("link", name="Scan a match").click()
        expect(phone.locator("h1")).to_have_text("Scan a match")
        began = time.monotonic()
        phone.wait_for_url(re.compile(r"/m/friday\.toml\?merged=added&added=\d+$"), timeout=60000)
        took = time.monotonic() - began
        expect(phone.locator(".notice")).to_contain_text(f"The copy added {hands - kept} hands")
        print(f"\n{hands} hands, {len(shots)} codes: {took:.1f} s from the scan page to the merged match")
        assert problems == []
    finally:
        if second is not None:
            second.close()
        a.stop()
        b.stop()
    assert (theirs / "friday.toml").read_bytes() == whole
    assert show_json(b, "friday.toml") == show_json(a, "friday.toml")


def test_in_the_app_a_match_shown_as_qr_is_scanned_by_the_other_phone_s_app(browser: Any, tmp_path: Path, app_build: Path):
    """The same handover between two phones running the app (`ginscore app`, the run's one build): the codes
    drawn by the worker's Python, the scan read by the app's page, the merge written to the other phone's
    IndexedDB."""
    require_browser()
    from test_app_browser import SUB, Host, ready, stored

    shutil.copytree(app_build / "pocket", tmp_path / "host" / "pocket", symlinks=True)
    assert (tmp_path / "host" / SUB.strip("/") / "static" / "jsQR.js").is_file()
    whole = long_match(tmp_path / "friday.toml", 30).read_bytes()
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "friday.toml").write_bytes(prefix(whole, 20))
    host = Host(tmp_path / "host")
    second = None
    try:
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        page = context.new_page()
        page.clock.install()
        page.goto(host.url)
        ready(page)
        page.locator("#open-file").set_input_files(str(tmp_path / "friday.toml"))
        page.wait_for_url("**#/m/friday.toml")
        page.get_by_role("link", name="Show as QR").click()
        expect(page.locator("h1")).to_have_text("Show as QR")
        shots = shown_codes(page)
        context.close()
        assert joined([text for text in map(decoded, shots.values()) if text]) == whole

        second, phone, problems = camera_phone(browser, shots, tmp_path / "camera.y4m")
        phone.goto(host.url)
        ready(phone)
        phone.locator("#open-file").set_input_files(str(tmp_path / "copy" / "friday.toml"))
        phone.wait_for_url("**#/m/friday.toml")
        phone.goto(host.url + "#/")
        ready(phone)
        phone.get_by_role("link", name="Scan a match").click()
        expect(phone.locator("h1")).to_have_text("Scan a match")
        began = time.monotonic()
        phone.wait_for_url(re.compile(r"#/m/friday\.toml\?merged=added&added=10$"), timeout=60000)
        print(f"\nthe app, 30 hands, {len(shots)} codes: {time.monotonic() - began:.1f} s from the scan page to the merged match")
        expect(phone.locator("#main .notice")).to_contain_text("The copy added 10 hands")
        assert stored(phone, "friday.toml").encode("utf-8") == whole
        assert problems == []
    finally:
        if second is not None:
            second.close()
        host.stop()
