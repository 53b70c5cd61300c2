"""Hand-made eval rows for the issue-19 audits: clean ones that must pass every audit, and ones
with a planted artifact each audit must catch (a centroid option, a type named twice, a lenient
contains, an echo that scores, a mutant that survives)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

NAMES = ["Abel", "Bianca", "Casimir", "Flora", "Gustav", "Ivo", "Juno", "Mira"]
WORDS = (
    "amber birch cedar delta ember fjord grove heron iris juniper kestrel lotus maple nectar "
    "onyx pebble quartz raven sable thistle umber violet willow yarrow zephyr"
).split()
TYPES = ["SQL injection", "Path traversal", "Open redirect", "Command injection", "XSS"]
TEMPLATE = "Think it through, then give the letter on the last line as 'Answer: <letter>'."
NUMBER_TEMPLATE = "Work it out, then give the result on the last line as 'Answer: <number>'."


def mc(row_id: str, family: str, stem: str, choices: list[str], gold: int) -> dict[str, Any]:
    """An mc row whose prompt lists its options as ``A. text``."""
    listed = "\n".join(f"{chr(65 + i)}. {c}" for i, c in enumerate(choices))
    prompt = f"{stem}\n\n{listed}\n\n{TEMPLATE}"
    return {
        "id": row_id, "category": family, "difficulty": "easy", "prompt": prompt,
        "choices": choices, "answer": chr(65 + gold), "scorer": "mc", "meta": {},
    }  # fmt: skip


def open_row(row_id: str, family: str, prompt: str, answer: Any, scorer: str) -> dict[str, Any]:
    """An exact, numeric or contains row."""
    return {
        "id": row_id, "category": family, "difficulty": "easy", "prompt": prompt,
        "answer": answer, "scorer": scorer, "meta": {},
    }  # fmt: skip


def clean_mc(count: int, seed: int, family: str = "pick") -> list[dict[str, Any]]:
    """Options of random words; the gold letter cycles A-D, so nothing but luck marks it."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        choices = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(4)]
        stem = f"Which word group did the note {i} of the {rng.choice(WORDS)} list name?"
        rows.append(mc(f"{family}-{i:03d}", family, stem, choices, i % 4))
    return rows


