"""Toy-cipher family of eval-security-v4: v3's ciphers, mc options in which the right one is not
the centre.

v3's wrong options are slips of the right answer (a shift one more or less, a key letter bumped,
a key byte with its case bit flipped), each one edit away from it, so the right option was the
one the others resembled most: pooled with fresh instances, the audit's "most like the other
options" reader (``others_ngrams``, 3-gram overlap) picked it in 0.49 of the family's mc rows
(issue 19; chance 0.25). Here the options of a key or encryption question form a shape in which
every option stands alike, and the right one is any of them:

* Caesar (encrypt, and the key): four consecutive shifts, the right one at a drawn place among
  them (v3: the shift, one more, one less and the reverse);
* Vigenere key: a square — the key, one letter moved a step (up or down, drawn), another letter
  moved a step, and both;
* XOR value and XOR key: a square of bit slips — the value (key), one bit flipped, another bit
  flipped, and both (the key's bits: the first byte's ASCII case bit and the last byte's low
  bit, as in v3);
* Vigenere encryption keeps v3's square already: the key's direction and whether it advances on
  spaces.

Decryption and recovery questions, and every proof, are v3's (``ciphers``).
"""

from __future__ import annotations

import random
from typing import Any

from families.security import ciphers
from families.security.ciphers import UP, caesar, random_key, vigenere, xor_hex

CATEGORY = ciphers.CATEGORY
FORMS = ciphers.FORMS
Item = dict[str, Any]
prove = ciphers.prove


def _window(rng: random.Random, low: int, high: int) -> tuple[int, list[int]]:
    """A right value and four consecutive values holding it, all within [low, high]."""
    start = rng.randint(low, high - 3)
    return start + rng.randrange(4), [start + i for i in range(4)]


def _step(key: str, i: int, sign: int) -> str:
    return key[:i] + UP[(UP.index(key[i]) + sign) % 26] + key[i + 1 :]


def _encrypt(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift, shifts = _window(rng, 3, 22)
        right = caesar(plain, shift)
        wrong = [caesar(plain, s) for s in shifts if s != shift]
        q, meta = ciphers.caesar_encrypt_question(plain, shift)
    elif cipher == "vigenere":
        return ciphers._encrypt(rng, cipher, level, plain)
    else:
        width = 1 + level
        a, b = rng.getrandbits(8 * width), rng.getrandbits(8 * width)
        i, j = rng.sample(range(8 * width), 2)
        x = a ^ b
        values = [x, x ^ (1 << i), x ^ (1 << j), x ^ (1 << i) ^ (1 << j)]
        right, *wrong = [f"{v:0{2 * width}x}" for v in values]
        q, meta = ciphers.xor_value_question(a, b, width)
    return ciphers.mc_item(q, right, wrong, meta)


def _key_of(rng: random.Random, cipher: str, level: int, plain: str) -> Item:
    if cipher == "caesar":
        shift, shifts = _window(rng, 10, 16)  # every option two digits
        text = caesar(plain, shift)
        right, wrong = str(shift), [str(s) for s in shifts if s != shift]
        q, meta = ciphers.caesar_key_question(plain, text)
    elif cipher == "vigenere":
        right = random_key(rng, 3 + level, plain)
        text = vigenere(plain, right)
        (i, si), (j, sj) = [(p, rng.choice((-1, 1))) for p in rng.sample(range(len(right)), 2)]
        wrong = [_step(right, i, si), _step(right, j, sj), _step(_step(right, i, si), j, sj)]
        q, meta = ciphers.vigenere_key_question(plain, text)
    else:
        plain = plain.lower()
        pad = bytes(rng.randint(16, 255) for _ in range(1 + level))
        text = xor_hex(plain, pad)
        case = bytes([pad[0] ^ 0x20, *pad[1:]])  # the ASCII case bit of the first byte
        low = bytes([*pad[:-1], pad[-1] ^ 0x01])  # the low bit of the last byte
        both = bytes([*case[:-1], case[-1] ^ 0x01])
        right, wrong = pad.hex(), [case.hex(), low.hex(), both.hex()]
        q, meta = ciphers.xor_key_question(plain, pad, text)
    return ciphers.mc_item(q, right, wrong, meta)


FORM_BUILDERS = (ciphers._decrypt, _encrypt, ciphers._recover, _key_of)


def build(rng: random.Random, level: int, form: int) -> Item:
    cipher = ciphers.CIPHERS[(level + form // 4) % 3]
    plain = " ".join(rng.sample(ciphers.WORDS, 2 + level))
    return FORM_BUILDERS[form % 4](rng, cipher, level, plain)
