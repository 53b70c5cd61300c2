"""Toy-cipher family of eval-security-v3: Caesar, Vigenere and repeating-key XOR.

Forms: decrypt with a given key (exact), encrypt (mc), recover a key from a known plaintext
fragment (numeric: Caesar shift, XOR key byte, Vigenere key length), and name the key of a
plaintext/ciphertext pair (mc). Fixes of issue 13: Vigenere keys are random letter strings,
never a prefix or part of a plaintext word (-v2 keys were word prefixes such as COPP for
COPPER); wrong options are the classic slips (wrong direction, off-by-one shift, key advancing
on spaces, key rotated by one place), all as long as the right one, paired so that no option
shares more words with the others than the right one does.

The proof runs every cipher again with separate code (``str.translate`` tables and byte lists)
and brute-forces the recovery questions over every key they allow.
"""

from __future__ import annotations

import random
import string
from typing import Any

CATEGORY = "toy_ciphers"
FORMS = ("exact", "mc", "numeric", "mc", "exact", "mc", "numeric", "mc")
CIPHERS = ("caesar", "vigenere", "xor")
UP = string.ascii_uppercase
WORDS = (
    "AMBER",
    "ANCHOR",
    "BASKET",
    "BRIDGE",
    "CANDLE",
    "CASTLE",
    "COPPER",
    "DESERT",
    "FOREST",
    "GARDEN",
    "HARBOUR",
    "ISLAND",
    "JACKET",
    "KETTLE",
    "LANTERN",
    "MARBLE",
    "MEADOW",
    "ORCHARD",
    "PEBBLE",
    "PLANET",
    "RIBBON",
    "SADDLE",
    "SILVER",
    "TIMBER",
    "TUNNEL",
    "VELVET",
    "VIOLIN",
    "WAGON",
    "WALNUT",
    "WINTER",
    "HAMMER",
    "LADDER",
    "MIRROR",
    "PILLOW",
    "ROCKET",
    "SPIDER",
)
Item = dict[str, Any]


def caesar(text: str, shift: int) -> str:
    return "".join(UP[(UP.index(c) + shift) % 26] if c in UP else c for c in text)


def vigenere(text: str, key: str, sign: int = 1, on_spaces: bool = False) -> str:
    """Vigenere over A-Z; the key advances on letters only, or on spaces too (a classic slip)."""
    out, k = [], 0
    for c in text:
        if c in UP:
            out.append(UP[(UP.index(c) + sign * UP.index(key[k % len(key)])) % 26])
            k += 1
        else:
            out.append(c)
            k += 1 if on_spaces else 0
    return "".join(out)


def xor_hex(text: str, key: bytes) -> str:
    return " ".join(f"{b ^ key[i % len(key)]:02x}" for i, b in enumerate(text.encode("ascii")))


def random_key(rng: random.Random, length: int, plain: str) -> str:
    """Random letters, never a prefix or a part of any plaintext word (issue 13)."""
    while True:
        key = "".join(rng.choice(UP) for _ in range(length))
        if len(set(key)) == length and not any(key[:3] in w for w in (*WORDS, *plain.split())):
            return key


