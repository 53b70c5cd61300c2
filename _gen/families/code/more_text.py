"""Three more string and three more parsing task families for eval-code-v2 (task shape in
``base``). In every eval-code-v2 family, ``inputs[1]`` is the worked example shown in the
prompt and the other inputs are the hidden tests; one fixed input always separates the reference
from the wrong solution, whatever the seed.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter

from families.code.base import Task, mutate, src, task


def mask_digits(rng: random.Random, v: int) -> Task:
    keep, mark = rng.choice((2, 3, 4)), rng.choice("#*")
    body = """
        def mask_digits(s: str) -> str:
            total = sum(1 for ch in s if "0" <= ch <= "9")
            out = []
            seen = 0
            for ch in s:
                if "0" <= ch <= "9":
                    seen += 1
                    if seen <= total - @K:
                        ch = "@M"
                out.append(ch)
            return "".join(out)
    """

    def oracle(s: str) -> str:
        where = [i for i, ch in enumerate(s) if ch in string.digits]
        hidden = set(where[: max(0, len(where) - keep)])
        return "".join(mark if i in hidden else ch for i, ch in enumerate(s))

    def digits(n: int) -> str:
        return "".join(rng.choices(string.digits, k=n))

    card = "-".join(digits(4) for _ in range(4))
    phone = f"+{digits(2)} ({digits(3)}) {digits(3)} {digits(4)}"
    inputs = [("",), (card,), ("a1b2c3d4e5f6",), (phone,), (digits(keep),), ("no digits",)]
    return task(
        "strings",
        "easy",
        "def mask_digits(s: str) -> str",
        f"Return s with every digit 0-9 replaced by '{mark}', except the last {keep} digits "
        f"of s, which stay as they are. Characters that are not digits are never changed. "
        f"If s has {keep} digits or fewer, return s unchanged.",
        src(body, K=keep, M=mark),
        mutate(src(body, K=keep, M=mark), "seen <= total", "seen < total"),
        inputs,
        oracle,
    )


def anagram_groups(rng: random.Random, v: int) -> Task:
    alphabetical = rng.random() < 0.5
    inner = "sorted(group)" if alphabetical else "group"
    body = """
        def anagram_groups(words: list[str]) -> list[list[str]]:
            groups = {}
            for word in words:
                groups.setdefault("".join(sorted(word)), []).append(word)
            return [@INNER for group in groups.values()]
    """

    def oracle(words: list[str]) -> list[list[str]]:
        out: list[list[str]] = []
        for word in words:
            home = next((g for g in out if Counter(g[0]) == Counter(word)), None)
            if home is None:
                out.append([word])
            else:
                home.append(word)
        return [sorted(g) if alphabetical else g for g in out]

    def shuffled(word: str) -> str:
        return "".join(rng.sample(word, len(word)))

    bases = ["".join(rng.choices("abcdet", k=rng.randint(3, 5))) for _ in range(3)]
    mixed = [shuffled(rng.choice(bases)) for _ in range(8)]
    other = [shuffled(b) for b in bases for _ in range(2)]
    rng.shuffle(other)
    inputs = [([],), (mixed,), (["ba", "ab", "aab", "bba", "ab"],), (other,), (["z"],)]
    order = (
        "its words in alphabetical order"
        if alphabetical
        else "its words in the order they appear in words"
    )
    return task(
        "strings",
        "medium",
        "def anagram_groups(words: list[str]) -> list[list[str]]",
        "words is a list of lowercase words. Two words are anagrams when they use the same "
        "letters the same number of times. Put every word into a group with its anagrams and "
        f"return the list of groups: each group is a list holding {order} (a repeated word "
        "appears as often as it is repeated), and the groups come in the order in which their "
        "first word appears in words.",
        src(body, INNER=inner),
        mutate(src(body, INNER=inner), "sorted(word)", "sorted(set(word))"),
        inputs,
        oracle,
    )


# The wrong min_window counts each character of t once, so a repeated one needs one copy only.
COUNTED_NEED = """need = {}
    for ch in t:
        need[ch] = need.get(ch, 0) + 1
    missing = len(t)
