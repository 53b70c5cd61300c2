"""eval-code-v3: the list families of eval-code-v1 (``lists``) with their mutants and the hidden
inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import lists
from families.code.base import ints, src
from families.code.mutation import Strong, edit, strengthen


def window_sums(rng: random.Random, v: int) -> Strong:
    t = lists.window_sums(rng, v)
    k = v + 2
    return strengthen(
        t,
        [(ints(rng, 7),)],
        [
            ("misses the last block", t.wrong),
            (
                f"blocks of {k - 1}",
                edit(t.reference, (f"i + {k}]", f"i + {k - 1}]"), (f"- {k} + 1", f"- {k - 1} + 1")),
            ),
            (
                "blocks that do not overlap",
                edit(
                    t.reference, (f"range(len(xs) - {k} + 1)", f"range(0, len(xs) - {k} + 1, {k})")
                ),
            ),
            (
                f"sums a list shorter than {k} as one block",
                edit(
                    t.reference, (f"range(len(xs) - {k} + 1)", f"range(max(len(xs) - {k} + 1, 1))")
                ),
            ),
        ],
    )


def kth_largest_distinct(rng: random.Random, v: int) -> Strong:
    t = lists.kth_largest_distinct(rng, v)
    k = v + 2
    return strengthen(
        t,
        [(ints(rng, 8, 0, 6),)],
        [
            ("counts equal values separately", t.wrong),
            ("the k-th smallest", edit(t.reference, (", reverse=True", ""))),
            (
                "one place too far",
                edit(
                    t.reference,
                    (f"values[{k} - 1] if len(values) >= {k}", f"values[{k}] if len(values) > {k}"),
                ),
            ),
            (
                f"None when there are exactly {k} distinct values",
                edit(t.reference, (f">= {k}", f"> {k}")),
            ),
        ],
    )


def rotate_right(rng: random.Random, v: int) -> Strong:
    t = lists.rotate_right(rng, v)
    k = (3, 5, 7, 9, 11)[v]
    return strengthen(
        t,
        [([1, 2],), (list(range(1, 14)),), (ints(rng, 6),)],
        [
            ("no wrap-around for short lists", t.wrong),
            (
                "rotates left",
                src(f"""
                def rotate_right(xs: list[int]) -> list[int]:
                    if not xs:
                        return []
                    k = {k} % len(xs)
                    return xs[k:] + xs[:k]
            """),
            ),
            (
                "one step too few",
                edit(t.reference, (f"k = {k} % len(xs)", f"k = {k - 1} % len(xs)")),
            ),
            (
                "fails on the empty list",
                edit(t.reference, ("    if not xs:\n        return []\n", "")),
            ),
        ],
    )


def chunk_max(rng: random.Random, v: int) -> Strong:
    t = lists.chunk_max(rng, v)
    k = v + 2
    return strengthen(
        t,
        [(ints(rng, 2 * k + 1),), ([4, 1, 9, 2, 7, 3, 8, 5, 6],)],
        [
            ("drops the short last chunk", t.wrong),
            (
                "every block of consecutive elements",
                edit(t.reference, (f"range(0, len(xs), {k})", f"range(len(xs) - {k} + 1)")),
            ),
            (
                f"chunks of {k + 1}",
                edit(
                    t.reference,
                    (f"i + {k}]", f"i + {k + 1}]"),
                    (f"len(xs), {k})", f"len(xs), {k + 1})"),
                ),
            ),
            (
                f"chunks of {k - 1}",
                edit(
                    t.reference,
                    (f"i + {k}]", f"i + {k - 1}]"),
                    (f"len(xs), {k})", f"len(xs), {k - 1})"),
                ),
            ),
        ],
    )


def max_short_run(rng: random.Random, v: int) -> Strong:
    t = lists.max_short_run(rng, v)
    k = v + 2
    exactly = f"""
        def max_short_run(xs: list[int]) -> int:
            return max(sum(xs[i : i + {k}]) for i in range(len(xs) - {k} + 1))
    """
    return strengthen(
        t,
        [([-1, 9, -1],), ([-4, -1, -6],), (ints(rng, 10),)],
        [
            ("blocks of any length", t.wrong),
            (f"blocks of exactly {k}", src(exactly)),
            ("allows the empty block", edit(t.reference, ("best = xs[0]", "best = 0"))),
            (f"blocks of at most {k - 1}", edit(t.reference, (f"i + {k},", f"i + {k - 1},"))),
            (f"blocks of at most {k + 1}", edit(t.reference, (f"i + {k},", f"i + {k + 1},"))),
        ],
    )


def merge_close(rng: random.Random, v: int) -> Strong:
    t = lists.merge_close(rng, v)
    gap = v
    spans = [[s, s + rng.randint(0, 3)] for s in rng.sample(range(0, 30), 5)]
    return strengthen(
        t,
        [([[8, 9], [0, 1], [4, 5]],), ([[1, 10], [2, 3], [12, 14]],), ([[1, 2], [3 + gap, 6]],)]
        + [(spans,)],
        [
            ("does not sort the intervals", t.wrong),
            (
                f"a gap of exactly {gap} does not join",
                edit(t.reference, ("start <= merged", "start < merged")),
            ),
            (
                "keeps the later end, not the larger",
                edit(t.reference, ("max(merged[-1][1], end)", "end")),
            ),
            (f"joins over a gap of {gap + 1}", edit(t.reference, (f"+ {gap}:", f"+ {gap + 1}:"))),
            (
                "joins only overlapping intervals",
                None if gap == 0 else edit(t.reference, (f" + {gap}:", ":")),
            ),
        ],
    )


FAMILIES = [window_sums, kth_largest_distinct, rotate_right, chunk_max, max_short_run, merge_close]
