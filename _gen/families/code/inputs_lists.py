"""eval-code-v4: seeded inputs of the list families (see ``inputs``)."""

from __future__ import annotations

import random

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, numbers, reads


def window_sums(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"xs\[i : i \+ (\d+)\]"))

    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 15), -50, 50),)

    edges: list[Args] = [(list(range(1, n + 1)),) for n in range(k + 3)]
    edges += [([0] * (k + 1),), ([-5] * k,), ([10**9, -(10**9)] * k,)]
    return Inputs(edges, draw)


def kth_largest_distinct(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"values\[(\d+) - 1\]"))

    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 12), -10, 10),)

    edges: list[Args] = [([],), ([7],), ([5] * (k + 2),), (list(range(k - 1)),)]
    edges += [(list(range(k)),), (list(range(k + 1)),), (list(range(k, 0, -1)) * 2,)]
    edges += [([-3, -1, -2, -1, -3, -4, -5][: k + 2],), ([9, 9, 8, 8, 7, 7, 6, 6, 5, 5],)]
    return Inputs(edges, draw)


def rotate_right(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"k = (\d+) % len"))

    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 2 * k + 3), -9, 9),)

    edges: list[Args] = [(list(range(n)),) for n in range(k + 3)]  # every remainder of k
    edges += [(list(range(2 * k)),), (list(range(2 * k + 1)),), ([4, 4, 1],)]
    return Inputs(edges, draw)


def chunk_max(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"range\(0, len\(xs\), (\d+)\)"))

    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 3 * k + 2), -50, 50),)

    edges: list[Args] = [(list(range(n)),) for n in range(2 * k + 2)]
    edges += [(list(range(2 * k, 0, -1)),), ([-7] * (k + 1),), ([-3, -9, -1, -4, -8, -2][: k + 1],)]
    return Inputs(edges, draw)


def max_short_run(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"min\(i \+ (\d+), len"))

    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(1, 14), -20, 20),)

    edges: list[Args] = [([5],), ([-5],), ([0],), ([-5, -2, -9],), ([-1] * (k + 2),)]
    edges += [([3] * (k + 2),), ([1] * k + [-1] + [1] * k,), ([-9] + [4] * (k + 1) + [-9],)]
    edges += [([10, -1, -1, 10],), (list(range(-k, k + 1)),)]
    return Inputs(edges, draw)


def merge_close(task: Task, v: int) -> Inputs:
    gap = int(reads(task, r"merged\[-1\]\[1\] \+ (\d+)"))

    def draw(rng: random.Random) -> Args:
        spans = []
        for _ in range(rng.randint(0, 8)):
            start = rng.randint(-10, 40)
            spans.append([start, start + rng.randint(0, 6)])
        return (spans,)

    edges: list[Args] = [([],), ([[3, 3]],), ([[1, 2], [2 + gap, 5]],), ([[1, 2], [3 + gap, 5]],)]
    edges += [([[5, 9], [1, 2], [2 + gap, 4]],), ([[1, 10], [2, 3], [4, 5]],), ([[1, 4], [1, 4]],)]
    edges += [([[-8, -5], [-5 + gap, -2], [20, 21]],), ([[0, 0], [gap, gap], [2 * gap + 1, 9]],)]
    return Inputs(edges, draw)


def dedupe(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 14), -4, 6),)

    edges: list[Args] = [([],), ([3],), ([3, 3],), ([1, 2, 3],), ([2, 2, 2, 2],)]
    edges += [([1, 2, 1, 2, 1],), ([-1, 0, -1, 5, 0],), ([3, 1, 2, 1, 3],)]
    return Inputs(edges, draw)


def longest_run(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 14), 0, 9),)

    edges: list[Args] = [([],), ([4],), ([2, 2],), ([1, 2],), ([2, 1],), ([1, 2, 3, 4, 5],)]
    edges += [([5, 4, 3, 2, 1],), ([1, 3, 2, 4, 3, 5],), ([3, 3, 3],), ([1, 2, 1, 2],)]
    edges += [([9, 1, 2, 3, 0, 5, 6, 7],), ([5, 3, 1, 4, 2, 0],)]
    return Inputs(edges, draw)


def lis_length(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 12), 0, 6),)

    edges: list[Args] = [([],), ([4],), ([2, 2],), ([2, 2, 2, 2],), ([1, 2, 3, 4, 5],)]
    edges += [([5, 4, 3, 2, 1],), ([1, 1, 2, 2, 3, 3],), ([3, 1, 2, 1, 2, 3],), ([-3, -3, -1],)]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        window_sums, kth_largest_distinct, rotate_right, chunk_max, max_short_run, merge_close,
        dedupe, longest_run, lis_length,
    )
}  # fmt: skip
