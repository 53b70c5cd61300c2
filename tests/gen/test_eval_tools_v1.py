"""eval-tools-v1: every gold call re-derived from its prompt and re-validated, independently.

The validator and the argument extraction here share no code with ``_gen/eval-tools-v1.py``:
each gold call is checked against its tool's JSON schema by a separate walker, and its
arguments are re-read from the user message with per-tool patterns (plus a name-to-code table
for currencies, units and languages typed here), so a prompt that does not state what the gold
call says fails.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "datasets" / "eval-tools-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
CODES = {
    "euros": "EUR",
    "US dollars": "USD",
    "British pounds": "GBP",
    "Japanese yen": "JPY",
    "Swiss francs": "CHF",
    "Canadian dollars": "CAD",
    "Indian rupees": "INR",
    "Brazilian reais": "BRL",
    "kilometres": "km",
    "miles": "mi",
    "kilograms": "kg",
    "pounds": "lb",
    "litres": "l",
    "US gallons": "gal",
    "metres": "m",
    "feet": "ft",
    "French": "fr",
    "Spanish": "es",
    "German": "de",
    "Italian": "it",
    "Portuguese": "pt",
    "Japanese": "ja",
    "Swahili": "sw",
    "Dutch": "nl",
}
NAME = r"([A-Z][a-z]+(?: [a-z]+)?|[A-Z][a-z]+ [A-Z][a-z]+)"
NUM = r"(\d+(?:\.\d+)?)"


def user(row: dict) -> str:
    return row["messages"][-1]["content"]


def valid(value: Any, schema: dict) -> bool:
    """Independent check of the subset used: type, enum, pattern, minimum, required, extras."""
    checks = {
        "string": lambda v: type(v) is str,
        "integer": lambda v: type(v) is int,
        "number": lambda v: type(v) in (int, float),
        "object": lambda v: type(v) is dict,
    }
    if not checks[schema["type"]](value):
        return False
    if value not in schema.get("enum", [value]):
        return False
    if "pattern" in schema and re.fullmatch(schema["pattern"].strip("^$"), value) is None:
        return False
    if "minimum" in schema and value < schema["minimum"]:
        return False
    if schema["type"] == "object":
        props = schema["properties"]
        if any(r not in value for r in schema["required"]) or any(k not in props for k in value):
            return False
        return all(valid(v, props[k]) for k, v in value.items())
    return True


def expected_arguments(name: str, text: str) -> dict[str, Any]:
    """Read the arguments the request states (or implies by arithmetic) straight from the text."""
    if name == "get_weather":
        m = re.search(r"in (\w+) on (\d{4}-\d\d-\d\d)", text) or re.search(
            r"forecast for (\w+) on (\d{4}-\d\d-\d\d)", text
        )
        args: dict[str, Any] = {"city": m[1], "date": m[2]}
        if later := re.search(r"leave (\d+) days later", text):
            args["date"] = str(dt.date.fromisoformat(m[2]) + dt.timedelta(days=int(later[1])))
        if "Fahrenheit" in text:
            args["unit"] = "fahrenheit"
        return args
    if name in ("convert_currency", "convert_units"):
        keys = (
            ("amount", "from_currency", "to_currency")
            if "currency" in name
            else ("value", "from_unit", "to_unit")
        )
        if m := re.fullmatch(rf"Convert {NUM} (\w+) to (\w+)\.", text):
            amount, src, dst = float(m[1]), m[2], m[3]
        elif m := re.fullmatch(
            rf"How many ([\w ]+?) (?:would I get for|are) {NUM} ([\w ]+?)\?", text
        ):
            amount, src, dst = float(m[2]), CODES[m[3]], CODES[m[1]]
        else:
            m = re.match(
                r"I (?:have to pay|carried) (\d+) \w+ of (\d+) ([\w ]+?) each\. .* in "
                r"([\w ]+?)\?",
                text,
            )
            amount, src, dst = int(m[1]) * int(m[2]), CODES[m[3]], CODES[m[4]]
        return dict(zip(keys, (amount, src, dst), strict=True))
    if name == "set_timer":
        if m := re.search(r"(\d+) hours? and (\d+) minutes", text):
            return {"minutes": int(m[1]) * 60 + int(m[2])}
        m = re.search(r'(\d+)[- ]minutes?(?: timer called "([^"]+)")?', text)
        return {"minutes": int(m[1])} | ({"label": m[2]} if m[2] else {})
    if name == "create_event":
        m = re.search(r'"([^"]+)" in my calendar on (\S+) (?:at|from) (\d\d):(\d\d)', text)
        if span := re.search(r"to (\d\d):(\d\d)\.$", text):
            length = (int(span[1]) - int(m[3])) * 60 + int(span[2]) - int(m[4])
        else:
            length = int(re.search(r"for (\d+) minutes", text)[1])
        return {
            "title": m[1],
            "date": m[2],
            "start_time": f"{m[3]}:{m[4]}",
            "duration_minutes": length,
        }
    if name == "search_flights":
        m = re.search(rf"from {NAME} to {NAME} on (\S+?)\.?(?: for|$)", text)
        args = {"origin": m[1], "destination": m[2], "date": m[3]}
        if n := re.search(r"for (\d+) passengers", text):
            args["passengers"] = int(n[1])
        if n := re.search(r"for (\d+) adults? and (\d+) child", text):
            args["passengers"] = int(n[1]) + int(n[2])
        return args
    if name == "send_email":
        m = re.match(r'Email (\S+@\S+) with the subject "([^"]+)"', text)
        return {"to": m[1], "subject": m[2]}
    m = re.fullmatch(r'Translate "(.+)" into (\w+)\.', text)
    return {"text": m[1], "target_language": CODES[m[2]]}


CALLS = [r for r in ROWS if r["answer"]["tool_call"] is not None]
NONE = [r for r in ROWS if r["answer"]["tool_call"] is None]


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 120 and card["default_scorer"] == "tool_call"
    assert {r["scorer"] for r in ROWS} == {"tool_call"}
    assert Counter(r["category"] for r in ROWS) == {
        "single_tool": 40,
        "tool_choice": 40,
        "no_tool": 40,
    }
    assert len(CALLS) == 80 and len(NONE) == 40
    offered = Counter((r["category"], len(r["meta"]["tools"])) for r in ROWS)
    assert offered[("single_tool", 1)] == 40
    assert sum(v for (c, n), v in offered.items() if c == "tool_choice" and 3 <= n <= 5) == 40
    assert Counter(r["meta"]["arguments_match"] for r in CALLS) == {"exact": 51, "subset": 29}
    assert Counter(r["meta"]["no_tool_reason"] for r in NONE) == {
        "small_talk": 14,
        "no_fitting_tool": 13,
        "answer_in_prompt": 13,
    }
    assert len({user(r) for r in ROWS}) == len(ROWS)
    assert {r["answer"]["tool_call"]["name"] for r in CALLS} == {
        t["function"]["name"] for r in ROWS for t in r["meta"]["tools"]
    }


@pytest.mark.parametrize("row", CALLS, ids=lambda r: r["id"])
def test_gold_call_is_valid_and_stated_by_the_prompt(row: dict) -> None:
    call, tools = row["answer"]["tool_call"], row["meta"]["tools"]
    names = [t["function"]["name"] for t in tools]
    assert names.count(call["name"]) == 1 and len(set(names)) == len(names)
    schema = next(
        t["function"]["parameters"] for t in tools if t["function"]["name"] == call["name"]
    )
    assert valid(call["arguments"], schema)
    assert call["arguments"] == expected_arguments(call["name"], user(row))
    if row["meta"]["arguments_match"] == "exact":
        assert set(call["arguments"]) == set(schema["properties"])
    else:
        assert set(call["arguments"]) < set(schema["properties"])


@pytest.mark.parametrize("row", NONE, ids=lambda r: r["id"])
def test_no_tool_items(row: dict) -> None:
    text, meta = user(row), row["meta"]
    names = {t["function"]["name"] for t in meta["tools"]}
    if meta["no_tool_reason"] == "small_talk":
        assert "?" not in text and not re.search(r"\d", text)
    elif meta["no_tool_reason"] == "no_fitting_tool":
        wanted = meta["requested"]
        assert wanted["name"] not in names
        assert wanted["arguments"] == expected_arguments(wanted["name"], text)
    else:
        assert meta["stated"] in text and text.count("?") == 1