def _decrypt(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift = rng.randint(3, 23)
        text = caesar(plain, shift)
        how = (
            f"a Caesar cipher that shifts each letter {shift} places forward in the alphabet "
            f"(wrapping from Z to A); spaces are unchanged"
        )
        meta: dict[str, Any] = {"kind": "caesar_decrypt", "cipher": text, "shift": shift}
    elif cipher == "vigenere":
        key = random_key(rng, 3 + level, plain)
        text = vigenere(plain, key)
        how = (
            f'a Vigenere cipher with the key "{key}" (A = shift 0, B = shift 1, ...; the key '
            f"advances only on letters and spaces are unchanged)"
        )
        meta = {"kind": "vigenere_decrypt", "cipher": text, "key": key}
    else:
        plain = plain.lower()
        pad = bytes(rng.randint(1, 255) for _ in range(1 + level))
        text = xor_hex(plain, pad)
        how = (
            f"XOR of the ASCII bytes with the repeating key {pad.hex()} (hex; the first byte "
            f"with the first key byte, and so on, starting over at the end of the key)"
        )
        meta = {"kind": "xor_decrypt", "cipher": text, "key": pad.hex()}
    q = f'The ciphertext "{text}" was made with {how}. Decrypt it. Give the plaintext only.'
    return {"question": q, "scorer": "exact", "answer": plain, "meta": meta}


def _encrypt(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift = rng.randint(3, 22)
        right = caesar(plain, shift)
        wrong = [caesar(plain, -shift), caesar(plain, shift + 1), caesar(plain, shift - 1)]
        q, meta = caesar_encrypt_question(plain, shift)
    elif cipher == "vigenere":
        key = random_key(rng, 3 + level, plain)
        right = vigenere(plain, key)
        wrong = [
            vigenere(plain, key, -1),
            vigenere(plain, key, 1, on_spaces=True),
            vigenere(plain, key, -1, on_spaces=True),
        ]
        q = (
            f'Encrypt "{plain}" with the Vigenere key "{key}" (A = shift 0, B = shift 1, ...; '
            f"the key advances only on letters; spaces are unchanged)."
        )
        meta = {"kind": "vigenere_encrypt", "plain": plain, "key": key}
    else:
        width = 1 + level
        a, b = rng.getrandbits(8 * width), rng.getrandbits(8 * width)
        near = a ^ b ^ (1 << rng.randrange(8 * width))
        values = [a ^ b, a | b, a & b, near]
        right, *wrong = [f"{v:0{2 * width}x}" for v in values]
        q, meta = xor_value_question(a, b, width)
    if len({right, *wrong}) < 4:
        return _encrypt(rng, cipher, level, plain)
    return mc_item(q, right, wrong, meta)


def caesar_encrypt_question(plain: str, shift: int) -> tuple[str, Item]:
    """Question and meta of an "encrypt with this Caesar shift" row (v3 and v4 alike)."""
    q = (
        f'Encrypt "{plain}" with a Caesar cipher that shifts each letter {shift} places '
        f"forward in the alphabet (wrapping from Z to A; spaces are unchanged)."
    )
    return q, {"kind": "caesar_encrypt", "plain": plain, "shift": shift}


def xor_value_question(a: int, b: int, width: int) -> tuple[str, Item]:
    """Question and meta of an "a XOR b in hex" row of ``width`` bytes."""
    q = f"What is 0x{a:0{2 * width}x} XOR 0x{b:0{2 * width}x}, written as {2 * width} hex digits?"
    return q, {"kind": "xor_value", "a": a, "b": b, "width": width}


def mc_item(q: str, right: str, wrong: list[str], meta: Item) -> Item:
    return {"question": q, "scorer": "mc", "correct": right, "distractors": wrong, "meta": meta}


def _recover(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift = rng.randint(1, 25)
        text = caesar(plain, shift)
        crib = plain.split()[rng.randrange(len(plain.split()))]
        q = (
            f'The ciphertext "{text}" is a Caesar cipher: every letter was shifted the same number '
            f"of places forward (between 1 and 25, wrapping from Z to A). The plaintext contains "
            f'the word "{crib}". By how many places was it shifted?'
        )
        return {
            "question": q,
            "scorer": "numeric",
            "answer": str(shift),
            "meta": {"kind": "caesar_shift", "cipher": text, "crib": crib},
        }
    if cipher == "xor":
        plain = plain.lower()
        key_byte = rng.randint(1, 255)
        text = xor_hex(plain, bytes([key_byte]))
        crib = plain.split()[0]
        q = (
            f"These bytes (hex) are lowercase ASCII text XORed with one repeated key byte: "
            f'{text}. The text starts with "{crib}". What is the key byte, as a decimal number '
            f"from 1 to 255?"
        )
        return {
            "question": q,
            "scorer": "numeric",
            "answer": str(key_byte),
            "meta": {"kind": "xor_key", "cipher": text, "crib": crib},
        }
    length = rng.randint(2, 5)
    key = random_key(rng, length, plain)
    text = vigenere(plain, key)
    shown: list[str] = []  # leading words, at least 12 letters when the text has them
    for word in plain.split():
        if len("".join(shown)) < 12:
            shown.append(word)
    crib = " ".join(shown)
    q = (
        f'The ciphertext "{text}" was made with a Vigenere cipher (A = shift 0; the key advances '
        f"only on letters; spaces are unchanged). The key is 2 to 6 letters long and is not a "
        f'shorter block repeated. The plaintext starts with "{crib}". How many letters does the '
        f"key have?"
    )
    return {
        "question": q,
        "scorer": "numeric",
        "answer": str(length),
        "meta": {"kind": "vigenere_length", "cipher": text, "crib": crib},
    }


def _key_of(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift = rng.choice((11, 12, 14, 15))  # every option two digits, none equal
        text = caesar(plain, shift)
        right, wrong = str(shift), [str(26 - shift), str(shift + 1), str(shift - 1)]
        q, meta = caesar_key_question(plain, text)
    elif cipher == "vigenere":
        right = random_key(rng, 3 + level, plain)
        text = vigenere(plain, right)
        inverse = "".join(UP[-UP.index(c) % 26] for c in right)
        bumped = right[:-1] + UP[(UP.index(right[-1]) + 1) % 26]
        wrong = [inverse, right[1:] + right[0], bumped]
        q, meta = vigenere_key_question(plain, text)
    else:
        plain = plain.lower()
        pad = bytes(rng.randint(16, 255) for _ in range(1 + level))
        text = xor_hex(plain, pad)
        right = pad.hex()
        flipped = bytes([pad[0] ^ 0x20, *pad[1:]]).hex()  # the ASCII case bit
        wrong = [(pad[1:] + pad[:1]).hex() if len(pad) > 1 else f"{pad[0] ^ 0xFF:02x}", flipped]
        wrong.append(bytes([*pad[:-1], pad[-1] ^ 0x01]).hex())
        q, meta = xor_key_question(plain, pad, text)
    if len({right, *wrong}) < 4:
        return _key_of(rng, cipher, level, plain)
    return mc_item(q, right, wrong, meta)


def caesar_key_question(plain: str, text: str) -> tuple[str, Item]:
    """Question and meta of a "which Caesar shift made ``text``" row."""
    q = (
        f'A Caesar cipher turned "{plain}" into "{text}". By how many places forward was '
        f"each letter shifted?"
    )
    return q, {"kind": "caesar_key", "plain": plain, "cipher": text}


def vigenere_key_question(plain: str, text: str) -> tuple[str, Item]:
    """Question and meta of a "which Vigenere key made ``text``" row."""
    q = (
        f"A Vigenere cipher (A = shift 0; the key advances only on letters; spaces are "
        f'unchanged) turned "{plain}" into "{text}". Which key was used?'
    )
    return q, {"kind": "vigenere_key", "plain": plain, "cipher": text}


def xor_key_question(plain: str, pad: bytes, text: str) -> tuple[str, Item]:
    """Question and meta of a "which repeating XOR key ``pad`` made ``text``" row."""
    q = (
        f'The ASCII text "{plain}" was XORed with a repeating key of {len(pad)} byte'
        f"{'s' if len(pad) > 1 else ''}, giving these bytes (hex): {text}. Which key "
        f"(hex) was used?"
    )
    return q, {"kind": "xor_key_mc", "plain": plain, "cipher": text}


FORM_BUILDERS = (_decrypt, _encrypt, _recover, _key_of)


def build(rng: random.Random, level: int, form: int) -> Item:
    cipher = CIPHERS[(level + form // 4) % 3]
    plain = " ".join(rng.sample(WORDS, 2 + level))
    return FORM_BUILDERS[form % 4](rng, cipher, level, plain)


# ---- proof: ciphers re-run with translate tables and byte lists -------------------------------
def _shift(text: str, k: int) -> str:
    return text.translate(str.maketrans(UP, UP[k % 26 :] + UP[: k % 26]))


def _vig(text: str, key: str, sign: int) -> str:
    letters = [c for c in text if c != " "]
    shifted = [
        chr((ord(c) - 65 + sign * (ord(key[i % len(key)]) - 65)) % 26 + 65)
        for i, c in enumerate(letters)
    ]
    it = iter(shifted)
    return "".join(" " if c == " " else next(it) for c in text)


def _unxor(hex_text: str, key: bytes) -> bytes:
    return bytes(int(h, 16) ^ key[i % len(key)] for i, h in enumerate(hex_text.split()))


def _period(stream: list[int], length: int) -> bool:
    return all(stream[i] == stream[i + length] for i in range(len(stream) - length))


def _primitive(stream: list[int], length: int) -> bool:
    block = stream[:length]
    return not any(length % p == 0 and _period(block + block, p) for p in range(1, length))


def _expected(row: dict[str, Any]) -> str:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "caesar_decrypt":
        assert _shift(row["answer"], m["shift"]) == m["cipher"]
        return _shift(m["cipher"], -m["shift"])
    if kind == "vigenere_decrypt":
        assert _vig(row["answer"], m["key"], 1) == m["cipher"]
        assert not any(m["key"][:3] in w for w in row["answer"].split()), m["key"]
        return _vig(m["cipher"], m["key"], -1)
    if kind == "xor_decrypt":
        return _unxor(m["cipher"], bytes.fromhex(m["key"])).decode("ascii")
    if kind == "caesar_encrypt":
        return _shift(m["plain"], m["shift"])
    if kind == "vigenere_encrypt":
        return _vig(m["plain"], m["key"], 1)
    if kind == "xor_value":
        return format(m["a"] ^ m["b"], f"0{2 * m['width']}x")
    if kind == "caesar_shift":
        (k,) = [k for k in range(1, 26) if m["crib"] in _shift(m["cipher"], -k).split()]
        return str(k)
    if kind == "xor_key":
        first = int(m["cipher"].split()[0], 16) ^ ord(m["crib"][0])
        keys = [
            k
            for k in range(1, 256)
            if _unxor(m["cipher"], bytes([k])).decode("latin-1").startswith(m["crib"])
        ]
        assert keys == [first], keys
        return str(first)
    if kind == "vigenere_length":
        crib = [c for c in m["crib"] if c != " "]
        got = [c for c in m["cipher"] if c != " "][: len(crib)]
        stream = [(ord(c) - ord(p)) % 26 for c, p in zip(got, crib, strict=True)]
        fits = [n for n in range(2, 7) if _period(stream, n) and _primitive(stream, n)]
        assert len(fits) == 1, fits
        return str(fits[0])
    if kind == "caesar_key":
        (k,) = [k for k in range(26) if _shift(m["plain"], k) == m["cipher"]]
        return str(k)
    if kind == "vigenere_key":
        fits = [c for c in row["choices"] if _vig(m["plain"], c, 1) == m["cipher"]]
        assert len(fits) == 1, fits
        return fits[0]
    assert kind == "xor_key_mc", kind
    fits = [
        c
        for c in row["choices"]
        if _unxor(m["cipher"], bytes.fromhex(c)).decode("latin-1") == m["plain"]
    ]
    assert len(fits) == 1, fits
    return fits[0]


def prove(row: dict[str, Any]) -> None:
    expected = _expected(row)
    if row["scorer"] == "mc":
        assert row["choices"]["ABCD".index(row["answer"])] == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)
