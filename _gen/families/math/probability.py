"""Probability as exact fractions for eval-math-v2 and -v3: dice events (enumerated), urns drawn
without replacement, Bayes' rule; proofs by dice distributions, binomial coefficients and
counting people. Moved here from the eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from common import v2

from families.math.base import Item


def urn_value(kind: str, counts: list[int], draw: int, replace: bool) -> Fraction:
    """Probability of the urn event by enumerating labelled balls (ordered when replacing)."""
    balls = [colour for colour, c in enumerate(counts) for _ in range(c)]
    if replace:
        draws = list(itertools.product(range(len(balls)), repeat=draw))
    else:
        draws = list(itertools.combinations(range(len(balls)), draw))
    picked = [[balls[i] for i in d] for d in draws]
    if kind == "both_red":
        hits = [p.count(0) == draw for p in picked]
        return Fraction(sum(hits), len(picked))
    if kind == "one_each":
        return Fraction(sum(sorted(p) == [0, 1, 2] for p in picked), len(picked))
    given = [p for p in picked if 0 in p]
    return Fraction(sum(p.count(0) == 2 for p in given), len(given))


def probability(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        n = rng.choice((6, 8, 10, 12) if level != 1 else (4, 6, 8))
        dice = 3 if level == 1 else 2
        rolls = list(itertools.product(range(1, n + 1), repeat=dice))
        if level == 0 and rng.random() < 0.5:
            s = rng.randint(3, 2 * n - 1)
            meta: dict[str, Any] = {"kind": "dice_sum_eq", "sides": n, "dice": 2, "target": s}
            event = f"the sum is exactly {s}"
            value = Fraction(sum(sum(r) == s for r in rolls), len(rolls))
        elif level == 0:
            s = rng.randint(4, 15)
            meta = {"kind": "dice_product_multiple", "sides": n, "dice": 2, "target": s}
            event = f"the product of the two numbers is a multiple of {s}"
            value = Fraction(sum(r[0] * r[1] % s == 0 for r in rolls), len(rolls))
        elif level == 1:
            s = rng.randint(n + 2, 3 * n - 1)
            meta = {"kind": "dice_sum_ge", "sides": n, "dice": 3, "target": s}
            event = f"the sum is at least {s}"
            value = Fraction(sum(sum(r) >= s for r in rolls), len(rolls))
        else:
            s, k = rng.randint(n, 2 * n - 2), rng.randint(1, n)
            given = [r for r in rolls if sum(r) >= s]
            meta = {"kind": "dice_conditional", "sides": n, "dice": 2, "target": s, "face": k}
            event = f"at least one die shows {k}, given that the sum is at least {s}"
            value = Fraction(sum(k in r for r in given), len(given))
        question = (
            f"{('Two', 'Three')[dice - 2]} fair {n}-sided dice, with faces numbered 1 to {n}, are "
            "rolled. What is "
            f"the probability that {event}?"
        )
        return {
            "question": question,
            "scorer": "numeric",
            "answer": v2.fmt_fraction(value),
            "meta": meta,
        }
    if variant == 1:
        kind, draw = (("both_red", 2), ("one_each", 3), ("two_red_given_red", 4))[level]
        counts = [rng.randint(3, 6) for _ in range(3 if level == 1 else 2)]
        colours = ["red", "blue", "green"][: len(counts)]
        stock = ", ".join(f"{c} {col}" for c, col in zip(counts, colours, strict=True))
        stock = " and".join(stock.rsplit(",", 1))
        event = {
            "both_red": "both balls are red",
            "one_each": "the three balls are all of different colours",
            "two_red_given_red": "exactly two of the balls are red, given that at least "
            "one of them is red",
        }[kind]
        value = urn_value(kind, counts, draw, replace=False)
        wrong = [urn_value(kind, counts, draw, replace=True)]
        if kind == "two_red_given_red":
            plain = Fraction(
                math.comb(counts[0], 2) * math.comb(counts[1], 2), math.comb(sum(counts), 4)
            )
            wrong += [plain, plain * 2]
        else:
            wrong += [value / 2, value * Fraction(3, 2), 1 - value]
        texts = list(dict.fromkeys(v2.fmt_fraction(w) for w in wrong if w != value and 0 < w < 1))
        if len(texts) < 3:
            return probability(rng, level, variant)
        question = (
            f"A bag holds {stock} balls. {draw} balls are drawn at random without "
            f"replacement. What is the probability that {event}?"
        )
        meta = {"kind": "urn", "event": kind, "counts": counts, "draw": draw}
        return {
            "question": question,
            "scorer": "mc",
            "correct": v2.fmt_fraction(value),
            "distractors": texts[:3],
            "meta": meta,
        }
    if level == 0:
        prior = Fraction(1, rng.randint(2, 4))
        ra, na, rb, nb = rng.randint(1, 5), rng.randint(6, 9), rng.randint(1, 5), rng.randint(6, 9)
        priors, likes = [prior, 1 - prior], [Fraction(ra, na), Fraction(rb, nb)]
        question = (
            f"Box A holds {ra} red and {na - ra} white balls; box B holds {rb} red and "
            f"{nb - rb} white balls. Box A is chosen with probability {prior} and box B "
            f"otherwise, then one ball is drawn from the chosen box. The ball is red. "
            f"What is the probability that it came from box A?"
        )
    elif level == 1:
        prev = Fraction(1, rng.choice((20, 50, 100, 200)))
        sens, fpr = Fraction(rng.choice((90, 95, 98, 99)), 100), Fraction(rng.randint(2, 10), 100)
        priors, likes = [prev, 1 - prev], [sens, fpr]
        question = (
            f"A condition affects {prev} of a population. A screening test is positive for "
            f"{sens} of people with the condition and for {fpr} of people without it. A "
            f"randomly chosen person tests positive. What is the probability that they "
            f"have the condition?"
        )
    else:
        shares = rng.choice(((50, 30, 20), (45, 35, 20), (40, 35, 25), (60, 25, 15)))
        rates = [rng.randint(1, 6) for _ in range(3)]
        priors = [Fraction(s, 100) for s in shares]
        likes = [Fraction(r, 100) for r in rates]
        parts = ", ".join(
            f"machine {m} makes {s}% of the bolts and {r}% of its bolts are defective"
            for m, s, r in zip("PQR", shares, rates, strict=True)
        )
        question = (
            f"In a factory, {parts}. A randomly chosen bolt is defective. What is the "
            f"probability that machine P made it?"
        )
    value = priors[0] * likes[0] / sum(p * q for p, q in zip(priors, likes, strict=True))
    meta = {
        "kind": "bayes",
        "priors": [str(p) for p in priors],
        "likelihoods": [str(q) for q in likes],
    }
    return {
        "question": question,
        "scorer": "numeric",
        "answer": v2.fmt_fraction(value),
        "meta": meta,
    }


# ---- proofs -----------------------------------------------------------------------------------
def _dice_distribution(sides: int, dice: int) -> dict[int, int]:
    dist = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        dist = nxt
    return dist


def _dice(meta: dict[str, Any]) -> str:
    """Dice probabilities from the sum distribution."""
    kind = meta["kind"]
    n, dice, s = meta["sides"], meta["dice"], meta["target"]
    dist, total = _dice_distribution(n, dice), n**dice
    if kind == "dice_sum_eq":
        return v2.fmt_fraction(Fraction(dist.get(s, 0), total))
    if kind == "dice_product_multiple":
        hits = sum(1 for a in range(1, n + 1) for b in range(1, n + 1) if (a * b) % s == 0)
        return v2.fmt_fraction(Fraction(hits, total))
    if kind == "dice_sum_ge":
        return v2.fmt_fraction(Fraction(sum(w for t, w in dist.items() if t >= s), total))
    k = meta["face"]
    given = sum(w for t, w in dist.items() if t >= s)
    both = sum(1 for a in range(1, n + 1) for b in range(1, n + 1) if a + b >= s and k in (a, b))
    return v2.fmt_fraction(Fraction(both, given))


def _urn(meta: dict[str, Any]) -> str:
    """Urn probabilities by binomial coefficients."""
    c, comb = meta["counts"], math.comb
    n = sum(c)
    if meta["event"] == "both_red":
        return v2.fmt_fraction(Fraction(comb(c[0], 2), comb(n, 2)))
    if meta["event"] == "one_each":
        return v2.fmt_fraction(Fraction(c[0] * c[1] * c[2], comb(n, 3)))
    two = Fraction(comb(c[0], 2) * comb(c[1], 2), comb(n, 4))
    return v2.fmt_fraction(two / (1 - Fraction(comb(c[1], 4), comb(n, 4))))


def _bayes(meta: dict[str, Any]) -> str:
    """Bayes' rule by counting people."""
    priors = [Fraction(p) for p in meta["priors"]]
    likes = [Fraction(q) for q in meta["likelihoods"]]
    size = math.lcm(*(p.denominator * q.denominator for p, q in zip(priors, likes, strict=True)))
    people = [int(size * p * q) for p, q in zip(priors, likes, strict=True)]
    return v2.fmt_fraction(Fraction(people[0], sum(people)))


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "dice_sum_eq": _dice,
    "dice_product_multiple": _dice,
    "dice_sum_ge": _dice,
    "dice_conditional": _dice,
    "urn": _urn,
    "bayes": _bayes,
}
