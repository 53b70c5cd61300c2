"""eval-math-v2: every committed answer recomputed a third way (generator builds, ``prove``
re-derives, this test brute-forces or uses a different closed form)."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

ROWS_PATH = Path(__file__).resolve().parents[2] / "datasets" / "eval-math-v2" / "rows.jsonl"
ROWS = [json.loads(line) for line in ROWS_PATH.read_text(encoding="utf-8").splitlines()]


def _frac(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _cramer(meta: dict[str, Any]) -> list[Fraction]:
    """Cramer's rule with Leibniz determinants (the generator eliminates instead)."""

    def det(m: list[list[int]]) -> int:
        total = 0
        for perm in itertools.permutations(range(len(m))):
            inversions = sum(a > b for a, b in itertools.combinations(perm, 2))
            total += (-1) ** inversions * math.prod(m[i][perm[i]] for i in range(len(m)))
        return total

    a, b = meta["matrix"], meta["rhs"]
    d = det(a)
    return [
        Fraction(det([row[:j] + [b[i]] + row[j + 1 :] for i, row in enumerate(a)]), d)
        for j in range(len(a))
    ]


def _bin_pow(base: int, exp: int, mod: int) -> int:
    result, base = 1 % mod, base % mod
    while exp:
        if exp & 1:
            result = result * base % mod
        base, exp = base * base % mod, exp >> 1
    return result


def _ext_inverse(a: int, m: int) -> int:
    old_r, r, old_s, s = a, m, 1, 0
    while r:
        q = old_r // r
        old_r, r, old_s, s = r, old_r - q * r, s, old_s - q * s
    assert old_r == 1
    return old_s % m


def _paths_dfs(x: int, y: int, meta: dict[str, Any], seen_via: frozenset) -> int:
    if [x, y] in meta["blocked"]:
        return 0
    if [x, y] in meta["via"]:
        seen_via = seen_via | {(x, y)}
    if (x, y) == (meta["width"], meta["height"]):
        return int(len(seen_via) == len(meta["via"]))
    total = 0
    if x < meta["width"]:
        total += _paths_dfs(x + 1, y, meta, seen_via)
    if y < meta["height"]:
        total += _paths_dfs(x, y + 1, meta, seen_via)
    return total


def _urn(meta: dict[str, Any]) -> Fraction:
    balls = [c for c, n in enumerate(meta["counts"]) for _ in range(n)]
    draws = [[balls[i] for i in p] for p in itertools.permutations(range(len(balls)), meta["draw"])]
    if meta["event"] == "both_red":
        return Fraction(sum(set(d) == {0} for d in draws), len(draws))
    if meta["event"] == "one_each":
        return Fraction(sum(len(set(d)) == 3 for d in draws), len(draws))
    given = [d for d in draws if 0 in d]
    return Fraction(sum(d.count(0) == 2 for d in given), len(given))


def _dice(meta: dict[str, Any]) -> Fraction:
    n, s, kind = meta["sides"], meta["target"], meta["kind"]
    rolls = list(itertools.product(range(1, n + 1), repeat=meta["dice"]))
    if kind == "dice_sum_eq":
        return Fraction(sum(sum(r) == s for r in rolls), len(rolls))
    if kind == "dice_product_multiple":
        return Fraction(sum(math.prod(r) % s == 0 for r in rolls), len(rolls))
    if kind == "dice_sum_ge":
        return Fraction(sum(sum(r) >= s for r in rolls), len(rolls))
    given = [r for r in rolls if sum(r) >= s]
    return Fraction(sum(meta["face"] in r for r in given), len(given))


def _sequence(meta: dict[str, Any], count: int) -> list[int]:
    kind, terms = (
        meta["kind"],
        list(meta["first"]) if isinstance(meta["first"], list) else [meta["first"]],
    )
    while len(terms) < count:
        last, n = terms[-1], len(terms)
        if kind == "affine":
            terms.append(last * meta["mul"] + meta["add"])
        elif kind == "second_order":
            terms.append(meta["coefficients"][0] * last + meta["coefficients"][1] * terms[-2])
        elif kind == "digit_rule":
            terms.append(last + sum(int(c) for c in str(last)))
        elif kind == "list_affine_n":
            terms.append(last + last - n)
        elif kind == "list_lcg":
            terms.append((last * meta["mul"] + meta["add"]) % meta["modulus"])
        else:
            terms.append(sum(int(c) ** 2 for c in str(last)))
    return terms


def _is_prime(n: int) -> bool:
    return n > 1 and not any(n % d == 0 for d in range(2, int(n**0.5) + 1))


