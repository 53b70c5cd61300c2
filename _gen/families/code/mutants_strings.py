"""eval-code-v3: the string families of eval-code-v1 (``strings``) with their mutants and the
hidden inputs that kill them (see ``mutation``). One mutant per rule of the statement; the
-v2 wrong solution is one of them.

vigenere is code2-0041's defect: no -v2 test held a non-ASCII letter, so ``str.isalpha`` alone
(which shifts 'é' and lets it use up a key letter) passed; here a test holds accented letters.
"""

from __future__ import annotations

import random
import string

from families.code import strings
from families.code.base import src, words
from families.code.mutation import Strong, edit, param, strengthen


def shift_letters(rng: random.Random, v: int) -> Strong:
    t = strings.shift_letters(rng, v)
    k = int(param(t.reference, r"\+ (\d+)\) % 26"))
    both_cases = """
        def shift_letters(s: str) -> str:
            out = []
            for ch in s:
                if ch.isalpha() and ch.isascii():
                    base = ord("a") if ch.islower() else ord("A")
                    ch = chr((ord(ch) - base + @K) % 26 + base)
                out.append(ch)
            return "".join(out)
    """
    mixed = "".join(rng.choices(string.ascii_letters + " .,!", k=20))
    return strengthen(
        t,
        [("crème brûlée, 2 ½ cups!",), (mixed,)],
        [
            ("no wrap-around past z", t.wrong),
            ("shifts capital letters too", src(both_cases, K=k)),
            (
                "shifts accented lowercase letters (str.islower)",
                edit(t.reference, ('"a" <= ch <= "z"', "ch.islower()")),
            ),
            (  # a shift of 13 backwards is the same shift
                "shifts backwards",
                None if k == 13 else edit(t.reference, ('- ord("a") + ', '- ord("a") - ')),
            ),
            ("shifts one place too few", edit(t.reference, (f"+ {k}) % 26", f"+ {k - 1}) % 26"))),
        ],
    )


def count_letters(rng: random.Random, v: int) -> Strong:
    t = strings.count_letters(rng, v)
    letters = param(t.reference, r'if ch in "(\w+)"')
    last = f"{letters[-1]}{letters[-1].upper()} {letters[0]}xy"
    text = "".join(rng.choices(letters + letters.upper() + "aeiou xyz", k=24))
    return strengthen(
        t,
        [(last,), (text,)],
        [
            ("case-sensitive", t.wrong),
            (
                "counts each named letter once",
                src(f"""
                def count_letters(s: str) -> int:
                    return len(set(s.lower()) & set("{letters}"))
            """),
            ),
            (
                "forgets the last named letter",
                edit(t.reference, (f'"{letters}"', f'"{letters[:-1]}"')),
            ),
            (
                "counts the letters as one substring",
                src(f"""
                def count_letters(s: str) -> int:
                    return s.lower().count("{letters}")
            """),
            ),
        ],
    )


def _run_join(first: bool, omit: bool, br: str) -> str:
    """The expression compress_runs appends per run, as ``strings.compress_runs`` writes it."""
    fmt = "str(n)" if not br else f'"{br[0]}" + str(n) + "{br[1]}"'
    count = f'("" if n == 1 else {fmt})' if omit else fmt
    return f"{count} + ch" if first else f"ch + {count}"


def compress_runs(rng: random.Random, v: int) -> Strong:
    t = strings.compress_runs(rng, v)
    _, first, omit, br = strings.RUN_FORMATS[v]
    join = _run_join(first, omit, br)
    totals = f"""
        def compress_runs(s: str) -> str:
            out = []
            for ch in dict.fromkeys(s):
                n = s.count(ch)
                out.append({join})
            return "".join(out)
    """
    runs = "".join(c * rng.randint(1, 4) for c in rng.sample("abcde", 4))
    return strengthen(
        t,
        [("aabaa",), ("b" * 12 + "c",), (runs,)],
        [
            ("drops the last run", t.wrong),
            (
                "omits the count of a run of one"
                if not omit
                else "writes the count of a run of one",
                edit(t.reference, (join, _run_join(first, not omit, br))),
            ),
            (
                "writes count and character in the other order",
                edit(t.reference, (join, _run_join(not first, omit, br))),
            ),
            ("counts each character over the whole string, not per run", src(totals)),
            (
                "splits runs longer than 9",
                edit(t.reference, ("s[j] == s[i]:", "s[j] == s[i] and j - i < 9:")),
            ),
        ],
    )


def reverse_long_words(rng: random.Random, v: int) -> Strong:
    t = strings.reverse_long_words(rng, v)
    k = v + 3
    mix = f"ab {string.ascii_lowercase[: k + 1]} {string.ascii_lowercase[5 : 5 + k]} xy"
    return strengthen(
        t,
        [(mix,), (" ".join(words(rng, 5)),)],
        [
            (f"reverses words of {k} letters too", t.wrong),
            (
                f"reverses only words longer than {k + 1}",
                edit(t.reference, (f"> {k} ", f"> {k + 1} ")),
            ),
            (
                "reverses every word",
                edit(t.reference, (f"w[::-1] if len(w) > {k} else w", "w[::-1]")),
            ),
            (
                "reverses the word order too",
                edit(t.reference, ('s.split(" "))', 'reversed(s.split(" ")))')),
            ),
        ],
    )


def longest_k_distinct(rng: random.Random, v: int) -> Strong:
    t = strings.longest_k_distinct(rng, v)
    k = v + 2
    exactly = f"""
        def longest_k_distinct(s: str) -> str:
            best = ""
            for i in range(len(s)):
                for j in range(i + 1, len(s) + 1):
                    if len(set(s[i:j])) == {k} and j - i > len(best):
                        best = s[i:j]
            return best
    """
    return strengthen(
        t,
        [("".join(rng.choices("abcdefg"[: k + 2], k=16)),)],
        [
            ("returns the last of equal-length substrings", t.wrong),
            (f"needs exactly {k} distinct characters", src(exactly)),
            (
                f"allows only {k - 1} distinct characters",
                edit(t.reference, (f"> {k}:", f">= {k}:")),
            ),
            (f"allows {k + 1} distinct characters", edit(t.reference, (f"> {k}:", f"> {k + 1}:"))),
        ],
    )


def vigenere(rng: random.Random, v: int) -> Strong:
    t = strings.vigenere(rng, v)
    phrase = " ".join(w.capitalize() for w in words(rng, 3)) + "?"
    return strengthen(
        t,
        [("Café Noël, señor!",), (phrase,)],
        [
            ("non-letters use up key letters", t.wrong),
            (
                "shifts non-ASCII letters too (str.isalpha alone)",
                edit(t.reference, ("ch.isalpha() and ch.isascii()", "ch.isalpha()")),
            ),
            (
                "turns capitals lowercase",
                edit(
                    t.reference,
                    (
                        'base = ord("a") if ch.islower() else ord("A")',
                        'ch, base = ch.lower(), ord("a")',
                    ),
                ),
            ),
            ("shifts backwards", edit(t.reference, ("- base + shift)", "- base - shift)"))),
            (
                "starts with the second key letter",
                edit(t.reference, ("key[i % len(key)]", "key[(i + 1) % len(key)]")),
            ),
        ],
    )


FAMILIES = [
    shift_letters,
    count_letters,
    compress_runs,
    reverse_long_words,
    longest_k_distinct,
    vigenere,
]
