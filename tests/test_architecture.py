"""docs/architecture.md's diagram is the real import graph between packages (issue 35)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.import_graph import import_graph

DOC = REPO / "docs" / "architecture.md"
TOP_LEVEL_IMPORTS = {"stages.cli": None, "stages.params": {"datasets"}}
"""Top-level modules allowed to import packages: ``None`` any, else the packages named."""
ONLY = {
    "network": set(),  # HTTP owns no concept above it
    "protocol": {"network"},  # reading answers sends nothing and knows no run
    "engine": {"network"},  # the embedded server knows nothing of what is asked of it
}
"""Packages that may import only the packages named (all else is forbidden to them)."""
FORBIDDEN = {
    "inference": {"serving"},  # asking never depends on measuring
    "scoring": {"inference", "serving", "network", "engine"},  # verdicts read files only
    "compare": {"inference", "serving", "network", "engine"},
    "report": {"inference", "serving", "network", "engine"},
    "review": {"inference", "serving", "network", "engine"},
    "export": {"inference", "serving", "network", "engine"},  # exports committed files only
}
"""Packages each package must not import, as docs/architecture.md states them."""


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 else None


def package_edges(root: Path) -> set[tuple[str, str]]:
    """``(a, b)`` for each package ``a`` with a module importing one of package ``b``."""
    graph = import_graph(root, root / "stages")
    return {
        (_package(a), _package(b))  # type: ignore[misc]
        for a, targets in graph.items()
        for b in targets
        if _package(a) and _package(b) and _package(a) != _package(b)
    }


def diagram_edges(text: str) -> set[tuple[str, str]]:
    """The ``a --> b`` arrows of the page's mermaid block."""
    block = re.search(r"```mermaid\n(.*?)```", text, re.S)
    assert block, f"{DOC}: no mermaid block"
    return set(re.findall(r"^\s*(\w+) --> (\w+)\s*$", block.group(1), re.M))


def test_the_diagram_is_the_import_graph() -> None:
    real, drawn = package_edges(REPO), diagram_edges(DOC.read_text(encoding="utf-8"))
    assert (sorted(real - drawn), sorted(drawn - real)) == ([], []), (
        "docs/architecture.md's diagram differs from the code: (missing arrows, arrows that "
        "are not imports)"
    )


def test_every_package_has_its_paragraph_and_node() -> None:
    text = DOC.read_text(encoding="utf-8")
    packages = sorted(p.name for p in (REPO / "stages").iterdir() if (p / "__init__.py").is_file())
    nodes = {name for edge in diagram_edges(text) for name in edge}
    assert [p for p in packages if f"**{p}** owns" not in text] == []
    assert [p for p in packages if p not in nodes] == []


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_package_imports_what_it_must_not(package: str) -> None:
    found = sorted(b for a, b in package_edges(REPO) if a == package and b in FORBIDDEN[package])
    assert found == [], f"stages/{package} imports {found}"


@pytest.mark.parametrize("package", sorted(ONLY))
def test_low_packages_import_only_what_they_may(package: str) -> None:
    found = sorted(b for a, b in package_edges(REPO) if a == package and b not in ONLY[package])
    assert found == [], f"stages/{package} imports {found}"


def test_shared_top_level_modules_import_no_package_but_the_named() -> None:
    graph = import_graph(REPO, REPO / "stages")
    found = {}
    for module, targets in graph.items():
        if module.count(".") != 1:
            continue
        packages = {p for t in targets if (p := _package(t))}
        allowed = TOP_LEVEL_IMPORTS.get(module, set())
        if allowed is not None and packages - allowed:
            found[module] = sorted(packages - allowed)
    assert found == {}


def test_the_checks_see_a_forbidden_arrow(tmp_path: Path) -> None:
    """The graph reader finds a lazy import of serving inside inference (what the rule forbids)."""
    for relative, text in {
        "stages/__init__.py": "",
        "stages/inference/__init__.py": "",
        "stages/inference/run.py": "def f():\n    from stages.serving import stage\n",
        "stages/serving/__init__.py": "",
        "stages/serving/stage.py": "from stages.inference.run import f\n",
    }.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    assert package_edges(tmp_path) == {("inference", "serving"), ("serving", "inference")}
