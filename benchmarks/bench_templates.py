"""The phone app's first showing of a page, with the templates compiled at the build (what the app ships) and
with Jinja compiling each one on the phone (as before 0.5.0), under the pinned Pyodide in Node.

Run from the repository root (needs Node, and npm once for the runtime):

    python benchmarks/bench_templates.py [--rounds 7]

`ginscore app` into a temporary folder; then, for each round, one Node process a way, in turn: the build's
archives unpacked as the worker unpacks them, the pages started (`worker.start_pages()`), then timed inside
Python: the first `GET /`, the first `GET /check`, a second `GET /`, and every other template loaded once. The
other way swaps the loader for Jinja's `FileSystemLoader` over the same build's templates before the first page.
Medians, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GINSCORE = str(Path(sys.executable).with_name("ginscore"))
SCRIPT = """
import { loadPyodide } from "RUNTIME/pyodide.mjs";
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: "RUNTIME/" });
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const name of ARCHIVES) py.unpackArchive(new Uint8Array(readFileSync(name)), "zip", { extractDir: site });
const said = await py.runPythonAsync(`
import importlib, json, os, time
importlib.invalidate_caches()
from ginscore.pocket import worker
from ginscore.web.page_helpers import HERE, TEMPLATES
worker.start_pages()
if "${process.argv[2]}" == "on the phone":
    from jinja2 import FileSystemLoader
    TEMPLATES.env.loader = FileSystemLoader(os.path.join(HERE, "templates"))
async def took(path):
    began = time.perf_counter()
    await worker.request("GET", path, "", "", "")
    return (time.perf_counter() - began) * 1000
first, check, again = await took("/"), await took("/check"), await took("/")
began = time.perf_counter()
for name in sorted(os.listdir(os.path.join(HERE, "templates"))):
    TEMPLATES.env.get_template(name)
json.dumps({"first /": first, "first /check": check, "/ again": again, "the other templates": (time.perf_counter() - began) * 1000})
`);
process.stdout.write(said + "\\n");
process.exit(0);
"""
WAYS = ("compiled at the build", "on the phone")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        print("Node is not installed: the app's Python runs in Node here", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="ginscore-bench-templates-") as work:
        built = Path(work) / "app"
        subprocess.run([GINSCORE, "app", str(built)], check=True, stdout=subprocess.DEVNULL)
        info = json.loads((built / "build.json").read_text())
        archives = json.dumps([str(built / info["archives"][kind]) for kind in ("lean", "pages")])
        script = Path(work) / "first_pages.mjs"
        script.write_text(SCRIPT.replace("RUNTIME", str(built / "pyodide")).replace("ARCHIVES", archives))
        figures: dict[str, list[dict[str, float]]] = {way: [] for way in WAYS}
        for _ in range(args.rounds):
            for way in WAYS:
                done = subprocess.run([node, str(script), way], capture_output=True, text=True, check=True)
                figures[way].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"the app's first pages under Pyodide in Node, ms, medians of {args.rounds} rounds in turn")
    for way in WAYS:
        medians = {what: statistics.median(round[what] for round in figures[way]) for what in figures[way][0]}
        print(f"  templates {way:<22}" + "  ".join(f"{what} {ms:6.1f}" for what, ms in medians.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
