"""The offline review sheet: one self-contained HTML file per reviewer and pass (issue 21).

``atlas review export`` writes ``review/packages/<study>/<reviewer>/pass<N>.html`` beside the
Markdown package. It opens from disk (``file://``) with no network and no external asset: the
style, the script and the sheet's data are inlined, and a Content-Security-Policy forbids every
connection. It shows the reviewer's items in their own order under blind ids, the rubric beside
each item, a key per label, a progress count, autosaves to the browser's local storage and
exports exactly the verdict file ``atlas review import`` reads.

What goes in is chosen here and nowhere else: the verdict header of this reviewer and pass, and
per item its blind id, the fields asked and what the pass shows of it. Never the key, a row id,
a stratum, a score or filter decision, another reviewer's name, or a later pass's content. Item
text is data: the script renders it with ``textContent`` only, and ``<`` is escaped inside the
embedded JSON so no content can end the script element.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from stages.review.keys import Key
from stages.review.render import Section
from stages.review.rubrics import Rubric, RubricField
from stages.review.study import Study

SHEET_FORMAT = "atlas-review-sheet-1"
CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'"
)


def label_keys(field: RubricField) -> dict[str, str]:
    """The key that picks each label: the label itself when every label is one character (scores
    0-4), else its first letter when those are unique (yes/no/borderline), else 1, 2, 3, ..."""
    labels = list(field.labels)
    if all(len(label) == 1 for label in labels):
        return {label: label.lower() for label in labels}
    firsts = [label[0].lower() for label in labels]
    if len(set(firsts)) == len(firsts):
        return dict(zip(labels, firsts, strict=True))
    return {label: str(n) for n, label in enumerate(labels, start=1)}


def _rubric_data(rubric: Rubric) -> dict[str, Any]:
    return {
        "title": rubric.title,
        "guidance": rubric.guidance,
        "fields": {
            name: {
                "question": field.question,
                "ordinal": field.ordinal,
                "labels": [[label, meaning] for label, meaning in field.labels.items()],
                "keys": label_keys(field),
            }
            for name, field in rubric.fields.items()
        },
    }


def sheet_data(
    study: Study,
    key: Key,
    reviewer: str,
    pass_no: int,
    shown: dict[str, list[Section]],
    header: dict[str, Any],
) -> dict[str, Any]:
    """Everything the sheet's script gets (and the only thing it gets)."""
    order = key.order[reviewer][str(pass_no)]
    rubrics: dict[str, dict[str, Any]] = {}
    items = []
    for blind in order:
        rubric = study.rubric_for(key.items[blind].track, pass_no)
        rubrics.setdefault(rubric.title, _rubric_data(rubric))
        items.append(
            {
                "id": blind,
                "rubric": rubric.title,
                "fields": key.items[blind].fields[str(pass_no)],
                "sections": [[label, text] for label, text in shown[blind]],
            }
        )
    return {
        "format": SHEET_FORMAT,
        "storage": f"atlas-review:{key.study}:{reviewer}:pass{pass_no}",
        "file": f"{reviewer}.pass{pass_no}.json",
        "target": f"review/verdicts/{key.study}/{reviewer}.pass{pass_no}.json",
        "header": header,
        "rubrics": rubrics,
        "items": items,
    }


def _asset(name: str) -> str:
    return (resources.files("stages.review") / "sheet" / name).read_text(encoding="utf-8")


def _script_json(data: dict[str, Any]) -> str:
    """JSON safe inside ``<script>``: no ``<`` (so no ``</script>``), no U+2028/9 surprises."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def sheet_html(data: dict[str, Any]) -> str:
    """The whole file: skeleton, inlined style and script, the data as a JSON script block."""
    header = data["header"]
    title = f"Review sheet · {header['study']} · pass {header['pass']} · {header['reviewer']}"
    parts = {
        "CSP": CSP,
        "TITLE": _escape(title),
        "STYLE": _asset("sheet.css"),
        "DATA": _script_json(data),
        "SCRIPT": _asset("sheet.js"),
    }
    # One pass over the skeleton only: text inside an item can never be taken for a slot.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m.group(1)], _asset("sheet.html"))
