"""The server's packages import each other one way: no package imports, directly or through
others, a package that imports it. Imports inside functions count (they still tie the packages
together); imports under `if TYPE_CHECKING:` do not (they are for the type checker only)."""

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import tagtrack

# Package -> imported package -> where ("auth/router.py:16").
Graph = dict[str, dict[str, list[str]]]


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        pending.extend(ast.iter_child_nodes(node))


def package_graph(root: Path) -> Graph:
    """The imports between the sub-packages of the package at `root`."""
    name = root.name
    packages = {path.parent.name for path in root.glob("*/__init__.py")}
    graph: Graph = {package: {} for package in packages}
    for path in sorted(root.glob("*/**/*.py")):
        relative = path.relative_to(root)
        source = relative.parts[0]
        if source not in packages:
            continue
        # Relative imports start from the module's package (for __init__.py, its own).
        package = [name, *relative.parent.parts]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            targets: list[str]
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                targets = [target, *(f"{target}.{alias.name}" for alias in node.names)]
            for target in targets:
                parts = target.split(".")
                if len(parts) > 1 and parts[0] == name and parts[1] in packages - {source}:
                    where = graph[source].setdefault(parts[1], [])
                    place = f"{relative.as_posix()}:{node.lineno}"
                    if place not in where:
                        where.append(place)
    for imported in graph.values():
        for places in imported.values():
            places.sort(key=lambda place: (place.split(":")[0], int(place.split(":")[1])))
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """One cycle per group of packages that reach each other, as the packages along it with
    the first repeated at the end."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(package: str) -> None:
        index[package] = low[package] = len(index)
        stack.append(package)
        for other in sorted(graph[package]):
            if other not in index:
                visit(other)
                low[package] = min(low[package], low[other])
            elif other in stack:
                low[package] = min(low[package], index[other])
        if low[package] == index[package]:
            group: set[str] = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == package:
                    break
            if len(group) > 1:
                groups.append(group)

    for package in sorted(graph):
        if package not in index:
            visit(package)
    return [_cycle_in(graph, group) for group in groups]


def _cycle_in(graph: Graph, group: set[str]) -> list[str]:
    """The shortest cycle through the group's first package (by name)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        package = queue.pop(0)
        for other in sorted(graph[package]):
            if other == start:
                return [*paths[package], start]
            if other in group and other not in paths:
                paths[other] = [*paths[package], other]
                queue.append(other)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def describe(graph: Graph, cycle: list[str]) -> str:
    steps = [f"{a} -> {b} ({', '.join(graph[a][b])})" for a, b in itertools.pairwise(cycle)]
    return "import cycle " + " -> ".join(cycle) + ":\n  " + "\n  ".join(steps)


def test_server_packages_have_no_import_cycle() -> None:
    graph = package_graph(Path(tagtrack.__file__).parent)
    assert graph["users"].get("access"), "the scan sees the imports"
    found = [describe(graph, cycle) for cycle in cycles(graph)]
    assert not found, "\n".join(found)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_cycle_through_three_packages_is_named(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "app",
        {
            "__init__.py": "",
            "main.py": "from app.c import service\n",  # a module, not a package: not counted
            "a/__init__.py": "",
            "a/service.py": "from app.b.service import run\n",
            "b/__init__.py": "",
            "b/service.py": "def run() -> None:\n    from ..c import repository\n",
            "c/__init__.py": "",
            "c/repository.py": "import app.a.service\n",
        },
    )
    graph = package_graph(root)
    assert graph == {
        "a": {"b": ["a/service.py:1"]},
        "b": {"c": ["b/service.py:2"]},
        "c": {"a": ["c/repository.py:1"]},
    }
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert describe(graph, ["a", "b", "c", "a"]) == (
        "import cycle a -> b -> c -> a:\n"
        "  a -> b (a/service.py:1)\n"
        "  b -> c (b/service.py:2)\n"
        "  c -> a (c/repository.py:1)"
    )


def test_imports_for_the_type_checker_and_one_way_imports_make_no_cycle(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "app",
        {
            "__init__.py": "",
            "a/__init__.py": "from app.b import thing\n",
            "b/__init__.py": "",
            "b/thing.py": (
                "from typing import TYPE_CHECKING\n"
                "import typing\n"
                "if TYPE_CHECKING:\n"
                "    from app.a import x\n"
                "if typing.TYPE_CHECKING:\n"
                "    import app.a\n"
                "else:\n"
                "    from app.c import y\n"
            ),
            "c/__init__.py": "from . import z\n",
        },
    )
    graph = package_graph(root)
    assert graph == {"a": {"b": ["a/__init__.py:1"]}, "b": {"c": ["b/thing.py:8"]}, "c": {}}
    assert cycles(graph) == []
