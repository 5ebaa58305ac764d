"""The pure layers, and serve's app on them, under the pinned Pyodide in Node: the built app's runtime and archives
(conftest's `app_build`), unpacked as the worker unpacks them, then `pyodide_probe.py` run there and here; the
answers must agree (so a Python 3.14 difference is caught before a phone meets it), and every module the start
imported came from the bytecode the build compiled. Skipped without Node or npm, failed under CI."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import needs

HERE = Path(__file__).resolve().parent

SCRIPT = """
import { loadPyodide } from "RUNTIME/pyodide.mjs";
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: "RUNTIME/" });
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const name of ARCHIVES) py.unpackArchive(new Uint8Array(readFileSync(name)), "zip", { extractDir: site });
await py.runPythonAsync(`
import importlib
importlib.invalidate_caches()
from ginscore.pocket import worker
worker.start_pages()
await worker.request("GET", "/", "", "", "")
`);
const compiled = py.runPython(`
import json, sys
def ahead(spec):  # the build's own bytecode: hash-based and unchecked (PEP 552), which Python itself never writes
    compiled = spec.origin if spec.origin.endswith(".pyc") else spec.cached  # None for a source in a zip
    return compiled is not None and spec.loader.get_data(compiled)[4:8] == bytes([1, 0, 0, 0])
started = {name: module.__spec__ for name, module in sys.modules.items()
           if getattr(module, "__spec__", None) and module.__spec__.origin not in (None, "frozen", "built-in")
           and (".zip/" in module.__spec__.origin or "site-packages" in module.__spec__.origin)}
json.dumps({"started": len(started), "from_sources": sorted(name for name, spec in started.items() if not ahead(spec))})
`);
py.FS.writeFile("/tmp/pyodide_probe.py", readFileSync("PROBE", "utf8"));
const said = await py.runPythonAsync(`
import sys, importlib
sys.path.insert(0, "/tmp")
importlib.invalidate_caches()
import pyodide_probe
await pyodide_probe.probe("/matches")
`);
process.stdout.write(said + "\\n" + compiled + "\\n");
process.exit(0);
"""


def test_the_pure_layers_import_and_score_a_hand_under_the_pinned_pyodide(tmp_path: Path, app_build: Path):
    node, npm = shutil.which("node"), shutil.which("npm")
    needs("Node or npm is not installed" if node is None or npm is None else None, "the Pyodide test")
    from ginscore.pocket.runtime import PYODIDE_VERSION

    built = app_build / "pocket" / "app"
    info = json.loads((built / "build.json").read_text())
    archives = json.dumps([str(built / info["archives"][kind]) for kind in ("lean", "pages")])
    script = tmp_path / "probe.mjs"
    script.write_text(SCRIPT.replace("RUNTIME", str(built / "pyodide")).replace("ARCHIVES", archives).replace("PROBE", str(HERE / "pyodide_probe.py")))
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr.partition("\n    at ")[0][-1500:]  # the error, before Node's stack
    *_, said, compiled = done.stdout.strip().splitlines()
    there = json.loads(said)
    compiled = json.loads(compiled)
    assert compiled["from_sources"] == [] and compiled["started"] > 200  # the start, as the worker's, compiled nothing

    sys.path.insert(0, str(HERE))
    import pyodide_probe

    (tmp_path / "here").mkdir()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # a thread of its own: Playwright's loop may run in this one
        here = json.loads(pool.submit(asyncio.run, pyodide_probe.probe(str(tmp_path / "here"))).result(timeout=60))
    assert there["python"] == [3, 14], f"pyodide {PYODIDE_VERSION} runs Python {there['python']}"
    assert there["statuses"] == [201, 201, 201, 200] and there["page"] == 200
    apart = ("python", "damaged_open")  # where Python 3.14 says more: the line a damaged text stops at
    assert {key: value for key, value in there.items() if key not in apart} == {key: value for key, value in here.items() if key not in apart}
    assert there["damaged_open"] == "damaged.toml: this file is damaged: line 3 is not a score sheet line"
    assert here["damaged_open"].startswith("damaged.toml: this file is damaged: ")
    assert '<p class="knock-verdict">You can knock: 2 deadwood, limit 10.</p>' in there["lean_check"]
    assert there["check"]["deadwood"] == 2
    assert there["first_changes"] == ["n.toml"]
    assert there["held"] == {"need": ["c.toml", "n.toml", "p.toml"], "damaged": {"num.toml": "it holds a number, not a match file's text",
                                                            "sub/x.toml": "its name is not one a match file may have"}, "held": ["c.toml"]}
    assert there["recorded"] == 201 and there["crlf_changes"] == ["c.toml"] and there["crlf_kept"] is True
    assert there["summary_players"] == ["Ann", "Bob"] and there["poll"] == [200, {}]
    assert there["set_aside_changes"] == ["c.toml"]  # the damaged n.toml is not written back
