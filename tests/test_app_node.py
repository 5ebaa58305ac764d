"""The pure layers, and serve's app on them, under the pinned Pyodide in Node: the app's archives unpacked into
Pyodide as the worker unpacks them, then `pyodide_probe.py` run there and here; the answers must agree (so a
Python 3.14 difference is caught before a phone meets it). Skipped without Node or npm, failed under CI."""

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
for (const name of ["lean.zip", "pages.zip"]) py.unpackArchive(new Uint8Array(readFileSync("WORK/" + name)), "zip", { extractDir: site });
py.FS.writeFile("/tmp/pyodide_probe.py", readFileSync("PROBE", "utf8"));
const said = await py.runPythonAsync(`
import sys, importlib
sys.path.insert(0, "/tmp")
importlib.invalidate_caches()
import pyodide_probe
await pyodide_probe.probe("/matches")
`);
process.stdout.write(said + "\\n");
process.exit(0);
"""


def test_the_pure_layers_import_and_score_a_hand_under_the_pinned_pyodide(tmp_path: Path):
    node, npm = shutil.which("node"), shutil.which("npm")
    needs("Node or npm is not installed" if node is None or npm is None else None, "the Pyodide test")
    from ginscore.pocket.build import python_archives
    from ginscore.pocket.runtime import PYODIDE_VERSION, runtime_folder

    runtime = runtime_folder()
    lean, pages = python_archives()
    (tmp_path / "lean.zip").write_bytes(lean)
    (tmp_path / "pages.zip").write_bytes(pages)
    script = tmp_path / "probe.mjs"
    script.write_text(SCRIPT.replace("RUNTIME", runtime).replace("WORK", str(tmp_path)).replace("PROBE", str(HERE / "pyodide_probe.py")))
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    there = json.loads(done.stdout.strip().splitlines()[-1])

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
    assert there["lean_check"]["verdict"] == "You can knock: 2 deadwood, limit 10"
    assert there["check"]["deadwood"] == 2
    assert there["first_changes"] == ["n.toml"]
    assert there["held"] == {"need": ["c.toml", "n.toml", "p.toml"], "damaged": {"num.toml": "it holds a number, not a match file's text",
                                                            "sub/x.toml": "its name is not one a match file may have"}, "held": ["c.toml"]}
    assert there["recorded"] == 201 and there["crlf_changes"] == ["c.toml"] and there["crlf_kept"] is True
    assert there["summary_players"] == ["Ann", "Bob"] and there["poll"] == [200, {}]
    assert there["set_aside_changes"] == ["c.toml"]  # the damaged n.toml is not written back
