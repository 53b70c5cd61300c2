"""What a reviewer sees of one item, and the rubric text printed at the top of each sheet.

Only content goes on a sheet: no row id, track key, stratum, score or filter decision.
"""

from __future__ import annotations

import json
from typing import Any

from stages.review.rubrics import Rubric

Section = tuple[str, str]


def as_text(value: Any) -> str:
    """A JSON value as readable text (strings unquoted, lists as bullets, objects as lines)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(f"- {as_text(v)}" for v in value)
    if isinstance(value, dict):
        return "\n".join(f"{k}: {as_text(v)}" for k, v in value.items() if v is not None)
    return json.dumps(value, ensure_ascii=False)


def response_sections(row: dict[str, Any], record: dict[str, Any] | None) -> list[Section]:
    """Prompt, gold material and the model's response of a Kouman item."""
    if row.get("messages"):
        prompt = "\n\n".join(f"[{m['role']}] {m['content']}" for m in row["messages"])
    else:
        prompt = str(row.get("prompt", ""))
    answer = row.get("answer")
    gold = "Reference translation(s)" if row.get("scorer") == "chrf" else "Card facts and gold"
    sections: list[Section] = [("Prompt", prompt), (gold, as_text(answer))]
    meta = row.get("meta") or {}
    for name, label in (("note", "Note"), ("dialect_note", "Dialect/script note")):
        if meta.get(name):
            sections.append((label, str(meta[name])))
    if record is None:
        output = "[no response recorded]"
    elif record.get("error"):
        output = f"[request failed: {record['error'].get('kind', 'unknown')}]"
    else:
        output = record.get("output") or "[empty response]"
    sections.append(("Response", output))
    return sections


def corpus_sections(row: dict[str, Any], show: list[str]) -> list[Section]:
    """The fields a pass shows of an audit item; option lists are lettered A, B, C, ..."""
    sections: list[Section] = []
    for name in show:
        value = row.get(name)
        if isinstance(value, list) and name in ("choices", "options"):
            text = "\n".join(f"{chr(65 + i)}. {as_text(v)}" for i, v in enumerate(value))
        else:
            text = as_text(value) if value is not None else "[none]"
        sections.append((name, text))
    return sections


def rubric_markdown(rubric: Rubric) -> str:
    lines = [f"### {rubric.title}", ""]
    if rubric.guidance:
        lines += [rubric.guidance, ""]
    for name, field in rubric.fields.items():
        when = f" (only where the item is marked `{field.only_if}`)" if field.only_if else ""
        lines.append(f"- **`{name}`**{when}: {field.question}")
        for label, meaning in field.labels.items():
            lines.append(f"  - `{label}`" + (f" — {meaning}" if meaning else ""))
    lines.append("- **`why`** (optional): one short clause on what decided it.")
    return "\n".join(lines) + "\n"
