"""Verdict records: what :func:`stages.compare.compare_records` and
:func:`stages.scoring.accuracy_interval` take (issue 18).

A record is one scored response: one line of ``metrics/verdicts/<w>.jsonl`` plus the facts the
comparison needs around it (workload, category, instance seed, load level). Callers pass plain
mappings or :class:`VerdictRecord`; :func:`as_record` checks every field and names the record
that is wrong. Bad data is refused, never guessed at: a non-finite score is an error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from stages.errors import AtlasError

#: Default range of a graded measure's score, by measure name.
SCALES: dict[str, tuple[float, float]] = {"f1": (0.0, 1.0), "chrf": (0.0, 100.0)}


@dataclass(frozen=True)
class VerdictRecord:
    """One scored response of one revision."""

    workload: str
    id: str
    repeat: int = 0
    """Sampled repeat of the item (0 for a greedy run)."""
    seed: int | None = None
    """Seed of the fresh instance the item comes from; None for the public set."""
    cluster: str | None = None
    """Items sharing a context share it; None: the item is its own cluster."""
    correct: bool | None = None
    """Binary outcome; a failed request is wrong (False): :func:`as_record` makes it so."""
    score: float | None = None
    """Graded outcome (DROP F1, chrF++, a review grade)."""
    measure: str | None = None
    """Name of the graded figure; None reads as ``score``."""
    scale: tuple[float, float] | None = None
    """Possible range of ``score``; None: the measure's default or what the data allow."""
    failed: str | None = None
    """Error kind of a failed request."""
    category: str | None = None
    level: str | None = None
    """Load level the record was answered at (records of different levels are never paired)."""
    dataset_sha256: str | None = None
    exhausted: bool = False
    """The answer ran out while thinking (issue 33; :mod:`stages.compare.exhausted`)."""

    @property
    def item(self) -> tuple[int | None, str]:
        """(seed, id): one item of one instance."""
        return self.seed, self.id

    @property
    def key(self) -> tuple[int | None, str, int]:
        """What pairs a record of A with one of B (within a workload and level)."""
        return self.seed, self.id, self.repeat

    @property
    def label(self) -> str:
        """``id``, ``id#repeat`` after the first repeat, prefixed ``s<seed>/`` for a fresh one."""
        text = self.id if self.repeat == 0 else f"{self.id}#{self.repeat}"
        return text if self.seed is None else f"s{self.seed}/{text}"

    @property
    def cluster_key(self) -> tuple[int | None, str]:
        """The independent unit: the cluster within its instance."""
        return self.seed, self.cluster if self.cluster is not None else self.id

    @property
    def graded_measure(self) -> str:
        return self.measure or "score"


def _text(obj: Mapping[str, Any], name: str, where: str, required: bool = False) -> str | None:
    value = obj.get(name)
    if value is None:
        if required:
            raise AtlasError(f"{where}: {name}: missing")
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise AtlasError(f"{where}: {name}: expected a string, got {value!r}")
    return str(value)


def _int(obj: Mapping[str, Any], name: str, where: str, default: int | None) -> int | None:
    value = obj.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AtlasError(f"{where}: {name}: expected an integer >= 0, got {value!r}")
    return int(value)


def _score(obj: Mapping[str, Any], where: str) -> float | None:
    value = obj.get("score")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise AtlasError(f"{where}: score: expected a number, got {value!r}")
    if not math.isfinite(value):
        raise AtlasError(f"{where}: score: {value!r} is not a finite number")
    return float(value)


def _scale(obj: Mapping[str, Any], where: str) -> tuple[float, float] | None:
    value = obj.get("scale")
    if value is None:
        return None
    ok = isinstance(value, list | tuple) and len(value) == 2
    numbers = ok and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    if not numbers or not all(math.isfinite(v) for v in value) or value[0] >= value[1]:
        raise AtlasError(f"{where}: scale: expected [low, high] with low < high, got {value!r}")
    return float(value[0]), float(value[1])


_OPTIONAL_TEXT = ("cluster", "measure", "failed", "category", "level", "dataset_sha256")


