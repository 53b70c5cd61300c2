"""Roman numerals for eval-knowledge-v2 and -v3: standard (subtractive) and additive forms,
the v2 question forms (write a number, read one, the standard numeral among look-alikes) and
their proofs through a numeral parser. Moved here from the v2 generator, unchanged.
"""

from __future__ import annotations

import random
from typing import Any

Item = dict[str, Any]

ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def to_roman(n: int, subtractive: bool = True) -> str:
    out = ""
    for value, text in ROMAN:
        if not subtractive and len(text) == 2:
            continue
        while n >= value:
            out, n = out + text, n - value
    return out


def roman_numerals(rng: random.Random, level: int, variant: int) -> Item:
    top = (100, 2000, 3999)[level]
    if variant == 0:
        if level < 2:
            n = rng.randint(40 if level else 14, top)
            question = f"Write {n} in Roman numerals."
            meta: dict[str, Any] = {"kind": "to_roman", "numbers": [n], "op": None}
        else:
            a, b = rng.randint(400, 1999), rng.randint(400, 1999)
            n = a + b
            question = (
                f"Add the Roman numerals {to_roman(a)} and {to_roman(b)}, and write the sum "
                f"in Roman numerals."
            )
            meta = {"kind": "to_roman", "numbers": [a, b], "op": "+"}
        return {"question": question, "scorer": "exact", "answer": to_roman(n), "meta": meta}
    if variant == 1:
        if level < 2:
            n = rng.randint(40 if level else 14, top)
            question = f"What number does the Roman numeral {to_roman(n)} stand for?"
            meta = {"kind": "from_roman", "numerals": [to_roman(n)], "op": None}
        else:
            a, b = rng.randint(40, 400), rng.randint(4, 49)
            n = a * b
            question = (
                f"What is {to_roman(a)} multiplied by {to_roman(b)}? Give the result as an "
                f"ordinary (Arabic) number."
            )
            meta = {"kind": "from_roman", "numerals": [to_roman(a), to_roman(b)], "op": "*"}
        return {"question": question, "scorer": "numeric", "answer": str(n), "meta": meta}
    n = rng.choice([k for k in range(14, top + 1) if to_roman(k) != to_roman(k, False)])
    wrong = [
        to_roman(n, subtractive=False),
        to_roman(n + rng.choice((1, 10, -1, -10))),
        to_roman(n + rng.choice((100, 5, -5, -100))),
    ]
    shortcut = {99: "IC", 49: "IL", 999: "IM", 95: "VC", 45: "VL", 490: "XD", 990: "XM"}
    for k, text in shortcut.items():  # a tempting but invalid subtraction
        if n % (10 ** len(str(k))) == k:
            wrong[0] = to_roman(n - k) + text
    wrong = list(dict.fromkeys(w for w in wrong if w and w != to_roman(n)))
    if len(wrong) < 3:
        return roman_numerals(rng, level, variant)
    meta = {"kind": "roman_choice", "number": n}
    return {
        "question": f"Which of these is the standard Roman numeral for {n}?",
        "scorer": "mc",
        "correct": to_roman(n),
        "distractors": wrong,
        "meta": meta,
    }


# ---- proofs -----------------------------------------------------------------------------------
def roman_value(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(text):
        v = values[ch]
        total += -v if i + 1 < len(text) and values[text[i + 1]] > v else v
    return total


def _to_roman(row: dict[str, Any]) -> str:
    n = sum(row["meta"]["numbers"])
    (text,) = [t for t in (row["answer"],) if roman_value(t) == n]
    return text


def _from_roman(row: dict[str, Any]) -> str:
    meta = row["meta"]
    values = [roman_value(t) for t in meta["numerals"]]
    return str(values[0] * values[1] if meta["op"] == "*" else values[0])


def _choice(row: dict[str, Any]) -> str:
    n = row["meta"]["number"]
    (right,) = [c for c in row["choices"] if roman_value(c) == n and to_roman(roman_value(c)) == c]
    return right


EXPECTED = {"to_roman": _to_roman, "from_roman": _from_roman, "roman_choice": _choice}
