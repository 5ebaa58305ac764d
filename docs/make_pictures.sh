#!/usr/bin/env bash
# Renders the docs' pictures from ginscore's own pages, in the browser the tests use, then stores a fingerprint of
# each picture's page in docs/pictures.json: tests/test_pictures.py fails once a pictured page changes, until this
# is run again. Needs Playwright (the test extra) and Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# The README's sheets: each sample exported (`show --export FILE.html`, and FILE.svg for the chart).
CI=true GINSCORE_PICTURES=docs python -m pytest -q -n 0 tests/test_export_browser.py -k screenshots
# The phone pages of `ginscore serve` (docs/serve.md's walkthrough, and the README's phone): tests/pictured.py's.
CI=true GINSCORE_PICTURES=docs python -m pytest -q -n 0 tests/test_first_screen_browser.py -k pictures
python tests/pictured.py --write