"""


def min_window(rng: random.Random, v: int) -> Task:
    body = """
        def min_window(s: str, t: str) -> str:
            need = {}
            for ch in t:
                need[ch] = need.get(ch, 0) + 1
            missing = len(t)
            best = ""
            left = 0
            for right, ch in enumerate(s):
                if need.get(ch, 0) > 0:
                    missing -= 1
                need[ch] = need.get(ch, 0) - 1
                while missing == 0:
                    if not best or right - left + 1 < len(best):
                        best = s[left : right + 1]
                    need[s[left]] += 1
                    if need[s[left]] > 0:
                        missing += 1
                    left += 1
            return best
    """

    def oracle(s: str, t: str) -> str:
        want = Counter(t)
        for size in range(len(t), len(s) + 1):
            for i in range(len(s) - size + 1):
                if not want - Counter(s[i : i + size]):
                    return s[i : i + size]
        return ""

    letters = "".join(rng.sample("abcdefgh", 4))
    s1 = "".join(rng.choices(letters, k=16))
    t1 = "".join(rng.sample(s1, 3))
    s2 = "".join(rng.choices(letters, k=20))
    t2 = rng.choice(letters) * 2 + rng.choice(letters)
    inputs = [("abc", "d"), (s1, t1), ("xaxbxa", "aa"), (s2, t2), ("ab", "ba"), ("aa", "aaa")]
    return task(
        "strings",
        "hard",
        "def min_window(s: str, t: str) -> str",
        "t is a non-empty string. Return the shortest substring of s that contains every "
        "character of t at least as many times as t does (order does not matter). If several "
        "substrings have that length, return the one that starts first; return '' when no "
        "substring qualifies.",
        src(body),
        mutate(src(body), COUNTED_NEED, "need = {ch: 1 for ch in t}\n    missing = len(need)\n"),
        inputs,
        oracle,
    )


def _roman(n: int) -> str:
    """The oracle's own direction: integer to numeral, by repeated subtraction."""
    out = ""
    for value, digits in zip(
        (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1),
        ["M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"],
        strict=True,
    ):
        while n >= value:
            out, n = out + digits, n - value
    return out


def roman_to_int(rng: random.Random, v: int) -> Task:
    lower = rng.random() < 0.5
    letters = "ivxlcdm" if lower else "IVXLCDM"
    body = """
        def roman_to_int(s: str) -> int:
            values = dict(zip("@L", (1, 5, 10, 50, 100, 500, 1000)))
            total = 0
            for i, ch in enumerate(s):
                if i + 1 < len(s) and values[s[i + 1]] > values[ch]:
                    total -= values[ch]
                else:
                    total += values[ch]
            return total
    """
    case = str.lower if lower else str.upper
    table = {case(_roman(n)): n for n in range(1, 4000)}
    r0, r1, r2 = (case(_roman(rng.randint(1, 3999))) for _ in range(3))
    special = case(_roman(rng.choice((1994, 2449, 3888, 1444))))
    inputs = [(r0,), (r1,), (case("MMXX"),), (r2,), (special,), (case("IX"),)]
    return task(
        "parsing",
        "easy",
        "def roman_to_int(s: str) -> int",
        f"s is a valid Roman numeral for a number from 1 to 3999, written in "
        f"{'lowercase' if lower else 'uppercase'} letters ({', '.join(letters)} for 1, 5, 10, "
        f"50, 100, 500, 1000). A letter followed by a letter of greater value is subtracted "
        f"(as in {case('IV')} = 4 and {case('CM')} = 900); every other letter is added. Return "
        "its value.",
        src(body, L=letters),
        mutate(src(body, L=letters), "] > values[ch]", "] >= values[ch]"),
        inputs,
        table.__getitem__,
    )


