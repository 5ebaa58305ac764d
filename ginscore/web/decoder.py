"""The QR decoder the scan page falls back on where the browser has no BarcodeDetector: jsQR, pinned.

jsQR is fetched through npm by its integrity (`pocket/runtime.py`, which `ginscore app` runs) into the user's
cache, the same one the app's runtime is kept in, and never committed to ginscore. The app ships it in its
precache; `serve` hands it to phones from the cache once it is there, each time held to the size and sha256
pinned here, and otherwise the scan page says in a person's words that this browser cannot read codes.
"""

from __future__ import annotations

import hashlib
import os

JSQR_VERSION = "1.4.0"
JSQR_INTEGRITY = "sha512-dxLob7q65Xg2DvstYkRpkYtmKm2sPJ9oFhrhmudT1dZvNFFTlroai3AWSpLey/w5vMcLBXRgOJsbXpdN9HzU/A=="
"""The tarball's integrity, as package-lock.json records it for the same version (a test holds them equal)."""
JSQR_MEMBER = "dist/jsQR.js"
"""The one file of the package the pages load: the whole decoder as one classic script."""
JSQR_BYTES = 256885
JSQR_SHA256 = "bc40c8a15196236b2314db0856f72ca0b49980cd5413b8c852a7349f5fee0859"
DECODER_NAME = "jsQR.js"


def decoder_folder() -> str:
    """Where the fetched decoder is kept: `jsqr-VERSION` in ginscore's cache folder."""
    from ..files.stats_cache import cache_folder

    return os.path.join(cache_folder(), f"jsqr-{JSQR_VERSION}")


def is_pinned(data: bytes) -> bool:
    """Whether `data` is exactly the pinned decoder."""
    return len(data) == JSQR_BYTES and hashlib.sha256(data).hexdigest() == JSQR_SHA256


def cached_decoder() -> bytes | None:
    """The decoder's bytes from the cache when they are the pinned ones; None when it was never fetched, or was
    changed since."""
    try:
        with open(os.path.join(decoder_folder(), DECODER_NAME), "rb") as handle:
            data = handle.read(JSQR_BYTES + 1)
    except OSError:
        return None
    return data if is_pinned(data) else None
