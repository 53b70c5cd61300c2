"""The closed word classes the committed-answer grammar needs (:mod:`stages.scoring.commitment`),
per language of the suites: English (always, since models often answer in English), French,
Spanish, German, Italian, Portuguese and Swahili.

Only closed classes live here — words a language has a handful of, that change what an answer
line commits to: negations, disjunctions, hedges and contrasts (which make a second candidate an
*alternative*), explanation connectives (which make numbers after the answer *working*),
restatement markers, list conjunctions and articles. A row is read with English plus its own
language (``meta.lang``); the other languages lend only their words that cannot be mistaken
(:func:`word_classes`): Italian ``mai`` ("never") is German ``Mai`` (May), Swahili ``si`` is a
negation while French ``si`` is "if" or "yes", Spanish ``o`` is "or" and Portuguese ``o`` is
"the".

Multi-word entries ("tal vez", "rather than") match as phrases. Apostrophes are folded to
``'`` before matching, so ``n’est`` and ``n'est`` read alike; matching is case-insensitive and
on whole words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

LANGUAGES = ("en", "fr", "es", "de", "it", "pt", "sw")

NEGATIONS = {
    "en": "not no never isn't aren't wasn't cannot can't won't n't",
    "fr": "ne n' pas non jamais",
    "es": "no nunca jamás",
    "de": "nicht kein keine keinen keinem keiner nie niemals",
    "it": "non mai",
    "pt": "não nao nunca jamais",
    "sw": "si sio siyo hapana",
}
#: Words that turn the next candidate into an alternative of the one before.
DISJUNCTIONS = {
    "en": "or either whether",
    "fr": "ou",
    "es": "o u",
    "de": "oder entweder",
    "it": "o oppure ovvero",
    "pt": "ou",
    "sw": "au ama",
}
#: Doubt and second thoughts: a candidate near one of these is offered, not rejected.
HEDGES = {
    "en": "maybe perhaps possibly probably likely might could may also alternatively otherwise "
    "unsure uncertain guess actually wait",
    "fr": "peut-être peut-etre probablement possiblement aussi sinon plutôt",
    "es": "quizás quizá quizas tal_vez posiblemente probablemente también acaso",
    "de": "vielleicht wahrscheinlich möglicherweise eventuell auch sonst",
    "it": "forse probabilmente possibilmente anche altrimenti",
    "pt": "talvez provavelmente possivelmente também senão",
    "sw": "labda pengine huenda",
}
CONTRASTS = {
    "en": "but however though although yet",
    "fr": "mais cependant pourtant",
    "es": "pero sino aunque",
    "de": "aber sondern doch jedoch",
    "it": "ma però tuttavia",
    "pt": "mas porém contudo",
    "sw": "lakini ila",
}
#: Words that introduce working or an explanation after the answer ("42, since 40 + 2").
CONNECTIVES = {
    "en": "because since as from using via by counting with where given so hence thus for",
    "fr": "car parce puisque avec en donc",
    "es": "porque ya pues con contando dado",
    "de": "weil da denn mit also",
    "it": "perché poiché con quindi dato",
    "pt": "porque pois com contando dado",
    "sw": "kwa kwani sababu",
}
#: A different candidate right after one of these contradicts the answer ("42 (i.e. 43)").
RESTATEMENTS = {
    "en": "i.e. ie that_is namely equals equal_to",
    "fr": "c'est-à-dire",
    "es": "es_decir o_sea",
    "de": "d.h. also",
    "it": "cioè ossia",
    "pt": "ou_seja isto_é",
    "sw": "yaani",
}
#: Conjunctions that join the items of a list ("Cato, Gus and Hedda").
LIST_CONJUNCTIONS = {
    "en": "and then",
    "fr": "et puis",
    "es": "y e",
    "de": "und dann",
    "it": "e ed",
    "pt": "e",
    "sw": "na",
}
ARTICLES = {
    "en": "the a an",
    "fr": "le la les l' un une",
    "es": "el la los las un una",
    "de": "der die das den dem ein eine einen",
    "it": "il lo la i gli le l' un una uno",
    "pt": "o a os as um uma",
    "sw": "",
}


def fold_apostrophes(text: str) -> str:
    """Typographic apostrophes as ``'`` (``n’est`` -> ``n'est``)."""
    return text.replace("’", "'").replace("ʼ", "'")


def _phrase_pattern(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = sorted((re.escape(w.replace("_", " ")) for w in words), key=len, reverse=True)
    # An entry ending in an apostrophe (n', l') is glued to the next word; others need a boundary.
    body = "|".join(alternatives)
    return re.compile(rf"(?<![\w'])(?:{body})(?:(?<=')|(?![\w']))", re.I)


@dataclass(frozen=True)
class WordClasses:
    """The word classes of one reading's languages, compiled."""

    negation: re.Pattern[str] | None
    disjunction: re.Pattern[str] | None
    hedge: re.Pattern[str] | None
    contrast: re.Pattern[str] | None
    connective: re.Pattern[str] | None
    restatement: re.Pattern[str] | None
    list_conjunction: re.Pattern[str] | None
    articles: tuple[str, ...]

    def has(self, name: str, text: str) -> bool:
        """True when ``text`` holds a word of class ``name``."""
        pattern: re.Pattern[str] | None = getattr(self, name)
        return pattern is not None and pattern.search(fold_apostrophes(text)) is not None

    def offers(self, text: str) -> bool:
        """True when ``text`` holds a disjunction, hedge, contrast or question mark: what makes a
        candidate beside the answer an alternative to it. (``/`` and ``|`` between two candidates
        need no word: they leave two keys in one clause, or a bare list.)"""
        if "?" in text or "¿" in text:
            return True
        return any(self.has(name, text) for name in ("disjunction", "hedge", "contrast"))


