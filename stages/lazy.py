"""Package attributes imported on first use (PEP 562), so that importing a package stays light
while its public API can be reached from it (``from stages.compare import compare_records``)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy_attributes(package: str, table: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``table[name]`` (a module path) on first use."""

    def __getattr__(name: str) -> Any:
        if name in table:
            return getattr(import_module(table[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
