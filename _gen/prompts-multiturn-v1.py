# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""prompts-multiturn-v1: short conversations for multi-turn serving sessions (issue 14).

Each row opens with one user request (a third of them after a brief system message) and carries
two or three follow-up user ``turns`` that only make sense after the model's own answer ("make
that shorter", "give an example of your second point"). A session sends turn k+1 with the
conversation so far, the model's answers included, so per-turn time to first token shows what a
server's prefix cache saves. Openings are small (bucket xs, measured on the first turn) so
that even a CPU-served model answers a session in seconds. ``prove`` recomputes the token
estimate and bucket and checks each follow-up against the pools it was drawn from;
``prove_all`` checks that every opening is unique and every topic is present.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

DATASET_ID = "prompts-multiturn-v1"
KIND = "prompts"
DESCRIPTION = (
    "Short conversations of three or four user turns, each follow-up answering the model's own "
    "previous reply: multi-turn sessions and per-turn time to first token."
)
SEED = 20_261_214
COUNT = 48
CREATED = "2026-12-14"
DEFAULT_SCORER = None
SYSTEM = "You are a helpful assistant. Keep every answer under eighty words."
#: topic -> opening templates; slots are filled from SLOTS
OPENINGS: dict[str, tuple[str, ...]] = {
    "cooking": (
        "Suggest a weeknight dinner using {food}, {food2} and rice.",
        "How do I keep {food} fresh for a week without a freezer?",
    ),
    "travel": (
        "Plan a {days}-day visit to {place} for someone who likes {interest}.",
        "What should I pack for {days} days of walking around {place} in {month}?",
    ),
    "science": (
        "Explain to a {age}-year-old why {phenomenon}.",
        "What experiment could a school class do to show that {phenomenon}?",
    ),
    "gardening": (
        "When and how should I plant {plant} on a {aspect}-facing balcony?",
        "My {plant} has yellow leaves after {days} days of rain. What can I do?",
    ),
    "finance": (
        "How can a student save {amount} euros in {days} weeks?",
        "Explain the difference between a fixed and a variable rate on a {amount}-euro loan.",
    ),
    "writing": (
        "Write a two-line note inviting {name} to {event} on {month} {days}.",
        "Give me three titles for a short story about {interest} in {place}.",
    ),
}
SLOTS: dict[str, tuple[str, ...]] = {
    "food": ("lentils", "spinach", "chickpeas", "mushrooms", "carrots", "tofu", "peppers"),
    "food2": ("lemon", "garlic", "ginger", "yoghurt", "cumin", "basil"),
    "place": ("Lisbon", "Kyoto", "Montreal", "Valparaiso", "Tbilisi", "Edinburgh", "Hanoi"),
    "interest": ("old bookshops", "street food", "jazz", "birdwatching", "architecture"),
    "month": ("March", "June", "October", "December"),
    "age": ("seven", "ten", "twelve"),
    "phenomenon": (
        "the sky is blue",
        "ice floats on water",
        "we see lightning before thunder",
        "metal feels colder than wood",
        "the moon has phases",
        "bread rises",
    ),
    "plant": ("tomatoes", "basil", "strawberries", "lavender", "chillies"),
    "aspect": ("north", "south", "east", "west"),
    "amount": ("300", "500", "800", "1200"),
    "name": ("Amara", "Jonas", "Priya", "Tomasz", "Lucia", "Kenji"),
    "event": ("a picnic", "a board-game night", "a book club", "a garden party"),
    "days": ("2", "3", "4", "5", "6"),
}
FOLLOWUPS = (
    "Make that shorter: three sentences at most.",
    "Turn your answer into a numbered list.",
    "Give one concrete example of your second point.",
    "Which part of your answer matters most, and why?",
    "Summarise the whole conversation in one sentence.",
    "What would you change if {constraint}?",
    "Explain your first point again, more simply.",
    "Is there anything in your answer that could go wrong?",
)
CONSTRAINTS = (
    "the budget were halved",
    "I had only ten minutes",
    "it had to fit on a postcard",
    "I were a complete beginner",
    "the reader were my grandmother",
    "it had to be done today",
)


def _fill(template: str, rng: random.Random, nth: int) -> str:
    """The template's largest slot takes its ``nth`` value (so the rows sharing a template all
    differ); the other slots are drawn from ``rng``."""
    names = [name for name in SLOTS if f"{{{name}}}" in template]
    key = max(names, key=lambda name: len(SLOTS[name]))
    values = {name: rng.choice(SLOTS[name]) for name in names}
    values[key] = SLOTS[key][nth % len(SLOTS[key])]
    return template.format(**values)


def _followup_ok(text: str) -> bool:
    """Does ``text`` come from FOLLOWUPS (with one of CONSTRAINTS where it has a slot)?"""
    fills = {t.format(constraint=c) for t in FOLLOWUPS for c in CONSTRAINTS}
    return text in fills


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    topic = sorted(OPENINGS)[idx % len(OPENINGS)]
    templates = OPENINGS[topic]
    rounds = idx // len(OPENINGS)  # how many rows of this topic came before
    opening = _fill(templates[rounds % len(templates)], rng, rounds // len(templates))
    messages = [{"role": "user", "content": opening}]
    if idx % 3 == 0:
        messages.insert(0, {"role": "system", "content": SYSTEM})
    picked = rng.sample(FOLLOWUPS, 2 + idx % 2)
    turns = [t.format(constraint=rng.choice(CONSTRAINTS)) for t in picked]
    return lib.prompt_row(f"turns-{idx + 1:04d}", topic, "en", messages, turns=turns)


def prove(row: dict[str, Any]) -> None:
    tokens = lib.approx_tokens(m["content"] for m in row["messages"])
    assert tokens == row["approx_tokens"] and lib.bucket_for(tokens) == row["bucket"], row["id"]
    assert row["bucket"] == "xs", row["id"]
    assert row["messages"][-1]["role"] == "user", row["id"]
    assert len(row["turns"]) in (2, 3) and len(set(row["turns"])) == len(row["turns"]), row["id"]
    assert all(_followup_ok(turn) for turn in row["turns"]), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["messages"][-1]["content"], "opening")
    assert {r["topic"] for r in rows} == set(OPENINGS)


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
