"""Check-digit and byte-encoding task families for eval-code-v2, in the "formats" category with
``dates``: Luhn, ISBN and varints (task shape in ``base``; ``inputs[1]`` is the
prompt's worked example, the rest are hidden tests). Oracles search the check symbol or decode
bit by bit where the references compute.
"""

from __future__ import annotations

import random

from families.code.base import Task, mutate, src, task


def _luhn_sum(digits: str) -> int:
    """The oracle's Luhn sum: double every second digit from the right, add the digit sums."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d // 10 + d % 10
    return total


def luhn(rng: random.Random, v: int) -> Task:
    check = rng.random() < 0.5
    body = """
        def luhn_@NAME(number: str) -> @TYPE:
            digits = [int(ch) for ch in number if ch != " "]@PAD
            total = 0
            for i, d in enumerate(reversed(digits)):
                if i % 2 == 1:
                    d *= 2
                    if d > 9:
                        d -= 9
                total += d
            return @RESULT
    """
    subs = {
        "NAME": "check_digit" if check else "valid",
        "TYPE": "int" if check else "bool",
        "PAD": " + [0]" if check else "",
        "RESULT": "(10 - total % 10) % 10" if check else "total % 10 == 0",
    }
    wrong = src(body, **subs).replace("reversed(digits)", "digits")

    def oracle(number: str) -> int | bool:
        digits = number.replace(" ", "")
        if check:
            return next(d for d in range(10) if _luhn_sum(digits + str(d)) % 10 == 0)
        return _luhn_sum(digits) % 10 == 0

    def payload(n: int) -> str:
        return "".join(str(rng.randint(0, 9)) for _ in range(n))

    def valid(n: int) -> str:
        body = payload(n - 1)
        return body + next(str(d) for d in range(10) if _luhn_sum(body + str(d)) % 10 == 0)

    if check:
        inputs = [("0",), (payload(9),), ("7992739871",), (payload(14),), ("4111 1111 1111 111",)]
    else:
        odd = valid(rng.choice((11, 13, 15)))
        inputs = [("0",), (valid(16),), ("79927398713",), (odd,), (payload(12),), ("18",)]
        inputs += [("79927398710",), ("4111 1111 1111 1112",)]
    what = (
        "Return the check digit (0-9) that, appended at the right end of number, makes the "
        "whole a valid number"
        if check
        else "Return True if number is valid (its Luhn total is a multiple of 10), else False"
    )
    return task(
        "formats",
        "easy",
        f"def luhn_{subs['NAME']}(number: str) -> {subs['TYPE']}",
        "number is a string of digits, possibly with spaces in it (ignore them). Its Luhn "
        "total is found by starting from the rightmost digit and doubling every second digit "
        "(the second from the right, the fourth, ...), subtracting 9 from any doubled value "
        f"above 9, and adding up all the digits so changed and unchanged. {what}.",
        src(body, **subs),
        wrong,
        inputs,
        oracle,
    )


def isbn_check(rng: random.Random, v: int) -> Task:
    thirteen = rng.random() < 0.5
    body10 = """
        def isbn10_check(first9: str) -> str:
            total = sum((10 - i) * int(ch) for i, ch in enumerate(first9))
            check = (11 - total % 11) % 11
            return "X" if check == 10 else str(check)
    """
    body13 = """
        def isbn13_check(first12: str) -> str:
            total = sum((3 if i % 2 else 1) * int(ch) for i, ch in enumerate(first12))
            return str((10 - total % 10) % 10)
    """

    def oracle(prefix: str) -> str:
        for ch in "0123456789X":
            digits = [10 if c == "X" else int(c) for c in prefix + ch]
            if thirteen and ch != "X":
                if sum(d * w for d, w in zip(digits, [1, 3] * 7, strict=False)) % 10 == 0:
                    return ch
            elif (
                not thirteen
                and sum(d * w for d, w in zip(digits, range(10, 0, -1), strict=True)) % 11 == 0
            ):
                return ch
        raise AssertionError(prefix)

    def digits(n: int) -> str:
        return "".join(str(rng.randint(0, 9)) for _ in range(n))

    if thirteen:
        inputs = [("978000000000",), (digits(12),), ("978316148410",), (digits(12),)]
        inputs += [("979" + digits(9),)]
    else:
        x_case = next(p for p in iter(lambda: digits(9), None) if oracle(p) == "X")
        inputs = [("000000000",), (digits(9),), (x_case,), (digits(9),), ("030640615",)]
    rule = (
        "The 13 digits, weighted 1, 3, 1, 3, ... from the left, must add up to a multiple of "
        "10; return the check digit as a one-character string"
        if thirteen
        else "The 10 symbols, weighted 10, 9, ..., 1 from the left, must add up to a multiple "
        "of 11, where the check symbol 'X' stands for 10; return the check symbol as a "
        "one-character string ('0'-'9' or 'X')"
    )
    name, size = ("isbn13_check", 12) if thirteen else ("isbn10_check", 9)
    wrong = (
        mutate(src(body13), "(3 if i % 2 else 1)", "(1 if i % 2 else 3)")
        if thirteen
        else mutate(src(body10), 'return "X" if check == 10 else str(check)', "return str(check)")
    )
    return task(
        "formats",
        "medium",
        f"def {name}(first{size}: str) -> str",
        f"first{size} holds the first {size} digits of an ISBN-{size + 1} book number. Compute "
        f"the final check symbol. {rule}.",
        src(body13 if thirteen else body10),
        wrong,
        inputs,
        oracle,
    )


def varints(rng: random.Random, v: int) -> Task:
    zigzag = rng.random() < 0.5
    body = """
        def decode_varints(data: list[int]) -> list[int]:
            out, value, shift = [], 0, 0
            for byte in data:
                value |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    out.append(@FINISH)
                    value, shift = 0, 0
            return out
    """
    finish = "(value >> 1) ^ -(value & 1)" if zigzag else "value"
    wrong_body = src(body, FINISH=finish).replace(
        "value |= (byte & 0x7F) << shift", "value = (value << 7) | (byte & 0x7F)"
    )

    def encode(n: int) -> list[int]:
        n = (n << 1) ^ (n >> 63) if zigzag else n
        n &= (1 << 64) - 1
        out = []
        while True:
            out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
            n >>= 7
            if not out[-1] & 0x80:
                return out

    def oracle(data: list[int]) -> list[int]:
        values, bits = [], ""
        for byte in data:  # collect 7-bit groups, least significant group first
            bits = format(byte & 0x7F, "07b") + bits
            if byte < 0x80:
                n = int(bits, 2)
                values.append((n // 2) * (-1 if n % 2 else 1) - (n % 2) if zigzag else n)
                bits = ""
        return values

    low, high = (-5000, 5000) if zigzag else (0, 10**6)
    sample = [rng.randint(low, high) for _ in range(4)]
    fixed = [300, -65] if zigzag else [300, 1]
    inputs = [
        ([],),
        ([b for n in sample for b in encode(n)],),
        ([b for n in fixed for b in encode(n)],),
    ]
    inputs += [([b for n in (0, 127, 128, high) for b in encode(n)],)]
    for args in inputs:  # the oracle decodes what the encoder wrote
        assert oracle(*args) in ([], sample, fixed, [0, 127, 128, high]), args
    what = (
        "Each decoded number is then zigzag-mapped back to a signed integer: 0, 1, 2, 3, 4 "
        "stand for 0, -1, 1, -2, 2 and so on (even n -> n // 2, odd n -> -(n + 1) // 2)"
        if zigzag
        else "The numbers are non-negative"
    )
    return task(
        "formats",
        "hard",
        "def decode_varints(data: list[int]) -> list[int]",
        "data is a list of bytes (integers 0-255) holding a sequence of numbers in the varint "
        "format: each number is split into 7-bit groups, least significant group first; each "
        "group is stored in one byte whose top bit (128) is set when more groups of the same "
        f"number follow and clear on its last byte. {what}. Return the list of numbers.",
        src(body, FINISH=finish),
        wrong_body,
        inputs,
        oracle,
    )


FAMILIES = [
    luhn,
    isbn_check,
    varints,
]
