"""String transforms task families of eval-code-v1 (see ``base`` for the task shape)."""

from __future__ import annotations

import itertools
import random
import re
import string

from families.code.base import Task, mutate, src, task, words


def shift_letters(rng: random.Random, v: int) -> Task:
    k = 1 + 5 * v + rng.randint(0, 4)
    low = string.ascii_lowercase
    table = str.maketrans(low, low[k:] + low[:k])
    body = """
        def shift_letters(s: str) -> str:
            out = []
            for ch in s:
                if "a" <= ch <= "z":
                    ch = chr((ord(ch) - ord("a") + @K) % 26 + ord("a"))
                out.append(ch)
            return "".join(out)
    """
    inputs = [("",), ("xyz",), ("Hello, World!",), (" ".join(words(rng, 4)),), ("zebra quiz",)]
    return task(
        "strings",
        "easy",
        "def shift_letters(s: str) -> str",
        f"Shift every lowercase letter a-z forward by {k} places in the alphabet, wrapping "
        "around from z to a. Leave every other character (capitals, digits, spaces, "
        "punctuation) unchanged.",
        src(body, K=k),
        mutate(src(body, K=k), " % 26", ""),
        inputs,
        lambda s: s.translate(table),
    )


def count_letters(rng: random.Random, v: int) -> Task:
    group = ("bcdf", "ghjk", "lmnp", "qrst", "vwxz")[v]
    letters = "".join(sorted(rng.sample(group, 3)))
    body = """
        def count_letters(s: str) -> int:
            return sum(1 for ch in s.lower() if ch in "@L")
    """
    named = ", ".join(f"'{c}'" for c in letters)
    text = "".join(rng.choices(letters.upper() + letters + "aeiou ", k=30))
    inputs = [("",), (letters.upper(),), (text,), ("Mixed Case " + letters + letters.upper(),)]
    return task(
        "strings",
        "easy",
        "def count_letters(s: str) -> int",
        f"Return how many characters of s are one of the letters {named}, counting "
        "uppercase and lowercase forms alike.",
        src(body, L=letters),
        mutate(src(body, L=letters), "s.lower()", "s"),
        inputs,
        lambda s: len(re.findall(f"[{letters}]", s, flags=re.IGNORECASE)),
    )


RUN_FORMATS = (  # (description, count first?, omit count 1?, brackets?)
    ("each run as the character followed by its length, e.g. 'aaab' -> 'a3b1'", False, False, ""),
    (
        "each run as the character followed by its length, writing no length for runs of one, "
        "e.g. 'aaab' -> 'a3b'",
        False,
        True,
        "",
    ),
    ("each run as its length followed by the character, e.g. 'aaab' -> '3a1b'", True, False, ""),
    (
        "each run as its length followed by the character, writing no length for runs of one, "
        "e.g. 'aaab' -> '3ab'",
        True,
        True,
        "",
    ),
    (
        "each run as the character followed by its length in parentheses, writing no length for "
        "runs of one, e.g. 'aaab' -> 'a(3)b'",
        False,
        True,
        "()",
    ),
)


def compress_runs(rng: random.Random, v: int) -> Task:
    how, first, omit, br = RUN_FORMATS[v]

    def piece(ch: str, n: int) -> str:
        count = "" if omit and n == 1 else (br[:1] + str(n) + br[1:])
        return count + ch if first else ch + count

    fmt = "str(n)" if not br else f'"{br[0]}" + str(n) + "{br[1]}"'
    count = f'("" if n == 1 else {fmt})' if omit else fmt
    join = f"{count} + ch" if first else f"ch + {count}"
    body = """
        def compress_runs(s: str) -> str:
            out = []
            i = 0
            while i < len(s):
                j = i
                while j < len(s) and s[j] == s[i]:
                    j += 1
                ch, n = s[i], j - i
                out.append(@JOIN)
                i = j
            return "".join(out)
    """
    wrong = """
        def compress_runs(s: str) -> str:
            out = []
            run = 1
            for i in range(1, len(s)):
                if s[i] == s[i - 1]:
                    run += 1
                else:
                    ch, n = s[i - 1], run
                    out.append(@JOIN)
                    run = 1
            return "".join(out)
    """
    inputs = [("",), ("a",), ("aaab",), ("".join(c * rng.randint(1, 12) for c in "xyzxw"),)]
    inputs.append(("".join(rng.choice("ab") * rng.randint(1, 3) for _ in range(6)),))
    return task(
        "strings",
        "medium",
        "def compress_runs(s: str) -> str",
        f"Run-length encode s: write {how}. A run is a maximal block of equal "
        "characters; s contains only lowercase letters.",
        src(body, JOIN=join),
        src(wrong, JOIN=join),
        inputs,
        lambda s: "".join(piece(m.group(1), len(m.group(0))) for m in re.finditer(r"(.)\1*", s)),
    )


