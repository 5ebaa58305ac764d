"""The docs' pictures show today's pages: each picture's page, rendered in process, has the fingerprint stored beside
the pictures when they were made (docs/pictures.json, written by docs/make_pictures.sh; see tests/pictured.py)."""

from __future__ import annotations

import json
import re

from pages import ROOT
from pictured import DOCS, EXPORTED, RECORD, SERVED, fingerprint, fingerprints

REMAKE = "run docs/make_pictures.sh to take them again (it also stores their fingerprints in docs/pictures.json)"


def test_every_picture_shows_its_page_as_this_checkout_renders_it():
    stored = json.loads(RECORD.read_text(encoding="utf-8"))
    now = fingerprints()
    changed = sorted(name for name in now if stored.get(name) != now[name])
    assert changed == [], f"these pictures show a page that has changed since they were made: {', '.join(changed)}; {REMAKE}"
    assert sorted(stored) == sorted(now), f"docs/pictures.json names other pictures than tests/pictured.py; {REMAKE}"


def test_every_picture_in_the_docs_is_one_of_them_and_is_there():
    pictured = {shown.picture for shown in SERVED} | set(EXPORTED)
    shown_in_docs = {name for page in [ROOT / "README.md", *DOCS.glob("*.md")]
                     for name in re.findall(r'(?:src="|\]\()(?:docs/)?([\w-]+\.png)', page.read_text(encoding="utf-8"))}
    assert shown_in_docs and shown_in_docs <= pictured, shown_in_docs - pictured
    assert {path.name for path in DOCS.glob("*.png")} == pictured
    for name in pictured:
        assert (DOCS / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_the_fingerprint_masks_only_what_differs_between_renderings():
    page = '<input type="hidden" name="csrf" value="{}"><div data-version="{}">Ann 12</div>'
    assert fingerprint(page.format("a1", "v1")) == fingerprint(page.format("b2", "v2"))
    assert fingerprint(page.format("a1", "v1")) != fingerprint(page.format("a1", "v1").replace("12", "13"))
    assert fingerprint("one", "two") != fingerprint("onetwo")  # each part counts on its own
