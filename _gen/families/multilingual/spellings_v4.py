"""Every accepted spelling of the multilingual suites' answer words for eval-multilingual-v4: v3's
spellings and the standard ones it left out (issue 30).

eval-multilingual-v3 refused "aout", the spelling of août under the French spelling
rectifications of 1990, beside which it did accept the rectified hyphens of the number words
("vingt-et-un", "deux-cents": ``numbers.french`` already gives both spellings). What is added
here, each a spelling an official rule or dictionary of the language gives:

* French: "aout" (the 1990 rectifications drop the circumflex on u);
* Spanish: the tens joined to their units in one word, "treintaidós", "cuarentaiuno",
  "noventainueve" (the RAE's Ortografía of 2010 holds them as valid as "treinta y dos"), with
  the unit's accent as in "veintidós";
* German: ss for ß, "dreissig" (the official rules: Swiss spelling may always write ss), and
  the Austrian "Feber" beside "Februar" (as v3 accepts the Austrian "Jänner" beside "Januar");
* Portuguese: "cinqüenta", the Brazilian spelling before the 1990 agreement came into force
  there (2009), beside "cinquenta".

Italian and Swahili have none in these words beyond v3's ("ventitré"/"ventitrè",
"arobaini"/"arubaini"): the weekday names take a grave accent (lunedì), and no other spelling of
the Swahili numbers and names is standard. The first spelling of every list stays v3's
canonical one (the one the prompts and mc options use); ``reverse_index`` proves no spelling is
shared by two numbers, ``name_index`` that none is shared by two weekdays or months.
"""

from __future__ import annotations

import unicodedata

from families.multilingual import lexicon, numbers
from families.multilingual.numbers import Variants

#: (language, canonical name) -> other spellings of a weekday or month name
NAME_SPELLINGS: dict[tuple[str, str], tuple[str, ...]] = {
    ("fr", "août"): ("aout",),
    ("de", "Februar"): ("Feber",),
}


def _with_spellings(lang: str, names: list[Variants]) -> list[Variants]:
    return [[*v, *NAME_SPELLINGS.get((lang, v[0]), ())] for v in names]


DAYS = {lang: _with_spellings(lang, names) for lang, names in lexicon.DAYS.items()}
MONTHS = {lang: _with_spellings(lang, names) for lang, names in lexicon.MONTHS.items()}


def _spanish_joined(n: int, spelled: str) -> list[str]:
    """``spelled`` with its tens and units joined in one word ("treinta y dos" ->
    "treintaidós"), for the numbers whose last two digits are 31-99 and not a round ten."""
    t, u = divmod(n % 100, 10)
    if t < 3 or u == 0:
        return []
    pair = f"{numbers.ES_TENS[t]} y {numbers.ES_UNITS[u]}"
    unit = numbers.ES_UNITS[20 + u].removeprefix("veinti")  # the unit as "veintidós" writes it
    assert spelled.endswith(pair), (n, spelled)
    return [spelled.removesuffix(pair) + f"{numbers.ES_TENS[t]}i{unit}"]


def number_words(lang: str, n: int) -> Variants:
    """Every accepted spelling of ``n`` (0..999) in ``lang``: v3's first, then the others."""
    spelled = numbers.NUMBER_WORDS[lang](n)
    extra: list[str] = []
    if lang == "es":
        extra = [j for s in spelled for j in _spanish_joined(n, s)]
    elif lang == "de":
        extra = [s.replace("ß", "ss") for s in spelled]
    elif lang == "pt":
        extra = [s.replace("cinquenta", "cinqüenta") for s in spelled]
    return list(dict.fromkeys([*spelled, *extra]))


def reverse_index(lang: str) -> dict[str, int]:
    """Every accepted spelling of 0..999 (casefolded) -> its number; no spelling names two."""
    index: dict[str, int] = {}
    for n in range(1000):
        for word in number_words(lang, n):
            assert index.setdefault(word.casefold(), n) == n, (lang, word)
    return index


def name_index(lang: str, table: dict[str, list[Variants]]) -> dict[str, int]:
    """Every accepted spelling of a weekday or month name (casefolded) -> its place."""
    index: dict[str, int] = {}
    for place, spellings in enumerate(table[lang]):
        for word in spellings:
            assert index.setdefault(word.casefold(), place) == place, (lang, word)
    return index


REVERSE = {lang: reverse_index(lang) for lang in numbers.LANGS}
DAY_INDEX = {lang: name_index(lang, DAYS) for lang in numbers.LANGS}
MONTH_INDEX = {lang: name_index(lang, MONTHS) for lang in numbers.LANGS}


def _folded(text: str) -> str:
    """Case, accents and hyphens set aside: "vingt-et-un" and "Vingt et un" read the same."""
    marks = unicodedata.normalize("NFD", text.casefold().replace("-", " "))
    return " ".join("".join(c for c in marks if not unicodedata.combining(c)).split())


def option_meanings(lang: str, category: str, choices: list[str]) -> list[int]:
    """What each option of an mc row names (a number, or a weekday's or month's place), read
    through every accepted spelling; fails on an option that is no accepted spelling."""
    if category == "number_recognition":
        index = REVERSE[lang]
    else:
        index = DAY_INDEX[lang] if choices[0].casefold() in DAY_INDEX[lang] else MONTH_INDEX[lang]
    return [index[c.casefold()] for c in choices]


def no_two_variants(lang: str, category: str, choices: list[str]) -> bool:
    """No two options name the same thing, nor read the same with case, accents and hyphens
    set aside."""
    meanings = option_meanings(lang, category, choices)
    return len(set(meanings)) == len(choices) == len({_folded(c) for c in choices})
