"""Instance-level records of an every_eval_ever export: one per verdict line and figure.

A record refers to its item by dataset id, row id and the sha256 of the row's line; the prompt
and the gold answer are left out unless asked for (``--with-prompts``), so that an export can be
published without publishing the benchmark. ``sample_hash`` is the row's sha256, which anyone
holding the dataset can check, rather than the schema's suggested hash of the prompt text.
"""

from __future__ import annotations

from stages.compare.pairs import Item
from stages.export.eee_instance import (
    AnswerAttribution,
    InstanceEvaluation,
    InstanceInput,
    InstanceOutput,
    InstanceRecord,
    Performance,
    TokenUsage,
)
from stages.export.eee_models import SCHEMA_VERSION
from stages.export.figures import Figure


def evaluation_name(figure: Figure) -> str:
    """``inference_atlas.<workload>``: the evaluation a figure and its records belong to."""
    return f"inference_atlas.{figure.workload.name}"


def _answer(figure: Figure, item: Item) -> tuple[str, str]:
    """(answer, where it comes from): the journal's full answer, else the clipped extraction."""
    full = figure.workload.answers.get(item.pair_key)
    if full is not None:
        return full.text, "journal"
    return item.extracted or "", "verdict_extracted"


def _usage(figure: Figure, item: Item) -> tuple[TokenUsage | None, Performance | None]:
    """Token counts and timings from the journal, when the answer comes from it (the schema
    takes token counts all three or not at all)."""
    found = figure.workload.answers.get(item.pair_key)
    if found is None:
        return None, None
    usage = found.usage or {}
    counts = {
        ours: usage.get(theirs)
        for ours, theirs in (
            ("input_tokens", "prompt_tokens"),
            ("output_tokens", "completion_tokens"),
            ("total_tokens", "total_tokens"),
        )
    }
    whole = all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts.values())
    tokens = TokenUsage.model_validate(counts) if whole else None
    timed = found.ttft_s is not None or found.latency_s is not None
    performance = Performance(
        latency_ms=None if found.latency_s is None else round(found.latency_s * 1000, 3),
        time_to_first_token_ms=None if found.ttft_s is None else round(found.ttft_s * 1000, 3),
    )
    return tokens, performance if timed else None


def _metadata(figure: Figure, item: Item, answer_source: str) -> dict[str, str]:
    dataset = figure.workload.dataset
    row = figure.workload.rows.get(item.id)
    found = {
        "dataset_id": dataset.get("id"),
        "dataset_sha256": dataset.get("sha256"),
        "row_id": item.id,
        "row_sha256": row.sha256 if row else None,
        "repeat": str(item.repeat),
        "cluster": item.cluster,
        "correct": None if item.correct is None else str(item.correct).lower(),
        "flexible": None if item.flexible is None else str(item.flexible).lower(),
        "failed": item.failed,
        "answer_source": answer_source,
    }
    return {k: v for k, v in found.items() if v is not None}


def record_of(
    figure: Figure, item: Item, evaluation_id: str, model_id: str, with_prompts: bool
) -> InstanceRecord | None:
    """The record of one verdict line for one figure; None when the item has no score there."""
    score = figure.item_score(item)
    if score is None:
        return None
    row = figure.workload.rows.get(item.id)
    answer, source = _answer(figure, item)
    tokens, performance = _usage(figure, item)
    prompt = row.prompt if row and with_prompts else ""
    reference = [row.gold] if row and row.gold is not None and with_prompts else []
    scorers = figure.workload.signature.get("scorers") or {}
    method = (row.scorer if row and row.scorer else None) or ",".join(sorted(scorers)) or "unknown"
    return InstanceRecord(
        schema_version=SCHEMA_VERSION,
        evaluation_id=evaluation_id,
        model_id=model_id,
        evaluation_name=evaluation_name(figure),
        evaluation_result_id=figure.result_id,
        sample_id=item.id,
        sample_hash=row.sha256 if row else None,
        interaction_type="single_turn",
        input=InstanceInput(raw=prompt, reference=reference),
        output=InstanceOutput(raw=[answer]),
        answer_attribution=[
            AnswerAttribution(
                turn_idx=0,
                source="output.raw",
                extracted_value=item.extracted or "",
                extraction_method=method,
                is_terminal=True,
            )
        ],
        evaluation=InstanceEvaluation(score=score, is_correct=item.correct is True),
        token_usage=tokens,
        performance=performance,
        error=item.failed,
        metadata=_metadata(figure, item, source),
    )


def records_of(
    figures: list[Figure], evaluation_id: str, model_id: str, with_prompts: bool
) -> list[InstanceRecord]:
    """Every figure's records, figure by figure, items in verdict-file order."""
    out = []
    for figure in figures:
        for item in figure.workload.items:
            record = record_of(figure, item, evaluation_id, model_id, with_prompts)
            if record is not None:
                out.append(record)
    return out
