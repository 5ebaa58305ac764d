"""The test suite's time: wall-clock seconds, and the processor seconds of the whole process tree (the pytest
workers, every `ginscore` they start, Node, npm and Chromium), which other work on the machine moves far less.

Run as root on a machine with cgroup v1's `cpuacct` (this project's machines): the command runs in a cgroup of its
own, so its processor time counts its processes alone, Chromium's included, whoever else loads the machine. Without
that cgroup, the whole machine's busy time from /proc/stat is given instead, and says so.

The same code's processor time still moves with the host: a shared machine runs slower when its neighbours are
busy. So the pace of one fixed loop of Python, taken before and after the run, is printed beside it; compare two
runs only at a like pace.

    python benchmarks/bench_suite.py                          # python -m pytest
    python benchmarks/bench_suite.py -- -m "not browser and not app"  # the quick suite
    python benchmarks/bench_suite.py --command "bash .ci/run" # CI's whole run
    python benchmarks/bench_suite.py --by-file                # and where the time went, a test file a line
    python benchmarks/bench_suite.py --by-process             # and which programs and threads spent it

`--by-file` runs pytest with the plugin `cpu_by_test.py` (beside this script), which costs a few per cent. It
also reads the whole machine's busy cores each second of the run, and sums the cores left idle by which test files
were running at that second, one per worker: where the workers left the machine waiting.

`--by-process` reads every thread in the run's cgroup five times a second and sums their processor time by the
program (Chromium's by its process type, Python's and Node's by what they run) and the thread's name. A thread
that ends between two readings loses what it spent since the last, so the sums fall a little short of the total.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from procfs import TICKS, stat_of, ticks

CPUACCT = "/sys/fs/cgroup/cpuacct"


def machine_busy() -> float:
    """Seconds the whole machine spent busy (user, nice, system, irq, softirq), from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(n) for n in stat.readline().split()[1:8]]
    return (sum(fields[:3]) + sum(fields[5:7])) / os.sysconf("SC_CLK_TCK")


def pace() -> float:
    """Seconds for one fixed loop of pure Python (ten million additions): the machine's speed at the moment."""
    began, total = time.perf_counter(), 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--command", help="a shell command to time instead of `python -m pytest`")
    parser.add_argument("--by-file", action="store_true", help="then each test file's processor and wall time, the most first, and where the cores sat idle")
    parser.add_argument("--by-process", action="store_true", help="then the processor time by program and thread (needs the cgroup)")
    parser.add_argument("pytest_args", nargs="*", help="arguments for `python -m pytest` (after --)")
    args = parser.parse_args()
    if args.by_file and args.command:
        parser.error("--by-file reads pytest's own run: give pytest's arguments after --, not --command")
    rows, plugin = "", []
    if args.by_file:
        rows, plugin = tempfile.mkdtemp(prefix="ginscore-cpu-by-test-"), ["-p", "cpu_by_test"]
        os.environ["GINSCORE_CPU_BY_TEST"] = rows
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
    command = args.command or shlex.join([sys.executable, "-m", "pytest", *plugin, *args.pytest_args])
    group = os.path.join(CPUACCT, f"ginscore-bench-{os.getpid()}")
    try:
        os.mkdir(group)
    except OSError:
        group = ""
    if args.by_process and not group:
        parser.error(f"--by-process reads the run's own cgroup, and none could be made under {CPUACCT}")
    enter = f"echo $$ > {group}/cgroup.procs && exec {command}" if group else command
    before = pace()
    seconds: list[tuple[float, float]] = []
    stop = threading.Event()
    if args.by_file:
        threading.Thread(target=busy_cores, args=(seconds, stop), daemon=True).start()
    threads: dict[tuple[str, str], tuple[str, str, int]] = {}
    reader = threading.Thread(target=read_threads, args=(group, threads, stop), daemon=True)
    if args.by_process:
        reader.start()
    busy, began = machine_busy(), time.monotonic()
    status = subprocess.run(["bash", "-c", enter]).returncode
    wall = time.monotonic() - began
    stop.set()
    if args.by_process:
        reader.join()
    if group:
        with open(os.path.join(group, "cpuacct.usage")) as usage:
            cpu, whose = int(usage.read()) / 1e9, "its processes"
        os.rmdir(group)
    else:
        cpu, whose = machine_busy() - busy, "the whole machine (no cpuacct cgroup here)"
    print(f"{command}: exit {status}, {wall:.1f} s wall, {cpu:.1f} s of processor time ({whose}); "
          f"the pace loop {before:.2f} s before, {pace():.2f} s after", file=sys.stderr)
    if args.by_file:
        written = rows_by_worker(rows)
        shutil.rmtree(rows)
        by_file(written)
        idle_by_files(written, seconds)
    if args.by_process:
        by_program(threads)
    return status


def busy_cores(seconds: list[tuple[float, float]], stop: threading.Event) -> None:
    """Each second until `stop`: when it ended, and how many cores the whole machine kept busy over it."""
    busy, at = machine_busy(), time.monotonic()
    while not stop.wait(1.0):
        now_busy, now = machine_busy(), time.monotonic()
        seconds.append((now, (now_busy - busy) / (now - at)))
        busy, at = now_busy, now