def reverse_long_words(rng: random.Random, v: int) -> Task:
    k = v + 3
    body = """
        def reverse_long_words(s: str) -> str:
            return " ".join(w[::-1] if len(w) > @K else w for w in s.split(" "))
    """
    exact = "".join(rng.choices(string.ascii_lowercase, k=k))
    inputs = [(exact,), (f"{exact} {exact}xy ab",), (" ".join(words(rng, 6)),), ("",)]
    return task(
        "strings",
        "medium",
        "def reverse_long_words(s: str) -> str",
        f"s is made of words separated by single spaces. Return s with every word longer "
        f"than {k} characters reversed, keeping the words in their order and the spaces "
        "as they are.",
        src(body, K=k),
        mutate(src(body, K=k), ") > ", ") >= "),
        inputs,
        lambda s: re.sub(r"\S+", lambda m: m[0][::-1] if len(m[0]) > k else m[0], s),
    )


def longest_k_distinct(rng: random.Random, v: int) -> Task:
    k = v + 2
    body = """
        def longest_k_distinct(s: str) -> str:
            best = ""
            counts = {}
            left = 0
            for right, ch in enumerate(s):
                counts[ch] = counts.get(ch, 0) + 1
                while len(counts) > @K:
                    counts[s[left]] -= 1
                    if counts[s[left]] == 0:
                        del counts[s[left]]
                    left += 1
                if right - left + 1 > len(best):
                    best = s[left : right + 1]
            return best
    """

    def oracle(s: str) -> str:
        subs = [s[i:j] for i in range(len(s)) for j in range(i + 1, len(s) + 1)]
        fits = [t for t in subs if len(set(t)) <= k]
        return max(fits, key=len, default="")  # max keeps the first (leftmost) of equal keys

    tie = "".join(c * 2 for c in string.ascii_lowercase[: k + 1])
    inputs = [("",), (tie,), ("".join(rng.choices("abcdef"[: k + 2], k=18)),), ("z" * 5,)]
    return task(
        "strings",
        "hard",
        "def longest_k_distinct(s: str) -> str",
        f"Return the longest substring of s that contains at most {k} distinct "
        "characters. If several substrings have that maximum length, return the one "
        "that starts first. Return '' for an empty s.",
        src(body, K=k),
        mutate(src(body, K=k), "> len(best)", ">= len(best)"),
        inputs,
        oracle,
    )


# The wrong cipher lets every character, not only letters, use up a key letter.
WRONG_FROM = "            i += 1\n        else:\n            out.append(ch)\n"
WRONG_TO = "        else:\n            out.append(ch)\n        i += 1\n"


def vigenere(rng: random.Random, v: int) -> Task:
    key = ("lemon", "atlas", "quartz", "river", "maple")[v]
    body = """
        def vigenere(s: str) -> str:
            key = "@KEY"
            out = []
            i = 0
            for ch in s:
                if ch.isalpha() and ch.isascii():
                    base = ord("a") if ch.islower() else ord("A")
                    shift = ord(key[i % len(key)]) - ord("a")
                    out.append(chr((ord(ch) - base + shift) % 26 + base))
                    i += 1
                else:
                    out.append(ch)
            return "".join(out)
    """

    def oracle(s: str) -> str:
        shifts = itertools.cycle([ord(c) - 97 for c in key])
        low, up = string.ascii_lowercase, string.ascii_uppercase
        return "".join(
            (low if c in low else up)[((low if c in low else up).index(c) + next(shifts)) % 26]
            if c in low + up
            else c
            for c in s
        )

    phrase = " ".join(words(rng, 3)).capitalize() + "!"
    inputs = [("",), ("attack at dawn",), (phrase,), ("Zz-zz 42",)]
    return task(
        "strings",
        "hard",
        "def vigenere(s: str) -> str",
        f"Encrypt s with the Vigenère cipher and the key '{key}': the n-th ASCII letter "
        "of s (counting letters only) is shifted forward in the alphabet by the position "
        "of key letter n mod len(key) (a=0, b=1, ...), wrapping around; uppercase "
        "letters stay uppercase. Other characters are copied unchanged and do not use "
        "up a key letter.",
        src(body, KEY=key),
        mutate(src(body, KEY=key), WRONG_FROM, WRONG_TO),
        inputs,
        oracle,
    )


FAMILIES = [
    shift_letters,
    count_letters,
    compress_runs,
    reverse_long_words,
    longest_k_distinct,
    vigenere,
]
