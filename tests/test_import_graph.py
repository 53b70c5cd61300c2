"""No import circles in the project's source trees (issue 22); rules in tests/import_graph.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.import_graph import cycles, describe, import_graph

TREES = {
    "stages": (REPO, REPO / "stages"),  # imported as the package ``stages`` from the repo root
    # Generators run as scripts, so _gen/ is sys.path[0]: ``common`` and ``families.<suite>`` are
    # its packages (the circle _gen/_fresh.py <-> _gen/_lib.py was removed with issue 22).
    "_gen": (REPO / "_gen", REPO / "_gen"),
}
"""Each tree checked: ``name: (root it is imported from, folder of its modules)``."""


@pytest.mark.parametrize("name", sorted(TREES))
def test_no_import_circles(name: str) -> None:
    root, tree = TREES[name]
    graph = import_graph(root, tree)
    assert len(graph) > 1, f"{tree}: no modules found"
    found = [describe(c) for c in cycles(graph)]
    assert not found, f"{name}: import circles:\n" + "\n".join(found)


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def f():\n    from . import c\n",
            "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n",
            "pkg/d.py": "import importlib\nimportlib.import_module('pkg.sub.e')\n",
            "pkg/sub/__init__.py": "from ..a import x\n",
            "pkg/sub/e.py": "import json\nfrom .. import a\nfrom pkg import sub, VERSION\n",
        },
    )
    assert import_graph(tmp_path, tmp_path / "pkg") == {
        "pkg": set(),
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.c"},
        "pkg.c": {"pkg.d"},
        "pkg.d": {"pkg.sub.e"},
        "pkg.sub": {"pkg.a"},
        "pkg.sub.e": {"pkg", "pkg.a", "pkg.sub"},
    }


def test_a_circle_is_named_as_a_closed_path(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def f():\n    from pkg import c  # dodging the circle\n",
            "pkg/c.py": "import pkg.a\n",
            "pkg/x.py": "from pkg.y import z\n",
            "pkg/y.py": "from pkg.x import w\n",
            "pkg/free.py": "import pkg.a\n",
        },
    )
    found = cycles(import_graph(tmp_path, tmp_path / "pkg"))
    assert [describe(c) for c in found] == [
        "pkg.a -> pkg.b -> pkg.c -> pkg.a",
        "pkg.x -> pkg.y -> pkg.x",
    ]


def test_flat_script_folders_resolve_top_level_names(tmp_path: Path) -> None:
    """A folder run as scripts (``sys.path`` is the folder, as ``_gen/`` is): ``import _lib``."""
    _write(
        tmp_path / "gen",
        {
            "_lib.py": "import _fresh\n",
            "_fresh.py": "def f():\n    import _lib\n",
            "data-v1.py": "import _lib\n",
        },
    )
    graph = import_graph(tmp_path / "gen", tmp_path / "gen")
    assert graph == {"_fresh": {"_lib"}, "_lib": {"_fresh"}, "data-v1": {"_lib"}}
    assert [describe(c) for c in cycles(graph)] == ["_fresh -> _lib -> _fresh"]
