"""eval-code-v3: the check-digit and byte-encoding families of eval-code-v2 (``checksums``) with
their mutants and the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import checksums
from families.code.base import src
from families.code.mutation import Strong, edit, strengthen


def luhn(rng: random.Random, v: int) -> Strong:
    t = checksums.luhn(rng, v)
    check = t.entry == "luhn_check_digit"
    digits = "".join(str(rng.randint(0, 9)) for _ in range(11))
    grouped = " ".join(digits[i : i + 4] for i in range(0, 11, 4))
    return strengthen(
        t,
        [("059",), ("4992 7398 716",), (grouped,)],
        [
            ("doubles from the left", t.wrong),
            (
                "does not take 9 off doubled values above 9",
                edit(t.reference, ("            if d > 9:\n                d -= 9\n", "")),
            ),
            (
                "doubles the rightmost digit",
                edit(t.reference, ("if i % 2 == 1:", "if i % 2 == 0:")),
            ),
            (
                "does not ignore spaces",
                edit(t.reference, ('for ch in number if ch != " "', "for ch in number")),
            ),
            (
                "10 instead of 0",
                edit(t.reference, ("(10 - total % 10) % 10", "10 - total % 10")) if check else None,
            ),
        ],
    )


def isbn_check(rng: random.Random, v: int) -> Strong:
    t = checksums.isbn_check(rng, v)
    thirteen = t.entry == "isbn13_check"
    prefix = "".join(str(rng.randint(0, 9)) for _ in range(12 if thirteen else 9))
    if thirteen:
        more = [("978030640615",), (prefix,)]
        mutants = [
            ("weights 3, 1 instead of 1, 3", t.wrong),
            (
                "the total mod 10 as the check digit",
                edit(t.reference, ("str((10 - total % 10) % 10)", "str(total % 10)")),
            ),
            (
                "10 when the total is a multiple of 10",
                edit(t.reference, ("str((10 - total % 10) % 10)", "str(10 - total % 10)")),
            ),
            ("no weights", edit(t.reference, ("(3 if i % 2 else 1) * int(ch)", "int(ch)"))),
        ]
    else:
        more = [("123456789",), (prefix,)]
        mutants = [
            ("'10' instead of 'X'", t.wrong),
            (
                "11 when the total is a multiple of 11",
                edit(t.reference, ("(11 - total % 11) % 11", "11 - total % 11")),
            ),
            ("weights 9, 8, ..., 1", edit(t.reference, ("(10 - i)", "(9 - i)"))),
            (
                "the total mod 11 as the check symbol",
                edit(t.reference, ("(11 - total % 11) % 11", "total % 11")),
            ),
        ]
    return strengthen(t, more, mutants)


def varints(rng: random.Random, v: int) -> Strong:
    t = checksums.varints(rng, v)
    zigzag = "^ -(value & 1)" in t.reference
    finish = "(value >> 1) ^ -(value & 1)" if zigzag else "value"
    flipped = "-(value >> 1) if value % 2 == 0 else (value + 1) >> 1"
    return strengthen(
        t,
        [([0x80, 0x01],), ([0x05, 0xAC, 0x02, 0x01],), ([rng.randint(0, 127) for _ in range(3)],)],
        [
            ("most significant group first", t.wrong),
            (
                "no zigzag step" if zigzag else "a zigzag step the format does not have",
                edit(
                    t.reference,
                    (
                        f"out.append({finish})",
                        f"out.append({'value' if zigzag else '(value >> 1) ^ -(value & 1)'})",
                    ),
                ),
            ),
            (
                "one number per byte",
                src("""
                def decode_varints(data: list[int]) -> list[int]:
                    return [byte & 0x7F for byte in data]
            """),
            ),
            (
                "takes 128 for a last byte",
                edit(t.reference, ("if byte < 0x80:", "if byte <= 0x80:")),
            ),
            (
                "signs swapped in the zigzag step",
                edit(t.reference, (finish, flipped)) if zigzag else None,
            ),
        ],
    )


FAMILIES = [
    luhn,
    isbn_check,
    varints,
]
