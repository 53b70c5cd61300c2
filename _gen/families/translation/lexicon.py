"""Bilingual lexicon of eval-translation-v1: the meaning slots' possible values with their
French and English forms (spec 000 translation track). Data plus the plausibility limits on
combining it; ``sentences`` renders sentences from it.
"""

from __future__ import annotations

from typing import Any

# Subjects: en, fr, person index (0 = 1sg, 1 = 3sg, 2 = 1pl, 3 = 3pl), gender.
SUBJECTS = {
    "je_m": ("I", "je", 0, "m"),
    "je_f": ("I", "je", 0, "f"),
    "il": ("he", "il", 1, "m"),
    "elle": ("she", "elle", 1, "f"),
    "nous_m": ("we", "nous", 2, "m"),
    "nous_f": ("we", "nous", 2, "f"),
    "ils": ("they", "ils", 3, "m"),
    "elles": ("they", "elles", 3, "f"),
    "garcon": ("the boy", "le garçon", 1, "m"),
    "fille": ("the girl", "la fille", 1, "f"),
    "garcons": ("the boys", "les garçons", 3, "m"),
    "filles": ("the girls", "les filles", 3, "f"),
    "frere": ("my brother", "mon frère", 1, "m"),
    "soeur": ("my sister", "ma sœur", 1, "f"),
    "freres": ("my brothers", "mes frères", 3, "m"),
    "soeurs": ("my sisters", "mes sœurs", 3, "f"),
    "homme": ("the man", "le homme", 1, "m"),
    "femme": ("the woman", "la femme", 1, "f"),
    "hommes": ("the men", "les hommes", 3, "m"),
    "femmes": ("the women", "les femmes", 3, "f"),
    "enfants": ("the children", "les enfants", 3, "m"),
    "oncle": ("my uncle", "mon oncle", 1, "m"),
    "tante": ("my aunt", "ma tante", 1, "f"),
}
PRONOUNS = {"I", "he", "she", "we", "they"}
CONTRACT = {"am": "'m", "is": "'s", "are": "'re", "will": "'ll"}
# Transitive verbs: fr infinitive, present x4, past participle, future x4,
# en base/3sg/past, objects.
VERBS = {
    "lire": (
        "lire",
        "lis lit lisons lisent",
        "lu",
        "lirai lira lirons liront",
        "read reads read",
        "livre lettre journal recette",
    ),
    "acheter": (
        "acheter",
        "achète achète achetons achètent",
        "acheté",
        "achèterai achètera achèterons achèteront",
        "buy buys bought",
        "livre voiture maison velo lampe chaise ordinateur appartement armoire",
    ),
    "ecrire": (
        "écrire",
        "écris écrit écrivons écrivent",
        "écrit",
        "écrirai écrira écrirons écriront",
        "write writes wrote",
        "lettre poeme recette",
    ),
    "ouvrir": (
        "ouvrir",
        "ouvre ouvre ouvrons ouvrent",
        "ouvert",
        "ouvrirai ouvrira ouvrirons ouvriront",
        "open opens opened",
        "porte fenetre boite lettre armoire",
    ),
    "nettoyer": (
        "nettoyer",
        "nettoie nettoie nettoyons nettoient",
        "nettoyé",
        "nettoierai nettoiera nettoierons nettoieront",
        "clean cleans cleaned",
        "voiture fenetre table chaise ordinateur appartement",
    ),
    "peindre": (
        "peindre",
        "peins peint peignons peignent",
        "peint",
        "peindrai peindra peindrons peindront",
        "paint paints painted",
        "porte mur chaise table armoire",
    ),
    "vendre": (
        "vendre",
        "vends vend vendons vendent",
        "vendu",
        "vendrai vendra vendrons vendront",
        "sell sells sold",
        "voiture maison velo livre lampe ordinateur",
    ),
}
# Count nouns: en singular options, en plural options, fr singular, fr plural, gender.
NOUNS = {
    "livre": ("book", "books", "livre", "livres", "m"),
    "lettre": ("letter", "letters", "lettre", "lettres", "f"),
    "journal": ("newspaper", "newspapers", "journal", "journaux", "m"),
    "recette": ("recipe", "recipes", "recette", "recettes", "f"),
    "voiture": ("car", "cars", "voiture", "voitures", "f"),
    "maison": ("house", "houses", "maison", "maisons", "f"),
    "velo": ("bicycle|bike", "bicycles|bikes", "vélo", "vélos", "m"),
    "lampe": ("lamp", "lamps", "lampe", "lampes", "f"),
    "chaise": ("chair", "chairs", "chaise", "chaises", "f"),
    "table": ("table", "tables", "table", "tables", "f"),
    "ordinateur": ("computer", "computers", "ordinateur", "ordinateurs", "m"),
    "appartement": ("flat|apartment", "flats|apartments", "appartement", "appartements", "m"),
    "armoire": ("wardrobe", "wardrobes", "armoire", "armoires", "f"),
    "poeme": ("poem", "poems", "poème", "poèmes", "m"),
    "porte": ("door", "doors", "porte", "portes", "f"),
    "fenetre": ("window", "windows", "fenêtre", "fenêtres", "f"),
    "boite": ("box", "boxes", "boîte", "boîtes", "f"),
    "mur": ("wall", "walls", "mur", "murs", "m"),
}
# Adjectives: fr m.sg, f.sg, m.pl, f.pl, m.sg before a vowel; before the noun?; en options.
ADJECTIVES = {
    "petit": ("petit petite petits petites petit", True, "small|little"),
    "grand": ("grand grande grands grandes grand", True, "big|large"),
    "nouveau": ("nouveau nouvelle nouveaux nouvelles nouvel", True, "new"),
    "neuf": ("neuf neuve neufs neuves neuf", False, "new|brand new"),
    "vieux": ("vieux vieille vieux vieilles vieil", True, "old"),
    "beau": ("beau belle beaux belles bel", True, "beautiful"),
    "long": ("long longue longs longues long", True, "long"),
    "vert": ("vert verte verts vertes vert", False, "green"),
    "blanc": ("blanc blanche blancs blanches blanc", False, "white"),
    "noir": ("noir noire noirs noires noir", False, "black"),
    "rouge": ("rouge rouge rouges rouges rouge", False, "red"),
    "bleu": ("bleu bleue bleus bleues bleu", False, "blue"),
    "gris": ("gris grise gris grises gris", False, "grey|gray"),
}
# Places: en noun options, fr noun, gender, fr locative preposition, en locative options.
PLACES = {
    "gare": ("station", "gare", "f", "à", "at"),
    "marche": ("market", "marché", "m", "à", "at"),
    "musee": ("museum", "musée", "m", "à", "at"),
    "ecole": ("school", "école", "f", "à", "at"),
    "hopital": ("hospital", "hôpital", "m", "à", "at"),
    "bibliotheque": ("library", "bibliothèque", "f", "à", "at"),
    "parc": ("park", "parc", "m", "à", "in"),
    "eglise": ("church", "église", "f", "à", "at"),
    "plage": ("beach", "plage", "f", "à", "at|on"),
    "theatre": ("theatre|theater", "théâtre", "m", "à", "at"),
    "aeroport": ("airport", "aéroport", "m", "à", "at"),
    "bureau": ("office", "bureau", "m", "à", "at|in"),
    "jardin": ("garden", "jardin", "m", "dans", "in"),
    "cuisine": ("kitchen", "cuisine", "f", "dans", "in"),
}
TEXTS = {"lettre", "journal", "recette", "poeme"}  # read and written things: fewer adjectives
TEXT_ADJECTIVES = ("beau", "long", "nouveau", "vieux")
# Habits that make sense: verb -> (objects, places where it is done).
HABITS = {
    "lire": ("livre lettre journal recette", "bibliotheque jardin parc bureau cuisine gare"),
    "acheter": ("journal livre lampe", "marche gare"),
    "ecrire": ("lettre poeme", "bureau jardin bibliotheque"),
    "ouvrir": ("fenetre porte boite", "cuisine bureau"),
    "nettoyer": ("table fenetre chaise", "cuisine bureau"),
    "vendre": ("livre lampe chaise velo", "marche"),
}
MOTION_PLACES = tuple(k for k, p in PLACES.items() if p[3] == "à")
OPEN_AIR = {"parc", "plage"}  # one goes to them, not into them


