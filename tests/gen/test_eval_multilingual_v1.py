"""eval-multilingual-v1: every committed item re-solved with parsers and lexicons typed here.

Number words are read back by one small parser per language (token values and the few
multiplicative rules: French ``quatre-vingt``, ``cent``; Swahili ``mia``; German ``hundert`` and
``und``; Italian segmentation with elision), weekday and month shifts are redone by modular
arithmetic on lexicons typed independently of the generator, and word problems from the digits.
A few spellings are asserted against hand-checked values.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def split_words(text: str) -> list[str]:
    """Word lists are written as one string; this keeps them readable at 100 columns."""
    return text.split()


DATA = REPO / "datasets" / "eval-multilingual-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
LANGS = ["fr", "es", "de", "pt", "it", "sw"]

DAYS = {
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche",
    "es": "lunes martes miércoles jueves viernes sábado domingo",
    "de": "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag",
    "pt": "segunda-feira terça-feira quarta-feira quinta-feira sexta-feira sábado domingo",
    "it": "lunedì martedì mercoledì giovedì venerdì sabato domenica",
    "sw": "Jumatatu Jumanne Jumatano Alhamisi Ijumaa Jumamosi Jumapili",
}
MONTHS = {
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro "
    "dezembro",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre",
    "sw": "Januari Februari Machi Aprili Mei Juni Julai Agosti Septemba Oktoba Novemba Desemba",
}
EN_DAYS = split_words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
EN_MONTHS = split_words(
    "January February March April May June July August September October November December"
)
PAST = ("il y a", "avant", "hace", "antes", " vor ", " há ", " fa?", "prima", "zilizopita", "kabla")


def words(spec: str) -> dict[str, int]:
    return {w: i for i, w in enumerate(spec.split())}


FR = words(
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize"
) | {
    "vingt": 20,
    "vingts": 20,
    "trente": 30,
    "quarante": 40,
    "cinquante": 50,
    "soixante": 60,
    "septante": 70,
    "huitante": 80,
    "nonante": 90,
}
ES = words(
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
    "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós "
    "veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve"
)
ES |= {
    w: 30 + 10 * i
    for i, w in enumerate(split_words("treinta cuarenta cincuenta sesenta setenta ochenta noventa"))
}
ES |= {"cien": 100, "ciento": 100} | {
    w: 200 + 100 * i
    for i, w in enumerate(
        split_words(
            "doscientos trescientos cuatrocientos quinientos seiscientos setecientos ochocientos "
            "novecientos"
        )
    )
}
DE = words(
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
    "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn"
) | {"ein": 1}
DE_TENS = {
    w: 20 + 10 * i
    for i, w in enumerate(
        split_words("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")
    )
}
PT = words(
    "zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze "
    "quinze dezesseis dezessete dezoito dezenove vinte"
) | {"quatorze": 14, "dezasseis": 16, "dezassete": 17, "dezanove": 19, "cem": 100, "cento": 100}
PT |= {
    w: 30 + 10 * i
    for i, w in enumerate(split_words("trinta quarenta cinquenta sessenta setenta oitenta noventa"))
}
PT |= {
    w: 200 + 100 * i
    for i, w in enumerate(
        split_words(
            "duzentos trezentos quatrocentos quinhentos seiscentos setecentos oitocentos novecentos"
        )
    )
}
IT_UNITS = words(
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
    "quattordici quindici sedici diciassette diciotto diciannove"
) | {"tré": 3, "trè": 3}
IT_TENS = {
    w: 20 + 10 * i
    for i, w in enumerate(
        split_words("venti trenta quaranta cinquanta sessanta settanta ottanta novanta")
    )
}
SW = (
    words("sifuri moja mbili tatu nne tano sita saba nane tisa kumi")
    | {
        w: 20 + 10 * i
        for i, w in enumerate(
            split_words("ishirini thelathini arobaini hamsini sitini sabini themanini tisini")
        )
    }
    | {"arubaini": 40}
)


def parse_fr(text: str) -> int:
    total, previous = 0, ""
    for tok in re.split(r"[ -]+", text):
        if tok == "et":
            continue
        if tok in ("cent", "cents"):
            total = (total or 1) * 100
        elif tok in ("vingt", "vingts") and previous == "quatre":
            total += 80 - 4
        else:
            total += FR[tok]
        previous = tok
    return total


def parse_de(text: str) -> int:
    head, _, tail = text.rpartition("hundert") if "hundert" in text else ("", "", text)
    value = (DE.get(head, 0) or 1) * 100 if "hundert" in text else 0
    if "und" in tail:
        unit, tens = tail.split("und")
        return value + DE[unit] + DE_TENS[tens]
    return value + (DE_TENS.get(tail) or DE.get(tail, 0) if tail else 0)


def parse_it_below_100(text: str) -> int | None:
    if text in IT_UNITS:
        return IT_UNITS[text]
    for tens, value in IT_TENS.items():
        for stem in (tens, tens[:-1]):  # full or elided before uno / otto
            rest = text.removeprefix(stem)
            if rest != text and (rest == "" or rest in IT_UNITS and IT_UNITS[rest] < 10):
                if stem == tens[:-1] and rest not in ("uno", "otto"):
                    continue
                if stem == tens and rest in ("uno", "otto", "tre"):
                    continue
                return value + (IT_UNITS[rest] if rest else 0)
    return None


def parse_it(text: str) -> int:
    if "cent" not in text:
        return parse_it_below_100(text)
    head, _, rest = text.partition("cent")
    hundreds = 100 * (IT_UNITS[head] if head else 1)
    options = [rest[1:]] if rest.startswith("o") else []
    options += [rest] if rest and rest[0] in "uo" else []  # elided "cent" + uno/otto/ottanta
    if rest in ("o", ""):
        return hundreds
    found = {v for v in map(parse_it_below_100, options) if v is not None}
    assert len(found) == 1, text
    return hundreds + found.pop()


def parse_sw(text: str) -> int:
    toks = [t for t in text.split() if t != "na"]
    total = 0
    while toks:
        tok = toks.pop(0)
        total += SW[toks.pop(0)] * 100 if tok == "mia" else SW[tok]
    return total


PARSERS = {
    "fr": parse_fr,
    "es": lambda t: sum(ES[w] for w in t.split() if w != "y"),
    "de": parse_de,
    "pt": lambda t: sum(PT[w] for w in t.split(" e ")),
    "it": parse_it,
    "sw": parse_sw,
}


def rows_of(category: str) -> list[dict]:
    return [r for r in ROWS if r["category"] == category]


def first_int(row: dict) -> int:
    return int(re.search(r"\d+", row["prompt"])[0])


def chosen(row: dict) -> str:
    return row["choices"]["ABCD".index(row["answer"])]


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 140 and card["default_scorer"] == "contains"
    assert Counter(r["scorer"] for r in ROWS) == {"contains": 60, "mc": 40, "numeric": 40}
    assert Counter(r["meta"]["lang"] for r in ROWS) == {
        "fr": 28,
        "es": 28,
        "de": 21,
        "pt": 21,
        "it": 21,
        "sw": 21,
    }
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 56, "medium": 42, "hard": 42}
    assert set(Counter(r["category"] for r in ROWS).values()) == {20}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert "'Answer: " in row["prompt"].splitlines()[-1]
        if row["scorer"] == "contains":
            assert isinstance(row["answer"], list) and all(row["answer"])


def test_hand_checked_spellings() -> None:
    spec = importlib.util.spec_from_file_location("ml", REPO / "_gen" / "eval-multilingual-v1.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    words_of = gen.NUMBER_WORDS
    assert words_of["fr"](71)[:2] == ["soixante et onze", "soixante-et-onze"]
    assert words_of["fr"](80)[0] == "quatre-vingts" and words_of["fr"](81)[0] == "quatre-vingt-un"
    assert words_of["fr"](200)[0] == "deux cents" and words_of["fr"](201)[0] == "deux cent un"
    assert words_of["fr"](97)[0] == "quatre-vingt-dix-sept" and "nonante-sept" in words_of["fr"](97)
    assert words_of["es"](100) == ["cien"] and words_of["es"](116) == ["ciento dieciséis"]
    assert words_of["es"](571) == ["quinientos setenta y uno"]
    assert words_of["de"](101) == ["einhunderteins", "hunderteins"]
    assert words_of["de"](31) == ["einunddreißig"]
    assert words_of["pt"](316) == ["trezentos e dezesseis", "trezentos e dezasseis"]
    assert words_of["pt"](100) == ["cem"] and words_of["pt"](101) == ["cento e um"]
    assert words_of["it"](23) == ["ventitré", "ventitrè"] and words_of["it"](28) == ["ventotto"]
    assert sorted(words_of["it"](108)) == ["centootto", "centotto"]
    assert words_of["sw"](47) == ["arobaini na saba", "arubaini na saba"]
    assert "mia tatu arobaini na saba" in words_of["sw"](347)
    assert words_of["sw"](305) == ["mia tatu na tano"]


@pytest.mark.parametrize("row", rows_of("number_words"), ids=lambda r: r["id"])
def test_number_words_parse_back(row: dict) -> None:
    parse = PARSERS[row["meta"]["lang"]]
    assert {parse(w) for w in row["answer"]} == {first_int(row)}


@pytest.mark.parametrize("row", rows_of("number_recognition"), ids=lambda r: r["id"])
def test_number_recognition_options(row: dict) -> None:
    parse = PARSERS[row["meta"]["lang"]]
    values = [parse(c) for c in row["choices"]]
    assert len(set(values)) == 4 and parse(chosen(row)) == first_int(row)


@pytest.mark.parametrize("row", rows_of("word_arithmetic"), ids=lambda r: r["id"])
def test_word_arithmetic(row: dict) -> None:
    lang, prompt = row["meta"]["lang"], row["prompt"]
    a, b = (PARSERS[lang](q) for q in re.findall(r"[«„\"] ?([^»“\"]+?) ?[»“\"]", prompt))
    op = re.search(r"[»“\"] (\S+) [«„\"]", prompt)[1]
    want = {
        "plus": a + b,
        "más": a + b,
        "mais": a + b,
        "più": a + b,
        "jumlisha": a + b,
        "moins": a - b,
        "menos": a - b,
        "minus": a - b,
        "meno": a - b,
        "toa": a - b,
        "fois": a * b,
        "por": a * b,
        "mal": a * b,
        "vezes": a * b,
        "per": a * b,
        "mara": a * b,
    }[op]
    assert int(row["answer"]) == want


@pytest.mark.parametrize("row", rows_of("word_problems"), ids=lambda r: r["id"])
def test_word_problems(row: dict) -> None:
    x = [int(v) for v in re.findall(r"\d+", row["prompt"])]
    if len(x) == 2:
        want = x[0] + x[1]
    elif row["difficulty"] == "medium":
        want = x[0] + x[1] - x[2]
    else:
        want = x[0] * x[1] - x[2]
    assert int(row["answer"]) == want > 0


@pytest.mark.parametrize("row", rows_of("weekdays") + rows_of("months"), ids=lambda r: r["id"])
def test_weekday_and_month_shifts(row: dict) -> None:
    lang, prompt = row["meta"]["lang"], row["prompt"].split("\n")[0]
    names = (DAYS if row["category"] == "weekdays" else MONTHS)[lang].split()
    start = [i for i, n in enumerate(names) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", prompt)]
    assert len(start) == 1
    n = first_int(row)
    sign = -1 if any(marker in prompt for marker in PAST) else 1
    want = names[(start[0] + sign * n) % len(names)]
    assert row["answer"][0] == want
    assert sign == (-1 if row["difficulty"] == "hard" else 1)


@pytest.mark.parametrize("row", rows_of("vocabulary"), ids=lambda r: r["id"])
def test_vocabulary(row: dict) -> None:
    lang = row["meta"]["lang"]
    english = re.search(r"[«„\"] ?(\w+) ?[»“\"]", row["prompt"])[1]
    if english in EN_DAYS:
        want = DAYS[lang].split()[EN_DAYS.index(english)]
    else:
        want = MONTHS[lang].split()[EN_MONTHS.index(english)]
    assert chosen(row) == want and row["choices"].count(want) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_every_spelling_of_0_to_999_parses_back(lang: str) -> None:
    spec = importlib.util.spec_from_file_location("ml", REPO / "_gen" / "eval-multilingual-v1.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    for n in range(1000):
        assert {PARSERS[lang](w) for w in gen.NUMBER_WORDS[lang](n)} == {n}
