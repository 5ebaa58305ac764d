"""The layers hold: imports flow one way, the game is standard library only, and nothing imports in a circle.

Every `import` in every module counts, including those inside functions and under TYPE_CHECKING: an import
deferred for start-up time is still a dependency.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ginscore"

LAYERS = {"version": 0, "errors": 0, "game": 1, "match": 2, "files": 3, "sheets": 4, "api": 5, "render": 5, "cli": 6, "web": 6, "pocket": 7}
"""Each top-level part of the package and its height: a module may import its own layer or a lower one."""

APART = {("cli", "web"), ("web", "cli"), ("web", "render"), ("pocket", "cli"), ("pocket", "render")}
"""Side by side, never through each other: what both need lives below them, and the web layer never loads rich.
The phone app (`pocket`) sits on web, whose pages it runs, and never on the terminal's parts."""

DOORS = {("ginscore.cli.serve", "ginscore.web.server"), ("ginscore.cli.pocket", "ginscore.pocket.build")}
"""The exceptions: `ginscore serve` starts the server through web.server, and `ginscore app` writes the app through
pocket.build, each imported inside its command."""

def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[tuple[str, str]]:
    """Each (module, name) the file imports, relative imports resolved; name is '' for `import x`."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.update((base, alias.name) for alias in node.names)
    return found


def graph() -> dict[str, set[tuple[str, str]]]:
    """Each module's imports: the package parsed once a session (half a second), a fresh copy for each test."""
    return {module: set(imports) for module, imports in _parsed().items()}


@functools.cache
def _parsed() -> dict[str, frozenset[tuple[str, str]]]:
    return {module_name(path): frozenset(imports_of(path)) for path in sorted(PACKAGE.rglob("*.py"))}


def own_module(imported: str, name: str, modules: set[str]) -> str | None:
    """The package module an import names: `from ginscore.game import cards` names ginscore.game.cards."""
    if f"{imported}.{name}" in modules:
        return f"{imported}.{name}"
    return imported if imported in modules else None


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def problems(modules: dict[str, set[tuple[str, str]]]) -> list[str]:
    """Every upward import, every import between parts kept apart, and every non-stdlib import in the game."""
    found = []
    for module, imports in modules.items():
        here = layer(module)
        for imported, name in imports:
            target = own_module(imported, name, set(modules))
            if target is None:
                top = imported.split(".")[0]
                if here in ("version", "errors", "game") and top not in sys.stdlib_module_names:
                    found.append(f"{module} imports {imported}, outside the standard library")
                continue
            there = layer(target)
            if target == "ginscore":
                if module.count(".") and module != "ginscore.__main__":
                    found.append(f"{module} imports {name} from the package root, above every layer")
                continue
            if here not in LAYERS or there not in LAYERS:
                continue
            if (module, target) in DOORS:
                continue
            if (here, there) in APART:
                found.append(f"{module} imports {target}: {here} and {there} stay apart")
            elif LAYERS[there] > LAYERS[here]:
                found.append(f"{module} imports {target}, a higher layer ({there} over {here})")
    return found


def cycles(modules: dict[str, set[tuple[str, str]]]) -> list[list[str]]:
    """Import cycles between the package's modules (the root, which imports lazily, left out)."""
    edges = {
        module: {t for i, n in imports if (t := own_module(i, n, set(modules))) and t != "ginscore" and t != module}
        for module, imports in modules.items()
    }
    found, state = [], dict.fromkeys(edges, 0)

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                found.append(path[path.index(target) :] + [target])
            elif state.get(target) == 0:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(edges):
        if state[module] == 0:
            visit(module, [module])
    return found


def test_every_module_sits_in_a_layer():
    outside = [m for m in graph() if m.count(".") and layer(m) not in LAYERS and m.split(".")[1] != "__main__"]
    assert outside == []


def test_imports_flow_one_way_and_the_game_is_standard_library_only():
    assert problems(graph()) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


@pytest.mark.parametrize(
    ("module", "imported", "name", "expected"),
    [
        ("ginscore.game.cards", "ginscore.match", "records", "a higher layer (match over game)"),
        ("ginscore.match.records", "ginscore.files.storage", "load", "a higher layer (files over match)"),
        ("ginscore.files.storage", "ginscore.render", "console", "a higher layer (render over files)"),
        ("ginscore.cli.command", "ginscore.web", "app", "cli and web stay apart"),
        ("ginscore.cli.command", "ginscore.web", "server", "cli and web stay apart"),
        ("ginscore.cli.serve", "ginscore.web", "app", "cli and web stay apart"),
        ("ginscore.web.server", "ginscore.cli", "serve", "web and cli stay apart"),
        ("ginscore.cli.pocket", "ginscore.pocket", "worker", "a higher layer (pocket over cli)"),
        ("ginscore.pocket.build", "ginscore.cli", "app", "pocket and cli stay apart"),
        ("ginscore.web.asgi", "ginscore.pocket", "worker", "a higher layer (pocket over web)"),
        ("ginscore.game.melds", "numpy", "array", "outside the standard library"),
        ("ginscore.sheets.words", "ginscore", "load_match", "from the package root"),
    ],
)
def test_the_layer_check_can_fail(module, imported, name, expected):
    """Each rule is shown to catch a planted import, so a green run means something."""
    modules = graph()
    modules.setdefault("ginscore.web", set())
    modules.setdefault("ginscore.web.asgi", set())
    modules[module] = modules[module] | {(imported, name)}
    assert any(expected in problem for problem in problems(modules))


def test_the_cycle_check_can_fail():
    modules = graph()
    modules["ginscore.game.cards"] = modules["ginscore.game.cards"] | {("ginscore.game.scoring", "score_cards")}
    assert ["ginscore.game.cards", "ginscore.game.scoring", "ginscore.game.cards"] in cycles(modules)


def python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60)


CORE = [m for m in map(module_name, sorted(PACKAGE.rglob("*.py"))) if layer(m) in ("errors", "game", "match", "files", "sheets", "api")]
"""The modules below the terminal, named from their paths: nothing parsed while the tests are collected."""


def test_the_layers_below_the_terminal_import_neither_typer_nor_rich():
    code = (
        f"import {', '.join(CORE)}, sys\n"
        "loaded = sorted(m for m in ('typer', 'rich', 'click') if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    done = python("-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == "\n", f"the core imported {done.stdout.strip()}"


def test_the_probe_would_see_rich_if_it_were_imported():
    """The check above can fail: the same probe sees rich once render's console (rich's door) is imported."""
    done = python("-c", "import ginscore.render.console, sys; print('rich' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "True\n"


def test_python_m_ginscore_help():
    done = python("-m", "ginscore", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("Usage: ") and "ginscore" in done.stdout.splitlines()[0]  # click names it "python -m ginscore"
    assert "check" in done.stdout and "score" in done.stdout and "rules" in done.stdout
