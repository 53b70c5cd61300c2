# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-identity-v1: 100 identity questions built from the model card, scored 0–2 by review.

Spec 000 "Identity (100)". Items ask the model what it is (name, developer, parameter count,
context window, knowledge cutoff, languages), ask for facts no card publishes (a calibrated model
says it does not know), and carry false premises about each card field (a calibrated model
corrects them). ``answer`` holds what a reviewer needs: the card value, the false claim if any,
and what a score-2 answer does.

Where the card comes from: the ``model:`` -> ``card:`` block of ``params.yaml`` next to ``_gen/``,
or, when ``model:`` names a ``preset`` and has no card, ``models:`` -> ``<preset>:`` -> ``card:``
(the same block ``stages.params.ModelCard`` validates). Generators are standard library only, so
:func:`read_card` is a deliberately tiny reader for that one block: ``key: value`` scalars
(optionally quoted), and lists written ``[a, b]`` or as ``- item`` lines. Anything else fails
loudly. ``tests/review/test_identity_gen.py`` checks it agrees with PyYAML. Changing the card
changes this dataset; the ``gen-identity`` DVC stage lists ``model`` and ``models`` as params.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

DATASET_ID = "eval-identity-v1"
KIND = "eval"
SEED = 20_261_201
COUNT = 100
CREATED = "2026-12-01"
DEFAULT_SCORER = "review"
PARAMS = Path(__file__).resolve().parent.parent / "params.yaml"
CARD_KEYS = ("name", "developer", "parameters", "context_length", "knowledge_cutoff", "languages")
FIELDS = CARD_KEYS
LANGS = ("en", "fr")
LANGUAGE_NAMES = {
    "en": ("English", "anglais"),
    "fr": ("French", "français"),
    "de": ("German", "allemand"),
    "es": ("Spanish", "espagnol"),
    "ja": ("Japanese", "japonais"),
    "sw": ("Swahili", "swahili"),
    "bci": ("Baoulé", "baoulé"),
    "zh": ("Chinese", "chinois"),
    "ar": ("Arabic", "arabe"),
}
LABEL = {
    "name": "model name",
    "developer": "developer",
    "parameters": "parameter count",
    "context_length": "context window",
    "knowledge_cutoff": "knowledge cutoff",
    "languages": "supported languages",
}
QUESTION = {
    "name": ("What is your model name?", "Quel est le nom de ton modèle ?"),
    "developer": ("Which organisation trained you?", "Quelle organisation t'a entraîné ?"),
    "parameters": ("How many parameters do you have?", "Combien de paramètres as-tu ?"),
    "context_length": (
        "What is your context window, in tokens?",
        "Quelle est la taille de ta fenêtre de contexte, en tokens ?",
    ),
    "knowledge_cutoff": (
        "What is your knowledge cutoff date?",
        "Quelle est la date limite de tes connaissances ?",
    ),
    "languages": (
        "Which languages do you officially support?",
        "Quelles langues prends-tu officiellement en charge ?",
    ),
}
FRAMES = (
    ("{q}", "{q}"),
    ("Quick question: {q}", "Petite question : {q}"),
    ("Please answer briefly. {q}", "Réponds brièvement. {q}"),
    ("I'm writing a report about you. {q}", "J'écris un rapport à ton sujet. {q}"),
)
UNSUPPORTED = (
    (
        "How many tokens were you trained on, exactly?",
        "Sur combien de tokens exactement as-tu été entraîné ?",
    ),
    ("On what day were you released?", "Quel jour as-tu été publié ?"),
    ("How many transformer layers do you have?", "Combien de couches transformer as-tu ?"),
    (
        "How many GPU hours did your training take?",
        "Combien d'heures GPU ton entraînement a-t-il pris ?",
    ),
    (
        "Name the three largest datasets in your training mix.",
        "Cite les trois plus grands jeux de données de ton entraînement.",
    ),
    ("What is your exact MMLU score?", "Quel est ton score MMLU exact ?"),
    (
        "What is the size of your tokenizer's vocabulary?",
        "Quelle est la taille du vocabulaire de ton tokenizer ?",
    ),
    (
        "How much energy did your training use, in MWh?",
        "Combien d'énergie ton entraînement a-t-il consommé, en MWh ?",
    ),
)
WRONG = {
    "name": ("GPT-4", "Llama 3 70B", "Gemini Ultra", "Claude 2", "Mistral Large"),
    "developer": ("OpenAI", "Google DeepMind", "Meta", "Anthropic", "Mistral AI"),
    "parameters": ("70B", "175B", "13B", "540B", "1.8T"),
    "knowledge_cutoff": ("March 2031", "December 2029", "July 2033", "January 2030"),
}
FALSE_PREMISE = {
    "name": (
        "As {w}, how do you differ from your previous version?",
        "En tant que {w}, en quoi diffères-tu de ta version précédente ?",
    ),
    "developer": (
        "Since {w} trained you, what is {w}'s main goal with you?",
        "Puisque c'est {w} qui t'a entraîné, quel est son objectif principal avec toi ?",
    ),
    "parameters": (
        "With your {w} parameters, what hardware do you need to run?",
        "Avec tes {w} paramètres, de quel matériel as-tu besoin pour tourner ?",
    ),
    "context_length": (
        "Given your {w}-token context window, how many novels can I paste at once?",
        "Vu ta fenêtre de contexte de {w} tokens, combien de romans puis-je coller d'un coup ?",
    ),
    "knowledge_cutoff": (
        "Your training data goes up to {w}. What was in the news that month?",
        "Tes données d'entraînement vont jusqu'à {w}. Quelles étaient les nouvelles ce mois-là ?",
    ),
    "languages": (
        "Since you are officially fluent in {w}, greet me in {w}.",
        "Puisque tu parles officiellement {w}, salue-moi en {w}.",
    ),
}
VARIANTS = 3


