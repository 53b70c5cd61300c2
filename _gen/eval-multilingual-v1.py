# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-multilingual-v1: number words, calendar words and arithmetic in six languages (spec 001).

Languages: French, Spanish, German, Portuguese, Italian and Swahili (``meta.lang``). Rows mix
``contains`` (write a number in words, name a weekday or month), ``mc`` (recognise a number word,
translate a day or month name) and ``numeric`` (word problems, arithmetic on number words).
Number words come from per-language rules below, with every accepted spelling variant (1990
French reform hyphens, Belgian/Swiss tens, Brazilian/European Portuguese, Italian elision); day
and month names from embedded lexicons. ``prove`` parses every number word back through a
reverse index that must be injective over 0..999, recomputes word problems from the digits in
the prompt, and checks weekday and month shifts with ``datetime``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _lib  # noqa: E402


def split_words(text: str) -> list[str]:
    """Word lists are written as one string; this keeps them readable at 100 columns."""
    return text.split()


def numbered(first: int, text: str) -> dict[int, str]:
    """``{first: word1, first + 1: word2, ...}`` from a space-separated word list."""
    return dict(enumerate(text.split(), start=first))


DATASET_ID = "eval-multilingual-v1"
KIND = "eval"
DESCRIPTION = (
    "Number words, weekday and month names, word problems and spoken arithmetic in French, "
    "Spanish, German, Portuguese, Italian and Swahili; contains, mc and numeric rows."
)
SEED = 1_000_505
COUNT = 140
CREATED = "2026-11-29"
DEFAULT_SCORER = "contains"
LANGS = ("fr", "es", "de", "pt", "it", "sw")
CATEGORIES = (
    "number_words",
    "weekdays",
    "months",
    "number_recognition",
    "vocabulary",
    "word_problems",
    "word_arithmetic",
)
SCORER_OF = {
    "number_words": "contains",
    "weekdays": "contains",
    "months": "contains",
    "number_recognition": "mc",
    "vocabulary": "mc",
    "word_problems": "numeric",
    "word_arithmetic": "numeric",
}
DIFFICULTIES = ("easy", "medium", "hard")
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

# --- lexicons and phrasing ------------------------------------------------------------------

EN_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EN_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: weekday names from Monday; each entry lists the accepted forms, canonical first
DAYS: dict[str, list[Variants]] = {
    "fr": [[d] for d in split_words("lundi mardi mercredi jeudi vendredi samedi dimanche")],
    "es": [[d] for d in split_words("lunes martes miércoles jueves viernes sábado domingo")],
    "de": [
        ["Montag"],
        ["Dienstag"],
        ["Mittwoch"],
        ["Donnerstag"],
        ["Freitag"],
        ["Samstag", "Sonnabend"],
        ["Sonntag"],
    ],
    "pt": [[f"{d}-feira", d] for d in split_words("segunda terça quarta quinta sexta")]
    + [["sábado"], ["domingo"]],
    "it": [[d] for d in split_words("lunedì martedì mercoledì giovedì venerdì sabato domenica")],
    "sw": [[d] for d in split_words("Jumatatu Jumanne Jumatano Alhamisi Ijumaa Jumamosi Jumapili")],
}
MONTHS: dict[str, list[Variants]] = {
    "fr": [
        [m]
        for m in split_words(
            "janvier février mars avril mai juin juillet août septembre octobre novembre décembre"
        )
    ],
    "es": [
        [m]
        for m in split_words(
            "enero febrero marzo abril mayo junio julio agosto septiembre octubre "
            "noviembre diciembre"
        )
    ],
    "de": [
        [m]
        for m in split_words(
            "Januar Februar März April Mai Juni Juli August September Oktober November Dezember"
        )
    ],
    "pt": [
        [m]
        for m in split_words(
            "janeiro fevereiro março abril maio junho julho agosto setembro outubro "
            "novembro dezembro"
        )
    ],
    "it": [
        [m]
        for m in split_words(
            "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre "
            "ottobre novembre dicembre"
        )
    ],
    "sw": [
        [m]
        for m in split_words(
            "Januari Februari Machi Aprili Mei Juni Julai Agosti Septemba Oktoba Novemba Desemba"
        )
    ],
}
MONTHS["es"][8].append("setiembre")
MONTHS["de"][0].append("Jänner")