def compare_versions(rng: random.Random, v: int) -> Task:
    sep = rng.choice((".", "-"))
    body = """
        def compare_versions(a: str, b: str) -> int:
            xs = [int(p) for p in a.split("@S")]
            ys = [int(p) for p in b.split("@S")]
            n = max(len(xs), len(ys))
            xs += [0] * (n - len(xs))
            ys += [0] * (n - len(ys))
            return (xs > ys) - (xs < ys)
    """

    def oracle(a: str, b: str) -> int:
        xs, ys = [int(p) for p in a.split(sep)], [int(p) for p in b.split(sep)]
        while xs and xs[-1] == 0:
            xs.pop()
        while ys and ys[-1] == 0:
            ys.pop()
        for x, y in zip(xs, ys, strict=False):
            if x != y:
                return 1 if x > y else -1
        return (len(xs) > len(ys)) - (len(xs) < len(ys))

    def version(parts: int) -> str:
        return sep.join(str(rng.choice((0, 1, 2, 9, 10, 12))) for _ in range(parts))

    j = sep.join
    inputs = [
        (j(["1", "0"]), "1"),
        (version(3), version(3)),
        (j(["1", "10"]), j(["1", "9"])),
        (j(["2", "0", "1"]), j(["2", "0", "1", "0"])),
        (version(2), version(4)),
        (j(["0", "9"]), j(["0", "10", "0"])),
    ]
    return task(
        "parsing",
        "medium",
        "def compare_versions(a: str, b: str) -> int",
        f"a and b are version numbers: non-negative integers joined by '{sep}', such as "
        f"'{j(['1', '10', '0'])}'. Compare them part by part from the left as integers (so 10 "
        "comes after 9), treating missing trailing parts as 0. Return -1 if a comes before b, "
        "1 if a comes after b and 0 if they are equal.",
        src(body, S=sep),
        mutate(src(body, S=sep), "n = max(", "n = min("),
        inputs,
        oracle,
    )


BRACKETS = ("[]", "()", "{}")


def decode_nested(rng: random.Random, v: int) -> Task:
    o, c = rng.choice(BRACKETS)
    body = """
        def decode_nested(s: str) -> str:
            stack = [["", 1]]
            count = 0
            for ch in s:
                if ch.isdigit():
                    count = count * 10 + int(ch)
                elif ch == "@O":
                    stack.append(["", count])
                    count = 0
                elif ch == "@C":
                    text, times = stack.pop()
                    stack[-1][0] += text * times
                else:
                    stack[-1][0] += ch
            return stack[0][0]
    """
    innermost = re.compile(rf"(\d+){re.escape(o)}([a-z]*){re.escape(c)}")

    def oracle(s: str) -> str:
        while (m := innermost.search(s)) is not None:
            s = s[: m.start()] + m[2] * int(m[1]) + s[m.end() :]
        return s

    def word() -> str:
        return "".join(rng.choices("xyzw", k=rng.randint(1, 3)))

    example = f"{word()}{rng.randint(2, 4)}{o}{word()}{c}{word()}"
    nested = f"{rng.randint(2, 3)}{o}{word()}{rng.randint(2, 3)}{o}{word()}{c}{c}{word()}"
    inputs = [("abc",), (example,), (f"12{o}ab{c}c",), (nested,), (f"2{o}3{o}a{c}b{c}",), ("",)]
    return task(
        "parsing",
        "hard",
        "def decode_nested(s: str) -> str",
        f"s is an encoded string made of lowercase letters, positive integers and the "
        f"brackets '{o}' and '{c}'. Letters stand for themselves; k{o}inner{c} (k written in "
        "decimal, possibly with several digits) stands for the decoding of inner repeated k "
        "times. Brackets may nest and every bracket is preceded by its count. Return the "
        "decoded string.",
        src(body, O=o, C=c),
        mutate(src(body, O=o, C=c), "count = count * 10 + int(ch)", "count = int(ch)"),
        inputs,
        oracle,
    )


STRINGS = [mask_digits, anagram_groups, min_window]
PARSING = [roman_to_int, compare_versions, decode_nested]
