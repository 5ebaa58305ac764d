#!/usr/bin/env bash
# Renders the README's pictures from ginscore's own exports, in the browser the tests use: the browser tests
# export each sample (`show --export FILE.html`, and FILE.svg for the chart) and save their screenshots here.
# Needs Playwright (the test extra) and Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
CI=true GINSCORE_PICTURES=docs python -m pytest -q tests/test_export_browser.py -k screenshots
# The phone pages of `ginscore serve` (docs/serve.md's walkthrough, and the README's phone).
CI=true GINSCORE_PICTURES=docs python -m pytest -q tests/test_serve_browser.py -k starts_a_match
CI=true GINSCORE_PICTURES=docs python -m pytest -q tests/test_pad_browser.py
