#!/usr/bin/env bash
# Renders the README's pictures from ginscore's own SVG export.
# Needs rsvg-convert (Debian: librsvg2-bin); it is not a dependency of ginscore.
# Rich's SVG spaces text with non-breaking spaces, which librsvg collapses, so they become
# plain spaces kept by xml:space="preserve" before rendering.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
ginscore show sample_matches/standard.toml --export "$tmp/sheet.svg"
ginscore show sample_matches/oklahoma.toml --chart --export "$tmp/chart.svg"
for name in sheet chart; do
  sed 's/&#160;/ /g; s/<svg /<svg xml:space="preserve" /' "$tmp/$name.svg" > "$tmp/$name-plain.svg"
  rsvg-convert -w 1400 "$tmp/$name-plain.svg" -o "docs/$name.png"
done
rm -r "$tmp"