def read_threads(group: str, threads: dict[tuple[str, str], tuple[str, str, int]], stop: threading.Event) -> None:
    """Until `stop`, five times a second: each thread of each process in `group` (by the process's pid and start
    time, and the thread's id): what the process is (`program`), the thread's name and the ticks it has spent."""
    programs: dict[str, str] = {}
    while True:
        with open(os.path.join(group, "cgroup.procs")) as listed:
            pids = listed.read().split()
        for pid in pids:
            try:
                process = f"{pid}@{stat_of(f'/proc/{pid}/stat')[1][19]}"
                if process not in programs:
                    programs[process] = program(pid)
                for tid in os.listdir(f"/proc/{pid}/task"):
                    name, fields = stat_of(f"/proc/{pid}/task/{tid}/stat")
                    threads[(process, tid)] = (programs[process], name, ticks(fields))
            except (OSError, ValueError, IndexError):
                continue  # gone meanwhile
        if stop.wait(0.2):
            return


def program(pid: str) -> str:
    """What a process is, in a few words: Chromium's by its type, Python's and Node's by their script or module."""
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        words = [word for arg in cmdline.read().decode(errors="replace").split("\0") for word in arg.split(" ") if word]
    if not words:
        return "?"
    name = os.path.basename(words[0])
    if "chrom" in name:
        kind = next((word.removeprefix("--type=") for word in words if word.startswith("--type=")), "browser")
        sub = next((word.split("=")[1].split(".")[0] for word in words if word.startswith("--utility-sub-type=")), "")
        return f"chromium {kind} {sub}".rstrip()
    if name.startswith(("python", "node")):
        rest = [word for word in words[1:] if not word.startswith("-") or word in ("-m", "-c")]
        shown = " ".join(rest[:2]) if rest[:1] == ["-m"] else os.path.basename(rest[0]) if rest else ""
        worker = rest[:1] == ["-c"] and "sys.stdin.readline()" in " ".join(rest)  # how execnet starts one
        return f"{name.rstrip('0123456789.')} {'(xdist worker)' if worker else shown}".rstrip()
    return name


def by_program(threads: dict[tuple[str, str], tuple[str, str, int]], shown: int = 20) -> None:
    """The processor time `read_threads` saw, by program and by program and thread name: the most first."""
    programs: collections.Counter[str] = collections.Counter()
    named: collections.Counter[str] = collections.Counter()
    for what, thread, spent in threads.values():
        programs[what] += spent / TICKS
        named[f"{what}: {thread}"] += spent / TICKS
    print(f"\nprocessor s  program (read five times a second: {sum(programs.values()):.1f} s)")
    for what, seconds in programs.most_common(shown):
        print(f"{seconds:11.1f}  {what}")
    print("\nprocessor s  program: thread")
    for what, seconds in named.most_common(shown):
        print(f"{seconds:11.1f}  {what}")


def rows_by_worker(folder: str) -> dict[str, list[dict]]:
    """The rows `cpu_by_test.py` wrote, by the worker that ran each test."""
    return {path.stem: [json.loads(line) for line in path.read_text().splitlines()] for path in Path(folder).glob("*.jsonl")}


def by_file(workers: dict[str, list[dict]]) -> None:
    """Each test file's processor time (its tests' own and every process they started) and wall time, summed over
    its tests, from the rows `cpu_by_test.py` wrote (`rows_by_worker`): the most first."""
    cpu: collections.Counter[str] = collections.Counter()
    wall: collections.Counter[str] = collections.Counter()
    for row in itertools.chain.from_iterable(workers.values()):
        name = row["test"].split("::")[0]
        cpu[name] += row["cpu"]
        wall[name] += row["wall"]
    print(f"{'processor s':>12} {'wall s':>8}  test file (sums of their tests: {sum(cpu.values()):.1f} s, {sum(wall.values()):.1f} s)")
    for name, seconds in cpu.most_common():
        print(f"{seconds:12.1f} {wall[name]:8.1f}  {name}")


def idle_by_files(workers: dict[str, list[dict]], seconds: list[tuple[float, float]], shown: int = 8) -> None:
    """The cores the machine left idle from the first test to the last, summed by the test files running then (a
    file per worker, "-" for a worker between tests): the most first."""
    spans_of = {worker: sorted((row["began"], row["ended"], row["test"].split("::")[0].removeprefix("tests/")) for row in rows)
                for worker, rows in sorted(workers.items()) if rows}
    if not spans_of or not seconds:
        return
    first = min(spans[0][0] for spans in spans_of.values())
    last = max(spans[-1][1] for spans in spans_of.values())
    cores = os.cpu_count() or 1
    within = [(at, busy) for at, busy in seconds if first < at - 0.5 < last]
    idle: collections.Counter[str] = collections.Counter()
    for at, busy in within:
        middle = at - 0.5
        running = [next((name for began, ended, name in spans if began <= middle <= ended), "-") for spans in spans_of.values()]
        idle[" | ".join(running)] += max(0.0, cores - busy)
    mean = sum(busy for _, busy in within) / max(1, len(within))
    print(f"\nthe machine's {cores} cores from the first test to the last ({last - first:.0f} s): {mean:.2f} busy on "
          f"average, {sum(idle.values()):.0f} core seconds idle; the most idle, by the files running (one a worker):")
    for files, spare in idle.most_common(shown):
        print(f"{spare:12.1f}  {files}")


if __name__ == "__main__":
    sys.exit(main())
