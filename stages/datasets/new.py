"""``atlas dataset new ID``: the contributor path for a new dataset (or a new ``-vN`` version)."""

from __future__ import annotations

import re
from pathlib import Path

from stages.datasets.card import NEW_ID_RE
from stages.datasets.gen_stages import DVC_FILE, sync
from stages.errors import AtlasError
from stages.io import atomic_write_text

TEMPLATE = Path("_gen/TEMPLATE.py")


def _kind_of(dataset_id: str) -> str:
    return dataset_id.split("-", 1)[0]


def add_to_params_text(text: str, dataset_id: str) -> str:
    """Append ``dataset_id`` to the ``datasets:`` list of params.yaml, keeping comments intact."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == "datasets:")
    except StopIteration as exc:
        raise AtlasError("params.yaml: no top-level 'datasets:' list to add to") from exc
    end = start + 1
    while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
        if re.fullmatch(rf"\s*-\s*{re.escape(dataset_id)}\s*(#.*)?\n?", lines[end]):
            raise AtlasError(f"params.yaml: {dataset_id} is already listed under datasets")
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    lines.insert(end, f"  - {dataset_id}\n")
    return "".join(lines)


def new_dataset(dataset_id: str, root: Path = Path(".")) -> Path:
    """Copy the template to ``_gen/<id>.py``, list it in params and write its dvc.yaml stage."""
    if not NEW_ID_RE.fullmatch(dataset_id):
        raise AtlasError(
            f"invalid dataset id {dataset_id!r}: expected <eval|prompts|haystack>-<name>-v<N> "
            "in lower case, e.g. eval-math-v2"
        )
    target = root / "_gen" / f"{dataset_id}.py"
    if target.exists():
        raise AtlasError(f"{target} already exists")
    if (root / "datasets" / dataset_id).exists():
        raise AtlasError(f"datasets/{dataset_id} already exists; published ids are immutable")
    source = (root / TEMPLATE).read_text(encoding="utf-8")
    kind = _kind_of(dataset_id)
    body = source.replace('DATASET_ID = "eval-example-v1"', f'DATASET_ID = "{dataset_id}"')
    body = body.replace('KIND = "eval"', f'KIND = "{kind}"')
    params = root / "params.yaml"
    new_params = add_to_params_text(params.read_text(encoding="utf-8"), dataset_id)
    atomic_write_text(target, body)
    atomic_write_text(params, new_params)
    if (root / DVC_FILE).is_file():
        sync(root)  # its gen-<id> stage, with exactly the helpers it imports
    return target
