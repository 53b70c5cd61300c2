"""Weekday and month names, and the phrasing of every multilingual prompt, per language: the
answer line, the answer placeholders, and the question templates (write a number, recognise
one, shift a weekday or month, translate, word problems, spoken arithmetic). Shared by
eval-multilingual-v1 and -v2 (moved here from the v1 generator, unchanged).
"""

from __future__ import annotations

from typing import Any

from families.multilingual.numbers import Variants, split_words

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


def end(lang: str, slot: int) -> str:
    return "\n\n" + END[lang].format(f=SLOT[lang][slot])


def mc(lang: str, question: str, options: list[str], correct: str) -> dict[str, Any]:
    labels = [chr(ord("A") + i) for i in range(len(options))]
    listing = "\n".join(f"{lb}. {opt}" for lb, opt in zip(labels, options, strict=True))
    return {
        "prompt": f"{question}\n\n{listing}" + end(lang, 3),
        "choices": options,
        "answer": labels[options.index(correct)],
    }
