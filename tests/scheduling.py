"""How the test files go to xdist's workers (tests/conftest.py's `pytest_xdist_make_scheduler`): a whole file at a
time, in the order tests/conftest.py sorts them, as `--dist loadfile --no-loadscope-reorder` hands them out; but with
three workers or more, the last takes the files that drive no browser first, and the others the browser files
(`*_browser.py`) first. Each takes the other kind once its own is done.

Why: a browser test keeps about four fifths of a core busy, as the test, Playwright's driver and Chromium's
processes wait on one another in turn; a file of the rest keeps a whole core busy. Two workers on browser files and
one on the rest fill the two cores of this project's machines, where three workers on the same kind of file either
leave them idle or crowd them (`docs/speed.md`).
"""

from __future__ import annotations

from typing import Any

from xdist.scheduler import LoadFileScheduling

BROWSER_FILE = "_browser.py"
"""How a file that drives Chromium is named: tests/conftest.py refuses a browser test in a file named otherwise."""


class BrowsersBesideTheRest(LoadFileScheduling):
    """xdist's `loadfile`, with the next file chosen by the kind of worker that asks (above)."""

    def _assign_work_unit(self, node: Any) -> None:
        self.workqueue.move_to_end(self._next_file_for(node), last=False)  # xdist's own then hands out the first
        super()._assign_work_unit(node)

    def _next_file_for(self, node: Any) -> str:
        takes_the_rest = self.numnodes > 2 and node.gateway.id == f"gw{self.numnodes - 1}"
        wanted = (scope for scope in self.workqueue if scope.endswith(BROWSER_FILE) != takes_the_rest)
        return next(wanted, next(iter(self.workqueue)))