def _merge(table: dict[str, str], languages: tuple[str, ...]) -> list[str]:
    return sorted({w for lang in languages for w in table.get(lang, "").split()})


#: Words never borrowed from another language than the row's: too short, or a word of
#: another language (German ``Mai``, French ``ma``/``si``, Portuguese article ``o``/``a``).
_NOT_BORROWED = frozenset(
    ["mai", "si", "ma", "o", "u", "au", "e", "y", "na", "ni", "da", "ne", "also"]
)


def _borrowed(table: dict[str, str], own: tuple[str, ...]) -> list[str]:
    """Every language's words of a class that read the same in any language (module rules)."""
    words = set(_merge(table, own))
    for lang in LANGUAGES:
        words.update(
            w for w in table.get(lang, "").split()
            if (len(w) >= 3 or w == "ou") and w not in _NOT_BORROWED
        )  # fmt: skip
    return sorted(words)


@lru_cache(maxsize=16)
def word_classes(lang: str | None) -> WordClasses:
    """English plus ``lang`` (an unknown or missing language: English only); negations,
    disjunctions, hedges and contrasts also borrow the other languages' unambiguous words, so a
    reply in another language than the question's ("85 (oder 86)") is read the same."""
    languages = ("en",) if lang not in LANGUAGES or lang == "en" else ("en", str(lang))
    return WordClasses(
        negation=_phrase_pattern(_borrowed(NEGATIONS, languages)),
        disjunction=_phrase_pattern(_borrowed(DISJUNCTIONS, languages)),
        hedge=_phrase_pattern(_borrowed(HEDGES, languages)),
        contrast=_phrase_pattern(_borrowed(CONTRASTS, languages)),
        connective=_phrase_pattern(_merge(CONNECTIVES, languages)),
        restatement=_phrase_pattern(_merge(RESTATEMENTS, languages)),
        list_conjunction=_phrase_pattern(_merge(LIST_CONJUNCTIONS, languages)),
        articles=tuple(_merge(ARTICLES, languages)),
    )


def row_language(row: dict[str, object]) -> str | None:
    """The language a row is asked in (``meta.lang``), or None for English-only suites."""
    meta = row.get("meta")
    lang = meta.get("lang") if isinstance(meta, dict) else None
    return lang if isinstance(lang, str) else None