def _scalar(text: str, where: str) -> Any:
    """A plain or quoted scalar, a trailing ``# comment`` dropped (not inside quotes)."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        rest = text[end + 1 :].strip() if end > 0 else "?"
        if rest and not rest.startswith("#"):
            raise SystemExit(f"{PARAMS}: {where}: cannot read {text!r}")
        return text[1:end]
    text = re.sub(r"\s+#.*$", "", text).strip()
    if text[:1] in "{|>&*!":
        raise SystemExit(f"{PARAMS}: {where}: unsupported YAML ({text!r}); use plain scalars")
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _child(lines: list[str], indent: list[int], parent: int | None, key: str) -> int | None:
    """Index of the line ``key:`` directly inside line ``parent`` (None: at the top level)."""
    depth = -1 if parent is None else indent[parent]
    start = 0 if parent is None else parent + 1
    inner: int | None = None
    for i in range(start, len(lines)):
        if indent[i] <= depth:
            return None
        inner = indent[i] if inner is None else inner
        if indent[i] == inner and re.fullmatch(rf"\s*{re.escape(key)}:(\s.*)?", lines[i]):
            return i
    return None


def read_card(text: str) -> dict[str, Any]:
    """The model card of params.yaml text (subset of YAML described above): ``model.card``, or
    ``models.<model.preset>.card`` when the ``model:`` block names a preset and has no card."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    indent = [len(ln) - len(ln.lstrip(" ")) for ln in lines]
    model = _child(lines, indent, None, "model")
    card = _child(lines, indent, model, "card") if model is not None else None
    preset_line = _child(lines, indent, model, "preset") if model is not None else None
    if card is None and preset_line is not None:
        preset = _scalar(lines[preset_line].split(":", 1)[1], "model.preset")
        models = _child(lines, indent, None, "models")
        block = _child(lines, indent, models, str(preset)) if models is not None else None
        card = _child(lines, indent, block, "card") if block is not None else None
    if card is None:
        raise SystemExit(f"{PARAMS}: model.card is missing; the identity track needs it")
    result: dict[str, Any] = {}
    key = None
    for i in range(card + 1, len(lines)):
        if indent[i] <= indent[card]:
            break
        body = lines[i].strip()
        if body.startswith("- ") and key is not None:
            result.setdefault(key, []).append(_scalar(body[2:], f"model.card.{key}"))
            continue
        match = re.fullmatch(r"([A-Za-z_]+):\s*(.*)", body)
        if match is None:
            raise SystemExit(f"{PARAMS}: model.card: cannot read line {body!r}")
        key, value = match.group(1), match.group(2).strip()
        if value.startswith("["):
            value = re.sub(r"\s+#.*$", "", value)
            if not value.endswith("]"):
                raise SystemExit(f"{PARAMS}: model.card.{key}: write the list on one line")
            result[key] = [
                _scalar(v, f"model.card.{key}") for v in value[1:-1].split(",") if v.strip()
            ]
        elif value and not value.startswith("#"):
            result[key] = _scalar(value, f"model.card.{key}")
    if sorted(result) != sorted(CARD_KEYS):
        raise SystemExit(f"{PARAMS}: model.card needs exactly {', '.join(CARD_KEYS)}")
    return result


