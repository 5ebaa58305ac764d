"""Time and weigh `ginscore app`: the first download, the warm start against a bare Pyodide page, a poll with
nothing changed and a Save, each as the number and size of the stored matches grow.

Run from the repository root (needs npm once for the runtime, Playwright and Debian's Chromium):

    .venv/bin/python benchmarks/bench_app.py [--rounds 7] [--hands 1000] [--others 50] [--records 15] [--seed 1]

1. **Sizes.** `ginscore app` into a temporary folder; every file the service worker precaches, as it is and
   compressed (gzip -9, what a static host sends for the files that compress; the wasm and the zips are
   counted compressed too, though the archives hardly shrink).
2. **Warm start.** The folder and a bare page served by `http.server` on 127.0.0.1 (port 0). The bare page sits
   in the app's folder and loads the same runtime files through the app's service worker cache, in a Web
   Worker, then runs `1 + 1`: Pyodide and nothing else, once on the build's standard library (compiled ahead)
   and once on the one Pyodide ships (its sources, compiled at each start, as a page that loads Pyodide has
   it; that zip sits beside, outside the precache). After one visit fills the cache, `--rounds` rounds, each
   opening a new tab of the app and a new tab of each bare page in turn (interleaved): for the app, from the
   navigation's start to the answer of a check (`ginscore.game.check`, answered while the pages load) and to
   the pages' being ready; for a bare page, to its `1 + 1`. The runtime comes from the cache each time (the
   server's log is checked: no runtime file is fetched twice). Medians.
3. **A poll and a Save as the store grows.** Seeded matches (counts and cards, a target too high to reach)
   opened in the app: first a 10-hand match alone, then beside a `--hands`-hand match and `--others` matches of
   100 hands. A poll with nothing changed (`GET /m/small.toml/version`, what an open sheet asks each second)
   with one match stored and with all of them; a Save (`POST /api/matches/FILE/hands`, through the worker: the
   queue, the lock, IndexedDB, Python, the write's completion) on the 10-hand match, alone and beside the
   others, and on the long match. The same Save on the long match through `ginscore serve` (a client on
   127.0.0.1), for scale. Medians and 95th percentiles, and what each poll and Save read from IndexedDB (records and
   bytes, as the worker counts them in its answer's `reads`). And the match's page (`GET /m/small.toml`), which draws
   its series and chance from every stored match, with one match stored and with all of them, and the first one in
   a tab opened afresh (its worker holding no text yet).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_match_files import hand_options, write_match  # noqa: E402
from bench_serve import Server, fields_of, percentile, post_hand  # noqa: E402
from browsers import CHROMIUM  # noqa: E402  (the tests' Chromium: the headless shell where installed, `GINSCORE_CHROMIUM`)

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CHECK = "3h 4h 5h Ks Kc Kd 7c 8c 9c 2d"

BARE_HTML = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bare</title>
<script type="module" src="bare-page.js"></script></head><body><p id="said">starting</p></body></html>
"""
BARE_PAGE = """const worker = new Worker("bare-worker.js" + location.search, { type: "module" });
window.answered = new Promise(function (resolve) { worker.onmessage = function (e) { document.getElementById("said").textContent = e.data; resolve(performance.now()); }; });
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const here = new URL("./pyodide/", import.meta.url).href;
const shipped = new URL(import.meta.url).searchParams.get("stdlib") === "shipped";
const stdLibURL = shipped ? new URL("./bare-stdlib/python_stdlib.zip", import.meta.url).href : undefined;
const py = await loadPyodide({ indexURL: here, packageBaseUrl: here, stdLibURL: stdLibURL });
self.postMessage(String(py.runPython("1 + 1")));
"""
APP_CHECK = "() => window.ginscoreApp.ask('check', {text: '" + CHECK + "'}).then(() => performance.now())"


def sizes(folder: Path, files: list[str]) -> tuple[int, int, dict[str, tuple[int, int]]]:
    each = {}
    for name in files:
        if name == "./":
            continue
        data = (folder / name).read_bytes()
        each[name] = (len(data), len(gzip.compress(data, 9)))
    return sum(a for a, _ in each.values()), sum(b for _, b in each.values()), each


