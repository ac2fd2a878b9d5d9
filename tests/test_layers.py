"""The package's layers, checked: core <- processes <- formats <- proofs <- deduction <- backends <- pipeline <- encoders <-
web <- cli. A module imports only from its own layer or lower ones (imports for type checking alone excepted), and neither the
backends nor the pipeline package has an import cycle (the pipeline's counting imports for type checking
too), so that each layer can be read, tested and replaced on its own."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "puzzlesat"
LAYERS = ["core", "processes", "formats", "proofs", "deduction", "backends", "pipeline", "encoders", "web", "cli"]


def layer(module: str) -> int:
    """The layer of ``puzzlesat.X.Y``; the package itself is above them all (it re-exports the Python
    interface, lazily)."""
    if module == "puzzlesat":
        return len(LAYERS)
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    if top in ("entry", "api", "__main__"):
        return LAYERS.index("cli")
    return LAYERS.index(top) if top in LAYERS else -1


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_or_package(package: str, name: str) -> str:
    where = PACKAGE.parent.joinpath(*package.split("."), name)
    return f"{package}.{name}" if where.is_dir() or where.with_suffix(".py").exists() else package


def imports(path: Path, typing_too: bool = False) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) of every puzzlesat import outside ``if TYPE_CHECKING``
    (inside it too, with ``typing_too``)."""
    tree = ast.parse(path.read_text())
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    skipped = set() if typing_too else {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                                        and getattr(block.test, "id", "") == "TYPE_CHECKING" for node in ast.walk(block)}
    top_level = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from .. import name``: the module ``name`` when there is one, else the package itself
            # (``from .. import __version__`` imports the top package, a layer above everything)
            names = [target] if node.module else [_module_or_package(target, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [(name, node.lineno, id(node) in top_level) for name in names if name.startswith("puzzlesat")]
    return found


def test_no_module_imports_from_a_higher_layer():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        mine = layer(module_name(path))
        for target, line, _ in imports(path):
            if layer(target) > mine:
                upward.append(f"{module_name(path)}:{line} imports {target}")
    assert not upward, "\n".join(upward)


def assert_no_cycle(package: str, typing_too: bool = False) -> None:
    graph: dict[str, set[str]] = {}
    prefix = f"puzzlesat.{package}."
    for path in PACKAGE.joinpath(*package.split(".")).glob("*.py"):
        graph[module_name(path)] = {target for target, _, _ in imports(path, typing_too) if target.startswith(prefix)}

    def visit(node: str, trail: list[str]) -> None:
        assert node not in trail, " -> ".join(trail + [node])
        for following in graph.get(node, ()):
            visit(following, trail + [node])

    for node in graph:
        visit(node, [])


def test_the_backends_package_has_no_import_cycle():
    assert_no_cycle("backends")


def test_the_pipeline_has_no_import_cycle_not_even_for_type_checking():
    """The orchestration reads one way: report, request, steps, satisfy/optimize, crosscheck, plans,
    tasks, then the surfaces' helpers (cubes, executors, bench); see puzzlesat/pipeline/__init__.py."""
    assert_no_cycle("pipeline", typing_too=True)


def test_the_jig_counters_have_no_import_cycle():
    """The exact cover's dispatcher imported the compiled cover, which imports the plain cover's options
    (issue 45): the dispatcher is a module of its own (cover_counting), so no jig module, lazy imports
    included, imports one that imports it back."""
    assert_no_cycle("encoders.jig")



def test_one_clock_for_every_limit():
    """Every time limit is a core.timing.Deadline, on the monotonic clock (issue 45: ends were computed on
    two clocks, ``monotonic`` and ``perf_counter``): no module but core/timing.py adds seconds to a clock
    to make an end. The one exception is argued where it is: a cross-check's budget on a Dask cluster,
    which workers on other machines read, is on the wall clock they share."""
    import re

    made = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                  if re.search(r"(perf_counter|monotonic|time\.time)\(\) \+", path.read_text()))
    assert made == ["pipeline/crosscheck.py"]
