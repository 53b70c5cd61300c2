"""The ``_gen/`` layout (issue 22): generators at the top, named by dataset id; what they share in
``common/``; task families in ``families/<suite>/``. (No import circle among them:
``tests/test_import_graph.py``, tree ``_gen``.)
"""

from __future__ import annotations

import ast

import yaml

from tests.conftest import REPO

GEN = REPO / "_gen"


def test_generators_sit_at_the_top_and_everything_else_in_packages() -> None:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    generated = set(params["datasets"]) | {"eval-identity-v1"}  # identity: its own stage
    top = {p.stem for p in GEN.glob("*.py")}
    assert top == generated | {"TEMPLATE"}
    folders = {p.relative_to(GEN).as_posix() for p in GEN.rglob("*") if p.is_dir()}
    folders -= {f for f in folders if "__pycache__" in f}
    assert {f.split("/")[0] for f in folders} == {"common", "families"}
    for folder in folders:  # each a regular package, so an import resolves one way only
        init = GEN / folder / "__init__.py"
        assert init.is_file(), folder
        # Only a docstring: importing a family runs no package code, so no import hides there
        # (the import graph does not count the implicit edge to a parent package).
        body = ast.parse(init.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr), init
        assert isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)
    suites = {f.split("/")[1] for f in folders if f.startswith("families/")}
    assert suites == {
        "code",
        "commonsense",
        "drop",
        "haystack",
        "instruction",
        "knowledge",
        "longgen",
        "math",
        "multilingual",
        "reasoning",
        "science",
        "security",
        "translation",
        "vision",
    }
