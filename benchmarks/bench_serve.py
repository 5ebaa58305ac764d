"""Time `ginscore serve`: a hand recorded through the server against the same hand through `ginscore record`,
and the weight of each page.

Run from the repository root:

    .venv/bin/python benchmarks/bench_serve.py [--small 10] [--big 1000] [--requests 30] [--clients 20] [--seed 1]

It writes two matches of seeded random hands (as bench_match_files.py does: half by cards, half by counts, a
target too high to reach), of `--small` and `--big` hands, and starts a real `ginscore serve` on 127.0.0.1 and a
free port (every request goes to 127.0.0.1, and the number of requests is bounded). Then, for each file:

- `POST /api/matches/FILE/hands`, one client: `--requests` hands, each followed by the same hand through
  `ginscore record` (a subprocess) on a copy of the file, interleaved; the median and 95th percentile of each,
  and the server's median as a share of the CLI's (goal: under a tenth);
- `POST .../hands` with `--clients` clients at once, each recording `--requests` // 2 hands (at least 2);
  the median and 95th percentile of each request's latency, and the hands per second (goal on the big file:
  p95 at most 300 ms);
- `POST .../preview` (a live card tap) and `GET .../version` (a page polling), `--requests` each, on both files.

The goals of the write, interleaved in one run: on the big file the server's median at most a tenth of the CLI's,
and at most twice the same write on the small file; a preview on the big file at most twice one on the small.

Last, the bytes of the folder, match, record and check pages, with a match of each size (copies no phase writes
to): the HTML and every style sheet and script it links.
Standard library and httpx only.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_match_files import hand_options, write_match  # noqa: E402

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
TOKEN = "bench-token"
PLAYERS = ("Ann", "Bob")


def fields_of(options: list[str]) -> dict[str, str]:
    """`record`'s options (`--opponent-cards X`) as the API's fields (`opponent_cards: X`)."""
    return {name[2:].replace("-", "_"): value for name, value in zip(options[0::2], options[1::2])}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Server:
    """`ginscore serve FOLDER --port 0` in a subprocess, its URL read from what it prints."""

    def __init__(self, folder: str):
        self.process = subprocess.Popen(
            [GINSCORE, "serve", folder, "--port", "0", "--token", TOKEN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in iter(self.process.stdout.readline, "")], daemon=True).start()  # type: ignore[union-attr]
        deadline = time.monotonic() + 30
        while True:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            found = re.match(r"Open (http://127\.0\.0\.1:\d+)/\?token=", line)
            if found:
                self.base = found.group(1)
                return

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        self.process.communicate(timeout=30)
        return self.process.returncode


def post_hand(client: httpx.Client, name: str, options: list[str]) -> float:
    start = time.perf_counter()
    response = client.post(f"/api/matches/{name}/hands", json=fields_of(options))
    spent = time.perf_counter() - start
    if response.status_code != 201:
        raise SystemExit(f"the server refused a hand: {response.status_code} {response.text}")
    return spent


def cli_record(path: str, options: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([GINSCORE, "record", path, *options], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def one_client(server: Server, folder: str, name: str, hands: list[list[str]]) -> tuple[list[float], list[float]]:
    """Each hand through the server, then through `ginscore record` on a copy: interleaved."""
    copy = os.path.join(folder, "cli", name)
    served, typed = [], []
    with httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as client:
        post_hand(client, name, hands[0])  # a first request warms the server (imports, first read of the file)
        for options in hands:
            served.append(post_hand(client, name, options))
            typed.append(cli_record(copy, options))
    return served, typed


def light_requests(server: Server, name: str, hands: list[list[str]]) -> tuple[list[float], list[float]]:
    """A preview of each hand, then a poll of the file's version: interleaved, one client; nothing is written."""
    previews, polls = [], []
    with httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as client:
        client.post(f"/api/matches/{name}/preview", json=fields_of(hands[0]))
        for options in hands:
            start = time.perf_counter()
            response = client.post(f"/api/matches/{name}/preview", json=fields_of(options))
            previews.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise SystemExit(f"the server refused a preview: {response.status_code} {response.text}")
            start = time.perf_counter()
            client.get(f"/api/matches/{name}/version")
            polls.append(time.perf_counter() - start)
    return previews, polls


