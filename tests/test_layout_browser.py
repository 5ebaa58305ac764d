"""Every page of the pad at 320 and 390 px, with the longest content each can hold (tests/layout_content.py):
no element wider than the screen, no word broken across lines (a name, a card, a heading), and no two texts
drawn over each other, the chart's labels included.

One served folder and one browser for the module: the pages are visited in a loop, each at both widths.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from browsers import expect
from layout_content import CHECK_CARDS, MAYA, THEO, longest_folder
from pages import served_in_process

TOKEN = "layout-token"
WIDTHS = (320, 390)

PROBLEMS = r"""() => {
  const root = document.body || document.documentElement, picture = !document.body;
  const width = document.documentElement.clientWidth || innerWidth, found = [];
  const say = (what, e, extra) => found.push(`${what}: <${e.tagName.toLowerCase()}${e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : ""}> ${(e.textContent || "").trim().slice(0, 40)} ${extra || ""}`);
  // a picture opened alone (the chart, the result card) is drawn to its own size: only its texts are read
  if (!picture && document.documentElement.scrollWidth > width) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  const shown = e => e.getClientRects().length && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }))
    && !e.closest(".visually-hidden, [hidden]");
  for (const e of picture ? [] : document.querySelectorAll("body *")) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > width + 0.5 || r.left < -0.5)) say("wider than the screen", e, `${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  // every word on one line, and the texts' boxes, word by word
  const boxes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !shown(parent) || parent.closest("script, style, option, datalist, svg title")) continue;
    // a word is whole between spaces; a line may still end after a hyphen or at a soft hyphen (lay-offs, dead-wood)
    for (const word of node.data.matchAll(/[^\s\u00ad-]+[\u00ad-]?/g)) {
      const range = document.createRange();
      range.setStart(node, word.index); range.setEnd(node, word.index + word[0].length);
      // Chromium counts the hyphen it draws at a soft hyphen (6 px) with the next piece too: a sliver is no text
      const rects = [...range.getClientRects()].filter(r => r.width > 7 || word[0].length === 1);
      const tops = new Set(rects.map(r => Math.round(r.top / 4)));
      if (tops.size > 1) say("a word broken across lines", parent, `'${word[0]}'`);
      for (const r of rects) boxes.push([r, word[0], parent, Boolean(parent.closest("svg"))]);
    }
  }
  boxes.sort((a, b) => a[0].top - b[0].top);
  for (let i = 0; i < boxes.length; i++) {
    const [a, wordA, inA, drawnA] = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j][0].top < a.bottom - 1; j++) {
      const [b, wordB, inB, drawnB] = boxes[j];
      // two of a chart's labels need a gap too: "game over" touching the gin mark reads "game overG"
      const gap = drawnA && drawnB && inA !== inB ? 3 : 0;
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left) + gap, down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 1 && down > 2) say("texts drawn over each other", inA, `'${wordA}' and '${wordB}'`);
    }
  }
  // the up-card's cards: each line of them one suit's
  const lines = {};
  for (const label of document.querySelectorAll(".upcard-grid label")) {
    if (!shown(label)) continue;
    (lines[Math.round(label.getBoundingClientRect().top)] ||= new Set()).add(label.textContent.trim().slice(-1));
  }
  for (const [top, suits] of Object.entries(lines)) if (suits.size > 1) found.push(`the up-card's line at ${top} px runs suits together: ${[...suits].join(" ")}`);
  return [...new Set(found)];
}"""
"""What is wrong with the page's layout, in words; empty when nothing is."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("longest")
    names = longest_folder(folder)
    with served_in_process(folder, TOKEN) as port:
        yield f"http://127.0.0.1:{port}", names


def pages(names: dict[str, str]) -> list[str]:
    pair = f"a={quote(MAYA)}&b={quote(THEO)}"
    finished, oklahoma, hollywood = names["finished"], names["oklahoma"], names["hollywood"]
    return [
        "/", "/check", "/stats", f"/stats/pair?{pair}", f"/stats/player?name={quote(MAYA)}", "/no/such/page",
        f"/m/{finished}", f"/m/{finished}/chart.svg", f"/m/{finished}/result.svg", f"/m/{finished}/edit/1",
        f"/m/{finished}/undo", f"/m/{oklahoma}", f"/m/{oklahoma}/record", f"/m/{oklahoma}/edit/2",
        f"/m/{oklahoma}/check", f"/m/{oklahoma}/chart.svg", f"/m/{hollywood}", f"/m/{hollywood}/chart.svg",
        f"/m/{hollywood}/record", f"/m/{names['second']}",
    ]


def test_every_page_fits_the_phone_with_the_longest_content(browser: Any, site: tuple[str, dict[str, str]]):
    base, names = site
    found: dict[str, list[str]] = {}
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 844}, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{base}/?token={TOKEN}")
        for path in pages(names):
            page.goto(base + path)
            found[f"{width} {path}"] = page.evaluate(PROBLEMS)
        # Check on 11 cards, the up-card K♦, in the Oklahoma match: the answer after Check and the live one
        page.goto(f"{base}/m/{names['oklahoma']}/check")
        page.locator('label[for="check-upcard-Kd"]').tap()
        for card in CHECK_CARDS.split():
            page.locator(f'.picker button.card[value="{card}"]').tap()
        expect(page.locator(".advice-table")).to_be_visible()
        found[f"{width} live check"] = page.evaluate(PROBLEMS)
        page.get_by_role("button", name="Check", exact=True).last.tap()
        expect(page.locator(".game-best")).to_be_visible()
        page.wait_for_load_state("load")  # the answer's style sheet applied: the page is measured as it is shown
        found[f"{width} Check"] = page.evaluate(PROBLEMS)
        context.close()
    wrong = {where: said for where, said in found.items() if said}
    assert wrong == {}, "\n".join(f"{where}: {line}" for where, said in wrong.items() for line in said)
