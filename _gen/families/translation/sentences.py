"""Sentence renderers of eval-translation-v1 (spec 001 chrf rows; spec 000
translation review: accepted variants recorded with each reference).

A sentence is a template name plus meaning slots (subject, verb, object, adjective, place,
time, ...). ``render("fr", slots)`` and ``render("en", slots)`` write every acceptable wording
of the same meaning, primary first. French agreement is done here: articles (le/la/les,
elision l', contractions au/du/aux), adjective forms and position, past participles after être.
"""

from __future__ import annotations

import itertools
from typing import Any

from families.translation.lexicon import (
    ADJECTIVES,
    ALLER,
    AVOIR,
    CONTRACT,
    ETRE,
    FOODS,
    FUTURE_TIMES,
    H_MUET,
    HABIT_TIMES,
    MOODS,
    MOTIONS,
    NOUNS,
    PAST_TIMES,
    PLACES,
    PRONOUNS,
    SIMPLE_VERBS,
    STATE_TIMES,
    SUBJECTS,
    VERBS,
    VOWELS,
    plausible,
)


def opts(text: str) -> list[str]:
    return text.split("|")


def vowel_start(word: str) -> bool:
    return word[0].lower() in VOWELS or word.lower() in H_MUET


def finish_fr(words: list[str]) -> str:
    """Elision (le/la/de/je/ne/ma before a vowel), then au/aux/du/des, then capital and stop."""
    words = " ".join(words).split()
    for i in range(len(words) - 1):
        if words[i].lower() in ("le", "la", "de", "je", "ne") and vowel_start(words[i + 1]):
            words[i] = words[i][:-1] + "'"
        elif words[i] == "ma" and vowel_start(words[i + 1]):
            words[i] = "mon"
    text = " ".join(words).replace("' ", "'")
    for full, short in (
        ("à le ", "au "),
        ("à les ", "aux "),
        ("de le ", "du "),
        ("de les ", "des "),
    ):
        text = text.replace(f" {full}", f" {short}")
    return text[0].upper() + text[1:] + "."


def finish_en(words: list[str]) -> str:
    words = " ".join(words).split()
    for i in range(len(words) - 1):
        if words[i] == "a" and words[i + 1][0] in "aeiou":
            words[i] = "an"
    text = " ".join(words).replace(" '", "'")
    return text[0].upper() + text[1:] + "."


def variants(parts: list[list[str]], finish: Any) -> list[str]:
    """Every combination of the parts' options, finished, duplicates dropped, primary first."""
    return list(dict.fromkeys(finish(list(combo)) for combo in itertools.product(*parts)))


def _subject(slots: dict[str, Any]) -> tuple[str, str, int, str, bool]:
    en, fr, person, gender = SUBJECTS[slots["subject"]]
    return en, fr, person, gender, person >= 2


def _form(forms: str, gender: str, plural: bool) -> str:
    return forms.split()[(gender == "f") + 2 * plural]


def _article(kind: str, gender: str, plural: bool) -> str:
    table = {
        "def": ("le", "la", "les"),
        "poss": ("mon", "ma", "mes"),
        "indef": ("un", "une", "des"),
    }
    return table[kind][2 if plural else gender == "f"]


def _object_fr(slots: dict[str, Any]) -> list[list[str]]:
    _, _, sg, pl, gender = NOUNS[slots["object"]]
    plural = slots["number"] == "pl"
    noun = pl if plural else sg
    det = [_article(slots["det"], gender, plural)]
    if not slots["adj"]:
        return [det, [noun]]
    forms, before, _ = ADJECTIVES[slots["adj"]]
    adj = _form(forms, gender, plural)
    if before and gender == "m" and not plural and vowel_start(noun):
        adj = forms.split()[4]  # nouvel, vieil, bel
    if not before:
        return [det, [noun], [adj]]
    if slots["det"] == "indef" and plural:
        det = ["de", "des"]  # "de" before a plural adjective in written French; "des" is common
    return [det, [adj], [noun]]


def _object_en(slots: dict[str, Any]) -> list[list[str]]:
    sg, pl = NOUNS[slots["object"]][:2]
    plural = slots["number"] == "pl"
    det = {"def": "the", "poss": "my", "indef": "" if plural else "a"}[slots["det"]]
    adj = opts(ADJECTIVES[slots["adj"]][2]) if slots["adj"] else [""]
    return [[det], adj, opts(pl if plural else sg)]


def _en_aux(subject: str, aux: str) -> list[str]:
    """``subject aux`` and, after a pronoun, the contracted form (I'm, she's, they'll)."""
    forms = [f"{subject} {aux}"]
    if subject in PRONOUNS and aux in CONTRACT:
        forms.append(f"{subject} {CONTRACT[aux]}")
    if aux.endswith(" not"):
        forms.append(f"{subject} {aux[:-4]}n't")
    return forms


def render(lang: str, slots: dict[str, Any]) -> list[str]:
    """Every acceptable sentence for ``slots`` in ``lang`` ("fr" or "en"), primary first."""
    en_s, fr_s, p, gender, plural = _subject(slots)
    t = slots["template"]
    if lang == "fr":
        parts = _parts_fr(t, slots, fr_s, p, gender, plural)
        return variants(parts, finish_fr)
    return variants(_parts_en(t, slots, en_s, p), finish_en)


