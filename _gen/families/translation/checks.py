"""Agreement invariants for eval-translation-v1's proof (spec 000 translation track).

These read a finished sentence and the meaning slots it came from and check grammar facts
with patterns and lookups of their own, not the renderer's code paths: French elision and
contractions, verb person, past-participle agreement after être, adjective and determiner
agreement with the noun; English a/an, third-person -s, do-support and be-forms.
"""

from __future__ import annotations

import re
from typing import Any

from families.translation import lexicon as LEX

UNELIDED = re.compile(r"(?i)\b(?:le|la|de|je|ne|ma) (?:[aeiouyàâéèêëîïôœû]|homme|hôpital)")
UNCONTRACTED = re.compile(r"(?i)\b(?:à le|à les|de le|de les) ")
DETERMINERS = {
    ("m", "sg"): {"un", "le", "l'", "mon"},
    ("f", "sg"): {"une", "la", "l'", "ma", "mon"},
    ("m", "pl"): {"des", "de", "les", "mes"},
    ("f", "pl"): {"des", "de", "les", "mes"},
}


def _person_forms(person: int) -> set[str]:
    """Every conjugated form of ``person`` in the lexicon's tables."""
    tables = [v[1] for v in LEX.VERBS.values()] + [v[3] for v in LEX.VERBS.values()]
    tables += [v[0] for v in LEX.SIMPLE_VERBS.values()]
    tables += [" ".join(LEX.ETRE), " ".join(LEX.AVOIR), " ".join(LEX.ALLER)]
    return {t.split()[person] for t in tables}


def _tokens(sentence: str) -> list[str]:
    return sentence.rstrip(".").replace("'", "' ").split()


def check_french(sentence: str, slots: dict[str, Any]) -> None:
    _, fr_subject, person, gender = LEX.SUBJECTS[slots["subject"]]
    plural = person >= 2
    assert sentence[0].isupper() and sentence.endswith("."), sentence
    assert not UNELIDED.search(sentence) and not UNCONTRACTED.search(sentence), sentence
    tokens = _tokens(sentence)
    rest = tokens[len(fr_subject.split()) :]
    if rest[0] in ("ne", "n'"):
        rest = rest[1:]
    assert rest[0] in _person_forms(person), (sentence, rest[0])
    suffix = ("e" if gender == "f" else "") + ("s" if plural else "")
    if slots["template"] == "past_etre" and rest[0] in LEX.ETRE:
        assert rest[1] in {m[0] + suffix for m in LEX.MOTIONS.values()}, sentence
    if slots["template"] == "state":
        mood = rest[2] if rest[1] == "très" else rest[1]
        column = (gender == "f") + 2 * plural
        assert mood in {m[0].split()[column] for m in LEX.MOODS.values()}, sentence
    if slots.get("object"):
        _check_object(tokens, slots, sentence)


def _check_object(tokens: list[str], slots: dict[str, Any], sentence: str) -> None:
    _, _, sg, pl, gender = LEX.NOUNS[slots["object"]]
    number = slots["number"]
    noun = pl if number == "pl" else sg
    at = tokens.index(noun)
    before = tokens[at - 1]
    if slots["adj"]:
        forms, pre, _ = LEX.ADJECTIVES[slots["adj"]]
        forms_list = forms.split()
        column = (gender == "f") + 2 * (number == "pl")
        vowel_form = pre and column == 0 and noun[0] in LEX.VOWELS
        wanted = forms_list[4] if vowel_form else forms_list[column]
        if pre:
            assert before == wanted, sentence
            before = tokens[at - 2]
        else:
            assert tokens[at + 1] == wanted, sentence
    assert before.lower() in DETERMINERS[(gender, number)], (sentence, before)


def check_english(sentence: str, slots: dict[str, Any]) -> None:
    en_subject, _, person, _ = LEX.SUBJECTS[slots["subject"]]
    assert sentence[0].isupper() and sentence.endswith("."), sentence
    assert not re.search(r"\b[Aa] [aeiouAEIOU]|\b[Aa]n [^aeiouAEIOU]", sentence), sentence
    rest = sentence[len(en_subject) :].rstrip(".").split()
    third = person == 1
    template = slots["template"]
    if template in ("habit", "liking"):
        verb = rest[1] if rest[0] == "really" else rest[0]
        assert verb.endswith("s") == third, sentence
    if template == "negation":
        assert rest[0] in (("does", "doesn't") if third else ("do", "don't")), sentence
    if template in ("state", "future") and not rest[0].startswith("'") and rest[0] != "will":
        assert rest[0] == ("am", "is", "are", "are")[person], sentence