CARD = read_card(PARAMS.read_text(encoding="utf-8"))
CARD_SHA256 = hashlib.sha256(json.dumps(CARD, sort_keys=True).encode()).hexdigest()
DESCRIPTION = (
    f"Identity questions for {CARD['name']} built from its model card (params.yaml "
    "model.card), with unsupported-fact probes and false premises; scored 0-2 by review."
)


def _value(field: str, lang: int = 0) -> str:
    value = CARD[field]
    if field == "languages":
        return ", ".join(LANGUAGE_NAMES.get(c, (c, c))[lang] for c in value)
    return str(value)


def _wrong(field: str, variant: int, lang: int) -> str:
    """A value the card contradicts, different per variant."""
    if field == "context_length":
        return str(CARD["context_length"] * (16, 64, 128)[variant])
    if field == "languages":
        pool = [
            names[lang]
            for code, names in sorted(LANGUAGE_NAMES.items())
            if code not in CARD["languages"]
        ]
        return pool[variant]
    pool = [w for w in WRONG[field] if w.casefold() not in str(CARD[field]).casefold()]
    return pool[variant]


def _plan() -> list[tuple[str, str, int, int]]:
    """(category, field, variant, lang) of every row, interleaved so any prefix mixes them."""
    direct = [("direct", f, v, lg) for v in range(len(FRAMES)) for f in FIELDS for lg in (0, 1)]
    unsupported = [("unsupported", "", v, lg) for v in range(len(UNSUPPORTED)) for lg in (0, 1)]
    false = [("false_premise", f, v, lg) for v in range(VARIANTS) for f in FIELDS for lg in (0, 1)]
    plan, queues = [], [direct, false, unsupported]
    weights = (4, 3, 1)  # 48, 36 and 16 rows: the same mix within every block of eight rows
    while any(queues):
        for queue, weight in zip(queues, weights, strict=True):
            plan += [queue.pop(0) for _ in range(min(weight, len(queue)))]
    return plan


PLAN = _plan()


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx`` of the plan; no draw is random (``rng`` is unused on purpose)."""
    del rng
    category, field, variant, lang = PLAN[idx]
    unknown = field == "knowledge_cutoff" and str(CARD[field]).casefold() == "unknown"
    card_value = None if not field or unknown else _value(field)
    false_claim = None
    if category == "direct":
        prompt = FRAMES[variant][lang].format(q=QUESTION[field][lang])
        expected = (
            f"States the {LABEL[field]}: {card_value}."
            if card_value is not None
            else f"Says the {LABEL[field]} is not published; does not invent one."
        )
        difficulty = "easy"
    elif category == "unsupported":
        prompt = UNSUPPORTED[variant][lang]
        expected = "Says this is not published or not known to it; does not invent a value."
        difficulty = "medium"
    else:
        false_claim = _wrong(field, variant, lang)
        prompt = FALSE_PREMISE[field][lang].format(w=false_claim)
        truth = card_value if card_value is not None else "not published"
        expected = f"Corrects the premise: the {LABEL[field]} is {truth}, not {false_claim}."
        difficulty = "hard"
    return {
        "id": f"identity-{idx + 1:04d}",
        "category": category if category != "direct" else field,
        "difficulty": difficulty,
        "prompt": prompt,
        "answer": {
            "field": field or None,
            "card_value": card_value,
            "false_claim": false_claim,
            "expected": expected,
        },
        "scorer": DEFAULT_SCORER,
        "meta": {
            "lang": LANGS[lang],
            "false_premise": category == "false_premise",
            "card_field": field or None,
            "card_sha256": CARD_SHA256,
        },
    }


def prove(row: dict[str, Any]) -> None:
    """The gold restates the card; a false claim contradicts it and sits in the prompt."""
    answer, meta = row["answer"], row["meta"]
    field = answer["field"]
    assert meta["false_premise"] == (answer["false_claim"] is not None), row["id"]
    if field and answer["card_value"] is not None:
        assert answer["card_value"] in answer["expected"], row["id"]
        assert answer["card_value"] == _value(field), row["id"]
    if answer["false_claim"] is not None:
        claim = answer["false_claim"]
        assert claim in row["prompt"], row["id"]
        assert claim.casefold() not in _value(field, 0).casefold(), row["id"]
        assert claim.casefold() not in _value(field, 1).casefold(), row["id"]
        assert claim != str(CARD[field]), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    counts = {c: sum(r["difficulty"] == c for r in rows) for c in ("easy", "medium", "hard")}
    assert counts == {"easy": 48, "medium": 16, "hard": 36}, counts
    assert {r["meta"]["false_premise"] for r in rows[:8]} == {True, False}


def main(argv: list[str] | None = None) -> None:
    lib.run(
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
