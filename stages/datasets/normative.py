"""Loading the normative Python a dataset ships (``rules.py``, ``build.py``).

Such files are part of the dataset's bytes and are the reference for its behaviour, so they are
imported from the dataset directory itself (never from ``_gen/``), each under a private module
name derived from its path so two datasets' files never shadow each other.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from types import ModuleType

from stages.errors import AtlasError


def load_dataset_module(path: Path) -> ModuleType:
    """Import ``path``; a missing, unloadable or failing file is an :class:`AtlasError`."""
    path = path.resolve()
    if not path.is_file():
        raise AtlasError(f"{path}: missing")
    name = "_atlas_dataset_" + hashlib.sha256(str(path).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AtlasError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # a broken normative file is a dataset problem, reported as one
        raise AtlasError(f"{path}: failed to load: {exc}") from exc
    return module