def centroid_mc(count: int, seed: int) -> list[dict[str, Any]]:
    """Finishing orders: each distractor is the gold with two neighbours swapped, so the gold
    agrees most, place by place, with the other options (reason3-0026's shortcut)."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        gold = rng.sample(NAMES, 5)
        options = [gold]
        for j in rng.sample(range(4), 3):
            swapped = list(gold)
            swapped[j], swapped[j + 1] = swapped[j + 1], swapped[j]
            options.append(swapped)
        slot = i % 4
        options[0], options[slot] = options[slot], options[0]
        stem = f"In race {i}, what was the complete finishing order?"
        rows.append(mc(f"order-{i:03d}", "order", stem, [", ".join(o) for o in options], slot))
    return rows


def twice_mc(count: int, seed: int) -> list[dict[str, Any]]:
    """Which kind of flaw: the stem names the gold type twice and every other type once
    (sec3-0013's shortcut)."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        types = rng.sample(TYPES, 4)
        slot = i % 4
        named = [*types, types[slot]]
        rng.shuffle(named)
        lines = "\n".join(f"- handler {k + 1} guards against {t.lower()}" for k, t in
                          enumerate(named))  # fmt: skip
        stem = f"Module {i} has these handlers:\n{lines}\nWhich kind of vulnerability is left?"
        rows.append(mc(f"vuln-{i:03d}", "vuln", stem, types, slot))
    return rows


def clean_numeric(count: int, seed: int) -> list[dict[str, Any]]:
    """Sums whose result is never a number the prompt states, nor its last one."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        a, b, c = rng.randint(20, 99), rng.randint(20, 99), rng.randint(2, 9)
        prompt = f"Add {a} and {b}, then multiply the sum by {c}.\n\n{NUMBER_TEMPLATE}"
        rows.append(open_row(f"sum-{i:03d}", "sums", prompt, (a + b) * c, "numeric"))
    return rows


FRENCH = {30: "trente", 31: "trente et un", 40: "quarante", 41: "quarante et un",
          50: "cinquante", 51: "cinquante et un", 60: "soixante", 61: "soixante et un"}  # fmt: skip


def number_words(scorer: str) -> list[dict[str, Any]]:
    """Write the number in French words. With ``contains``, the reply "trente et un" holds the
    gold "trente" of another row (the multi2-0001 defect); with ``exact`` it does not."""
    rows = []
    for i, (n, words) in enumerate(sorted(FRENCH.items())):
        prompt = (
            f"Écris le nombre {n} en toutes lettres.\n\n"
            "Termine ta réponse par une ligne de la forme 'Answer: <nombre en lettres>'."
        )
        rows.append(open_row(f"words-{i:03d}", "number_words", prompt, [words], scorer))
    return rows


def echoing_rows() -> list[dict[str, Any]]:
    """Rows whose prompt sent back scores: a weekday 42 days on (multi2-0065) under contains,
    and a sum whose prompt ends with its result (math-0006) under flexible numeric."""
    weekday = (
        "Hoje é quinta-feira. Que dia da semana será daqui a 42 dias?\n\n"
        "Termina a tua resposta com uma linha da forma 'Answer: <palavra>'."
    )
    last = f"Compute 1/2 * 4/8 - 1/8 as a fraction in lowest terms.\n\n{NUMBER_TEMPLATE}"
    return [
        open_row("echo-001", "weekdays", weekday, ["quinta-feira", "quinta"], "contains"),
        open_row("echo-002", "fractions", last, "1/8", "numeric"),
    ]


BORDER = "def border_sum(m):\n    return {body}\n"
REFERENCE = (
    "def border_sum(m):\n    rows, cols = len(m), len(m[0])\n"
    "    return sum(m[r][c] for r in range(rows) for c in range(cols)\n"
    "               if r in (0, rows - 1) or c in (0, cols - 1))\n"
)
MUTANTS = [
    {"name": "sums the whole matrix", "code": BORDER.format(body="sum(map(sum, m))")},
    {"name": "first and last rows only", "code": BORDER.format(body="sum(m[0]) + sum(m[-1])")},
    {"name": "counts corners twice", "code": BORDER.format(
        body="sum(m[0]) + sum(m[-1]) + sum(r[0] + r[-1] for r in m)")},
]  # fmt: skip


def code_row(row_id: str, tests: list[str]) -> dict[str, Any]:
    """border_sum with a reference and three mutants; ``tests`` decide which mutants survive."""
    prompt = (
        "Write a Python function border_sum(m) that returns the sum of the elements on the outer "
        "border of a non-empty rectangular matrix m, each element once.\n\nFor example, "
        "border_sum([[1, 2], [3, 4]]) returns 10.\n\nReply with the function in a ```python block."
    )
    return {
        "id": row_id, "category": "grids", "difficulty": "easy", "prompt": prompt,
        "answer": "border_sum", "scorer": "code_exec", "tests": "\n".join(tests),
        "meta": {"example": {"call": "border_sum([[1, 2], [3, 4]])", "expected": 10}},
        "probes": {"reference": REFERENCE, "mutants": MUTANTS},
    }  # fmt: skip


#: Hidden tests that kill every mutant (a matrix with an interior, a single row).
STRONG = ["assert border_sum([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == 40",
          "assert border_sum([[5, 6, 7]]) == 18"]  # fmt: skip
#: Only matrices without an interior: "sums the whole matrix" passes (code2-0053's defect).
WEAK = ["assert border_sum([[5]]) == 5", "assert border_sum([[1, 2], [3, 4], [5, 6]]) == 21"]


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    """A dataset directory with ``rows`` and a card (generator named but absent: no pooling)."""
    path.mkdir(parents=True)
    (path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    digest = hashlib.sha256((path / "rows.jsonl").read_bytes()).hexdigest()
    card = {
        "id": path.name, "kind": "eval", "description": "hand-made audit rows", "licence": "MIT",
        "generator": {"path": f"_gen/{path.name}.py", "seed": 1}, "external": False,
        "source": None, "token_heuristic": "ceil(chars/4)", "default_scorer": "mc",
        "rows": len(rows), "files": {"rows.jsonl": digest}, "created": "2026-01-01",
    }  # fmt: skip
    (path / "dataset.json").write_text(json.dumps(card), encoding="utf-8")
    return path
