"""What the eval-math families share: names and shop themes of word problems, the exact-answer
variants of tuples and lists, neighbouring wrong options, and factorisation. Moved here from the
eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

from typing import Any

Item = dict[str, Any]
NAMES = ("Ama", "Bruno", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ines", "Jonas")
THEMES = (
    (
        "a stationery shop",
        (("pen", "pens"), ("notebook", "notebooks"), ("ruler", "rulers")),
        "cents",
    ),
    (
        "a cinema",
        (
            ("adult ticket", "adult tickets"),
            ("child ticket", "child tickets"),
            ("senior ticket", "senior tickets"),
        ),
        "euros",
    ),
    ("a bakery", (("loaf", "loaves"), ("croissant", "croissants"), ("muffin", "muffins")), "cents"),
    (
        "a hardware store",
        (("hammer", "hammers"), ("screwdriver", "screwdrivers"), ("tape measure", "tape measures")),
        "euros",
    ),
)
Item = dict[str, Any]


def wrong_options(correct: int, candidates: list[int], low: int, high: int) -> list[str]:
    """Three distinct wrong options from ``candidates`` (then neighbours), all in [low, high]."""
    pool = [*candidates, *(correct + d for d in (1, -1, 2, -2, 3, -3, 5, -5))]
    picked = [v for v in dict.fromkeys(pool) if v != correct and low <= v <= high]
    assert len(picked) >= 3, (correct, candidates)
    return [str(v) for v in picked[:3]]


def tuple_variants(values: list[int], names: str = "xyzw") -> list[str]:
    plain = [str(v) for v in values]
    named = [f"{n} = {v}" for n, v in zip(names, plain, strict=False)]
    return [
        ", ".join(plain),
        ",".join(plain),
        f"({', '.join(plain)})",
        f"({','.join(plain)})",
        ", ".join(named),
        ", ".join(s.replace(" ", "") for s in named),
    ]


def list_variants(values: list[int]) -> list[str]:
    plain = [str(v) for v in values]
    return [", ".join(plain), ",".join(plain), " ".join(plain)]


def factorise(n: int) -> dict[int, int]:
    factors: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors[p], n = factors.get(p, 0) + 1, n // p
        p += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors
