"""The six eval-math families as eval-math-v2 and -v3 lay them out: the categories in row order,
each category's v2 builder (``(rng, level, variant) -> item``), every kind's proof, and the
answer line of an open item (probabilities are asked as exact fractions)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from common import v2

from families.math import counting, linear, modular, number_theory, probability, sequences
from families.math.base import Item

CATEGORIES = (
    "linear_systems",
    "modular",
    "combinatorics",
    "probability",
    "sequences",
    "number_theory",
)
BUILDERS: dict[str, Callable[[random.Random, int, int], Item]] = {
    "linear_systems": linear.linear_systems,
    "modular": modular.modular,
    "combinatorics": counting.combinatorics,
    "probability": probability.probability,
    "sequences": sequences.sequences,
    "number_theory": number_theory.number_theory,
}
EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    **linear.EXPECTED,
    **modular.EXPECTED,
    **counting.EXPECTED,
    **probability.EXPECTED,
    **sequences.EXPECTED,
    **number_theory.EXPECTED,
}


def suffix(category: str, item: dict[str, Any]) -> str:
    """Answer-line instruction for non-mc items: probabilities are asked as exact fractions."""
    if item["scorer"] == "exact":
        return v2.exact_suffix("the comma-separated values")
    return v2.FRACTION_SUFFIX if category == "probability" else v2.NUMERIC_SUFFIX
