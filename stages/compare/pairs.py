"""Pairing the item verdicts of two revisions (issue 10).

Items are paired on (workload, dataset id and sha256, instance seed, item id, repeat). A
workload whose dataset id or sha256 differs between the revisions is refused by name: its items
are not the same questions. Items present on one side only are counted, never paired. Lines of
fresh instances (issue 13) carry the instance's ``seed``; the public set's lines have none.
A verdict line that cannot be read — not JSON, a missing id, a score that is not a finite number
— is an error naming the file and line (issue 18): no figure is computed from bad data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from stages.compare.records import as_record
from stages.compare.revisions import Revision
from stages.errors import AtlasError

VERDICTS_DIR = "metrics/verdicts"
Key = tuple[int | None, str, int]


@dataclass(frozen=True)
class Item:
    """One line of ``metrics/verdicts/<w>.jsonl``."""

    id: str
    repeat: int
    cluster: str
    correct: bool | None
    flexible: bool | None
    failed: str | None
    extracted: str | None
    score: float | None
    seed: int | None = None
    """Seed of the fresh instance the item belongs to; None for the public set."""
    measure: str | None = None
    """Name of the graded figure when the line names it (``review``, ``judge``); else None and
    the workload's scorers decide (:func:`stages.compare.run.graded_measure`)."""
    scale: tuple[float, float] | None = None
    """Range of ``score`` when the line gives it (a review rubric's 0-2 or 0-4)."""
    exhausted: bool = False
    """The answer ran out while thinking (``exhausted: true`` in the line, issue 33)."""

    @property
    def key(self) -> str:
        """``id``, ``id#repeat`` after the first repeat, ``s<seed>/...`` for a fresh instance."""
        text = self.id if self.repeat == 0 else f"{self.id}#{self.repeat}"
        return text if self.seed is None else f"s{self.seed}/{text}"

    @property
    def pair_key(self) -> Key:
        return self.seed, self.id, self.repeat


@dataclass(frozen=True)
class Side:
    """One workload as scored at one revision."""

    revision: Revision
    workload: str
    items: dict[Key, Item]
    metrics: dict[str, Any]
    """``metrics/<w>.json`` (its ``signature`` names dataset, model, engine, provenance)."""
    serving: dict[str, Any] | None
    """``metrics/<w>.serving.json`` when the revision has one."""

    @property
    def signature(self) -> dict[str, Any]:
        signature = self.metrics.get("signature")
        return signature if isinstance(signature, dict) else {}

    @property
    def dataset(self) -> tuple[str | None, str | None]:
        dataset = self.signature.get("dataset") or {}
        return dataset.get("id"), dataset.get("sha256")


@dataclass(frozen=True)
class WorkloadPairs:
    """The paired items of one workload."""

    workload: str
    a: Side
    b: Side
    pairs: list[tuple[Item, Item]]
    """(A item, B item): the public set by (id, repeat), then each fresh instance by seed."""
    only_a: int
    only_b: int


def _item(obj: dict[str, Any], where: str) -> Item:
    # The field checks of the comparison API, with this line named (non-finite scores refused).
    record = as_record({"workload": "-", **obj}, where)
    if not isinstance(obj.get("repeat"), int):
        raise AtlasError(f"{where}: repeat: missing or not an integer")
    flexible = obj.get("flexible")
    extracted = obj.get("extracted")
    return Item(
        id=record.id,
        repeat=record.repeat,
        cluster=record.cluster or record.id,
        correct=record.correct,
        flexible=flexible if isinstance(flexible, bool) else None,
        failed=record.failed,
        extracted=extracted if isinstance(extracted, str) else None,
        score=record.score,
        seed=record.seed,
        measure=record.measure,
        scale=record.scale,
        exhausted=record.exhausted,
    )


def read_verdicts(revision: Revision, workload: str) -> dict[Key, Item] | None:
    """The verdict lines of ``workload`` at ``revision``; None when it has no verdict file."""
    path = f"{VERDICTS_DIR}/{workload}.jsonl"
    text = revision.text(path)
    if text is None:
        return None
    items: dict[Key, Item] = {}
    # Lines end at "\n" only: an answer may hold U+2028, U+0085 or U+2029 raw (verdict lines are
    # written with ensure_ascii=False), which str.splitlines would take for line ends.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number} at {revision.short}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AtlasError(f"{where}: invalid JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise AtlasError(f"{where}: expected a JSON object")
        item = _item(obj, where)
        if item.pair_key in items:
            raise AtlasError(f"{where}: a second line for {item.key}")
        items[item.pair_key] = item
    return items


def read_json_at(revision: Revision, path: str) -> dict[str, Any] | None:
    text = revision.text(path)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AtlasError(
            f"{path}:{exc.lineno} at {revision.short}: invalid JSON: {exc.msg}"
        ) from exc
    return data if isinstance(data, dict) else None


def workloads_at(revision: Revision) -> list[str]:
    """Workloads that have a verdict file at ``revision``."""
    return [n[: -len(".jsonl")] for n in revision.listdir(VERDICTS_DIR) if n.endswith(".jsonl")]


def load_side(revision: Revision, workload: str) -> Side | None:
    items = read_verdicts(revision, workload)
    if items is None:
        return None
    metrics = read_json_at(revision, f"metrics/{workload}.json") or {}
    serving = read_json_at(revision, f"metrics/{workload}.serving.json")
    return Side(revision, workload, items, metrics, serving)


def refusal(a: Side, b: Side) -> str | None:
    """Why two sides cannot be paired (different dataset id or bytes), else None."""
    (id_a, sha_a), (id_b, sha_b) = a.dataset, b.dataset
    if id_a != id_b:
        return f"dataset {id_a} at {a.revision.short} but {id_b} at {b.revision.short}"
    if sha_a != sha_b:
        short_a = (sha_a or "unknown")[:12]
        short_b = (sha_b or "unknown")[:12]
        return f"{id_a} has sha256 {short_a}… at {a.revision.short} but {short_b}… at " + (
            b.revision.short
        )
    return None


def pair(a: Side, b: Side) -> WorkloadPairs:
    """Pair the items both sides have, in (id, repeat) order."""
    shared = sorted(
        set(a.items) & set(b.items), key=lambda k: (k[0] is not None, k[0] or 0, *k[1:])
    )
    return WorkloadPairs(
        workload=a.workload,
        a=a,
        b=b,
        pairs=[(a.items[k], b.items[k]) for k in shared],
        only_a=len(set(a.items) - set(b.items)),
        only_b=len(set(b.items) - set(a.items)),
    )
