"""``chrf`` scorer: chrF++ through sacrebleu, a secondary metric (spec 001, "Answer extraction and
scorers"; docs/scoring.md#the-scorers: chrF++ = sacrebleu ``CHRF(word_order=2)``).

Rules:
- Hypothesis: the model output after extraction steps 1–3 only (reasoning and fences dropped,
  the last ``Answer:`` line's capture if there is one), surrounding whitespace stripped (which
  chrF++ ignores anyway). Step 4 is *not* applied: a translation keeps its quotes and its final
  period, exactly as a published chrF++ figure would see it.
- References: ``answer`` is one reference string or a list of accepted variants, passed to
  sacrebleu untouched. So ``CHRF(word_order=2).sentence_score(hypothesis, references)`` computed
  directly by sacrebleu gives the same number (with several references sacrebleu keeps the best
  one), on its 0–100 scale.
- ``correct`` is None: chrF++ is never right/wrong, and it is always reported as secondary.
  extras carry ``chrf`` (the sentence score) and ``signature`` (sacrebleu's signature string).
- Corpus score: :func:`corpus_chrf` over (hypothesis, references) pairs; items with fewer
  references are padded with None, which sacrebleu treats as "no reference here".
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from stages.scoring.extract import answer_text
from stages.scoring.verdict import Verdict, clip

NAME = "chrf"


@cache
def _metric() -> Any:
    from sacrebleu.metrics import CHRF

    return CHRF(word_order=2)


def references(answer: Any) -> list[str]:
    """The row's accepted references, as they are (one string becomes a one-item list)."""
    values = answer if isinstance(answer, list) else [answer]
    return [str(value) for value in values]


def hypothesis(output: str) -> str:
    """The translation chrF++ scores: extraction steps 1–3, surrounding whitespace stripped."""
    return answer_text(output).strip()


def sentence_chrf(hypothesis: str, refs: Sequence[str]) -> float:
    """chrF++ (0–100) of one hypothesis against its references."""
    return float(_metric().sentence_score(hypothesis, list(refs)).score)


@cache
def signature(references: int = 1) -> str:
    """sacrebleu's signature string of sentence-level chrF++ with that many references."""
    from sacrebleu.metrics import CHRF

    metric = CHRF(word_order=2)
    metric.sentence_score("x", ["x"] * references)  # the signature records the reference count
    return str(metric.get_signature())


def corpus_chrf(items: Sequence[tuple[str, Sequence[str]]]) -> tuple[float, str]:
    """Corpus-level chrF++ over (hypothesis, references) pairs, and its signature string."""
    from sacrebleu.metrics import CHRF

    metric = CHRF(word_order=2)
    hypotheses = [hypothesis for hypothesis, _ in items]
    width = max((len(refs) for _, refs in items), default=1)
    streams: list[list[str | None]] = [
        [refs[k] if k < len(refs) else None for _, refs in items] for k in range(width)
    ]
    result = metric.corpus_score(hypotheses, streams)  # type: ignore[arg-type]
    return float(result.score), str(metric.get_signature())


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Sentence chrF++ of the extracted translation against the row's references."""
    extracted = hypothesis(response.get("output") or "")
    refs = references(row["answer"])
    value = sentence_chrf(extracted, refs)
    why = f"chrF++ {value:.2f} against {len(refs)} reference(s) for {clip(extracted)}"
    return Verdict(
        NAME, None, value, extracted, why, {"chrf": value, "signature": signature(len(refs))}
    )
