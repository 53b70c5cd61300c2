"""Replies an instruction row is judged on beside its example (issue 19): the prompt sent back
(``echoes``, as the audit's echo baseline sends it: once, and twice with a blank line between),
and careless versions of the compliant text (``careless``) for ``probes.near_misses``.

The row's scorer is ``rules.evaluate`` itself (the harness imports the dataset's copy of
``rules.py``), so ``verdict`` here is the verdict the scorer gives.
"""

from __future__ import annotations

import json
from typing import Any

from families.instruction import rules

#: What a chatty model puts before and after the text it was asked for.
PREAMBLE = "Sure! Here is the text you asked for:\n\n"
SIGN_OFF = "\n\nI hope this helps, and let me know if you need anything else!"


def verdict(row: dict[str, Any], text: str) -> bool:
    """The row's own scorer on ``text``."""
    return rules.evaluate(row["answer"], text)[0]


def echoes(prompt: str) -> list[str]:
    """The prompt once and twice, as the echo baseline replies."""
    return [prompt, f"{prompt}\n\n{prompt}"]


def _drop_last(text: str) -> str:
    """The text without its last sentence, line or JSON key (one unit short)."""
    try:
        obj = json.loads(text)
    except ValueError:
        obj = None
    if isinstance(obj, dict) and len(obj) > 1:
        return json.dumps(dict(list(obj.items())[:-1]), indent=2, ensure_ascii=False)
    lines = text.split("\n")
    if len(lines) > 1:
        return "\n".join(lines[:-1]).rstrip()
    cut = text.rstrip().rstrip(".").rfind(". ")
    return text[: cut + 1] if cut > 0 else text


def careless(row: dict[str, Any]) -> list[str]:
    """Plausible wrong replies: the example with a preamble, a sign-off, one unit short, a
    comma added, the first forbidden word slipped in, the case flipped; only those the row's
    scorer rejects, in this order."""
    text = row["meta"]["example_pass"]
    out = [PREAMBLE + text, text + SIGN_OFF, _drop_last(text)]
    out.append(text.replace(" ", ", ", 1))
    for rule in row["answer"]["all"]:
        if rule["type"] == "forbidden_words":
            out.append(text.replace(" ", f" {rule['words'][0]} ", 1))
    out += [text.upper() if text != text.upper() else text.lower()]
    return [t for t in dict.fromkeys(out) if t != text and not verdict(row, t)]
