"""The app's Python compiled ahead, at the build: `bytecode.py` run under the pinned runtime in Node, so that the
bytecode is the runtime's own (a CPython's bytecode is read only by its own version), after the app's start
there has shown what to compile.

Without Node (`ginscore app --runtime DIR` on a machine without it) or when the runtime cannot run there, the build
ships the sources alone and says why: the app is the same, and its Python compiles them on every start instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "ahead.mjs")
BYTECODE = os.path.join(HERE, "bytecode.py")
SECONDS = 300
"""How long the compile may take (about five seconds here) before the build ships the sources instead."""


def compiled(runtime: str, stdlib: bytes, archives: Sequence[bytes]) -> tuple[list[bytes] | None, str]:
    """The standard library's zip and the app's archives compiled under the runtime in the folder `runtime`, as far
    as the app's start imports them (`bytecode.py`): the new zips, in that order, and ""; or None and why not."""
    node = shutil.which("node")
    if node is None:
        return None, "Node.js is not installed"
    with tempfile.TemporaryDirectory(prefix="ginscore-bytecode-") as work:
        sources, targets = [], []
        for index, data in enumerate([stdlib, *archives]):
            sources.append(os.path.join(work, f"source-{index}.zip"))
            targets.append(os.path.join(work, f"target-{index}.zip"))
            with open(sources[-1], "wb") as handle:
                handle.write(data)
        jobs = {"bytecode": BYTECODE, "archives": sources[1:],
                "zips": [{"source": source, "target": target} for source, target in zip(sources, targets)]}
        with open(os.path.join(work, "jobs.json"), "w", encoding="utf-8") as handle:
            json.dump(jobs, handle)
        try:
            done = subprocess.run([node, SCRIPT, runtime, os.path.join(work, "jobs.json")], capture_output=True, text=True,
                                  timeout=SECONDS, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as error:
            return None, f"node failed ({error})"
        if done.returncode != 0:
            errors = [line for line in done.stderr.splitlines() if re.match(r"\w*Error\b", line)]  # not Node's stack
            return None, f"node failed ({(errors or [f'exit status {done.returncode}'])[-1][:200]})"
        out = []
        for target in targets:
            with open(target, "rb") as handle:
                out.append(handle.read())
        return out, ""
