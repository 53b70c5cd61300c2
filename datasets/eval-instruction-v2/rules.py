"""Normative rule checker of eval-instruction-v1 (spec 001, "The instruction rule DSL").

This file is copied byte for byte to ``datasets/eval-instruction-v1/rules.py``; the harness
scorer must agree with it. Standard library only. ``python rules.py --self-test`` exits 0 when
every built-in case passes. An answer is ``{"all": [rule, ...]}``; the text passes when every
rule passes against the raw model output.

Shared definitions (normative):

* word: a match of ``[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*`` (don't = 1 word, 3.5 = 2 words);
* lines: ``text.strip().split("\\n")``, lines that are empty after ``strip()`` dropped;
* paragraphs: ``re.split(r"\\n\\s*\\n", text.strip())``, pieces empty after ``strip()`` dropped;
* sentences: ``text`` split on ``[.!?]+`` followed by whitespace or the end of the text; a
  piece counts only when it contains at least one word, so empty trailing pieces and
  punctuation-only pieces are dropped;
* bullets: lines whose ``lstrip()`` starts with a marker followed by one space; markers are
  ``-``, ``*``, ``•`` and a number followed by ``.`` or ``)`` (``1.``, ``12)``).

Rules (``type`` plus parameters; bounds are inclusive, at least one of min/max is given):

* ``word_count`` / ``sentence_count`` / ``paragraph_count`` / ``line_count`` /
  ``bullet_count`` {min?, max?}: the number of such units lies within the bounds;
* ``max_chars`` {max}: ``len(text.strip()) <= max``;
* ``contains_keyword`` {keyword, min?, max?}: words equal to ``keyword`` (case-insensitive)
  occur within the bounds (at least once when neither bound is given);
* ``forbidden_words`` {words}: no word equals any of ``words`` (case-insensitive);
* ``starts_with`` / ``ends_with`` {text}: ``text.strip()`` starts / ends with it (case-sensitive);
* ``all_lowercase`` / ``all_uppercase``: ``text == text.lower()`` / ``text == text.upper()``
  and the text has at least one letter;
* ``no_commas``: no ``,`` in the text;
* ``json_object`` {required_keys}: ``text.strip()`` (or the body of one code fence that is the
  whole text) parses as a JSON object holding every required key;
* ``wrapped_in_quotes``: ``text.strip()`` is at least 2 characters and starts and ends with
  ``"`` (or with ``“`` and ``”``);
* ``title``: contains ``<<title>>`` (one or more characters, no ``<``, ``>`` or newline inside);
* ``postscript`` {marker}: some line's ``lstrip()`` starts with ``marker`` (e.g. ``P.S.``);
* ``placeholder_count`` {min?, max?}: the number of ``[...]`` placeholders (non-empty, one
  line, no nested brackets) lies within the bounds.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*")
SENTENCE_END_RE = re.compile(r"[.!?]+(?=\s|\Z)")
BULLET_RE = re.compile(r"(?:[-*•]|[0-9]+[.)]) ")
TITLE_RE = re.compile(r"<<[^<>\n]+>>")
PLACEHOLDER_RE = re.compile(r"\[[^\[\]\n]+\]")
FENCE_RE = re.compile(r"\A```[A-Za-z0-9_-]*\n(.*)\n```\Z", re.DOTALL)


def words(text: str) -> list[str]:
    return WORD_RE.findall(text)


def lines(text: str) -> list[str]:
    return [line for line in text.strip().split("\n") if line.strip()]


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END_RE.split(text) if WORD_RE.search(s)]


def bullets(text: str) -> list[str]:
    return [line for line in lines(text) if BULLET_RE.match(line.lstrip())]


def _in_bounds(value: int, rule: dict[str, Any]) -> bool:
    low, high = rule.get("min"), rule.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


def _json_object(text: str, rule: dict[str, Any]) -> bool:
    body = text.strip()
    fenced = FENCE_RE.match(body)
    try:
        obj = json.loads(fenced.group(1) if fenced else body)
    except ValueError:
        return False
    return isinstance(obj, dict) and all(key in obj for key in rule["required_keys"])


def _quoted(text: str) -> bool:
    body = text.strip()
    pairs = (('"', '"'), ("“", "”"))
    return len(body) >= 2 and any(body[0] == a and body[-1] == b for a, b in pairs)


def _keyword_count(text: str, keyword: str) -> int:
    wanted = keyword.casefold()
    return sum(1 for w in words(text) if w.casefold() == wanted)


Check = Callable[[str, dict[str, Any]], bool]
#: rule type -> (allowed parameters, required parameters, check)
RULES: dict[str, tuple[frozenset[str], frozenset[str], Check]] = {}


def _rule(name: str, allowed: str = "", required: str = "") -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        RULES[name] = (frozenset(allowed.split()), frozenset(required.split()), check)
        return check

    return register


for _name, _unit in (
    ("word_count", words),
    ("sentence_count", sentences),
    ("paragraph_count", paragraphs),
    ("line_count", lines),
    ("bullet_count", bullets),
):
    _rule(_name, "min max")(lambda t, r, unit=_unit: _in_bounds(len(unit(t)), r))
_rule("max_chars", "max", "max")(lambda t, r: len(t.strip()) <= r["max"])
_rule("contains_keyword", "keyword min max", "keyword")(
    lambda t, r: _in_bounds(
        _keyword_count(t, r["keyword"]), r if {"min", "max"} & set(r) else {"min": 1}
    )
)
_rule("forbidden_words", "words", "words")(
    lambda t, r: not {w.casefold() for w in words(t)} & {w.casefold() for w in r["words"]}
)
_rule("starts_with", "text", "text")(lambda t, r: t.strip().startswith(r["text"]))
_rule("ends_with", "text", "text")(lambda t, r: t.strip().endswith(r["text"]))
_rule("all_lowercase")(lambda t, r: t == t.lower() and any(c.isalpha() for c in t))
_rule("all_uppercase")(lambda t, r: t == t.upper() and any(c.isalpha() for c in t))
_rule("no_commas")(lambda t, r: "," not in t)
_rule("json_object", "required_keys", "required_keys")(_json_object)
_rule("wrapped_in_quotes")(lambda t, r: _quoted(t))
_rule("title")(lambda t, r: TITLE_RE.search(t) is not None)
_rule("postscript", "marker", "marker")(
    lambda t, r: any(line.lstrip().startswith(r["marker"]) for line in lines(t))
)
_rule("placeholder_count", "min max")(lambda t, r: _in_bounds(len(PLACEHOLDER_RE.findall(t)), r))


def check_rule(rule: dict[str, Any], text: str) -> bool:
    """Whether ``text`` satisfies one rule; a malformed rule raises ValueError (a data bug)."""
    kind = rule.get("type")
    if kind not in RULES:
        raise ValueError(f"unknown rule type {kind!r}")
    allowed, required, check = RULES[kind]
    params = set(rule) - {"type"}
    if params - allowed or required - params:
        raise ValueError(f"rule {rule!r}: parameters must be within {sorted(allowed)}")
    if {"min", "max"} & allowed and kind != "contains_keyword" and not {"min", "max"} & params:
        raise ValueError(f"rule {rule!r}: give min, max or both")
    return check(text, rule)


def evaluate(answer: dict[str, Any], text: str) -> tuple[bool, list[dict[str, Any]]]:
    """``(passed, failed_rules)``: passed when every rule in ``answer["all"]`` holds."""
    failed = [rule for rule in answer["all"] if not check_rule(rule, text)]
    return not failed, failed


# (rule, text, expected) — each hand-checked against the definitions above.
SELF_TESTS: list[tuple[dict[str, Any], str, bool]] = [
    ({"type": "word_count", "min": 3, "max": 3}, "Don't count 3.5", False),  # 4 words
    ({"type": "word_count", "min": 4, "max": 4}, "Don't count 3.5", True),
    ({"type": "word_count", "max": 2}, "well-known rock’n’roll!", True),  # 2 words
    ({"type": "sentence_count", "min": 3, "max": 3}, "Hi. How are you?  Fine!!", True),
    ({"type": "sentence_count", "max": 1}, "It is 3.5 m long... ", True),
    ({"type": "sentence_count", "min": 2}, "One.\n\n...", False),
    ({"type": "paragraph_count", "min": 2, "max": 2}, "a\n \nb\n\n\n", True),
    ({"type": "paragraph_count", "min": 2}, "a\nb", False),
    ({"type": "line_count", "min": 2, "max": 2}, "\n a\n\n  \nb\n", True),
    ({"type": "bullet_count", "min": 3, "max": 3}, "Intro\n- a\n  * b\n• c\n-d\n**e**", True),
    ({"type": "bullet_count", "min": 2, "max": 2}, "1. one\n12) two\n3.x", True),
    ({"type": "max_chars", "max": 5}, "  hello \n", True),
    ({"type": "max_chars", "max": 4}, "hello", False),
    ({"type": "contains_keyword", "keyword": "Moon", "min": 2}, "moon, MOON, moons", True),
    ({"type": "contains_keyword", "keyword": "moon", "min": 2}, "moon and moons", False),
    ({"type": "contains_keyword", "keyword": "sun", "max": 0}, "sunny", True),
    ({"type": "forbidden_words", "words": ["very"]}, "Every day", True),
    ({"type": "forbidden_words", "words": ["very"]}, "It is Very big", False),
    ({"type": "starts_with", "text": "Yes:"}, "  Yes: fine", True),
    ({"type": "ends_with", "text": "Done."}, "All done.", False),
    ({"type": "ends_with", "text": "done."}, "All done.\n", True),
    ({"type": "all_lowercase"}, "all lower, 42 é.", True),
    ({"type": "all_lowercase"}, "not All", False),
    ({"type": "all_uppercase"}, "42", False),
    ({"type": "all_uppercase"}, "LOUD [NAME] 42", True),
    ({"type": "no_commas"}, "a, b", False),
    ({"type": "json_object", "required_keys": ["a"]}, '```json\n{"a": 1}\n```', True),
    ({"type": "json_object", "required_keys": ["a", "b"]}, '{"a": 1}', False),
    ({"type": "json_object", "required_keys": []}, "[1]", False),
    ({"type": "wrapped_in_quotes"}, ' "quoted" ', True),
    ({"type": "wrapped_in_quotes"}, '"', False),
    ({"type": "title"}, "<<A Title>>\nbody", True),
    ({"type": "title"}, "<<>> no", False),
    ({"type": "postscript", "marker": "P.S."}, "Body.\n\n  P.S. later", True),
    ({"type": "postscript", "marker": "P.S."}, "Body. P.S. inline", False),
    ({"type": "placeholder_count", "min": 2}, "[name] at [place] and []", True),
    ({"type": "placeholder_count", "min": 2}, "[a\nb] [[c]]", False),
]


def self_test() -> int:
    """Run SELF_TESTS plus the malformed-rule checks; return the number of failures."""
    failures = 0
    for rule, text, expected in SELF_TESTS:
        if check_rule(rule, text) is not expected:
            failures += 1
            print(f"FAIL {rule} on {text!r}: expected {expected}")
    for bad in ({"type": "nope"}, {"type": "word_count"}, {"type": "no_commas", "x": 1}):
        try:
            check_rule(bad, "text")
        except ValueError:
            continue
        failures += 1
        print(f"FAIL malformed rule {bad} was accepted")
    ok, failed = evaluate({"all": [{"type": "no_commas"}, {"type": "title"}]}, "a, b")
    if ok or len(failed) != 2:
        failures += 1
        print("FAIL evaluate did not report both failed rules")
    print(f"self-test: {len(SELF_TESTS) + 4 - failures} passed, {failures} failed")
    return failures


if __name__ == "__main__":
    if sys.argv[1:] != ["--self-test"]:
        sys.exit("usage: python rules.py --self-test")
    sys.exit(1 if self_test() else 0)
