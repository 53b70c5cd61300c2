"""eval-code-v3: the string and parsing families eval-code-v2 added (``more_text``) with their
mutants and the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random
import string

from families.code import more_text
from families.code.base import src
from families.code.mutation import Strong, edit, param, strengthen


def mask_digits(rng: random.Random, v: int) -> Strong:
    t = more_text.mask_digits(rng, v)
    keep, mark = int(param(t.reference, r"total - (\d+)")), param(t.reference, r'ch = "(.)"')
    last_chars = f"""
        def mask_digits(s: str) -> str:
            cut = max(len(s) - {keep}, 0)
            head = "".join("{mark}" if "0" <= ch <= "9" else ch for ch in s[:cut])
            return head + s[cut:]
    """
    text = "".join(rng.choices(string.digits + "ab-", k=14))
    return strengthen(
        t,
        [("12m² at 3456 (٣)",), (text,)],
        [
            ("masks one digit too many", t.wrong),
            (f"keeps the last {keep} characters, not digits", src(last_chars)),
            (
                f"keeps the first {keep} digits",
                edit(t.reference, (f"seen <= total - {keep}", f"seen > {keep}")),
            ),
            (
                "takes every Unicode digit for a digit",
                edit(t.reference, ('"0" <= ch <= "9"', "ch.isdigit()"), times=2),
            ),
        ],
    )


def anagram_groups(rng: random.Random, v: int) -> Strong:
    t = more_text.anagram_groups(rng, v)
    inner = "sorted(group)" if "sorted(group)" in t.reference else "group"
    other = "group" if inner == "sorted(group)" else "sorted(group)"
    bases = ["".join(rng.sample("abcdest", rng.randint(3, 4))) for _ in range(3)]
    mixed = ["".join(rng.sample(b, len(b))) for b in bases for _ in range(2)]
    rng.shuffle(mixed)
    return strengthen(
        t,
        [(["tea", "ate", "eat", "tan", "ant", "eta"],), (mixed,)],
        [
            ("anagrams by letter set, ignoring counts", t.wrong),
            (
                "drops repeated words",
                edit(t.reference, ("for word in words:", "for word in dict.fromkeys(words):")),
            ),
            (
                "the other order inside a group",
                edit(t.reference, (f"[{inner} for", f"[{other} for")),
            ),
            (
                "groups sorted by their letters",
                edit(
                    t.reference,
                    ("for group in groups.values()]", "for _, group in sorted(groups.items())]"),
                ),
            ),
        ],
    )


def min_window(rng: random.Random, v: int) -> Strong:
    t = more_text.min_window(rng, v)
    in_order = """
        def min_window(s: str, t: str) -> str:
            best = ""
            for i in range(len(s)):
                k = 0
                for j in range(i, len(s)):
                    if s[j] == t[k]:
                        k += 1
                        if k == len(t):
                            if not best or j - i + 1 < len(best):
                                best = s[i : j + 1]
                            break
            return best
    """
    same_length = """
        def min_window(s: str, t: str) -> str:
            for i in range(len(s) - len(t) + 1):
                if sorted(s[i : i + len(t)]) == sorted(t):
                    return s[i : i + len(t)]
            return ""
    """
    letters = "".join(rng.sample("abcdefgh", 3))
    s = "".join(rng.choices(letters, k=14))
    return strengthen(
        t,
        [("abba", "ab"), ("cabxba", "ab"), (s, letters[0] * 2)],
        [
            ("ignores how often a character occurs in t", t.wrong),
            (
                "the last of equal-length windows",
                edit(
                    t.reference, ("right - left + 1 < len(best)", "right - left + 1 <= len(best)")
                ),
            ),
            ("needs t's characters in t's order", src(in_order)),
            ("only windows as long as t", src(same_length)),
        ],
    )


def roman_to_int(rng: random.Random, v: int) -> Strong:
    t = more_text.roman_to_int(rng, v)
    letters = param(t.reference, r'dict\(zip\("(\w+)"')
    previous = f"""
        def roman_to_int(s: str) -> int:
            values = dict(zip("{letters}", (1, 5, 10, 50, 100, 500, 1000)))
            total = 0
            for i, ch in enumerate(s):
                total += values[ch]
                if i > 0 and values[s[i - 1]] < values[ch]:
                    total -= values[s[i - 1]]
            return total
    """
    seeded = rng.choice(("XCIX", "CDXLIV", "MCMXC", "DCCCLXXXVIII", "MMMCMXCIX", "CXLIX"))
    case = str.lower if letters.islower() else str.upper
    return strengthen(
        t,
        [(case("XLIV"),), (case(seeded),)],
        [
            ("subtracts before an equal letter too", t.wrong),
            (
                "adds every letter",
                src(f"""
                def roman_to_int(s: str) -> int:
                    values = dict(zip("{letters}", (1, 5, 10, 50, 100, 500, 1000)))
                    return sum(values[ch] for ch in s)
            """),
            ),
            ("takes the smaller letter off once, not twice", src(previous)),
            (
                "knows the capital letters only",
                None
                if letters.isupper()
                else edit(t.reference, (f'"{letters}"', f'"{letters.upper()}"')),
            ),
        ],
    )


def compare_versions(rng: random.Random, v: int) -> Strong:
    t = more_text.compare_versions(rng, v)
    sep = param(t.reference, r'a\.split\("(.)"\)')
    j = sep.join
    parts = [str(rng.randint(0, 12)) for _ in range(3)]
    return strengthen(
        t,
        [(j(["1", "2"]), j(["1", "2", "1"])), (j(["3", "0", "0"]), "3"), (j(parts), j(parts[:2]))],
        [
            ("compares only the parts both have", t.wrong),
            (
                "compares the strings",
                src("""
                def compare_versions(a: str, b: str) -> int:
                    return (a > b) - (a < b)
            """),
            ),
            (
                "does not pad missing parts",
                edit(
                    t.reference,
                    ("    xs += [0] * (n - len(xs))\n    ys += [0] * (n - len(ys))\n", ""),
                ),
            ),
            (
                "the opposite sign",
                edit(t.reference, ("(xs > ys) - (xs < ys)", "(xs < ys) - (xs > ys)")),
            ),
        ],
    )


def decode_nested(rng: random.Random, v: int) -> Strong:
    t = more_text.decode_nested(rng, v)
    o, c = (
        param(t.reference, r'elif ch == "(.)":\n\s+stack\.append'),
        param(t.reference, r'elif ch == "(.)":\n\s+text,'),
    )
    one_pass = f"""
        import re

        def decode_nested(s: str) -> str:
            return re.sub(r"(\\d+)\\{o}([a-z]*)\\{c}", lambda m: m[2] * int(m[1]), s)
    """
    word = "".join(rng.choices("xyz", k=2))
    return strengthen(
        t,
        [(f"a2{o}b3{o}{word}{c}{c}c",), (f"3{o}2{o}x{c}y{c}",)],
        [
            ("one digit per count", t.wrong),
            (
                "does not reset the count",
                edit(t.reference, ('["", count])\n            count = 0', '["", count])')),
            ),
            ("no nesting (one pattern pass)", src(one_pass)),
            (
                "adds a decoded group to the outermost text",
                edit(t.reference, ("stack[-1][0] += text * times", "stack[0][0] += text * times")),
            ),
        ],
    )


STRINGS = [mask_digits, anagram_groups, min_window]
PARSING = [roman_to_int, compare_versions, decode_nested]
