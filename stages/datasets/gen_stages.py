"""The ``gen-<id>`` stages of ``dvc.yaml``: exact deps, written and verified (issue 15).

Each stage depends on its own generator file and exactly the ``_gen/`` modules it imports,
directly or through other modules: the shared ones in ``_gen/common/``, the task families in
``_gen/families/<suite>/``, and the ``__init__.py`` of every package on the way (Python runs
them too). So changing one generator (or a family only it uses) re-runs only its stage. DVC's
``foreach`` cannot give each item a list of deps of its own (DVC 3 rejects a list-valued
``${item.deps}`` under ``deps:``), so the stages are written out explicitly between two marker
comments by ``atlas dataset stages``, from ``params.yaml`` ``datasets:`` and the imports found by
``ast``. ``atlas dataset new`` rewrites the block; ``atlas check`` fails when any stage that runs
a generator (the block, or a hand-written one such as ``gen-identity``) lists other deps than its
imports, or when ``datasets:`` and the block disagree.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import yaml

from stages.errors import AtlasError
from stages.io import atomic_write_text

GEN_DIR = Path("_gen")
DVC_FILE = Path("dvc.yaml")
BEGIN = "  # >>> gen stages: written by `atlas dataset stages`; do not edit by hand"
END = "  # <<< gen stages"
#: Source of the stage command itself (``atlas dataset generate``), a dep of every gen stage.
COMMAND_SOURCE = "stages/datasets/generate.py"
_GENERATE_CMD = re.compile(r"^atlas dataset generate (\S+)$|^python _gen/(\S+)\.py \S+$")


def module_file(name: str, gen: Path) -> Path | None:
    """The file under ``gen`` that module ``name`` (``a.b.c``) is: ``a/b/c.py`` or the package
    ``a/b/c/__init__.py``; None for a module from elsewhere (the standard library, Pillow)."""
    base = gen.joinpath(*name.split("."))
    for candidate in (base.parent / f"{base.name}.py", base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(source: Path, gen: Path, level: int) -> str:
    """The package a relative import of ``level`` dots in ``source`` starts from."""
    parts = list(source.relative_to(gen).parent.parts)
    if level - 1 > len(parts):
        raise AtlasError(f"{source}: relative import beyond _gen/")
    return ".".join(parts[: len(parts) - (level - 1)])


def imported_files(source: Path, gen: Path) -> set[Path]:
    """The ``_gen/`` files that importing ``source`` runs directly: every module it names (at any
    depth of the file, so also an import inside a function) and every package on the way."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(p for p in (_package_of(source, gen, node.level), base) if p)
            names.add(base)
            names.update(f"{base}.{alias.name}".lstrip(".") for alias in node.names)
    files: set[Path] = set()
    for name in filter(None, names):
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            found = module_file(".".join(parts[:depth]), gen)
            if found is not None and found != source:
                files.add(found)
    return files


def helpers(dataset_id: str, root: Path = Path(".")) -> list[str]:
    """The ``_gen/`` files the generator imports, transitively, as sorted repository paths."""
    gen = root / GEN_DIR
    script = gen / f"{dataset_id}.py"
    if not script.is_file():
        raise AtlasError(f"{script}: no generator for {dataset_id!r}")
    seen: set[Path] = set()
    todo = imported_files(script, gen)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo |= imported_files(path, gen) - seen
    return sorted((GEN_DIR / p.relative_to(gen)).as_posix() for p in seen - {script})


def expected_deps(dataset_id: str, root: Path = Path(".")) -> list[str]:
    """What a gen stage must list: the generator, its helpers, the command's source."""
    return [f"{GEN_DIR.as_posix()}/{dataset_id}.py", *helpers(dataset_id, root), COMMAND_SOURCE]


def stage_text(dataset_id: str, root: Path = Path(".")) -> str:
    """One ``gen-<id>`` stage in dvc.yaml's style (flow lists keep the block short)."""
    deps = ", ".join(expected_deps(dataset_id, root))
    return (
        f"  gen-{dataset_id}:\n"
        f"    cmd: atlas dataset generate {dataset_id}\n"
        f"    deps: [{deps}]\n"
        f"    params: [check.budget_mb]\n"
        f"    outs: [datasets/{dataset_id}: {{cache: false}}]\n"
    )


def generated_ids(root: Path = Path(".")) -> list[str]:
    """``params.yaml`` ``datasets:``: the ids whose stage the block holds, in that order."""
    params = yaml.safe_load((root / "params.yaml").read_text(encoding="utf-8")) or {}
    ids = params.get("datasets") or []
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise AtlasError("params.yaml: datasets: expected a list of dataset ids")
    return ids


def block(root: Path = Path(".")) -> str:
    """The whole generated block, markers included."""
    body = "".join(stage_text(i, root) for i in generated_ids(root))
    return f"{BEGIN}\n{body}{END}\n"


def sync(root: Path = Path(".")) -> bool:
    """Rewrite the block in dvc.yaml; True when it changed."""
    path = root / DVC_FILE
    text = path.read_text(encoding="utf-8")
    start, end = text.find(BEGIN + "\n"), text.find(END + "\n")
    if start < 0 or end < start:
        raise AtlasError(f"{path}: the gen-stage markers ({BEGIN.strip()!r} ...) are missing")
    new = text[:start] + block(root) + text[end + len(END) + 1 :]
    if new != text:
        atomic_write_text(path, new)
    return new != text


def stage_failures(root: Path = Path(".")) -> list[str]:
    """Every gen stage whose deps differ from its generator's imports, and ids without a stage."""
    path = root / DVC_FILE
    if not path.is_file():
        return []
    stages: dict[str, Any] = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(
        "stages"
    ) or {}
    failures: list[str] = []
    staged: set[str] = set()
    for name, stage in stages.items():
        match = _GENERATE_CMD.match(str(stage.get("cmd", ""))) if isinstance(stage, dict) else None
        if not match or "foreach" in stage:
            continue
        dataset_id = match.group(1) or match.group(2)
        staged.add(dataset_id)
        listed = [d if isinstance(d, str) else next(iter(d)) for d in stage.get("deps", [])]
        try:
            want = expected_deps(dataset_id, root)
        except AtlasError as exc:
            failures.append(f"{path}: stage {name}: {exc}")
            continue
        missing, extra = sorted(set(want) - set(listed)), sorted(set(listed) - set(want))
        if missing or extra:
            failures.append(
                f"{path}: stage {name}: deps do not match the generator's imports "
                f"(missing {missing or 'none'}, extra {extra or 'none'}); run `atlas dataset stages`"
            )
    for dataset_id in generated_ids(root):
        if dataset_id not in staged:
            failures.append(
                f"{path}: {dataset_id} is listed in params.yaml datasets: but has no gen stage; "
                "run `atlas dataset stages`"
            )
    text = path.read_text(encoding="utf-8")
    start, end = text.find(BEGIN + "\n"), text.find(END + "\n")
    if not failures and start >= 0 and text[start : end + len(END) + 1] != block(root):
        failures.append(f"{path}: the gen-stage block is stale; run `atlas dataset stages`")
    return failures
