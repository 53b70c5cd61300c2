"""Needle recipes shared by haystack-v1 and eval-longctx-v1 (spec 001, "The haystack algorithm").

A needle is a seeded fact with a five-digit answer ("The access code for vault Kestrel is
48213."). Vault names are birds that appear in no filler vocabulary and filler numbers stop at
four digits, so :func:`prove_recipe` can demand that every name and code occurs exactly once in
the built document, on the needle's own line.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from families.haystack import build as builder

VAULTS = (
    "Kestrel",
    "Osprey",
    "Merlin",
    "Harrier",
    "Plover",
    "Curlew",
    "Lapwing",
    "Dunlin",
    "Avocet",
    "Bittern",
    "Godwit",
    "Redshank",
    "Shrike",
    "Wryneck",
    "Siskin",
    "Linnet",
    "Bunting",
    "Fieldfare",
    "Whimbrel",
    "Goshawk",
    "Nightjar",
    "Dotterel",
    "Stonechat",
    "Waxwing",
    "Skylark",
    "Sandpiper",
    "Turnstone",
    "Peregrine",
)
#: The scored long-context rows (eval-longctx-v1 and -v2): one row per (window, variant), each
#: variant an id suffix and its needle depths (five single depths, one three-needle row).
EVAL_WINDOWS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
EVAL_VARIANTS: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("d00", (0.0,)),
    ("d25", (0.25,)),
    ("d50", (0.5,)),
    ("d75", (0.75,)),
    ("d100", (1.0,)),
    ("multi", (0.1, 0.5, 0.9)),
)
_KIB = 1024


def size_label(target_tokens: int) -> str:
    """``1024`` -> ``"1k"``, ``262144`` -> ``"256k"``."""
    return f"{target_tokens // _KIB}k"


def eval_difficulty(window: int) -> str:
    return "easy" if window <= 4096 else "medium" if window <= 16384 else "hard"


def accepted_codes(answer: str) -> str | list[str]:
    """Multi answers: the ordered codes with any of the separators a reply plausibly uses."""
    codes = answer.split(", ")
    if len(codes) == 1:
        return answer
    return [", ".join(codes), ",".join(codes), " ".join(codes)]


def make_recipe(
    rng: random.Random, target_tokens: int, depths: tuple[float, ...]
) -> dict[str, Any]:
    """Seed, needles (sorted by depth), question and answer for one document."""
    names = rng.sample(VAULTS, len(depths))
    codes = rng.sample(range(10_000, 100_000), len(depths))
    needles = [
        {
            "depth": depth,
            "text": f"The access code for vault {name} is {code}.",
            "answer": str(code),
        }
        for depth, name, code in zip(sorted(depths), names, codes, strict=True)
    ]
    if len(needles) == 1:
        question = (
            f"What is the access code for vault {names[0]}? "
            "End your reply with a line 'Answer: <code>'."
        )
        answer = needles[0]["answer"]
    else:
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        slots = ", ".join("<code>" for _ in names)
        question = (
            f"What are the access codes for vaults {listed}? Give them in that order, "
            f"separated by commas, and end your reply with a line 'Answer: {slots}'."
        )
        answer = ", ".join(n["answer"] for n in needles)
    return {
        "algorithm": builder.ALGORITHM,
        "seed": rng.randrange(1_000_000, 100_000_000),
        "target_tokens": target_tokens,
        "needles": needles,
        "question": question,
        "answer": answer,
    }


def materialise(recipe: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Build the document; return it with the recorded facts (line numbers, size, digest)."""
    document, line_numbers = builder.build(recipe)
    needles = [
        dict(n, line_number=ln) for n, ln in zip(recipe["needles"], line_numbers, strict=True)
    ]
    facts = {
        "needles": needles,
        "chars": len(document),
        "lines": document.count("\n") + 1,
        "approx_tokens": math.ceil(len(document) / 4),
        "sha256": builder.document_sha256(document),
    }
    return document, facts


def prove_recipe(recipe: dict[str, Any], label: str) -> str:
    """Rebuild ``recipe`` and check every recorded fact another way; return the document."""
    document = builder.build_document(recipe)
    lines = document.split("\n")
    assert len(document) == recipe["chars"] and len(lines) == recipe["lines"], label
    assert builder.document_sha256(document) == recipe["sha256"], label
    assert recipe["approx_tokens"] == -(-recipe["chars"] // 4) >= recipe["target_tokens"], label
    for i, line in enumerate(lines, 1):
        assert line.startswith(f"Line {i:06d}: "), f"{label}: line {i} is misnumbered"
    assert len(re.findall(r"\b\d{5}\b", document)) == len(recipe["needles"]), label
    for needle in recipe["needles"]:
        name = needle["text"].split("vault ")[1].split(" ")[0]
        assert lines[needle["line_number"] - 1][13:] == needle["text"], label
        assert document.count(name) == 1, f"{label}: vault {name} is not unique"
        assert len(re.findall(rf"\b{needle['answer']}\b", document)) == 1, label
        assert needle["text"].endswith(f" is {needle['answer']}."), label
    return document