def many_clients(server: Server, name: str, hands: list[list[str]], clients: int) -> tuple[list[float], float]:
    """`clients` threads, each with its own connection, recording their share of `hands` at once."""
    latencies: list[float] = []
    shares = [hands[index::clients] for index in range(clients)]
    barrier = threading.Barrier(clients)

    def client_run(share: list[list[str]]) -> None:
        with httpx.Client(base_url=server.base, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as client:
            client.get("/api/matches")  # connect first, so that the timing is of the hands only
            barrier.wait(timeout=60)
            for options in share:
                latencies.append(post_hand(client, name, options))

    threads = [threading.Thread(target=client_run, args=(share,)) for share in shares]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return latencies, time.perf_counter() - start


class Linked(HTMLParser):
    """The style sheets and scripts a page links to."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "link" and named.get("rel") == "stylesheet" and named.get("href"):
            self.found.append(str(named["href"]))
        elif tag == "script" and named.get("src"):
            self.found.append(str(named["src"]))


def page_sizes(server: Server, name: str) -> list[tuple[str, int, int, int]]:
    """Each page's HTML, CSS and script bytes (as sent, before any compression); a page not there yet is skipped."""
    pages = [("folder", "/"), ("match", f"/m/{name}"), ("record", f"/m/{name}/record"), ("check", "/check")]
    sizes = []
    with httpx.Client(base_url=server.base, timeout=30) as client:
        client.get(f"/?token={TOKEN}")  # the cookie a phone gets from the printed URL
        for label, path in pages:
            response = client.get(path)
            if response.status_code != 200 or "text/html" not in response.headers.get("content-type", ""):
                print(f"  {label:<8} {path}: {response.status_code}, not measured")
                continue
            parser = Linked()
            parser.feed(response.text)
            css = js = 0
            for link in parser.found:
                size = len(client.get(link).content)
                if link.split("?")[0].endswith(".css"):
                    css += size
                else:
                    js += size
            sizes.append((label, len(response.content), css, js))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--big", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=30, help="hands per measurement (bounded: at most 200)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    requests = max(2, min(args.requests, 200))
    clients = max(1, min(args.clients, 50))
    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="bench_serve.")
    os.mkdir(os.path.join(folder, "cli"))
    server = None
    try:
        sizes = {"small": args.small, "big": args.big}
        for name, size in sizes.items():
            path = os.path.join(folder, f"{name}.toml")
            write_match(path, [hand_options(rng, PLAYERS) for _ in range(size)])
            shutil.copyfile(path, os.path.join(folder, "cli", f"{name}.toml"))
            shutil.copyfile(path, os.path.join(folder, f"pages-{name}.toml"))  # for the page weights: never written to
        server = Server(folder)
        print(f"ginscore serve on 127.0.0.1; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        print(f"POST /api/matches/FILE/hands against `ginscore record`, {requests} hands each, interleaved; milliseconds")
        print(f"{'file':<18}{'':<12}{'median':>9}{'p95':>9}")
        writes: dict[str, float] = {}
        for name, size in sizes.items():
            hands = [hand_options(rng, PLAYERS) for _ in range(requests)]
            served, typed = one_client(server, folder, f"{name}.toml", hands)
            label = f"{size:,} hands"
            print(f"{label:<18}{'server':<12}{statistics.median(served) * 1000:>9.1f}{percentile(served, 0.95) * 1000:>9.1f}")
            print(f"{'':<18}{'record CLI':<12}{statistics.median(typed) * 1000:>9.1f}{percentile(typed, 0.95) * 1000:>9.1f}")
            share = statistics.median(served) / statistics.median(typed)
            print(f"{'':<18}server/CLI {share:>9.3f}   goal at most 0.1: {'met' if share <= 0.1 else 'MISSED'}")
            writes[name] = statistics.median(served)
        growth = writes["big"] / writes["small"]
        print(f"a write on {args.big:,} hands / on {args.small:,}: {growth:.2f}   goal at most 2: {'met' if growth <= 2 else 'MISSED'}")
        print(f"\nPOST .../preview (a card tap) and GET .../version (polling), {requests} each, interleaved; milliseconds")
        taps: dict[str, float] = {}
        for name, size in sizes.items():
            previews, polls = light_requests(server, f"{name}.toml", [hand_options(rng, PLAYERS) for _ in range(requests)])
            taps[name] = statistics.median(previews)
            print(f"{size:>6,} hands   preview median {taps[name] * 1000:6.1f} p95 {percentile(previews, 0.95) * 1000:6.1f}"
                  f"   version median {statistics.median(polls) * 1000:6.1f} p95 {percentile(polls, 0.95) * 1000:6.1f}")
        growth = taps["big"] / taps["small"]
        print(f"a preview on {args.big:,} hands / on {args.small:,}: {growth:.2f}   goal at most 2: {'met' if growth <= 2 else 'MISSED'}")
        per_client = max(2, requests // 2)
        print(f"\n{clients} clients at once, {per_client} hands each; milliseconds a request")
        for name, size in sizes.items():
            hands = [hand_options(rng, PLAYERS) for _ in range(clients * per_client)]
            latencies, spent = many_clients(server, f"{name}.toml", hands, clients)
            p95 = percentile(latencies, 0.95)
            print(
                f"{size:>6,} hands   median {statistics.median(latencies) * 1000:7.1f}   p95 {p95 * 1000:7.1f}"
                f"   {len(latencies) / spent:6.1f} hands/s" + (f"   goal p95 at most 300: {'met' if p95 <= 0.3 else 'MISSED'}" if name == "big" else "")
            )
        for name, size in sizes.items():
            print(f"\npage weight with a match of {size:,} hands, bytes as sent (no compression)")
            print(f"  {'page':<8}{'HTML':>9}{'CSS':>9}{'JS':>9}{'total':>9}")
            for label, html, css, js in page_sizes(server, f"pages-{name}.toml"):
                print(f"  {label:<8}{html:>9,}{css:>9,}{js:>9,}{html + css + js:>9,}")
        status = server.stop()
        server = None
        print(f"\nserver stopped with Ctrl-C: exit status {status}")
    finally:
        if server is not None and server.process.poll() is None:
            server.process.kill()
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
