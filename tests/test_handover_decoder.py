"""The scan page's QR decoder, jsQR: fetched through npm by its pinned integrity into the cache, held to its
size and sha256 there, and refused whole when npm hands over anything else."""

from __future__ import annotations

import shutil
import sys
import tarfile
from pathlib import Path

import pytest
from conftest import needs

from ginscore.pocket import runtime
from ginscore.pocket.runtime import NoRuntimeError
from ginscore.web import decoder


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GINSCORE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_decoder_is_fetched_once_checked_and_fetched_again_when_changed(tmp_path: Path):
    needs("npm is not installed" if shutil.which("npm") is None else None, "the decoder's fetch")
    data = runtime.decoder()
    assert decoder.is_pinned(data)
    kept = Path(decoder.decoder_folder()) / decoder.DECODER_NAME
    assert kept.read_bytes() == data and decoder.cached_decoder() == data
    kept.write_bytes(data[:-1] + b" ")
    assert decoder.cached_decoder() is None  # changed since: never served
    assert runtime.decoder() == data and kept.read_bytes() == data


def test_a_tarball_that_is_not_the_pinned_one_is_refused_and_nothing_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    source = tmp_path / "package" / "dist"
    source.mkdir(parents=True)
    (source / "jsQR.js").write_text("window.jsQR = function () { return null; };\n")
    tarball = tmp_path / "other.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(tmp_path / "package", arcname="package")
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "npm"
    script.write_text(f"#!{sys.executable}\nimport shutil\nshutil.copy({str(tarball)!r}, 'jsqr-{decoder.JSQR_VERSION}.tgz')\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    with pytest.raises(NoRuntimeError) as caught:
        runtime.decoder()
    assert str(caught.value).startswith(f"jsqr-{decoder.JSQR_VERSION}.tgz from npm is not the pinned one (its integrity is sha512-")
    assert not Path(decoder.decoder_folder()).exists()
    monkeypatch.setattr(runtime, "JSQR_INTEGRITY", runtime.integrity_of(str(tarball)))  # a pin it matches, bytes that do not
    with pytest.raises(NoRuntimeError) as caught:
        runtime.decoder()
    assert "is not the one ginscore was made with" in str(caught.value)
    assert not Path(decoder.decoder_folder()).exists()


def test_without_npm_one_line_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(NoRuntimeError) as caught:
        runtime.decoder()
    assert str(caught.value) == (f"npm is not installed: install Node.js (which brings npm) to fetch jsqr {decoder.JSQR_VERSION} "
                                 "(the scan page's QR code reader), or build once where npm is, which keeps it in the cache")
