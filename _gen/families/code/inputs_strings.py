"""eval-code-v4: seeded inputs of the string families (see ``inputs``)."""

from __future__ import annotations

import random
import string

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, reads, text

LOWER, UPPER, DIGITS = string.ascii_lowercase, string.ascii_uppercase, string.digits
#: Characters just outside a-z and A-Z, and letters outside ASCII: "a-z" means these are kept.
NEIGHBOURS = "`{@["
ACCENTED = "éüñßÉ"


def shift_letters(task: Task, v: int) -> Inputs:
    alphabet = LOWER * 4 + UPPER + DIGITS + " .,!?-" + NEIGHBOURS + ACCENTED

    def draw(rng: random.Random) -> Args:
        return (text(rng, alphabet, 1, 30),)

    edges = [("",), ("a",), ("z",), ("az",), (LOWER,), (UPPER,), (NEIGHBOURS,), (DIGITS,)]
    edges += [("zz top, 2 Zebras!",), ("café über",)]
    return Inputs(edges, draw)


def count_letters(task: Task, v: int) -> Inputs:
    alphabet = LOWER * 2 + UPPER + DIGITS + " .,!" + NEIGHBOURS

    def draw(rng: random.Random) -> Args:
        return (text(rng, alphabet, 0, 40),)

    edges = [("",), (LOWER,), (UPPER,), (LOWER + UPPER,), ("aeiou AEIOU",), (NEIGHBOURS,)]
    return Inputs(edges, draw)


def compress_runs(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        letters = rng.choice(("ab", "abc", "xyz", LOWER))
        runs = [rng.choice(letters) * rng.choice((1, 1, 2, 3, 9, 10, 11, 12)) for _ in range(6)]
        return ("".join(runs[: rng.randint(1, 6)]),)

    edges = [("",), ("a",), ("ab",), ("aa",), ("a" * 9,), ("a" * 10,), ("b" * 11 + "a",)]
    edges += [("ab" * 4,), ("aabbaa",), ("z" * 100,), (LOWER,), ("abbcccddddeeeee",)]
    return Inputs(edges, draw)


def reverse_long_words(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"len\(w\) > (\d+)"))

    def word(rng: random.Random, size: int) -> str:
        return text(rng, LOWER * 3 + UPPER, size, size)

    def draw(rng: random.Random) -> Args:
        return (" ".join(word(rng, rng.randint(1, k + 4)) for _ in range(rng.randint(1, 8))),)

    rng = random.Random(k)  # fixed words: the boundary lengths k - 1, k, k + 1
    edges: list[Args] = [("",), ("a",), (word(rng, k),), (word(rng, k + 1),)]
    edges += [(" ".join(word(rng, n) for n in (k - 1, k, k + 1, 1, k + 2)),)]
    edges += [(" ".join(word(rng, n) for n in range(1, k + 4)),)]
    return Inputs(edges, draw)


def longest_k_distinct(task: Task, v: int) -> Inputs:
    k = int(reads(task, r"len\(counts\) > (\d+)"))

    def draw(rng: random.Random) -> Args:
        return (text(rng, LOWER[: k + rng.randint(1, 3)], 0, 14),)

    edges: list[Args] = [("",), ("a",), ("a" * 6,), (LOWER[:k],), (LOWER[: k + 1],)]
    edges += [(LOWER[:k] + LOWER[: k + 1][::-1],), ("ab" * 5 + "c" * 3,)]
    edges += [("".join(c * 2 for c in LOWER[: k + 2]),)]  # ties: the first window wins
    return Inputs(edges, draw)


def vigenere(task: Task, v: int) -> Inputs:
    alphabet = LOWER * 3 + UPPER * 2 + DIGITS + " .,!-'" + ACCENTED

    def draw(rng: random.Random) -> Args:
        return (text(rng, alphabet, 1, 30),)

    edges = [("",), ("a",), ("z",), ("Z",), (LOWER,), (UPPER,), (LOWER * 2,), ("a b-c d!e",)]
    edges += [("Café Noël, señor!",), ("ßa",), ("12345 xyz",), ("zzzzzzzzzzzz",)]
    return Inputs(edges, draw)


def mask_digits(task: Task, v: int) -> Inputs:
    keep = int(reads(task, r"seen <= total - (\d+)"))
    alphabet = DIGITS * 4 + LOWER[:6] + "-+() "

    def draw(rng: random.Random) -> Args:
        return (text(rng, alphabet, 0, 24),)

    edges: list[Args] = [("",), ("no digits",), ("a1b2c3d4e5f6",), ("12ab34",), ("ab12",)]
    edges += [(DIGITS[:n],) for n in range(1, keep + 3)]
    edges += [("0" * (keep + 1),), ("+1 (555) 010-9999",)]
    return Inputs(edges, draw)


def anagram_groups(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        bases = [text(rng, "abcde", 1, 4) for _ in range(rng.randint(1, 3))]
        words = []
        for _ in range(rng.randint(0, 10)):
            base = rng.choice(bases)
            words.append("".join(rng.sample(base, len(base))))
        return (words,)

    edges: list[Args] = [([],), (["a"],), (["ab", "ba"],), (["ab", "ab"],), (["a", "b", "a"],)]
    edges += [(["abc", "bca", "cab", "abc"],), (["aab", "abb", "bab", "aba"],)]
    edges += [(["listen", "silent", "enlist", "google", "gogole"],), (["ba", "b", "ab", "a"],)]
    return Inputs(edges, draw)


def min_window(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        letters = "abcd"[: rng.randint(2, 4)]
        s = text(rng, letters, 0, 14)
        t = text(rng, letters + ("z" if rng.random() < 0.1 else ""), 1, 4)
        return (s, t)

    edges: list[Args] = [("", "a"), ("a", "a"), ("a", "b"), ("aa", "aaa"), ("ab", "ab")]
    edges += [("ba", "ab"), ("abab", "ab"), ("aabba", "ab"), ("baaab", "aab"), ("xyz", "zyx")]
    edges += [("abcabc", "cc"), ("aaaa", "aa"), ("cab", "abc")]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        shift_letters, count_letters, compress_runs, reverse_long_words, longest_k_distinct,
        vigenere, mask_digits, anagram_groups, min_window,
    )
}  # fmt: skip