END = {
    "fr": "Termine ta réponse par une ligne de la forme 'Answer: {f}'.",
    "es": "Termina tu respuesta con una línea de la forma 'Answer: {f}'.",
    "de": "Beende deine Antwort mit einer Zeile der Form 'Answer: {f}'.",
    "pt": "Termina a tua resposta com uma linha da forma 'Answer: {f}'.",
    "it": "Concludi la risposta con una riga della forma 'Answer: {f}'.",
    "sw": "Maliza jibu lako kwa mstari wa umbo 'Answer: {f}'.",
}
SLOT = {  # answer placeholders: number, number in words, word, letter
    "fr": ("<nombre>", "<nombre en lettres>", "<mot>", "<lettre>"),
    "es": ("<número>", "<número en letras>", "<palabra>", "<letra>"),
    "de": ("<Zahl>", "<Zahl in Worten>", "<Wort>", "<Buchstabe>"),
    "pt": ("<número>", "<número por extenso>", "<palavra>", "<letra>"),
    "it": ("<numero>", "<numero in lettere>", "<parola>", "<lettera>"),
    "sw": ("<namba>", "<namba kwa maneno>", "<neno>", "<herufi>"),
}
WRITE_NUMBER = {
    "fr": "Écris le nombre {n} en toutes lettres, en français.",
    "es": "Escribe el número {n} con letras, en español.",
    "de": "Schreibe die Zahl {n} in Worten, auf Deutsch.",
    "pt": "Escreve o número {n} por extenso, em português.",
    "it": "Scrivi il numero {n} in lettere, in italiano.",
    "sw": "Andika namba {n} kwa maneno ya Kiswahili.",
}
WHICH_NUMBER = {
    "fr": "Laquelle de ces écritures en lettres correspond au nombre {n} ?",
    "es": "¿Cuál de estas opciones escribe el número {n} con letras?",
    "de": "Welche dieser Schreibweisen steht für die Zahl {n}?",
    "pt": "Qual destas opções escreve o número {n} por extenso?",
    "it": "Quale di queste scritture in lettere corrisponde al numero {n}?",
    "sw": "Ni ipi kati ya hizi inayoandika namba {n} kwa maneno?",
}
WEEKDAY_Q = {  # (future, past)
    "fr": (
        "Aujourd'hui, nous sommes {d}. Quel jour de la semaine serons-nous dans {n} jours ?",
        "Aujourd'hui, nous sommes {d}. Quel jour de la semaine étions-nous il y a {n} jours ?",
        "Réponds par le nom du jour, en français.",
    ),
    "es": (
        "Hoy es {d}. ¿Qué día de la semana será dentro de {n} días?",
        "Hoy es {d}. ¿Qué día de la semana fue hace {n} días?",
        "Responde con el nombre del día, en español.",
    ),
    "de": (
        "Heute ist {d}. Welcher Wochentag ist in {n} Tagen?",
        "Heute ist {d}. Welcher Wochentag war vor {n} Tagen?",
        "Antworte mit dem Namen des Wochentags auf Deutsch.",
    ),
    "pt": (
        "Hoje é {d}. Que dia da semana será daqui a {n} dias?",
        "Hoje é {d}. Que dia da semana foi há {n} dias?",
        "Responde com o nome do dia, em português.",
    ),
    "it": (
        "Oggi è {d}. Che giorno della settimana sarà tra {n} giorni?",
        "Oggi è {d}. Che giorno della settimana era {n} giorni fa?",
        "Rispondi con il nome del giorno, in italiano.",
    ),
    "sw": (
        "Leo ni {d}. Baada ya siku {n} itakuwa siku gani ya wiki?",
        "Leo ni {d}. Siku {n} zilizopita ilikuwa siku gani ya wiki?",
        "Jibu kwa jina la siku kwa Kiswahili.",
    ),
}
MONTH_Q = {  # (after, before)
    "fr": (
        "Quel mois vient {n} mois après {m} ?",
        "Quel mois se trouve {n} mois avant {m} ?",
        "Réponds par le nom du mois, en français.",
    ),
    "es": (
        "¿Qué mes viene {n} meses después de {m}?",
        "¿Qué mes está {n} meses antes de {m}?",
        "Responde con el nombre del mes, en español.",
    ),
    "de": (
        "Welcher Monat liegt {n} Monate nach dem {m}?",
        "Welcher Monat liegt {n} Monate vor dem {m}?",
        "Antworte mit dem Namen des Monats auf Deutsch.",
    ),
    "pt": (
        "Que mês vem {n} meses depois de {m}?",
        "Que mês vem {n} meses antes de {m}?",
        "Responde com o nome do mês, em português.",
    ),
    "it": (
        "Quale mese viene {n} mesi dopo {m}?",
        "Quale mese viene {n} mesi prima di {m}?",
        "Rispondi con il nome del mese, in italiano.",
    ),
    "sw": (
        "Ni mwezi gani unaokuja miezi {n} baada ya {m}?",
        "Ni mwezi gani uliokuwa miezi {n} kabla ya {m}?",
        "Jibu kwa jina la mwezi kwa Kiswahili.",
    ),
}
TRANSLATE_Q = {
    "fr": "Parmi ces mots, lequel est la traduction française de l'anglais « {en} » ?",
    "es": "¿Cuál de estas palabras es la traducción al español del inglés «{en}»?",
    "de": "Welches dieser Wörter ist die deutsche Übersetzung des englischen „{en}“?",
    "pt": "Qual destas palavras é a tradução para português do inglês «{en}»?",
    "it": "Quale di queste parole è la traduzione italiana dell'inglese «{en}»?",
    "sw": 'Ni neno lipi kati ya haya ni tafsiri ya Kiswahili ya neno la Kiingereza "{en}"?',
}
NAMES = {
    "fr": ("Camille", "Julien", "Manon", "Hugo", "Chloé", "Louis"),
    "es": ("Lucía", "Mateo", "Carmen", "Diego", "Elena", "Pablo"),
    "de": ("Anna", "Jonas", "Lena", "Felix", "Marie", "Paul"),
    "pt": ("Beatriz", "João", "Inês", "Tiago", "Rita", "Rui"),
    "it": ("Giulia", "Marco", "Sara", "Luca", "Chiara", "Paolo"),
    "sw": ("Juma", "Amina", "Baraka", "Neema", "Hamisi", "Zawadi"),
}
ITEMS = {
    "fr": ("pommes", "poires", "citrons"),
    "es": ("manzanas", "naranjas", "peras"),
    "de": ("Äpfel", "Birnen", "Zitronen"),
    "pt": ("maçãs", "laranjas", "peras"),
    "it": ("mele", "arance", "pere"),
    "sw": ("machungwa", "maembe", "mayai"),
}
#: word problems per level: a + b, a + b - c, a * b - c (digits in that order in the text)
PROBLEMS = {
    "fr": (
        "Dans le panier de {p}, il y a {a} {x}. {p} en ajoute {b}. Combien de {x} y a-t-il "
        "maintenant dans le panier ?",
        "Dans le panier de {p}, il y a {a} {x}. {p} en ajoute {b}, puis en donne {c} à une "
        "voisine. Combien de {x} reste-t-il dans le panier ?",
        "{p} achète {a} caisses de {x}, chacune contenant {b} {x}. {p} en vend ensuite {c}. "
        "Combien de {x} reste-t-il à {p} ?",
    ),
    "es": (
        "En la cesta de {p} hay {a} {x}. {p} añade {b} más. ¿Cuántas {x} hay ahora en la cesta?",
        "En la cesta de {p} hay {a} {x}. {p} añade {b} más y luego regala {c} a una vecina. "
        "¿Cuántas {x} quedan en la cesta?",
        "{p} compra {a} cajas de {x} con {b} {x} cada una. Después vende {c}. ¿Cuántas {x} "
        "le quedan a {p}?",
    ),
    "de": (
        "Im Korb von {p} liegen {a} {x}. {p} legt {b} weitere dazu. Wie viele {x} liegen "
        "jetzt im Korb?",
        "Im Korb von {p} liegen {a} {x}. {p} legt {b} weitere dazu und verschenkt dann {c} an "
        "eine Nachbarin. Wie viele {x} liegen noch im Korb?",
        "{p} kauft {a} Kisten, und in jeder Kiste sind {b} {x}. Danach verkauft {p} {c} "
        "davon. Wie viele {x} hat {p} noch?",
    ),
    "pt": (
        "No cesto de {p} há {a} {x}. {p} coloca mais {b}. Quantas {x} há agora no cesto?",
        "No cesto de {p} há {a} {x}. {p} coloca mais {b} e depois dá {c} a uma vizinha. "
        "Quantas {x} ficam no cesto?",
        "{p} compra {a} caixas de {x}, cada uma com {b} {x}. Depois vende {c}. Quantas {x} "
        "restam a {p}?",
    ),
    "it": (
        "Nel cesto di {p} ci sono {a} {x}. {p} ne aggiunge {b}. Quante {x} ci sono ora nel cesto?",
        "Nel cesto di {p} ci sono {a} {x}. {p} ne aggiunge {b} e poi ne regala {c} a una "
        "vicina. Quante {x} restano nel cesto?",
        "{p} compra {a} casse di {x}, ciascuna con {b} {x}. Poi ne vende {c}. Quante {x} "
        "rimangono a {p}?",
    ),
    "sw": (
        "Katika kikapu cha {p} kuna {x} {a}. {p} anaongeza {x} {b}. Sasa kuna {x} mangapi "
        "kikapuni?",
        "Katika kikapu cha {p} kuna {x} {a}. {p} anaongeza {x} {b}, kisha anampa jirani yake "
        "{x} {c}. Sasa kuna {x} mangapi kikapuni?",
        "{p} ananunua masanduku {a} ya {x}, na kila sanduku lina {x} {b}. Kisha anauza {x} "
        "{c}. {p} amebaki na {x} mangapi?",
    ),
}
#: "how much is «a» OP «b»? answer in digits", with the words for plus, minus, times
ARITHMETIC = {
    "fr": ("Combien font « {a} » {op} « {b} » ? Réponds en chiffres.", ("plus", "moins", "fois")),
    "es": ("¿Cuánto es «{a}» {op} «{b}»? Responde con cifras.", ("más", "menos", "por")),
    "de": ("Wie viel ist „{a}“ {op} „{b}“? Antworte mit Ziffern.", ("plus", "minus", "mal")),
    "pt": ("Quanto é «{a}» {op} «{b}»? Responde com algarismos.", ("mais", "menos", "vezes")),
    "it": ("Quanto fa «{a}» {op} «{b}»? Rispondi in cifre.", ("più", "meno", "per")),
    "sw": ('Jibu ni nini: "{a}" {op} "{b}"? Jibu kwa tarakimu.', ("jumlisha", "toa", "mara")),
}


