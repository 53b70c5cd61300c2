"""Number words 0..999 in the six languages of the multilingual evals, every accepted spelling.

First spelling = the canonical one. French: 1990-reform hyphens and Belgian/Swiss tens; Spanish;
German; Brazilian and European Portuguese; Italian elision and accented tre; Swahili with and
without "na". ``reverse_index`` inverts a language's spellings and fails if two numbers share
one, which is what lets the proofs parse a number word back to its value. Shared by
eval-multilingual-v1 and -v2 (moved here from the v1 generator, unchanged).
"""

from __future__ import annotations

import itertools


def split_words(text: str) -> list[str]:
    """Word lists are written as one string; this keeps them readable at 100 columns."""
    return text.split()


def numbered(first: int, text: str) -> dict[int, str]:
    """``{first: word1, first + 1: word2, ...}`` from a space-separated word list."""
    return dict(enumerate(text.split(), start=first))


Variants = list[str]


def _join(parts: list[Variants], sep: str) -> Variants:
    """Every combination of the parts' variants, first variant first."""
    return [sep.join(combo) for combo in itertools.product(*parts)]


def _dedupe(words: Variants) -> Variants:
    return list(dict.fromkeys(words))


# --- number words, 0..999, every accepted variant (first = the canonical spelling) ----------

FR_UNITS = split_words(
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize"
)
FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def _fr_below_100(n: int, belgian: bool) -> str:
    if n <= 16:
        return FR_UNITS[n]
    if n < 20:
        return "dix-" + FR_UNITS[n - 10]
    t, u = divmod(n, 10)
    if belgian and t in (7, 8, 9):
        word = {7: "septante", 8: "huitante", 9: "nonante"}[t]
    elif t in (7, 9):  # 70-79 = 60 + 10..19, 90-99 = 80 + 10..19
        if n == 71:
            return "soixante et onze"
        return ("soixante-" if t == 7 else "quatre-vingt-") + _fr_below_100(n - t * 10 + 10, False)
    elif t == 8:
        return "quatre-vingts" if u == 0 else "quatre-vingt-" + FR_UNITS[u]
    else:
        word = FR_TENS[t]
    if u == 0:
        return word
    return f"{word} et un" if u == 1 else f"{word}-{FR_UNITS[u]}"


def french(n: int) -> Variants:
    out = []
    for belgian in (False, True):
        h, r = divmod(n, 100)
        head = "" if h == 0 else "cent" if h == 1 else f"{FR_UNITS[h]} cent" + ("" if r else "s")
        tail = _fr_below_100(r, belgian) if r or not h else ""
        traditional = " ".join(p for p in (head, tail) if p)
        out += [traditional, traditional.replace(" ", "-")]  # 1990 reform: hyphens throughout
    return _dedupe(out)


ES_UNITS = split_words(
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
    "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós "
    "veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
    "veintinueve"
)
ES_TENS = numbered(3, "treinta cuarenta cincuenta sesenta setenta ochenta noventa")
ES_HUNDREDS = numbered(
    1,
    "ciento doscientos trescientos cuatrocientos quinientos seiscientos setecientos "
    "ochocientos novecientos",
)


def spanish(n: int) -> Variants:
    h, r = divmod(n, 100)
    if n == 100:
        return ["cien"]
    tail = ""
    if r < 30:
        tail = ES_UNITS[r] if r or not h else ""
    else:
        t, u = divmod(r, 10)
        tail = ES_TENS[t] + (f" y {ES_UNITS[u]}" if u else "")
    return [" ".join(p for p in (ES_HUNDREDS.get(h, ""), tail) if p)]


DE_UNITS = split_words(
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
    "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn"
)
DE_TENS = numbered(2, "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")


def german(n: int) -> Variants:
    h, r = divmod(n, 100)
    if r < 20:
        tail = DE_UNITS[r] if r or not h else ""
    else:
        t, u = divmod(r, 10)
        tail = DE_TENS[t] if u == 0 else ("ein" if u == 1 else DE_UNITS[u]) + "und" + DE_TENS[t]
    if h == 0:
        return [tail]
    heads = ["einhundert", "hundert"] if h == 1 else [DE_UNITS[h] + "hundert"]
    return [head + tail for head in heads]