CHECKS: dict[str, Callable[[dict[str, Any]], str]] = {
    "word_problem": lambda m: str(
        sum(w * v for w, v in zip(m["weights"], _cramer(m), strict=True))
    ),
    "system_solve": lambda m: ", ".join(_frac(v) for v in _cramer(m)),
    "system_choice": lambda m: ", ".join(
        f"{k} = {_frac(v)}" for k, v in zip("xyzw", _cramer(m), strict=False)
    ),
    "power": lambda m: str(_bin_pow(m["base"], m["exponent"], m["modulus"])),
    "crt": lambda m: str(
        next(
            n
            for n in range(1, m["bound"])
            if all(n % q == r for q, r in zip(m["moduli"], m["remainders"], strict=True))
        )
    ),
    "linear_congruence": lambda m: str(m["b"] * _ext_inverse(m["a"], m["modulus"]) % m["modulus"]),
    "square_roots": lambda m: ", ".join(
        str(x) for x in range(m["modulus"]) if _bin_pow(x, 2, m["modulus"]) == m["residue"]
    ),
    "digit_sum": lambda m: str(
        sum(
            1
            for k in range(100, 1000)
            if k % m["divisor"] == 0 and sum(int(c) for c in str(k)) == m["sum"]
        )
    ),
    "distinct_divisible": lambda m: str(
        sum(1 for k in range(1000, 10000, 1) if k % m["divisor"] == 0 and len(set(str(k))) == 4)
    ),
    "five_digit": lambda m: str(
        sum(
            1
            for k in range(m["lead_at_least"] * 10000, 100000)
            if str(m["must_contain"]) in str(k)
            and sum(map(int, str(k))) % m["sum_divisor"] == 0
            and all(a != b for a, b in zip(str(k), str(k)[1:], strict=False))
        )
    ),
    "lattice": lambda m: str(_paths_dfs(0, 0, m, frozenset())),
    "arrangements": lambda m: str(
        len(
            {
                p
                for p in itertools.permutations(m["letters"])
                if not m["no_adjacent_equal"] or all(a != b for a, b in zip(p, p[1:], strict=False))
            }
        )
    ),
    "committee": lambda m: str(
        sum(
            1
            for t in itertools.combinations(m["people"], m["size"])
            if not set(m["apart"]) <= set(t)
            and (m["needs"][0] not in t or m["needs"][1] in t)
            and len(set(t) & set(m["at_least_two"])) >= 2
        )
    ),
    "urn": lambda m: _frac(_urn(m)),
    "bayes": lambda m: _frac(
        Fraction(m["priors"][0])
        * Fraction(m["likelihoods"][0])
        / sum(Fraction(p) * Fraction(q) for p, q in zip(m["priors"], m["likelihoods"], strict=True))
    ),
    "nth_term": lambda m: str(m["first"] + sum(m["step"] for _ in range(m["index"] - 1))),
    "term_count": lambda m: str(len(range(m["first"], m["last"] + 1, m["step"]))),
    "geometric_count": lambda m: str(
        next(i for i in range(100) if m["first"] * m["ratio"] ** i >= m["bound"])
    ),
    "divisor_number": lambda m: str(sum(1 for d in range(1, m["n"] + 1) if m["n"] % d == 0)),
    "divisor_sum": lambda m: str(sum(d for d in range(1, m["n"] + 1) if m["n"] % d == 0)),
    "lcm_next": lambda m: str(math.lcm(*m["periods"])),
    "lcm_count": lambda m: str(m["minutes"] * 60 // math.lcm(*m["periods"])),
    "offset_sync": lambda m: str(
        min(
            set(range(m["offsets"][0], 10**5, m["periods"][0]))
            & set(range(m["offsets"][1], 10**5, m["periods"][1]))
        )
    ),
}


def _factorial_zeros(m: dict[str, Any]) -> str:
    digits, value = 0, math.factorial(m["n"])
    while value % m["base"] == 0:
        value //= m["base"]
        digits += 1
    return str(digits)


def _expected(meta: dict[str, Any]) -> str:
    kind = meta["kind"]
    if kind.startswith("dice_"):
        return _frac(_dice(meta))
    if kind in ("affine", "second_order", "digit_rule"):
        return str(_sequence(meta, meta["index"])[meta["index"] - 1])
    if kind.startswith("list_"):
        start = meta["from_index"]
        return ", ".join(map(str, _sequence(meta, start + 2)[start - 1 : start + 2]))
    if kind == "factorial_zeros":
        return _factorial_zeros(meta)
    return CHECKS[kind](meta)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_answer_recomputed_independently(row: dict[str, Any]) -> None:
    meta = row["meta"]
    if meta["kind"] == "prime_pick":
        primes = [c for c in row["choices"] if _is_prime(int(c))]
        wanted = (
            primes
            if meta["odd_one_out"] == "prime"
            else [c for c in row["choices"] if c not in primes]
        )
        assert len(wanted) == 1
        assert row["choices"][ord(row["answer"]) - 65] == wanted[0]
        return
    expected = _expected(meta)
    if row["scorer"] == "mc":
        assert row["choices"][ord(row["answer"]) - 65] == expected
        assert row["choices"].count(expected) == 1
    elif row["scorer"] == "exact":
        assert expected in row["answer"]
    else:
        assert Fraction(row["answer"]) == Fraction(expected)


def test_suite_shape() -> None:
    assert len(ROWS) >= 100
    assert {r["scorer"] for r in ROWS} == {"mc", "exact", "numeric"}
    assert {r["difficulty"] for r in ROWS} == {"easy", "medium", "hard"}
    assert len({r["category"] for r in ROWS}) == 6
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)


def test_known_row_hand_checked() -> None:
    # math2-0001: 2h + s = 87, h + 2s = 99 -> h = 25, s = 37.
    row = ROWS[0]
    assert "2 hammers and 1 screwdriver for 87" in row["prompt"] and row["answer"] == "37"
