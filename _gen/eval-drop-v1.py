# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-drop-v1: DROP-style discrete reasoning over generated passages, scored ``drop``
(spec 003; answer shape from spec 001 "Answer shapes": a list of accepted answers, each a
plain string or a list of spans).

Half the rows are game summaries (``games``), half town histories
(``histories``): each row draws its own event list, writes the passage from it and asks
one question whose answer is computed from the events (counting, addition, subtraction,
sorting, superlatives, comparison, multi-span and dates). ``prove`` parses the events back
out of the passage text, requires them to equal ``meta.events``, and recomputes the question
and its answer from the parsed events.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.drop import games, histories

DATASET_ID = "eval-drop-v1"
KIND = "eval"
DESCRIPTION = "DROP-style reading comprehension: counting, arithmetic, sorting, dates, spans."
SEED = 1_000_601
COUNT = 150
CREATED = "2026-11-29"
DEFAULT_SCORER = "drop"
DIFFICULTIES = ("easy", "medium", "hard")
SOURCES: dict[str, ModuleType] = {"game": games, "history": histories}
INSTRUCTION = (
    "Answer with a number (digits only), a date, or words copied from the passage. "
    "End with a line 'Answer: …'; separate several answers with |."
)


def _prompt(passage: str, question: str) -> str:
    return f"{passage}\n\nQuestion: {question}\n\n{INSTRUCTION}"


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    difficulty = DIFFICULTIES[idx % len(DIFFICULTIES)]
    source = tuple(SOURCES)[(idx // len(DIFFICULTIES)) % len(SOURCES)]
    module = SOURCES[source]
    qtypes = [q for q, (_, d, _) in module.QUESTIONS.items() if d == difficulty]
    qtype = qtypes[(idx // (len(DIFFICULTIES) * len(SOURCES))) % len(qtypes)]
    category, _, ask = module.QUESTIONS[qtype]
    while True:  # redraw until the question is askable and unambiguous for these events
        events = module.make_events(rng)
        passage = module.render(events, rng)
        for _ in range(12):
            choice = rng.randrange(1_000_000)
            if asked := ask(events, choice):
                question, answer = asked
                return {
                    "id": f"drop-{idx + 1:04d}",
                    "category": category,
                    "difficulty": difficulty,
                    "prompt": _prompt(passage, question),
                    "answer": answer,
                    "scorer": DEFAULT_SCORER,
                    "meta": {
                        "source": source,
                        "qtype": qtype,
                        "choice": choice,
                        "events": events,
                    },
                }


def prove(row: dict[str, Any]) -> None:
    """The passage states exactly ``meta.events``; the answer follows from what it states."""
    meta = row["meta"]
    module = SOURCES[meta["source"]]
    passage = row["prompt"].split("\n\nQuestion: ")[0]
    parsed = module.parse(passage)
    assert parsed == meta["events"], f"{row['id']}: passage and events disagree"
    asked = module.QUESTIONS[meta["qtype"]][2](parsed, meta["choice"])
    assert asked is not None and _prompt(passage, asked[0]) == row["prompt"], row["id"]
    assert asked[1] == row["answer"], row["id"]
    for accepted in row["answer"]:
        spans = accepted if isinstance(accepted, list) else [accepted]
        assert spans and all(isinstance(s, str) and s and "|" not in s for s in spans), row["id"]
        for span in spans:  # a non-numeric span is text the reader can copy from the passage
            assert span.isdigit() or span in passage or meta["qtype"] == "date_of", row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    expected = {(s, q) for s, m in SOURCES.items() for q in m.QUESTIONS}
    assert {(r["meta"]["source"], r["meta"]["qtype"]) for r in rows} == expected


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