def places_for(motion: str) -> list[str]:
    return [p for p in MOTION_PLACES if motion != "entrer" or p not in OPEN_AIR]


# Motion verbs (être): past participle, fr preposition, en past options (each "verb prep").
MOTIONS = {
    "aller": ("allé", "à", "went to"),
    "arriver": ("arrivé", "à", "arrived at"),
    "venir": ("venu", "à", "came to"),
    "partir": ("parti", "de", "left"),
    "rester": ("resté", "à", "stayed at"),
    "entrer": ("entré", "dans", "went into|entered"),
}
# Times: en options, fr options.
HABIT_TIMES = {
    "matin": ("every morning", "chaque matin|tous les matins"),
    "jour": ("every day", "chaque jour|tous les jours"),
    "soir": ("every evening", "chaque soir|tous les soirs"),
    "dimanche": ("on Sundays|every Sunday", "le dimanche"),
    "samedi": ("on Saturdays|every Saturday", "le samedi"),
}
PAST_TIMES = {
    "hier": ("yesterday", "hier"),
    "semaine": ("last week", "la semaine dernière|la semaine passée"),
    "annee": ("last year", "l'année dernière|l'an dernier"),
    "matin": ("this morning", "ce matin"),
    "lundi": ("last Monday", "lundi dernier"),
    "hier_soir": ("yesterday evening|last night", "hier soir"),
}
FUTURE_TIMES = {
    "demain": ("tomorrow", "demain"),
    "semaine": ("next week", "la semaine prochaine"),
    "annee": ("next year", "l'année prochaine|l'an prochain"),
    "soir": ("tonight|this evening", "ce soir"),
    "demain_matin": ("tomorrow morning", "demain matin"),
}
STATE_TIMES = {"aujourdhui": ("today", "aujourd'hui"), "matin": ("this morning", "ce matin")}
# Adjectives of people: fr m.sg f.sg m.pl f.pl, en options.
MOODS = {
    "fatigue": ("fatigué fatiguée fatigués fatiguées", "tired"),
    "content": ("content contente contents contentes", "happy|glad"),
    "heureux": ("heureux heureuse heureux heureuses", "happy"),
    "pret": ("prêt prête prêts prêtes", "ready"),
    "occupe": ("occupé occupée occupés occupées", "busy"),
    "malade": ("malade malade malades malades", "ill|sick"),
}
# Food and things for negation/liking: en, fr, gender, plural?, verbs that take it.
FOODS = {
    "pain": ("bread", "pain", "m", False, "manger acheter"),
    "fromage": ("cheese", "fromage", "m", False, "manger acheter"),
    "viande": ("meat", "viande", "f", False, "manger acheter"),
    "riz": ("rice", "riz", "m", False, "manger acheter"),
    "lait": ("milk", "lait", "m", False, "boire acheter"),
    "eau": ("water", "eau", "f", False, "boire acheter"),
    "cafe": ("coffee", "café", "m", False, "boire acheter"),
    "the": ("tea", "thé", "m", False, "boire acheter"),
    "pommes": ("apples", "pommes", "f", True, "manger acheter"),
    "oranges": ("oranges", "oranges", "f", True, "manger acheter"),
    "oeufs": ("eggs", "œufs", "m", True, "manger acheter"),
    "fleurs": ("flowers", "fleurs", "f", True, "acheter"),
    "chats": ("cats", "chats", "m", True, ""),
    "chiens": ("dogs", "chiens", "m", True, ""),
    "oiseaux": ("birds", "oiseaux", "m", True, ""),
}
SIMPLE_VERBS = {
    "manger": ("mange mange mangeons mangent", "eat eats"),
    "boire": ("bois boit buvons boivent", "drink drinks"),
    "acheter": ("achète achète achetons achètent", "buy buys"),
    "aimer": ("aime aime aimons aiment", "like likes"),
}
ETRE, AVOIR, ALLER = (
    ["suis", "est", "sommes", "sont"],
    ["ai", "a", "avons", "ont"],
    ["vais", "va", "allons", "vont"],
)
TEMPLATES = ("state", "liking", "habit", "negation", "future", "past_avoir", "past_etre")
VOWELS = "aeiouyàâéèêëîïôœû"
H_MUET = {"homme", "hommes", "hôpital"}


def adjectives_for(noun: str) -> list[str]:
    """Adjectives that make sense with ``noun`` (no green recipes or long chairs)."""
    if noun in TEXTS:
        return list(TEXT_ADJECTIVES)
    return sorted(a for a in ADJECTIVES if a != "long")


def plausible(slots: dict[str, Any]) -> bool:
    if slots["template"] == "past_etre":
        return slots["place"] in places_for(slots["motion"])
    return not slots.get("adj") or slots["adj"] in adjectives_for(slots["object"])
