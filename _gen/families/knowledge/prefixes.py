"""SI prefixes for eval-knowledge-v2 and -v3: the prefix table, the v2 question forms (how many
small units in a big one, the prefix a factor or a product of factors names, the largest of four
quantities) and their proofs. Moved here from the v2 generator, unchanged (eval-knowledge-v3
replaces the count form: ``families.knowledge.prefix_counts``).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import v2

Item = dict[str, Any]
PREFIXES = (
    ("yotta", 24),
    ("zetta", 21),
    ("exa", 18),
    ("peta", 15),
    ("tera", 12),
    ("giga", 9),
    ("mega", 6),
    ("kilo", 3),
    ("hecto", 2),
    ("deca", 1),
    ("deci", -1),
    ("centi", -2),
    ("milli", -3),
    ("micro", -6),
    ("nano", -9),
    ("pico", -12),
    ("femto", -15),
    ("atto", -18),
    ("zepto", -21),
    ("yocto", -24),
)
EXPONENT = dict(PREFIXES)
BY_EXPONENT = {e: p for p, e in PREFIXES}
SI_UNITS = ("metre", "gram", "second", "joule", "watt", "volt")


def power_text(exponent: int) -> str:
    return (
        str(10**exponent)
        if exponent >= 0
        else v2.fmt_decimal(Fraction(1, 10**-exponent), -exponent)
    )


def si_prefixes(rng: random.Random, level: int, variant: int) -> Item:
    thirds = [p for p, e in PREFIXES if e % 3 == 0 and abs(e) <= 18]
    if variant == 0:
        unit = rng.choice(SI_UNITS[:2] if level == 2 else SI_UNITS)
        small, big = sorted(rng.sample(thirds, 2), key=EXPONENT.__getitem__)
        power = 1 if level < 2 else rng.choice((2, 3))
        x = rng.randint(2, 9) if level == 0 else rng.randint(11, 99)
        shape = {1: "", 2: "square ", 3: "cubic "}[power]
        if power > 1 and EXPONENT[big] - EXPONENT[small] > 9:
            return si_prefixes(rng, level, variant)
        value = x * 10 ** (power * (EXPONENT[big] - EXPONENT[small]))
        question = (
            f"How many {shape}{small}{unit}s are in {x} {shape}{big}{unit}s? Give the "
            f"number written out in full."
        )
        meta: dict[str, Any] = {
            "kind": "prefix_count",
            "x": x,
            "from": big,
            "to": small,
            "power": power,
        }
        return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}
    if variant == 1:
        if level == 0:
            e = rng.choice([e for _, e in PREFIXES])
            ask = f"Which SI prefix stands for a factor of 10^{e}?"
            parts = [BY_EXPONENT[e]]
        else:
            while True:
                parts = rng.sample([p for p, _ in PREFIXES], 3 if level == 2 else 2)
                e = (
                    EXPONENT[parts[0]]
                    + EXPONENT[parts[1]]
                    - (EXPONENT[parts[2]] if level == 2 else 0)
                )
                if e in BY_EXPONENT and BY_EXPONENT[e] not in parts:
                    break
            if level == 1:
                ask = (
                    f"Which single SI prefix equals the factor of {parts[0]} multiplied by the "
                    f"factor of {parts[1]}?"
                )
            else:
                ask = (
                    f"Which single SI prefix equals the factor of {parts[0]} multiplied by the "
                    f"factor of {parts[1]} and divided by the factor of {parts[2]}?"
                )
        answer = [BY_EXPONENT[e]] + (["deka"] if e == 1 else [])
        meta = {"kind": "prefix_name", "prefixes": parts, "level": level}
        return {
            "question": ask + " Give the prefix name.",
            "scorer": "exact",
            "answer": answer,
            "meta": meta,
        }
    unit = rng.choice(SI_UNITS)
    margin = (Fraction(3), Fraction(3, 2), Fraction(11, 10))[level]
    while True:
        amounts = [
            (Fraction(rng.randint(1, 999), rng.choice((1, 10, 100))), rng.choice(thirds))
            for _ in range(4)
        ]
        sizes = sorted(((x * Fraction(10) ** EXPONENT[p], i) for i, (x, p) in enumerate(amounts)))
        spread = sizes[-1][0] / sizes[0][0]
        if (
            sizes[-1][0] >= sizes[-2][0] * margin
            and spread < 10**9
            and len({p for _, p in amounts}) >= 3
        ):
            break
    texts = [
        f"{v2.fmt_fraction(x) if x.denominator == 1 else float(x)} {p}{unit}s" for x, p in amounts
    ]
    meta = {
        "kind": "largest",
        "quantities": [[t, str(x), p] for t, (x, p) in zip(texts, amounts, strict=True)],
    }
    return {
        "question": "Which of these quantities is the largest?",
        "scorer": "mc",
        "correct": texts[sizes[-1][1]],
        "distractors": [texts[i] for _, i in sizes[:-1]],
        "meta": meta,
    }


# ---- proofs -----------------------------------------------------------------------------------
def _count(row: dict[str, Any]) -> str:
    meta = row["meta"]
    shift = EXPONENT[meta["from"]] - EXPONENT[meta["to"]]
    return str(meta["x"]) + "0" * (shift * meta["power"])


def _name(row: dict[str, Any]) -> str:
    meta = row["meta"]
    p = meta["prefixes"]
    e = (
        EXPONENT[p[0]]
        if meta["level"] == 0
        else EXPONENT[p[0]] + EXPONENT[p[1]] - (EXPONENT[p[2]] if meta["level"] == 2 else 0)
    )
    return BY_EXPONENT[e]


def _largest(row: dict[str, Any]) -> str:
    sizes = {t: Fraction(x) * 10 ** (EXPONENT[p] + 30) for t, x, p in row["meta"]["quantities"]}
    return max(sizes, key=sizes.__getitem__)


EXPECTED = {"prefix_count": _count, "prefix_name": _name, "largest": _largest}