def _end(lang: str, slot: int) -> str:
    return "\n\n" + END[lang].format(f=SLOT[lang][slot])


def _mc(lang: str, question: str, options: list[str], correct: str) -> dict[str, Any]:
    labels = [chr(ord("A") + i) for i in range(len(options))]
    listing = "\n".join(f"{lb}. {opt}" for lb, opt in zip(labels, options, strict=True))
    return {
        "prompt": f"{question}\n\n{listing}" + _end(lang, 3),
        "choices": options,
        "answer": labels[options.index(correct)],
    }


NUMBER_RANGES = ((0, 30), (31, 99), (100, 999))


def _number_words(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    n = rng.randint(*NUMBER_RANGES[level])
    text = WRITE_NUMBER[lang].format(n=n) + _end(lang, 1)
    return {"prompt": text, "answer": NUMBER_WORDS[lang](n), "meta": {"value": n}}


def _near(rng: random.Random, n: int, level: int) -> list[int]:
    """Three other numbers in the same range that look alike (digit swaps, one ten apart)."""
    lo, hi = NUMBER_RANGES[level]
    digits = str(n)
    pool = [int(digits[::-1]), n + 10, n - 10, n + 1, n - 1, n + 100, n - 100, n + 20, n - 20]
    if level == 2:
        pool.append(int(digits[1] + digits[0] + digits[2]))
    picks = [m for m in dict.fromkeys(pool) if lo <= m <= hi and m != n]
    rng.shuffle(picks)
    while len(picks) < 3:
        m = rng.randint(lo, hi)
        if m != n and m not in picks:
            picks.append(m)
    return picks[:3]


def _number_recognition(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    n = rng.randint(*NUMBER_RANGES[level])
    numbers = [n, *_near(rng, n, level)]
    rng.shuffle(numbers)
    words = [NUMBER_WORDS[lang](m)[0] for m in numbers]
    out = _mc(lang, WHICH_NUMBER[lang].format(n=n), words, NUMBER_WORDS[lang](n)[0])
    return {**out, "meta": {"value": n}}


def _weekdays(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    today = rng.randrange(7)
    n = (rng.randint(1, 6), rng.randint(8, 60), rng.randint(10, 400))[level]
    past = level == 2
    shift = -n if past else n
    future_q, past_q, reply = WEEKDAY_Q[lang]
    text = (past_q if past else future_q).format(d=DAYS[lang][today][0], n=n)
    target = (today + shift) % 7
    return {
        "prompt": f"{text} {reply}" + _end(lang, 2),
        "answer": DAYS[lang][target],
        "meta": {"today": EN_DAYS[today], "shift": shift},
    }


def _months(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    start = rng.randrange(12)
    n = (rng.randint(2, 4), rng.randint(5, 11), rng.randint(13, 40))[level]
    shift = -n if level == 2 else n
    after_q, before_q, reply = MONTH_Q[lang]
    text = (before_q if level == 2 else after_q).format(m=MONTHS[lang][start][0], n=n)
    return {
        "prompt": f"{text} {reply}" + _end(lang, 2),
        "answer": MONTHS[lang][(start + shift) % 12],
        "meta": {"start": EN_MONTHS[start], "shift": shift},
    }


def _vocabulary(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    table, english = (DAYS, EN_DAYS) if level == 0 else (MONTHS, EN_MONTHS)
    k = rng.randrange(len(english))
    if level == 2:  # neighbours of the right month are the hardest distractors
        others = [(k + d) % 12 for d in (-2, -1, 1, 2)]
        others = rng.sample(others, 3)
    else:
        others = rng.sample([i for i in range(len(english)) if i != k], 3)
    indices = [k, *others]
    rng.shuffle(indices)
    options = [table[lang][i][0] for i in indices]
    out = _mc(lang, TRANSLATE_Q[lang].format(en=english[k]), options, table[lang][k][0])
    return {**out, "meta": {"english": english[k]}}


def _word_problems(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    if level == 0:
        a, b, c = rng.randint(3, 40), rng.randint(2, 30), 0
        value = a + b
    elif level == 1:
        a, b = rng.randint(10, 60), rng.randint(5, 40)
        c = rng.randint(2, a + b - 1)
        value = a + b - c
    else:
        a, b = rng.randint(3, 12), rng.randint(6, 24)
        c = rng.randint(2, a * b - 1)
        value = a * b - c
    text = PROBLEMS[lang][level].format(
        p=rng.choice(NAMES[lang]), x=rng.choice(ITEMS[lang]), a=a, b=b, c=c
    )
    return {"prompt": text + _end(lang, 0), "answer": str(value), "meta": {"level": level}}


def _word_arithmetic(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    if level == 0:
        a, b = rng.randint(2, 30), rng.randint(2, 30)
        value = a + b
    elif level == 1:
        a = rng.randint(30, 99)
        b = rng.randint(2, a - 1)
        value = a - b
    else:
        a, b = rng.randint(12, 99), rng.randint(3, 9)
        value = a * b
    template, ops = ARITHMETIC[lang]
    words = NUMBER_WORDS[lang]
    text = template.format(a=words(a)[0], b=words(b)[0], op=ops[level])
    return {"prompt": text + _end(lang, 0), "answer": str(value), "meta": {"operands": [a, b]}}


BUILDERS = {
    "number_words": _number_words,
    "weekdays": _weekdays,
    "months": _months,
    "number_recognition": _number_recognition,
    "vocabulary": _vocabulary,
    "word_problems": _word_problems,
    "word_arithmetic": _word_arithmetic,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category = CATEGORIES[idx % len(CATEGORIES)]
    j = idx // len(CATEGORIES)  # every language once per (category, difficulty) block
    lang, level = LANGS[j % len(LANGS)], (j // len(LANGS)) % len(DIFFICULTIES)
    built = BUILDERS[category](rng, lang, level)
    row = {
        "id": f"multi-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": SCORER_OF[category],
        "meta": {**built["meta"], "lang": lang},
    }
    if "choices" in built:
        row["choices"] = built["choices"]
    return row


# --- proofs ----------------------------------------------------------------------------------


def reverse_index(lang: str) -> dict[str, int]:
    """Every accepted spelling of 0..999 -> its number; fails if two numbers share a spelling."""
    index: dict[str, int] = {}
    for n in range(1000):
        for word in NUMBER_WORDS[lang](n):
            assert index.setdefault(word.casefold(), n) == n, (lang, word)
    return index


REVERSE = {lang: reverse_index(lang) for lang in LANGS}


def _ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"\d+", text)]


def _chosen(row: dict[str, Any]) -> str:
    return row["choices"][ord(row["answer"]) - ord("A")]


def _prove_number_words(row: dict[str, Any], lang: str) -> None:
    n = _ints(row["prompt"].split("\n")[0])[0]
    assert {REVERSE[lang][w.casefold()] for w in row["answer"]} == {n}, row["id"]


def _prove_recognition(row: dict[str, Any], lang: str) -> None:
    n = _ints(row["prompt"].split("\n")[0])[0]
    values = [REVERSE[lang][c.casefold()] for c in row["choices"]]
    assert (
        values.count(n) == 1
        and len(set(values)) == 4
        and REVERSE[lang][_chosen(row).casefold()] == n
    ), row["id"]


def _prove_weekdays(row: dict[str, Any], lang: str) -> None:
    monday = dt.date(2001, 1, 1)  # a Monday, per datetime
    assert monday.weekday() == 0
    m = row["meta"]
    today = monday + dt.timedelta(days=EN_DAYS.index(m["today"]))
    target = today + dt.timedelta(days=m["shift"])
    assert row["answer"] == DAYS[lang][target.weekday()], row["id"]
    assert DAYS[lang][today.weekday()][0] in row["prompt"] and str(abs(m["shift"])) in row["prompt"]


def _prove_months(row: dict[str, Any], lang: str) -> None:
    m = row["meta"]
    day = dt.date(2001, EN_MONTHS.index(m["start"]) + 1, 15)
    step = 1 if m["shift"] > 0 else -1
    for _ in range(abs(m["shift"])):  # walk month by month through real dates
        day = (day + dt.timedelta(days=31 * step)).replace(day=15)
    assert row["answer"] == MONTHS[lang][day.month - 1], row["id"]


def _prove_vocabulary(row: dict[str, Any], lang: str) -> None:
    english = row["meta"]["english"]
    table, names = (DAYS, EN_DAYS) if english in EN_DAYS else (MONTHS, EN_MONTHS)
    canon = [v[0] for v in table[lang]]
    assert len(set(row["choices"])) == 4 and all(c in canon for c in row["choices"])
    assert canon.index(_chosen(row)) == names.index(english) and english in row["prompt"]


def _prove_problem(row: dict[str, Any], lang: str) -> None:
    x = _ints(row["prompt"].split("\n")[0])
    level = DIFFICULTIES.index(row["difficulty"])
    assert len(x) == (2, 3, 3)[level], row["id"]
    want = x[0] + x[1] if level == 0 else x[0] + x[1] - x[2] if level == 1 else x[0] * x[1] - x[2]
    assert int(row["answer"]) == want > 0, row["id"]


def _prove_arithmetic(row: dict[str, Any], lang: str) -> None:
    quoted = re.findall(r"[«„\"] ?([^»“\"]+?) ?[»“\"]", row["prompt"])
    a, b = (REVERSE[lang][q.casefold()] for q in quoted)
    op = ARITHMETIC[lang][1].index(row["prompt"].split(quoted[0])[1].split()[1])
    assert int(row["answer"]) == (a + b, a - b, a * b)[op], row["id"]


PROVERS = {
    "number_words": _prove_number_words,
    "weekdays": _prove_weekdays,
    "months": _prove_months,
    "number_recognition": _prove_recognition,
    "vocabulary": _prove_vocabulary,
    "word_problems": _prove_problem,
    "word_arithmetic": _prove_arithmetic,
}


def prove(row: dict[str, Any]) -> None:
    assert row["scorer"] == SCORER_OF[row["category"]]
    assert "'Answer: " in row["prompt"].splitlines()[-1]
    PROVERS[row["category"]](row, row["meta"]["lang"])


def prove_all(rows: list[dict[str, Any]]) -> None:
    _lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    seen = {(r["category"], r["difficulty"], r["meta"]["lang"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES) * len(LANGS), len(seen)
    scorers = [r["scorer"] for r in rows]
    assert max(set(scorers), key=scorers.count) == DEFAULT_SCORER


def main(argv: list[str] | None = None) -> None:
    _lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
