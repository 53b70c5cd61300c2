"""The ``gen-<id>`` stages of ``dvc.yaml``: exact deps, written and verified (issue 15).

Each stage depends on its own generator file and exactly the ``_gen/_*.py`` helpers it imports,
directly or through other helpers, so changing one generator (or a helper only it uses) re-runs
only its stage. DVC's ``foreach`` cannot give each item a list of deps of its own (DVC 3 rejects a
list-valued ``${item.deps}`` under ``deps:``), so the stages are written out explicitly between two
marker comments by ``atlas dataset stages``, from ``params.yaml`` ``datasets:`` and the imports
found by ``ast``. ``atlas dataset new`` rewrites the block; ``atlas check`` fails when any stage
that runs a generator (the block, or a hand-written one such as ``gen-identity``) lists other
deps than its imports, or when ``datasets:`` and the block disagree.
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


def _imported(source: Path, gen: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return {n for n in names if n.startswith("_") and (gen / f"{n}.py").is_file()}


def helpers(dataset_id: str, root: Path = Path(".")) -> list[str]:
    """``_gen/_*.py`` files the generator imports, transitively, sorted."""
    gen = root / GEN_DIR
    script = gen / f"{dataset_id}.py"
    if not script.is_file():
        raise AtlasError(f"{script}: no generator for {dataset_id!r}")
    seen: set[str] = set()
    todo = _imported(script, gen)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _imported(gen / f"{name}.py", gen) - seen
    return [f"{GEN_DIR.as_posix()}/{name}.py" for name in sorted(seen)]


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
