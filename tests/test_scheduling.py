"""The workers' share of the test files (tests/scheduling.py): with three workers, two take the browser files first
and the third the rest first, each a whole file, in the order given, and each the other kind once its own is done."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

from scheduling import BrowsersBesideTheRest


class Worker:
    def __init__(self, name: str):
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append(indexes)


def scheduler(workers: int, files: list[str]) -> tuple[Any, list[Worker], list[str]]:
    sched = BrowsersBesideTheRest.__new__(BrowsersBesideTheRest)  # no pytest config: the queue set by hand
    nodes = [Worker(f"gw{n}") for n in range(workers)]
    tests = [f"{file}::test_{n}" for file in files for n in range(2)]
    sched.numnodes = workers
    sched.workqueue = OrderedDict((file, {test: False for test in tests if test.startswith(file + "::")}) for file in files)
    sched.assigned_work = {node: {} for node in nodes}
    sched.registered_collections = {node: tests for node in nodes}
    return sched, nodes, tests


def taken(sched: Any, node: Worker) -> str:
    sched._assign_work_unit(node)
    return list(sched.assigned_work[node])[-1]


FILES = ["tests/test_a_browser.py", "tests/test_waits.py", "tests/test_b_browser.py", "tests/test_c.py", "tests/test_d.py"]


def test_with_three_workers_the_last_takes_the_rest_first_and_the_others_the_browser_files():
    sched, (gw0, gw1, gw2), tests = scheduler(3, FILES)
    assert [taken(sched, gw2), taken(sched, gw0), taken(sched, gw1)] == ["tests/test_waits.py", "tests/test_a_browser.py", "tests/test_b_browser.py"]
    assert gw2.sent == [[tests.index("tests/test_waits.py::test_0"), tests.index("tests/test_waits.py::test_1")]]
    assert taken(sched, gw0) == "tests/test_c.py"  # no browser file left: the rest, in order
    assert taken(sched, gw2) == "tests/test_d.py"
    assert not sched.workqueue


def test_the_last_worker_takes_browser_files_once_the_rest_is_done():
    sched, (_, _, gw2), _ = scheduler(3, ["tests/test_a_browser.py", "tests/test_c.py", "tests/test_b_browser.py"])
    assert [taken(sched, gw2), taken(sched, gw2), taken(sched, gw2)] == ["tests/test_c.py", "tests/test_a_browser.py", "tests/test_b_browser.py"]


def test_with_two_workers_both_take_the_browser_files_first():
    sched, (gw0, gw1), _ = scheduler(2, FILES)
    assert [taken(sched, gw1), taken(sched, gw0), taken(sched, gw1)] == ["tests/test_a_browser.py", "tests/test_b_browser.py", "tests/test_waits.py"]
