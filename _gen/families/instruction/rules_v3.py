"""Normative rule checker of eval-instruction-v3 (issue 30): each rule checks what its
instruction sentence says, no less. Copied byte for byte to ``datasets/eval-instruction-v3/
rules.py``; the ``instruction`` scorer imports that copy. Standard library only;
``python rules.py --self-test`` exits 0 when every built-in case passes. An answer is
``{"all": [rule, ...]}`` with eval-instruction-v1's rule types and parameters; the text passes
when every rule holds of the raw model output ("\\r\\n" is read as "\\n").

Shared definitions (normative):

* word: a whitespace-separated piece holding a letter or digit ("3.5", "e.g.", "don't",
  "well-known" and "[name]" are one word each; a lone dash is none);
* forms of a word w (keywords, forbidden words): a token of letters and digits (apostrophes
  inside it kept; a hyphen or any other mark ends it, so "sea-going" holds "sea") that,
  case-folded and without a trailing "'s" (straight or curly), is w or w's plural (``plural``);
  "lamps'" is the token "lamps";
* lines: ``text.strip()`` split on "\\n"; paragraphs: ``text.strip()`` split where a line holds
  only whitespace, empty pieces dropped;
* sentence end: a run of ``. ! ? …`` then any closing marks (quotes, brackets, ``*``, ``_``),
  then whitespace or the end of the text; a lone "." after one of ``ABBREVIATIONS`` (e.g., i.e.,
  St., Dr., Mr., P.S., ...) ends nothing, and after "etc." only before a capital letter;
  sentences are the pieces between ends that hold a letter or digit, a line that is only a
  ``<<title>>`` being part of none;
* list line: a line whose ``lstrip()`` starts with a list marker and a space (``-``, ``*``,
  ``•``, ``+``, ``‣``, ``◦``, ``▪``, ``–``, ``—``, or a number and ``.`` or ``)``).

Rules (bounds inclusive; count rules need min, max or both):

* ``word_count`` / ``sentence_count`` / ``paragraph_count`` {min?, max?}: units within bounds;
* ``line_count`` {min?, max?}: lines within bounds, and none of them blank;
* ``bullet_count`` {min?, max?}: list lines within bounds, every one of them marked "- ";
* ``max_chars`` {max}: ``len(text.strip()) <= max``;
* ``contains_keyword`` {keyword, min?, max?}: tokens that are forms of keyword within bounds
  (at least one when no bound is given); ``forbidden_words`` {words}: no token is a form of any;
* ``starts_with`` / ``ends_with`` {text}: ``text.strip()`` starts / ends with it (case-sensitive);
* ``all_lowercase`` / ``all_uppercase``: unchanged by lower() / upper(), with a letter;
* ``no_commas``: none of ``, ， 、 ﹐ ،``;
* ``json_object`` {required_keys}: ``text.strip()`` (or the body of one code fence that is the
  whole text) is a JSON object without repeated keys whose keys are exactly required_keys,
  each value a string;
* ``wrapped_in_quotes``: ``text.strip()`` opens with ``"`` or ``“``, closes with ``"`` or ``”``
  and holds a letter or digit in between;
* ``title``: the first line, stripped, is ``<<...>>`` with a letter or digit inside (no ``<``,
  ``>`` or newline);
* ``postscript`` {marker}: the last line's ``lstrip()`` starts with marker;
* ``placeholder_count`` {min?, max?}: ``[...]`` on one line, no nested brackets, holding a
  letter or digit and not followed by "(" (a Markdown link), within bounds.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

ALNUM = re.compile(r"[^\W_]")
TOKEN_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
SENTENCE_END_RE = re.compile(r"[.!?…]+[\"'”’»)\]*_]*(?=\s|\Z)")
#: Written without their last period, case-folded.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "cf", "vs", "st", "dr", "mr", "mrs", "ms", "prof", "jr", "sr", "mt", "p.s"}
)
LIST_RE = re.compile(r"(?:[-*•+‣◦▪–—]|[0-9]+[.)]) ")
TITLE_RE = re.compile(r"<<[^<>\n]*[^\W_][^<>\n]*>>")
PLACEHOLDER_RE = re.compile(r"\[[^\[\]\n]*[^\W_][^\[\]\n]*\](?!\()")
FENCE_RE = re.compile(r"\A```[A-Za-z0-9_-]*\n(.*)\n```\Z", re.DOTALL)
COMMAS = ",，、﹐،"
IRREGULAR = {"shelf": "shelves", "leaf": "leaves", "half": "halves", "knife": "knives"}


def _text(text: str) -> str:
    return text.replace("\r\n", "\n")


def words(text: str) -> list[str]:
    return [piece for piece in text.split() if ALNUM.search(piece)]


def lines(text: str) -> list[str]:
    return _text(text).strip().split("\n")


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n[^\S\n]*\n", _text(text).strip()) if p.strip()]


def _ends_sentence(text: str, match: re.Match[str]) -> bool:
    if match.group() != ".":
        return True
    before = re.search(r"[^\s(\[\"'“‘]*\Z", text[: match.start()])
    token = before.group().casefold() if before else ""
    if token in ABBREVIATIONS:
        return False
    rest = text[match.end() :].lstrip()
    return token != "etc" or not rest or rest[0].isupper()


def sentences(text: str) -> list[str]:
    kept = [line for line in lines(text) if not TITLE_RE.fullmatch(line.strip())]
    text, pieces, start = "\n".join(kept), [], 0
    for match in SENTENCE_END_RE.finditer(text):
        if _ends_sentence(text, match):
            pieces.append(text[start : match.end()])
            start = match.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if ALNUM.search(p)]


def list_lines(text: str) -> list[str]:
    return [line for line in lines(text) if LIST_RE.match(line.lstrip())]


def plural(word: str) -> str:
    """The regular English plural (shelf, leaf, half and knife take -ves)."""
    w = word.casefold()
    if w in IRREGULAR:
        return IRREGULAR[w]
    if re.search(r"(?:s|x|z|ch|sh)\Z", w):
        return w + "es"
    return w[:-1] + "ies" if re.search(r"[^aeiou]y\Z", w) else w + "s"


def is_form(token: str, word: str) -> bool:
    """Whether ``token`` is ``word``, its plural, or either with a possessive "'s"."""
    base = token.casefold().replace("’", "'")
    base = base[:-2] if base.endswith("'s") else base
    return base in (word.casefold(), plural(word))


def form_count(text: str, word: str) -> int:
    return sum(1 for token in TOKEN_RE.findall(text) if is_form(token, word))


def _in_bounds(value: int, rule: dict[str, Any]) -> bool:
    low, high = rule.get("min"), rule.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("a key is repeated")
    return dict(pairs)


def _json_object(text: str, rule: dict[str, Any]) -> bool:
    body = _text(text).strip()
    fenced = FENCE_RE.match(body)
    try:
        obj = json.loads(fenced.group(1) if fenced else body, object_pairs_hook=_unique_keys)
    except ValueError:
        return False
    return (
        isinstance(obj, dict)
        and sorted(obj) == sorted(rule["required_keys"])
        and all(isinstance(value, str) for value in obj.values())
    )


def _quoted(text: str) -> bool:
    body = text.strip()
    return len(body) >= 2 and body[0] in '"“' and body[-1] in '"”' and bool(ALNUM.search(body))


def _bullets(text: str, rule: dict[str, Any]) -> bool:
    found = list_lines(text)
    return all(line.lstrip().startswith("- ") for line in found) and _in_bounds(len(found), rule)


def _lines(text: str, rule: dict[str, Any]) -> bool:
    found = lines(text)
    return all(line.strip() for line in found) and _in_bounds(len(found), rule)


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
):
    _rule(_name, "min max")(lambda t, r, unit=_unit: _in_bounds(len(unit(t)), r))
_rule("line_count", "min max")(_lines)
_rule("bullet_count", "min max")(_bullets)
_rule("max_chars", "max", "max")(lambda t, r: len(t.strip()) <= r["max"])
_rule("contains_keyword", "keyword min max", "keyword")(
    lambda t, r: _in_bounds(
        form_count(t, r["keyword"]), r if {"min", "max"} & set(r) else {"min": 1}
    )
)
_rule("forbidden_words", "words", "words")(
    lambda t, r: not any(form_count(t, word) for word in r["words"])
)
_rule("starts_with", "text", "text")(lambda t, r: t.strip().startswith(r["text"]))
_rule("ends_with", "text", "text")(lambda t, r: t.strip().endswith(r["text"]))
_rule("all_lowercase")(lambda t, r: t == t.lower() and any(c.isalpha() for c in t))
_rule("all_uppercase")(lambda t, r: t == t.upper() and any(c.isalpha() for c in t))
_rule("no_commas")(lambda t, r: not any(c in COMMAS for c in t))
_rule("json_object", "required_keys", "required_keys")(_json_object)
_rule("wrapped_in_quotes")(lambda t, r: _quoted(t))
_rule("title")(lambda t, r: TITLE_RE.fullmatch(lines(t)[0].strip()) is not None)
_rule("postscript", "marker", "marker")(lambda t, r: lines(t)[-1].lstrip().startswith(r["marker"]))
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


def _n(kind: str, low: int | None = None, high: int | None = None, **params: Any) -> dict:
    bounds = {k: v for k, v in (("min", low), ("max", high)) if v is not None}
    return {"type": kind, **bounds, **params}


# (rule, text, expected) — each worked by hand from the definitions above.
SELF_TESTS: list[tuple[dict[str, Any], str, bool]] = [
    (_n("word_count", 3, 3), "Don't count 3.5", True),
    (_n("word_count", 4, 4), "e.g. the [name] - well-known", True),
    (_n("sentence_count", 3, 3), "Hi. How are you?  Fine!!", True),
    (_n("sentence_count", 2, 2), "It waits… Then it goes.", True),
    (_n("sentence_count", 2, 2), 'He said "go." Then he went.', True),
    (_n("sentence_count", 1, 1), "Use a tool (e.g. a saw) near St. Anne's with Dr. Lee.", True),
    (_n("sentence_count", 1, 1), "Pens etc. are sold here.", True),
    (_n("sentence_count", 2, 2), "Pens etc. The shop opens at nine.", True),
    (_n("sentence_count", 1, 1), "P.S. See you.\n", True),
    (_n("sentence_count", 1, 1), "It is.\n<<A Title>>\n", True),
    (_n("paragraph_count", 2, 2), "a\n \nb\n\n\n", True),
    (_n("paragraph_count", 2), "a\nb", False),
    (_n("line_count", 2, 2), "a\r\nb\n", True),
    (_n("line_count", 2, 2), "a\n\nb", False),
    (_n("bullet_count", 2, 2), "Intro\n- a\n  - b\n-c", True),
    (_n("bullet_count", 2, 2), "- a\n* b", False),
    (_n("bullet_count", 2, 2), "- a\n- b\n1) c", False),
    (_n("max_chars", high=5), "  hello \n", True),
    (_n("contains_keyword", 3, keyword="Arch"), "The arch's span, two arches, arch-like", True),
    (_n("contains_keyword", 1, keyword="sun"), "sunny sunlight", False),
    (_n("forbidden_words", words=["sea"]), "A sea-going ship", False),
    (_n("forbidden_words", words=["sky"]), "Clear SKIES", False),
    (_n("forbidden_words", words=["lamp"]), "Two lamps’ light", False),
    (_n("forbidden_words", words=["sea"]), "Seals see seashells", True),
    (_n("starts_with", text="Yes:"), "  Yes: fine", True),
    (_n("ends_with", text="done."), "All done.\n", True),
    (_n("all_lowercase"), "all lower, 42 é.", True),
    (_n("all_uppercase"), "42", False),
    (_n("no_commas"), "a，b", False),
    (_n("json_object", required_keys=["a"]), '```json\n{"a": "x"}\n```', True),
    (_n("json_object", required_keys=["a"]), '{"a": ["x"]}', False),
    (_n("json_object", required_keys=["a"]), '{"a": null}', False),
    (_n("json_object", required_keys=["a"]), '{"a": "x", "b": "y"}', False),
    (_n("json_object", required_keys=["a"]), '{"a": "x", "a": "y"}', False),
    (_n("wrapped_in_quotes"), " “quoted” ", True),
    (_n("wrapped_in_quotes"), '""', False),
    (_n("title"), "\n<<A Title>>\nbody", True),
    (_n("title"), "body\n<<A Title>>", False),
    (_n("postscript", marker="P.S."), "Body.\n\n  P.S. later\n", True),
    (_n("postscript", marker="P.S."), "P.S. first\n\nBody.", False),
    (_n("placeholder_count", 2), "[name] at [place]", True),
    (_n("placeholder_count", 2), "[name] at [ ] or [...]", False),
    (_n("placeholder_count", 1), "[site](https://example.org)", False),
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