PT_UNITS: list[Variants] = [
    [w]
    for w in split_words("zero um dois três quatro cinco seis sete oito nove dez onze doze treze")
] + [
    ["catorze", "quatorze"],
    ["quinze"],
    ["dezesseis", "dezasseis"],
    ["dezessete", "dezassete"],
    ["dezoito"],
    ["dezenove", "dezanove"],
]
PT_TENS = numbered(2, "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa")
PT_HUNDREDS = numbered(
    1,
    "cento duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos novecentos",
)


def portuguese(n: int) -> Variants:
    if n == 100:
        return ["cem"]
    h, r = divmod(n, 100)
    parts: list[Variants] = [[PT_HUNDREDS[h]]] if h else []
    if r < 20 and (r or not h):
        parts.append(PT_UNITS[r])
    elif r >= 20:
        t, u = divmod(r, 10)
        parts.append([PT_TENS[t]])
        if u:
            parts.append(PT_UNITS[u])
    return _join(parts, " e ")


IT_UNITS = split_words(
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
    "quattordici quindici sedici diciassette diciotto diciannove"
)
IT_TENS = numbered(2, "venti trenta quaranta cinquanta sessanta settanta ottanta novanta")


def _it_below_100(r: int, compound: bool) -> Variants:
    if r < 20:
        return ["tré", "trè"] if r == 3 and compound else [IT_UNITS[r]]
    t, u = divmod(r, 10)
    tens = IT_TENS[t]
    if u in (1, 8):  # venti + uno -> ventuno, trenta + otto -> trentotto
        return [tens[:-1] + IT_UNITS[u]]
    if u == 3:
        return [tens + "tré", tens + "trè"]
    return [tens + (IT_UNITS[u] if u else "")]


def italian(n: int) -> Variants:
    h, r = divmod(n, 100)
    if h == 0:
        return _it_below_100(r, False)
    head = "cento" if h == 1 else IT_UNITS[h] + "cento"
    if r == 0:
        return [head]
    out = [head + tail for tail in _it_below_100(r, True)]
    if r in (1, 8) or 80 <= r <= 89:  # cento + otto -> centootto or centotto
        out += [head[:-1] + tail for tail in _it_below_100(r, True)]
    return out


SW_UNITS = split_words("sifuri moja mbili tatu nne tano sita saba nane tisa kumi")
SW_TENS: dict[int, Variants] = {
    1: ["kumi"],
    2: ["ishirini"],
    3: ["thelathini"],
    4: ["arobaini", "arubaini"],
    5: ["hamsini"],
    6: ["sitini"],
    7: ["sabini"],
    8: ["themanini"],
    9: ["tisini"],
}


def _sw_below_100(r: int) -> Variants:
    if r <= 10:
        return [SW_UNITS[r]]
    t, u = divmod(r, 10)
    return [w + (f" na {SW_UNITS[u]}" if u else "") for w in SW_TENS[t]]


def swahili(n: int) -> Variants:
    h, r = divmod(n, 100)
    if h == 0:
        return _sw_below_100(r)
    head = f"mia {SW_UNITS[h]}"
    if r == 0:
        return [head]
    if r < 10:
        return [f"{head} na {SW_UNITS[r]}"]
    tails = _sw_below_100(r)
    return [f"{head} {t}" for t in tails] + [f"{head} na {t}" for t in tails]


NUMBER_WORDS = {
    "fr": french,
    "es": spanish,
    "de": german,
    "pt": portuguese,
    "it": italian,
    "sw": swahili,
}
LANGS = tuple(NUMBER_WORDS)


def reverse_index(lang: str) -> dict[str, int]:
    """Every accepted spelling of 0..999 -> its number; fails if two numbers share a spelling."""
    index: dict[str, int] = {}
    for n in range(1000):
        for word in NUMBER_WORDS[lang](n):
            assert index.setdefault(word.casefold(), n) == n, (lang, word)
    return index


REVERSE = {lang: reverse_index(lang) for lang in LANGS}
