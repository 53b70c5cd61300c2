"""``compare_records``: the comparison of revision B against A from their verdict records — the
one function every figure of ``atlas compare`` and ``atlas gate`` comes from (issue 18).

Per workload (and load level) it returns the accuracy row, one row per category when there are
several, pass@k and pass^k rows when items were sampled more than once, the ``exhausted`` row
where some answer ran out while thinking (:mod:`stages.compare.exhausted`: a rise is the loss),
and one row per graded measure; then applies the multiplicity procedure of
:mod:`stages.compare.multiplicity` across the whole table, the power of
:mod:`stages.compare.power` at each row's level, and the verdict rule: "B better" or "B worse"
only when the adjusted p is below alpha *and* the 95 % interval excludes zero.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from stages.compare import cluster_agreement, exhausted, measures, multiplicity
from stages.compare.measures import Measured, Pair, Tested
from stages.compare.passk import passk_rows
from stages.compare.records import VerdictRecord, as_records, scale_of
from stages.compare.row import ALPHA, BETTER, MIN_PLAN_CLUSTERS, NOT_TESTED, SAME, WORSE, Row
from stages.errors import AtlasError

Records = Iterable[Mapping[str, Any] | VerdictRecord]


@dataclass
class _Draft:
    """A row before multiplicity, with what the later steps need."""

    row: Row
    measured: Measured
    parent: int | None
    pairs: list[Pair] = field(default_factory=list)
    retest: Callable[[list[Pair]], Tested] | None = None
    """The row's test on other pairs (to see whether failures carry the verdict)."""


def _sort_key(key: tuple[int | None, str, int]) -> tuple[bool, int, str, int]:
    seed, item, repeat = key
    return seed is not None, seed or 0, item, repeat


def _index(
    records: list[VerdictRecord], side: str
) -> dict[tuple[str, str], dict[Any, VerdictRecord]]:
    out: dict[tuple[str, str], dict[Any, VerdictRecord]] = {}
    for record in records:  # duplicates were refused by as_records
        out.setdefault((record.workload, record.level or ""), {})[record.key] = record
    return out