def _flag(obj: Mapping[str, Any], name: str, where: str) -> bool:
    """An optional true/false field (absent or null: false)."""
    value = obj.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise AtlasError(f"{where}: {name}: expected true, false or null, got {value!r}")
    return value


def _check_values(record: VerdictRecord, where: str) -> VerdictRecord:
    """The checks a record built in code still needs (a mapping gets them on the way in), and
    the rule every figure reads outcomes by: a failed request is wrong, whatever ``correct``
    says (issue 34: the comparison used to count it right and the headline wrong)."""
    if record.correct is not None and not isinstance(record.correct, bool):
        raise AtlasError(f"{where}: correct: expected true, false or null, got {record.correct!r}")
    if record.score is not None and not math.isfinite(record.score):
        raise AtlasError(f"{where}: score: {record.score!r} is not a finite number")
    if record.scale is not None and record.score is not None:
        low, high = record.scale
        if not low <= record.score <= high:
            raise AtlasError(f"{where}: score: {record.score} is outside its scale {low}..{high}")
    if record.failed is not None and record.correct is True:
        return replace(record, correct=False)
    return record


def as_record(obj: Mapping[str, Any] | VerdictRecord, where: str) -> VerdictRecord:
    """A checked :class:`VerdictRecord` from a mapping (``where`` names it in errors)."""
    if isinstance(obj, VerdictRecord):
        return _check_values(obj, where)
    if not isinstance(obj, Mapping):
        raise AtlasError(f"{where}: expected a verdict record (a mapping), got {obj!r}")
    texts = {}
    for name in _OPTIONAL_TEXT:  # the common case (a string or nothing) without a call
        value = obj.get(name)
        texts[name] = value if value is None or type(value) is str else _text(obj, name, where)
    repeat = obj.get("repeat", 0)
    if type(repeat) is not int or repeat < 0:
        repeat = _int(obj, "repeat", where, 0) or 0
    record = VerdictRecord(
        workload=str(_text(obj, "workload", where, required=True)),
        id=str(_text(obj, "id", where, required=True)),
        repeat=repeat,
        seed=_int(obj, "seed", where, None) if obj.get("seed") is not None else None,
        cluster=texts["cluster"] or None,
        correct=obj.get("correct"),
        score=_score(obj, where),
        measure=texts["measure"],
        scale=_scale(obj, where),
        failed=texts["failed"],
        category=texts["category"],
        level=texts["level"],
        dataset_sha256=texts["dataset_sha256"],
        exhausted=_flag(obj, "exhausted", where),
    )
    return _check_values(record, where)


def as_records(
    items: Iterable[Mapping[str, Any] | VerdictRecord], side: str
) -> list[VerdictRecord]:
    """Checked records of one side (``side`` is ``a`` or ``b``: errors say ``a[3]: ...``): each
    record's fields, and no second record of one item and repeat within a workload and load
    level. The one set of rules of ``compare_records`` and ``accuracy_interval``."""
    records = [as_record(item, f"{side}[{i}]") for i, item in enumerate(items)]
    seen: set[tuple[str, str, tuple[int | None, str, int]]] = set()
    for i, record in enumerate(records):
        key = (record.workload, record.level or "", record.key)
        if key in seen:
            name = f"{record.workload} {record.label}" if record.workload else record.label
            raise AtlasError(f"{side}[{i}]: a second record of {name}")
        seen.add(key)
    return records


def scale_of(
    measure: str, scores: Iterable[float], given: tuple[float, float] | None
) -> tuple[float, float]:
    """The range of a graded measure: given, the measure's default, else the smallest of [0, 1]
    and [0, 100] that holds every score, else the observed range."""
    if given is not None:
        return given
    if measure in SCALES:
        return SCALES[measure]
    values = list(scores)
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    for candidate in ((0.0, 1.0), (0.0, 100.0)):
        if candidate[0] <= low and high <= candidate[1]:
            return candidate
    return (low, high) if low < high else (low - 0.5, high + 0.5)