def _parts_fr(t: str, s: dict[str, Any], subj: str, p: int, gender: str, plural: bool) -> list:
    if t == "state":
        parts = [[subj], [ETRE[p]], ["très"] if s["very"] else [""]]
        parts.append([_form(MOODS[s["mood"]][0], gender, plural)])
        return parts + [opts(STATE_TIMES[s["time"]][1]) if s["time"] else [""]]
    if t in ("liking", "negation"):
        _, noun, g, pl, _ = FOODS[s["food"]]
        verb = SIMPLE_VERBS[s["verb"]][0].split()[p]
        if t == "negation":
            return [[subj], ["ne"], [verb], ["pas de"], [noun]]
        return [
            [subj],
            [verb],
            ["beaucoup"] if s["much"] else [""],
            [_article("def", g, pl)],
            [noun],
        ]
    verb = VERBS.get(s.get("verb", ""))
    if t == "habit":
        _, noun, pg, prep, _ = PLACES[s["place"]]
        place = [f"{prep} {_article('def', pg, False)} {noun}"]
        return [
            [subj],
            [verb[1].split()[p]],
            *_object_fr(s),
            place,
            opts(HABIT_TIMES[s["time"]][1]),
        ]
    if t == "future":
        forms = [f"{ALLER[p]} {verb[0]}", verb[3].split()[p]]
        return [[subj], forms, *_object_fr(s), opts(FUTURE_TIMES[s["time"]][1])]
    if t == "past_avoir":
        return [[subj], [AVOIR[p]], [verb[2]], *_object_fr(s), opts(PAST_TIMES[s["time"]][1])]
    pp, prep, _ = MOTIONS[s["motion"]]
    _, noun, pg = PLACES[s["place"]][:3]
    article = _article("def", pg, False)
    agreed = pp + ("e" if gender == "f" else "") + ("s" if plural else "")
    forms = [f"{ETRE[p]} {agreed} {prep} {article} {noun}"]
    if s["motion"] == "partir":
        forms.append(f"{AVOIR[p]} quitté {article} {noun}")
    return [[subj], forms, opts(PAST_TIMES[s["time"]][1])]


def _parts_en(t: str, s: dict[str, Any], subj: str, p: int) -> list:
    third = p == 1
    if t == "state":
        be = ("am", "is", "are", "are")[p]
        parts = [_en_aux(subj, be), ["very"] if s["very"] else [""], opts(MOODS[s["mood"]][1])]
        return parts + [opts(STATE_TIMES[s["time"]][0]) if s["time"] else [""]]
    if t in ("liking", "negation"):
        noun = FOODS[s["food"]][0]
        base, third_form = SIMPLE_VERBS[s["verb"]][1].split()
        if t == "negation":
            return [_en_aux(subj, "does not" if third else "do not"), [base], [noun]]
        verb = third_form if third else base
        return [
            [subj],
            [f"{verb} {noun} a lot", f"really {verb} {noun}"] if s["much"] else [f"{verb} {noun}"],
        ]
    verb = VERBS.get(s.get("verb", ""))
    base, third_form, past = verb[4].split() if verb else ("", "", "")
    if t == "habit":
        en_place, loc = PLACES[s["place"]][0], PLACES[s["place"]][4]
        place = [f"{pr} the {n}" for pr in opts(loc) for n in opts(en_place)]
        verb_form = third_form if third else base
        return [[subj], [verb_form], *_object_en(s), place, opts(HABIT_TIMES[s["time"]][0])]
    if t == "future":
        be = ("am", "is", "are", "are")[p]
        aux = [f"{a} going to" for a in _en_aux(subj, be)] + _en_aux(subj, "will")
        return [aux, [base], *_object_en(s), opts(FUTURE_TIMES[s["time"]][0])]
    if t == "past_avoir":
        return [[subj], [past], *_object_en(s), opts(PAST_TIMES[s["time"]][0])]
    en_place = PLACES[s["place"]][0]
    moves = [f"{m} the {n}" for m in opts(MOTIONS[s["motion"]][2]) for n in opts(en_place)]
    return [[subj], moves, opts(PAST_TIMES[s["time"]][0])]


#: slot name -> (lexicon, primary English of an entry); entries may share an English wording
TWIN_SLOTS = {
    "subject": (SUBJECTS, lambda entry: entry[0]),
    "mood": (MOODS, lambda entry: opts(entry[1])[0]),
    "adj": (ADJECTIVES, lambda entry: opts(entry[2])[0]),
}


def english_twins(slots: dict[str, Any]) -> list[dict[str, Any]]:
    """Slot sets (``slots`` first) whose primary English sentence is the same as ``slots``'s:
    English does not mark what French must (gender of they/we/I; content/heureux; neuf)."""
    names = sorted(slots)  # slot order must not matter: rows store their slots key-sorted
    choices = []
    for name in names:
        value = slots[name]
        if name not in TWIN_SLOTS or value is None:
            choices.append([value])
            continue
        lexicon, english = TWIN_SLOTS[name]
        same = [k for k in lexicon if k != value and english(lexicon[k]) == english(lexicon[value])]
        choices.append([value, *same])
    source = render("en", slots)[0]
    twins = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*choices)]
    return [t for t in twins if plausible(t) and render("en", t)[0] == source]
