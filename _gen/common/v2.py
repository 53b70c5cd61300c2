"""Shared pieces of the -v2 eval generators (spec 001, "Row schemas" and the -v2 wave paragraph).

The six v2 suites mix ``mc``, ``exact`` and ``numeric`` rows; the way a row of each scorer is
laid out (option labels, the closing "Answer:" instruction, exact-answer variants, number
formatting) lives here so every v2 dataset reads the same to a model and to the scorers.

Numeric tolerance (``meta.tolerance``): docs/datasets.md#rows makes it an absolute tolerance.
Rows whose answer is rounded (science) state the rule as relative in ``meta.tolerance_relative``
and store its absolute value for this answer in ``meta.tolerance`` (see ``tolerance_meta``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from common import lib

LETTERS = "ABCDEFGHIJ"
NUMERIC_SUFFIX = "\n\nWork it out, then give the result on the last line as 'Answer: <number>'."
FRACTION_SUFFIX = (
    "\n\nWork it out, then give the result on the last line as 'Answer: <number>' "
    "(an integer or a fraction in lowest terms such as 7/36)."
)
MC_SUFFIX = (
    "\n\nThink it through, then give the letter of the correct option on the last line as "
    "'Answer: <letter>'."
)
SCORERS = ("mc", "exact", "numeric")
DIFFICULTIES = ("easy", "medium", "hard")


def exact_suffix(shape: str) -> str:
    """Closing instruction of an ``exact`` row; ``shape`` says what the answer looks like."""
    return f"\n\nWork it out, then give only {shape} on the last line as 'Answer: <{shape}>'."


def fmt_fraction(value: Fraction) -> str:
    """An integer as an integer, anything else as ``p/q`` in lowest terms."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def fmt_decimal(value: Fraction, places: int) -> str:
    """``value`` rounded half away from zero to ``places`` decimals, as a plain decimal string."""
    scaled = abs(value) * 10**places
    units = int(scaled + Fraction(1, 2))  # floor(x + 1/2): half away from zero for |x|
    sign = "-" if value < 0 and units else ""
    digits = str(units).rjust(places + 1, "0")
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def sig_places(value: Fraction, sig: int) -> int:
    """Decimal places that keep ``sig`` significant figures of ``value`` (0 for big values)."""
    magnitude, exponent = abs(value), 0
    assert magnitude > 0, "zero has no significant figures"
    while magnitude >= 10:
        magnitude /= 10
        exponent += 1
    while magnitude < 1:
        magnitude *= 10
        exponent -= 1
    return max(0, sig - 1 - exponent)


def fmt_sig(value: Fraction, sig: int) -> str:
    """``value`` to ``sig`` significant figures (values >= 10**sig are rounded to integers)."""
    places = sig_places(value, sig)
    if places == 0:
        step = 10 ** max(0, len(str(int(abs(value)))) - sig)
        units = int(abs(value) / step + Fraction(1, 2)) * step
        return ("-" if value < 0 else "") + str(units)
    return fmt_decimal(value, places)


def tolerance_meta(answer: str, relative: Fraction) -> dict[str, Any]:
    """``meta`` entries of a rounded numeric answer: the relative rule and its absolute value."""
    gold = abs(Fraction(answer))
    return {"tolerance": float(gold * relative), "tolerance_relative": float(relative)}


def multiple_choice(
    rng: random.Random, question: str, correct: str, distractors: Sequence[str]
) -> tuple[str, list[str], str]:
    """Prompt, shuffled choices and answer letter; the correct text is placed by ``rng``."""
    options = [correct, *distractors]
    assert len(set(options)) == len(options), f"choices repeat: {options}"
    rng.shuffle(options)
    lines = "\n".join(f"{LETTERS[i]}. {text}" for i, text in enumerate(options))
    return f"{question}\n\n{lines}{MC_SUFFIX}", options, LETTERS[options.index(correct)]


def eval_row(
    row_id: str,
    category: str,
    difficulty: str,
    prompt: str,
    answer: Any,
    scorer: str,
    meta: dict[str, Any],
    choices: list[str] | None = None,
) -> dict[str, Any]:
    """An eval row with the keys the schema allows; ``choices`` only for ``mc``."""
    row: dict[str, Any] = {
        "id": row_id,
        "category": category,
        "difficulty": difficulty,
        "prompt": prompt,
        "answer": answer,
        "scorer": scorer,
        "meta": meta,
    }
    if scorer == "mc":
        assert choices is not None
        row["choices"] = choices
    return row


def cell(idx: int, categories: Sequence[str]) -> tuple[str, int, int]:
    """``(category, level, variant)`` of row ``idx``: the category cycles fastest, then the
    difficulty level, then the question form."""
    turn = idx // len(categories)
    return categories[idx % len(categories)], turn % 3, (turn // 3) % 3


def plain_suffix(exact_shape: str) -> Callable[[dict[str, Any]], str]:
    """Suffix for non-mc items: the numeric answer line, or an exact answer of ``exact_shape``."""
    return lambda item: NUMERIC_SUFFIX if item["scorer"] == "numeric" else exact_suffix(exact_shape)


def item_row(
    rng: random.Random,
    row_id: str,
    category: str,
    level: int,
    item: dict[str, Any],
    suffix: Callable[[dict[str, Any]], str],
) -> dict[str, Any]:
    """The eval row of a built item: mc items get shuffled labelled choices (drawn from ``rng``),
    the others ``question + suffix(item)``."""
    difficulty = DIFFICULTIES[level]
    if item["scorer"] == "mc":
        prompt, choices, letter = multiple_choice(
            rng, item["question"], item["correct"], item["distractors"]
        )
        return eval_row(row_id, category, difficulty, prompt, letter, "mc", item["meta"], choices)
    prompt = item["question"] + suffix(item)
    return eval_row(
        row_id, category, difficulty, prompt, item["answer"], item["scorer"], item["meta"]
    )


def check_mc_layout(row: dict[str, Any]) -> str:
    """Assert the prompt lists the row's choices in order; return the correct choice's text."""
    if row["scorer"] != "mc":
        raise AssertionError(f"{row['id']}: not an mc row")
    for i, text in enumerate(row["choices"]):
        assert f"\n{LETTERS[i]}. {text}" in row["prompt"], (row["id"], text)
    return str(row["choices"][LETTERS.index(row["answer"])])


def check_suite(rows: list[dict[str, Any]], categories: Sequence[str]) -> None:
    """Suite-wide proof: unique prompts, every category x difficulty, all three scorers."""
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    cells = {(r["category"], r["difficulty"]) for r in rows}
    assert cells == {(c, d) for c in categories for d in DIFFICULTIES}, sorted(cells)
    assert {r["scorer"] for r in rows} == set(SCORERS), {r["scorer"] for r in rows}
    for row in rows:
        if row["scorer"] == "exact":
            accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
            assert accepted and all(isinstance(a, str) and a.strip() for a in accepted), row["id"]