def _check_datasets(a: list[VerdictRecord], b: list[VerdictRecord]) -> None:
    def shas(records: list[VerdictRecord]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for r in records:
            if r.dataset_sha256:
                out.setdefault(r.workload, set()).add(r.dataset_sha256)
        return out

    at_a, at_b = shas(a), shas(b)
    for workload in sorted(set(at_a) & set(at_b)):
        if at_a[workload] != at_b[workload]:
            raise AtlasError(
                f"workload {workload}: dataset sha256 differs between A and B: its items are not "
                "the same questions"
            )


def _flips(pairs: Sequence[Pair]) -> tuple[list[str], list[str]]:
    down = [x.label for x, y in pairs if x.correct and not y.correct]
    up = [x.label for x, y in pairs if y.correct and not x.correct]
    return down, up


def _row(
    workload: str, level: str, category: str | None, measure: str, role: str,
    measured: Measured, pairs: Sequence[Pair],
) -> Row:  # fmt: skip
    tested = measured.tested
    down, up = _flips(pairs) if measure in ("accuracy", exhausted.MEASURE) else ([], [])
    note = tested.note
    if note is None and not measured.possible and measured.n:
        note = "too few items for a verdict at 5 % (the exact test needs 6)"
    return Row(
        workload=workload,
        category=category,
        measure=measure,
        role=role,
        n=measured.n,
        items=measured.items,
        clusters=measured.clusters,
        a=measured.a,
        b=measured.b,
        delta=None if measured.a is None or measured.b is None else measured.b - measured.a,
        se=tested.se,
        ci95=tested.ci95,
        p=tested.p,
        test=measured.test if tested.p is not None else "none",
        df=tested.df if tested.p is not None else None,
        failed_a=sum(x.failed is not None for x, _ in pairs),
        failed_b=sum(y.failed is not None for _, y in pairs),
        right_to_wrong=down,
        wrong_to_right=up,
        scale=measured.scale,
        level=level or None,
        note=note,
    )


def _graded(workload: str, level: str, pairs: list[Pair]) -> list[_Draft]:
    graded = [(x, y) for x, y in pairs if x.score is not None and y.score is not None]
    out = []
    for measure in sorted({y.graded_measure for _, y in graded}):
        chosen = [(x, y) for x, y in graded if y.graded_measure == measure]
        scores = [float(s) for x, y in chosen for s in (x.score, y.score) if s is not None]
        given = next((r.scale for pair in chosen for r in pair if r.scale is not None), None)
        scale = scale_of(measure, scores, given)

        def retest(subset: list[Pair], span: float = scale[1] - scale[0]) -> Tested:
            diffs = [float(y.score or 0.0) - float(x.score or 0.0) for x, y in subset]
            return measures.mean_test(diffs, [y.cluster_key for _, y in subset], span)

        values = [(float(x.score or 0.0), float(y.score or 0.0)) for x, y in chosen]
        clusters = [y.cluster_key for _, y in chosen]
        measured = measures.mean_row(values, clusters, len({x.item for x, _ in chosen}), scale)
        row = _row(workload, level, None, measure, "primary", measured, chosen)
        out.append(_Draft(row, measured, None, chosen, retest))
    return out


def _workload(workload: str, level: str, pairs: list[Pair], start: int) -> list[_Draft]:
    """The drafts of one workload; ``start`` is the index its first draft will have."""
    binary = [(x, y) for x, y in pairs if x.correct is not None and y.correct is not None]
    drafts: list[_Draft] = []
    if binary:
        measured = measures.binary(binary)
        row = _row(workload, level, None, "accuracy", "primary", measured, binary)
        drafts.append(_Draft(row, measured, None, binary, measures.binary_test))
        groups: dict[str, list[Pair]] = {}
        for x, y in binary:
            category = x.category if x.category is not None else y.category
            if category is not None:
                groups.setdefault(category, []).append((x, y))
        if len(groups) > 1:
            for category, members in sorted(groups.items()):
                m = measures.binary(members)
                row = _row(workload, level, category, "accuracy", "category", m, members)
                drafts.append(_Draft(row, m, start, members, measures.binary_test))
        for measure, m in passk_rows(binary):
            row = _row(workload, level, None, measure, "secondary", m, [])
            drafts.append(_Draft(row, m, start))
    ran_out = exhausted.exhausted_pairs(pairs)  # issue 33: only where some answer ran out
    if ran_out:
        m = measures.binary(ran_out)
        row = _row(workload, level, None, exhausted.MEASURE, "primary", m, ran_out)
        drafts.append(_Draft(row, m, None, ran_out, measures.binary_test))
    return drafts + _graded(workload, level, pairs)


def _oriented(row: Row) -> tuple[float, float, float] | None:
    """(Δ, low, high) with a gain positive: turned round for a measure whose rise is a loss."""
    if row.ci95 is None or row.delta is None:
        return None
    if row.measure in exhausted.LOWER_IS_BETTER:
        return -row.delta, -row.ci95[1], -row.ci95[0]
    return row.delta, row.ci95[0], row.ci95[1]


def _noted(draft: _Draft, note: str) -> _Draft:
    text = note if draft.row.note is None else f"{draft.row.note}; {note}"
    return replace(draft, row=replace(draft.row, note=text))


def _decide(row: Row, alpha: float) -> str:
    oriented = _oriented(row)
    if row.p_adjusted is None or oriented is None:
        return SAME
    if row.p_adjusted >= alpha:
        return SAME
    delta, low, high = oriented
    if delta > 0 and low > 0:
        return BETTER
    if delta < 0 and high < 0:
        return WORSE
    return SAME


def _carried(draft: _Draft, row: Row, alpha: float) -> bool:
    """Whether the verdict of ``row`` goes away without the pairs where a request failed."""
    if row.verdict not in (BETTER, WORSE) or draft.retest is None:
        return False
    if not (row.failed_a or row.failed_b):
        return False
    clean = [(x, y) for x, y in draft.pairs if x.failed is None and y.failed is None]
    tested = draft.retest(clean)
    local = alpha if not row.p_adjusted else alpha * float(row.p or 0.0) / row.p_adjusted
    if tested.p is None or tested.ci95 is None or tested.p > local:
        return True
    low, high = tested.ci95
    rising = (row.verdict == BETTER) != (row.measure in exhausted.LOWER_IS_BETTER)
    return not (low > 0 if rising else high < 0)


def _finish(drafts: list[_Draft], holm: bool, alpha: float) -> list[Row]:
    nodes = [multiplicity.Node(d.row.p if d.measured.possible else None, d.parent) for d in drafts]
    adjusted = multiplicity.adjust(nodes) if holm else [node.p for node in nodes]
    out: list[Row] = []
    for index, draft in enumerate(drafts):
        level = multiplicity.initial_level(nodes, index, alpha) if holm else alpha
        mde, capped = (None, False)
        note = draft.row.note
        if level is not None and draft.measured.possible:
            if draft.measured.mde is not None:
                mde, capped = draft.measured.mde(level)
            else:
                extra = f"no MDE below {MIN_PLAN_CLUSTERS} clusters (power too uncertain)"
                note = extra if note is None else f"{note}; {extra}"
        row = replace(draft.row, p_adjusted=adjusted[index], mde=mde, mde_capped=capped, note=note)
        verdict = _decide(row, alpha)
        parent = out[draft.parent] if draft.parent is not None and holm else None
        if parent is not None and parent.verdict not in (BETTER, WORSE):
            verdict = NOT_TESTED
        row = replace(row, verdict=verdict)
        out.append(replace(row, carried_by_failures=_carried(draft, row, alpha)))
    return out


def compare_records(
    a: Records, b: Records, *, holm: bool = True, alpha: float = ALPHA
) -> list[Row]:
    """Rows comparing B against A, paired on (workload, level, seed, id, repeat).

    ``holm=True``: the family-wise error of the whole table is at most ``alpha`` (primary rows
    Holm-adjusted, categories and pass@k rows tested under their workload). ``holm=False``:
    each row on its own unadjusted p, for callers that control multiplicity themselves.
    """
    records_a, records_b = as_records(a, "a"), as_records(b, "b")
    _check_datasets(records_a, records_b)
    index_a, index_b = _index(records_a, "a"), _index(records_b, "b")
    drafts: list[_Draft] = []
    for workload, level in sorted(set(index_a) & set(index_b)):
        side_a, side_b = index_a[(workload, level)], index_b[(workload, level)]
        keys = sorted(set(side_a) & set(side_b), key=_sort_key)
        pairs, disagreement = cluster_agreement.agree([(side_a[k], side_b[k]) for k in keys])
        made = _workload(workload, level, pairs, len(drafts))
        if disagreement is not None:
            made = [_noted(draft, disagreement) for draft in made]
        if not made and any(r.correct is not None for r in side_a.values()):
            empty = measures.binary([])
            made = [
                _Draft(_row(workload, level, None, "accuracy", "primary", empty, []), empty, None)
            ]
        drafts += made
    return _finish(drafts, holm, alpha)
