"""List algorithms task families of eval-code-v1 (see ``base`` for the task shape)."""

from __future__ import annotations

import itertools
import random
from collections import deque

from families.code.base import Task, ints, mutate, src, task


def window_sums(rng: random.Random, v: int) -> Task:
    k = v + 2
    body = """
        def window_sums(xs: list[int]) -> list[int]:
            return [sum(xs[i : i + @K]) for i in range(len(xs) - @K + 1)]
    """
    inputs = [([],), (list(range(1, k + 1)),), (ints(rng, 9),), (ints(rng, k - 1),)]
    return task(
        "lists",
        "easy",
        "def window_sums(xs: list[int]) -> list[int]",
        f"Return the sums of every block of {k} consecutive elements of xs, in order of "
        f"their first element. Return [] when xs has fewer than {k} elements.",
        src(body, K=k),
        mutate(src(body, K=k), " + 1)]", ")]"),
        inputs,
        lambda xs: [sum(w) for w in zip(*(xs[i:] for i in range(k)), strict=False)],
    )


def kth_largest_distinct(rng: random.Random, v: int) -> Task:
    k = v + 2
    body = """
        def kth_largest_distinct(xs: list[int]) -> int | None:
            values = sorted(set(xs), reverse=True)
            return values[@K - 1] if len(values) >= @K else None
    """
    dupes = sorted(ints(rng, k + 2, 0, 9) * 2)
    inputs = [([],), ([5] * (k + 1),), (dupes,), (ints(rng, 12),), (list(range(k)),)]

    def oracle(xs: list[int]) -> int | None:
        found = [x for x in range(max(xs, default=0), min(xs, default=0) - 1, -1) if x in xs]
        return found[k - 1] if len(found) >= k else None

    return task(
        "lists",
        "easy",
        "def kth_largest_distinct(xs: list[int]) -> int | None",
        f"Return the {k}{'nd' if k == 2 else 'rd' if k == 3 else 'th'} largest distinct "
        f"value in xs (equal values count once), or None when xs has fewer than {k} "
        "distinct values.",
        src(body, K=k),
        mutate(src(body, K=k), "set(xs)", "xs"),
        inputs,
        oracle,
    )


WRONG_ROTATE = """
    def rotate_right(xs: list[int]) -> list[int]:
        return xs[-@K:] + xs[:-@K]
"""


def rotate_right(rng: random.Random, v: int) -> Task:
    k = (3, 5, 7, 9, 11)[v]
    body = """
        def rotate_right(xs: list[int]) -> list[int]:
            if not xs:
                return []
            k = @K % len(xs)
            return xs[len(xs) - k :] + xs[: len(xs) - k]
    """

    def oracle(xs: list[int]) -> list[int]:
        d = deque(xs)
        d.rotate(k)
        return list(d)

    inputs = [([],), (ints(rng, k + 3),), (ints(rng, 2),), (list(range(k)),), ([1, 2, 3, 4],)]
    return task(
        "lists",
        "medium",
        "def rotate_right(xs: list[int]) -> list[int]",
        f"Return a new list with the elements of xs rotated right by {k} positions: each "
        f"step moves the last element to the front. xs may be shorter than {k} (keep "
        "rotating around) or empty.",
        src(body, K=k),
        src(WRONG_ROTATE, K=k),
        inputs,
        oracle,
    )


def chunk_max(rng: random.Random, v: int) -> Task:
    k = v + 2
    body = """
        def chunk_max(xs: list[int]) -> list[int]:
            return [max(xs[i : i + @K]) for i in range(0, len(xs), @K)]
    """
    inputs = [([],), (ints(rng, 3 * k + 1),), (ints(rng, k),), (ints(rng, 2 * k - 1),)]
    return task(
        "lists",
        "medium",
        "def chunk_max(xs: list[int]) -> list[int]",
        f"Split xs into consecutive chunks of {k} elements (the last chunk may be "
        "shorter) and return the list of the maximum of each chunk.",
        src(body, K=k),
        mutate(src(body, K=k), "len(xs), ", f"len(xs) - {k} + 1, "),
        inputs,
        lambda xs: [
            max(x for j, x in enumerate(xs) if j // k == c) for c in range(-(-len(xs) // k))
        ],
    )


def max_short_run(rng: random.Random, v: int) -> Task:
    k = v + 2
    body = """
        def max_short_run(xs: list[int]) -> int:
            best = xs[0]
            for i in range(len(xs)):
                total = 0
                for j in range(i, min(i + @K, len(xs))):
                    total += xs[j]
                    best = max(best, total)
            return best
    """
    wrong = """
        def max_short_run(xs: list[int]) -> int:
            best = cur = xs[0]
            for x in xs[1:]:
                cur = max(x, cur + x)
                best = max(best, cur)
            return best
    """
    inputs = [([-3],), (list(range(1, k + 3)),), (ints(rng, 12),), ([-5, -2, -9],)]
    return task(
        "lists",
        "hard",
        "def max_short_run(xs: list[int]) -> int",
        f"xs is a non-empty list of integers. Return the largest sum of a non-empty block "
        f"of at most {k} consecutive elements.",
        src(body, K=k),
        src(wrong),
        inputs,
        lambda xs: max(
            sum(xs[i:j]) for i in range(len(xs)) for j in range(i + 1, min(i + k, len(xs)) + 1)
        ),
    )


def merge_close(rng: random.Random, v: int) -> Task:
    gap = v
    body = """
        def merge_close(intervals: list[list[int]]) -> list[list[int]]:
            merged = []
            for start, end in sorted(intervals):
                if merged and start <= merged[-1][1] + @G:
                    merged[-1][1] = max(merged[-1][1], end)
                else:
                    merged.append([start, end])
            return merged
    """

    def oracle(intervals: list[list[int]]) -> list[list[int]]:
        groups = [[list(iv)] for iv in intervals]
        changed = True
        while changed:  # join any two groups holding a pair within the gap, until none is left
            changed = False
            for a, b in itertools.combinations(range(len(groups)), 2):
                if any(
                    x[0] <= y[1] + gap and y[0] <= x[1] + gap for x in groups[a] for y in groups[b]
                ):
                    groups[a] += groups.pop(b)
                    changed = True
                    break
        return sorted([min(s for s, _ in g), max(e for _, e in g)] for g in groups)

    spans = [[s, s + rng.randint(0, 4)] for s in sorted(rng.sample(range(0, 40), 7))]
    rng.shuffle(spans)
    inputs = [([],), ([[10, 12], [1, 3], [2, 5]],), ([[1, 2], [2 + gap, 6]],), (spans,)]
    return task(
        "lists",
        "hard",
        "def merge_close(intervals: list[list[int]]) -> list[list[int]]",
        f"intervals is a list of [start, end] pairs (start <= end) in any order. Merge "
        f"intervals that overlap or are separated by a gap of at most {gap} (an interval "
        f"starting at or before the previous end + {gap} joins it), and return the "
        "merged [start, end] lists sorted by start.",
        src(body, G=gap),
        mutate(src(body, G=gap), "sorted(intervals)", "intervals"),
        inputs,
        oracle,
    )


FAMILIES = [window_sums, kth_largest_distinct, rotate_right, chunk_max, max_short_run, merge_close]