def serve_folder(root: Path) -> tuple[http.server.ThreadingHTTPServer, list[str]]:
    paths: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            paths.append(self.path)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--others", type=int, default=50)
    parser.add_argument("--records", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="bench-app-"))
    app = work / "site" / "app"
    subprocess.run([GINSCORE, "app", str(app)], check=True, stdout=subprocess.DEVNULL)
    info = json.loads((app / "build.json").read_text())
    raw, packed, each = sizes(app, info["files"])
    print(f"ginscore app {info['version']}: {len(each)} files, {raw / 1e6:.2f} MB, {packed / 1e6:.2f} MB compressed (gzip -9)")
    for name in sorted(each, key=lambda n: -each[n][0])[:8]:
        print(f"  {name:32} {each[name][0] / 1e3:9.1f} kB  {each[name][1] / 1e3:9.1f} kB compressed")
    (app / "bare.html").write_text(BARE_HTML)
    (app / "bare-page.js").write_text(BARE_PAGE)
    (app / "bare-worker.js").write_text(BARE_WORKER)
    (app / "bare-stdlib").mkdir()
    from ginscore.pocket.runtime import runtime_folder

    shutil.copy(Path(runtime_folder()) / "python_stdlib.zip", app / "bare-stdlib")  # as Pyodide ships it: sources

    server, paths = serve_folder(work / "site")
    base = f"http://127.0.0.1:{server.server_port}/app/"
    rng = random.Random(args.seed)
    match_folder = work / "served"
    match_folder.mkdir()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        first = context.new_page()
        began = time.perf_counter()
        first.goto(base)
        first.locator('#page[aria-busy="false"]').wait_for(timeout=120000)
        print(f"first visit (cold, online, precache included): {time.perf_counter() - began:.2f} s to the pages")
        runtime_fetches = Counter(p for p in paths if "/pyodide/" in p)
        first.close()

        app_check, app_pages, bare, shipped = [], [], [], []
        for _ in range(args.rounds):
            page = context.new_page()
            page.goto(base, wait_until="commit")
            page.wait_for_function("() => window.ginscoreApp !== undefined")
            app_check.append(page.evaluate(APP_CHECK) / 1000)
            page.locator('#page[aria-busy="false"]').wait_for(timeout=60000)
            app_pages.append(page.evaluate("performance.now()") / 1000)
            page.close()
            for stdlib, times in (("built", bare), ("shipped", shipped)):
                page = context.new_page()
                page.goto(base + "bare.html?stdlib=" + stdlib, wait_until="commit")
                page.wait_for_function("() => window.answered !== undefined")
                times.append(page.evaluate("() => window.answered") / 1000)
                page.close()
        assert Counter(p for p in paths if "/pyodide/" in p) == runtime_fetches, "the runtime was fetched again"
        check, pages, plain = statistics.median(app_check), statistics.median(app_pages), statistics.median(bare)
        as_shipped = statistics.median(shipped)
        print(f"warm start, {args.rounds} interleaved rounds, medians: bare Pyodide {plain:.2f} s on the build's compiled "
              f"standard library, {as_shipped:.2f} s on the one Pyodide ships; app to an answered check {check:.2f} s "
              f"({check / plain:.2f}x, {check / as_shipped:.2f}x); app to its pages {pages:.2f} s ({pages / plain:.2f}x, {pages / as_shipped:.2f}x)")

        page = context.new_page()
        page.goto(base)
        page.locator('#page[aria-busy="false"]').wait_for(timeout=60000)
        texts = {}
        for at, (name, count) in enumerate((("small.toml", 10), ("long.toml", args.hands), *((f"other-{n:02}.toml", 100) for n in range(args.others)))):
            created = f"2026-01-01T00:{at // 60:02}:{at % 60:02}+00:00"  # a start of its own: another match, not a copy
            write_match(str(match_folder / name), [hand_options(rng, ("Ann", "Bob")) for _ in range(count)], created)
            texts[name] = (match_folder / name).read_text(encoding="utf-8")
        opening = ("async ([name, text]) => { const a = await window.ginscoreApp.ask('open', {file: new File([text], name)}); "
                   "if (a.name !== name) throw new Error(JSON.stringify(a)); }")
        # each answers its time in ms and what the worker read from IndexedDB for it (`reads`; none from a build before)
        poll = ("async (name) => { const t = performance.now(); const a = await window.ginscoreApp.call('GET', '/m/' + name + '/version'); "
                "if (a.status !== 200) throw new Error(String(a.status)); return [performance.now() - t, a.reads || null]; }")
        post = ("async ([name, fields]) => { const t = performance.now(); const a = await window.ginscoreApp.call('POST', "
                "'/api/matches/' + name + '/hands', JSON.stringify(fields), 'application/json'); "
                "if (a.status !== 201) throw new Error(new TextDecoder().decode(a.body)); return [performance.now() - t, a.reads || null]; }")
        read: dict[str, list[Any]] = {}  # what each kind of request read from IndexedDB, each time

        def timed(kind: str, said: list[Any]) -> float:
            read.setdefault(kind, []).append(said[1])
            return float(said[0])

        def weight(kind: str) -> str:
            """What a kind of request read from IndexedDB: its median records and bytes."""
            each = [one for one in read.get(kind, []) if one]
            if not each:
                return "not counted by this build"
            records, bytes_ = statistics.median(one["records"] for one in each), statistics.median(one["bytes"] for one in each)
            return f"{records:g} records, {bytes_:,.0f} bytes"

        view = ("async (name) => { const t = performance.now(); const a = await window.ginscoreApp.call('GET', '/m/' + name); "
                "if (a.status !== 200) throw new Error(String(a.status)); return performance.now() - t; }")

        def views() -> float:
            page.evaluate(view, "small.toml")
            return statistics.median(page.evaluate(view, "small.toml") for _ in range(args.records)) / 1000

        def polls(kind: str) -> float:
            page.evaluate(poll, "small.toml")
            return statistics.median(timed(kind, page.evaluate(poll, "small.toml")) for _ in range(args.records * 2)) / 1000

        def saves(name: str, kind: str) -> list[float]:
            page.evaluate(post, [name, fields_of(hand_options(rng, ("Ann", "Bob")))])  # warmed by one hand first
            return [timed(kind, page.evaluate(post, [name, fields_of(hand_options(rng, ("Ann", "Bob")))])) / 1000 for _ in range(args.records)]

        page.evaluate(opening, ["small.toml", texts["small.toml"]])
        alone = polls("poll alone")
        viewed_alone = views()
        small_alone = saves("small.toml", "save alone")
        for name, text in texts.items():
            if name != "small.toml":
                page.evaluate(opening, [name, text])
        stored = sum(len(text.encode()) for text in texts.values())
        beside = polls("poll beside")
        viewed_beside = views()
        first_views, first_lists = [], []
        for _ in range(3):  # a tab opened afresh: its worker holds nothing yet
            fresh = context.new_page()
            fresh.goto(base)
            fresh.locator('#page[aria-busy="false"]').wait_for(timeout=60000)
            first_lists.append(fresh.evaluate("performance.now()") / 1000)
            first_views.append(fresh.evaluate(view, "small.toml") / 1000)
            fresh.close()
        small, long = saves("small.toml", "save beside"), saves("long.toml", "save long")
        print(f"a poll with nothing changed (GET /m/small.toml/version), medians: {alone * 1000:.2f} ms with one match stored, "
              f"{beside * 1000:.2f} ms with {len(texts)} ({stored / 1e6:.1f} MB) stored ({beside / alone:.2f}x); read from IndexedDB: "
              f"{weight('poll alone')} alone, {weight('poll beside')} beside the others")
        print(f"the match's page (GET /m/small.toml: its series and chance drawn from every stored match), medians: "
              f"{viewed_alone * 1000:.1f} ms with one match stored, {viewed_beside * 1000:.1f} ms with {len(texts)} stored "
              f"({viewed_beside / viewed_alone:.2f}x); the first in a tab opened afresh with {len(texts)} stored "
              f"{statistics.median(first_views) * 1000:.1f} ms (median of 3), after its list of matches, ready "
              f"{statistics.median(first_lists):.2f} s after the tab opened")
        print(f"a Save (POST a hand), {args.records} each, medians: on the 10-hand match {statistics.median(small_alone) * 1000:.1f} ms alone, "
              f"{statistics.median(small) * 1000:.1f} ms with {len(texts) - 1} others stored; on the {args.hands}-hand match "
              f"{statistics.median(long) * 1000:.1f} ms ({statistics.median(long) / statistics.median(small):.2f}x the 10-hand one; "
              f"95th {percentile(small, 0.95) * 1000:.1f} and {percentile(long, 0.95) * 1000:.1f} ms); "
              f"{statistics.median(small) / statistics.median(small_alone):.2f}x the 10-hand one alone")
        print(f"read from IndexedDB per Save, medians: on the 10-hand match {weight('save alone')} alone, {weight('save beside')} "
              f"with {len(texts) - 1} others stored; on the {args.hands}-hand match {weight('save long')}")

        serve = Server(str(match_folder))
        import httpx

        in_serve = []
        with httpx.Client(base_url=serve.base, headers={"Authorization": "Bearer bench-token"}, timeout=60) as client:
            post_hand(client, "long.toml", hand_options(rng, ("Ann", "Bob")))
            for _ in range(args.records):
                in_serve.append(post_hand(client, "long.toml", hand_options(rng, ("Ann", "Bob"))))
        serve.stop()
        print(f"the same Save on the {args.hands}-hand match through serve: median {statistics.median(in_serve) * 1000:.1f} ms "
              f"(95th {percentile(in_serve, 0.95) * 1000:.1f})")
        browser.close()
    server.shutdown()
    print(f"(all of it under {work}; every request went to 127.0.0.1)")
    os.environ.get("KEEP") or __import__("shutil").rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
