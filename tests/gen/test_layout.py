"""The ``_gen/`` layout (issue 22): generators at the top, named by dataset id; what they share in
``common/``; task families in ``families/<suite>/``; and no import circle among any of them.

The import graph is the one ``atlas dataset stages`` writes the gen stages' deps from
(``stages.datasets.gen_stages.imported_files``), so a circle found here is one DVC would see too.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from stages.datasets.gen_stages import imported_files
from tests.conftest import REPO

GEN = REPO / "_gen"


def import_graph(gen: Path) -> dict[Path, set[Path]]:
    """Every module under ``gen`` (caches skipped) and the ``gen`` files it imports directly."""
    modules = [p for p in gen.rglob("*.py") if "__pycache__" not in p.parts]
    return {path: imported_files(path, gen) for path in sorted(modules)}


def import_circles(graph: dict[Path, set[Path]], gen: Path) -> list[list[str]]:
    """Each import circle once, as the module paths around it (first repeated at the end),
    from a depth-first walk in sorted order."""
    circles: list[list[str]] = []
    done: set[Path] = set()

    def walk(path: Path, stack: list[Path]) -> None:
        stack.append(path)
        for target in sorted(graph.get(path, ())):
            if target in stack:
                loop = stack[stack.index(target) :] + [target]
                circles.append([p.relative_to(gen).as_posix() for p in loop])
            elif target not in done:
                walk(target, stack)
        stack.pop()
        done.add(path)

    for path in sorted(graph):
        if path not in done:
            walk(path, [])
    return circles


def test_no_import_circle_among_gen_modules() -> None:
    graph = import_graph(GEN)
    assert len(graph) > 90  # every generator, common/ and families/ module was read
    assert import_circles(graph, GEN) == []


def test_a_planted_circle_is_found(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "common" / "lib.py").write_text(
        "def run():\n    from common import fresh\n", encoding="utf-8"
    )  # a lazy import closes a circle as much as a top-level one
    (tmp_path / "common" / "fresh.py").write_text("from common import lib\n", encoding="utf-8")
    (tmp_path / "eval-x-v1.py").write_text("from common import lib\n", encoding="utf-8")
    assert import_circles(import_graph(tmp_path), tmp_path) == [
        ["common/fresh.py", "common/lib.py", "common/fresh.py"]
    ]


def test_generators_sit_at_the_top_and_everything_else_in_packages() -> None:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    generated = set(params["datasets"]) | {"eval-identity-v1"}  # identity: its own stage
    top = {p.stem for p in GEN.glob("*.py")}
    assert top == generated | {"TEMPLATE"}
    folders = {p.relative_to(GEN).as_posix() for p in GEN.rglob("*") if p.is_dir()}
    folders -= {f for f in folders if "__pycache__" in f}
    assert {f.split("/")[0] for f in folders} == {"common", "families"}
    for folder in folders:  # each a regular package, so an import resolves one way only
        assert (GEN / folder / "__init__.py").is_file(), folder
    suites = {f.split("/")[1] for f in folders if f.startswith("families/")}
    assert suites == {
        "code",
        "commonsense",
        "drop",
        "haystack",
        "instruction",
        "longgen",
        "multilingual",
        "reasoning",
        "science",
        "security",
        "translation",
        "vision",
    }
