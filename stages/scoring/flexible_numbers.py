"""Numbers as the flexible reading understands them (issue 12; strict grammar in
:mod:`stages.scoring.numbers`, which stays as it is).

On top of everything strict parses (sign, ``1,000`` groups, decimals, ``1e-3``, ``3/4``, ``%``,
Unicode digits and minus sign, after NFKC):
- mixed numbers ``3 1/3`` and ``-3 1/3`` (a whole number, a space, a proper fraction), and vulgar
  fraction characters: ``3⅓`` is ``3 1/3``, ``½`` is ``1/2`` (strict NFKC reads ``3⅓`` as 31/3);
- thin, narrow or no-break spaces between digit groups of three (``7 651`` written with U+202F),
  as thousands separators (a plain space is not: ``7 651`` stays two numbers);
- scientific notation with a times sign: ``2.64 × 10^3``, ``2.64 x 10^3``, ``2.64*10^3``,
  ``2.64·10^3``, ``2.64×10³`` (superscript exponent) and ``2.64e3`` — LaTeX ``\\times 10^{3}``
  arrives here already as ``× 10^3`` (:mod:`stages.scoring.flexible`);
- a leading ``name =`` and currency sign (``x = 42``, ``$1,000``, ``€ 5``), and up to three trailing
  unit words (``537 days``, ``12.5 m/s``, ``37 euros``, ``25 °C``): letters with ``/ ^ . · -``
  and an exponent digit (``m/s^2``, ``cm³``), never a disjunction (``or``, ``ou``…).

:func:`read_whole` accepts only a candidate that is one such number as a whole; :func:`numbers`
finds every such number inside a longer text (for the last-number rule and the hedge check).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from stages.scoring.lexicon import DISJUNCTIONS
from stages.scoring.numbers import Number, ascii_digits, unsigned_value

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_POWER_OF_TEN = re.compile(r"10\s*\^?\s*([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_GROUP_SPACE = re.compile(r"(?<=\d)[\u2009\u202f\u00a0](?=\d{3}(?!\d))")
_INT = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)"
NUMBER = (
    r"(?P<sign>[+-])?(?:(?P<whole>\d+)[^\S\n]+(?P<mnum>\d+)[^\S\n]*/[^\S\n]*(?P<mden>\d+)"
    r"|(?P<num>\d+)[^\S\n]*/[^\S\n]*(?P<den>\d+)"
    rf"|(?P<dec>{_INT}(?:\.\d+)?|\.\d+)"
    r"(?:[^\S\n]*(?:[eE](?P<e1>[+-]?\d{1,4})(?!\d)"
    r"|[x×*·⋅][^\S\n]*10[^\S\n]*\^[^\S\n]*(?P<e2>[+-]?\d{1,4})(?!\d)))?)"
    r"(?:[^\S\n]*%)?"
)
_WHOLE = re.compile(rf"\s*(?:[A-Za-z]\w*\s*=\s*)?(?:[$€£¥]\s*)?{NUMBER}(?P<rest>.*)", re.S)
_ANYWHERE = re.compile(rf"(?<![\w.]){NUMBER}")
_UNIT = re.compile(
    r"[°$€£¥%]|°?[^\W\d_]+(?:[/·.^-]*[^\W\d_]*(?:\^?-?\d)?)*\.?",
)
MAX_UNIT_WORDS = 3
_DISJUNCTION_WORDS = frozenset(w for words in DISJUNCTIONS.values() for w in words.split())


def prepare(text: str) -> str:
    """Vulgar fractions, superscript exponents and group spaces made plain, then strict's NFKC."""
    text = _POWER_OF_TEN.sub(lambda m: "10^" + m[1].translate(_SUPERSCRIPT), text)
    text = _GROUP_SPACE.sub(",", text)
    out = []
    for index, char in enumerate(text):
        if (
            unicodedata.category(char) == "No"
            and not float(unicodedata.numeric(char, 0)).is_integer()
        ):
            value = Fraction(unicodedata.numeric(char)).limit_denominator(1000)
            digit_before = index > 0 and text[index - 1].isdigit()
            out.append(f"{' ' if digit_before else ''}{value.numerator}/{value.denominator}")
        else:
            out.append(char)
    return ascii_digits("".join(out))


def match_value(match: re.Match[str]) -> Number | None:
    try:
        value: Number
        if match["mden"] is not None:
            numerator, denominator = int(match["mnum"]), int(match["mden"])
            if not 0 < numerator < denominator:
                return None  # "2 10/3" is not a mixed number
            value = int(match["whole"]) + Fraction(numerator, denominator)
        else:
            plain = unsigned_value(match)
            if plain is None:
                return None
            exponent = match["e1"] or match["e2"]  # only a decimal has one
            value = plain if exponent is None else plain * Fraction(10) ** int(exponent)
    except ValueError:  # beyond CPython's int() digit limit
        return None
    return -value if match["sign"] == "-" else value


def _unit_tail(rest: str) -> bool:
    words = rest.split()
    return len(words) <= MAX_UNIT_WORDS and all(
        _UNIT.fullmatch(word) is not None and word.casefold() not in _DISJUNCTION_WORDS
        for word in words
    )


def read_whole(text: str) -> Number | None:
    """The value of ``text`` when the whole of it is one number as documented above."""
    match = _WHOLE.fullmatch(prepare(text))
    if match is None or not _unit_tail(match["rest"]):
        return None
    return match_value(match)


def numbers(text: str) -> list[tuple[Number, int, int]]:
    """Every number inside ``text`` (prepared) as (value, start, end), in order."""
    prepared = prepare(text)
    found = []
    for match in _ANYWHERE.finditer(prepared):
        value = match_value(match)
        if value is not None:
            found.append((value, match.start(), match.end()))
    return found
