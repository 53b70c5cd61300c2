"""``splice`` scorer: long-generation integrity (spec 001, "eval-longgen-integrity-v1").

A defective serving build can weld two tokens together (``getUser`` + ``configLoader`` ->
``getUserconfigLoader``, ``4096`` + ``1024`` -> ``40961024``). This scorer looks for such welds.

Text: the output after extraction steps 1–2 (reasoning and fence markers removed); the
Answer-line step is never applied — the output is a source file. Tokens are the maximal runs
of ``[A-Za-z0-9_$]`` anywhere in it, comments and strings included: a run not starting with a
digit is an identifier, an all-digit run that is not part of a decimal (``1.5``) is an integer.

Identifiers. The *fragments* are ``meta.context_identifiers`` plus the names the generation
itself declares (after ``const``/``let``/``var``/``function``/``class``/``import``/``as``, inside
destructuring and import braces, parameter lists, method heads and object keys). A token is
*known* when it is a fragment, a token of the prompt itself, or a JavaScript keyword/global/
common built-in member. An unknown token is a splice when it is the concatenation A + B of two
fragments (case-sensitive), each at least 3 characters long, and the pair looks like a weld of
two real identifiers rather than an English compound: at least one of A, B is a compound
identifier (camel hump, underscore or digit inside: ``getUser``, ``MAX_SIZE``) or both have at
least 5 characters. So ``getUserconfigLoader`` is flagged, while ``username`` (``user`` +
``name``) or a legitimate ``getUserConfig`` built from ``getUser`` + ``config`` is not (the case
of B's first letter differs).

Numbers. The fragments are the integers of the prompt, of ``meta.context_numbers`` (when the
row carries it) and of the generation. An integer of at least 5 digits that occurs in neither
the prompt nor the context numbers is a splice when it is A + B with both parts fragments of at
least 2 digits and B without a leading zero (``4096`` + ``1024``; never ``100`` + ``00``). Welds
of two 2-digit numbers are not reported: a new 4-digit constant is too often legitimate.

Verdict: the observation is ``clean`` (no splice) or ``spliced``; correct when it equals
``answer`` (``clean`` for every published row). extras ``splices`` lists up to 20 findings as
{token, parts, line}. Trade-off: a weld in a declaration position or between two short simple
words is not reported; the rules favour never accusing an intact generation.

Completeness (issue 12: a canned "Answer: 42" is one intact line, not a long generation). The
spec's intact share stays the item's verdict; beside it extras carry ``complete``: the request
ended with ``finish_reason: "stop"`` (not cut off at ``max_tokens``) *and* the generation has at
least as many lines as the lower bound of the row's ``meta.line_range`` (the prompt's "between
150 and 190 lines"; lines of the generation after steps 1–2, surrounding blank lines stripped,
blank lines inside counted as a file's lines are). A row without ``line_range`` asks for no size:
only the finish reason counts. extras ``lines`` and ``finish_reason`` say what was seen. Metrics
report ``integrity.intact`` and ``integrity.intact_complete`` (:mod:`stages.scoring.metrics`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stages.scoring.extract import code_view
from stages.scoring.verdict import Verdict, binary

NAME = "splice"
MIN_PART = 3
MIN_SIMPLE_PART = 5
MIN_NUMBER_DIGITS = 5
MAX_REPORTED = 20

_IDENTIFIER = re.compile(r"(?<![\w$])[A-Za-z_$][\w$]*", re.A)
_INTEGER = re.compile(r"(?<![\w$.])\d+(?![\w.])", re.A)
_WORD = re.compile(r"[\w$]+", re.A)  # maximal runs: identifiers, integers and the odd "3px"
_ARROW_OR_COLON = re.compile(r"=>|(?<!:):(?!:)")
_COMPOUND = re.compile(r"[a-z0-9][A-Z]|.[_\d]", re.A)
_DECLARATIONS = [
    re.compile(r"\b(?:const|let|var|function\*?|class|as|import)\s+([A-Za-z_$][\w$]*)", re.A),
    re.compile(r"\b(?:const|let|var|import|export)\s*[{\[]([^}\]]*)[}\]]", re.A),
    re.compile(r"\bfunction\*?\s*[\w$]*\s*\(([^)]*)\)", re.A),
    re.compile(r"\(([^()]*)\)\s*=>", re.A),
    re.compile(
        r"^\s*(?:(?:async|static|get|set)\s+)*([A-Za-z_$][\w$]*\s*\([^)]*\))\s*\{", re.A | re.M
    ),
]
# Keywords, globals and common built-in members: never a splice even when undeclared.
_JS_WORDS = """
    break case catch class const continue debugger default delete do else export extends false
    finally for function if import in instanceof let new null return super switch this throw
    true try typeof var void while with yield async await static get set of from as undefined
    NaN Infinity globalThis window document console process require module exports Object Array
    String Number Boolean Symbol BigInt Math JSON Date RegExp Error TypeError RangeError
    SyntaxError Promise Map Set WeakMap WeakSet Proxy Reflect Intl Buffer URL setTimeout
    clearTimeout setInterval clearInterval queueMicrotask structuredClone fetch parseInt
    parseFloat isNaN isFinite encodeURIComponent decodeURIComponent length prototype
    constructor toString valueOf hasOwnProperty forEach map filter reduce reduceRight find
    findIndex findLast some every includes indexOf lastIndexOf join split slice splice push pop
    shift unshift concat sort reverse flat flatMap fill keys values entries fromEntries assign
    freeze isArray from startsWith endsWith padStart padEnd trim trimStart trimEnd toLowerCase
    toUpperCase localeCompare replace replaceAll match matchAll toFixed toPrecision then catch
    finally resolve reject all allSettled race any stringify parse getTime toISOString now
    floor ceil round max min abs sqrt pow random log error warn info charAt charCodeAt
    codePointAt fromCharCode repeat substring test exec has delete clear size add next done
    value
"""
JS_KNOWN = frozenset(_JS_WORDS.split())


def _identifiers(text: str) -> list[str]:
    return _IDENTIFIER.findall(text)


def _names_before_arrows_and_colons(text: str) -> set[str]:
    """``x => …`` parameters and ``key: …`` keys: the identifier right before ``=>`` or ``:``.

    Scanning backwards from each ``=>``/``:`` is far cheaper than a regex that must try every
    identifier start in the file.
    """
    names = set()
    for match in _ARROW_OR_COLON.finditer(text):
        end = match.start()
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        start = end
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_$"):
            start -= 1
        if start < end and text[start].isascii() and not text[start].isdigit():
            names.add(text[start:end])
    return names


def declared_names(text: str) -> set[str]:
    """Names the generation introduces itself (declarations, parameters, keys, methods)."""
    names = _names_before_arrows_and_colons(text)
    for pattern in _DECLARATIONS:
        for captured in pattern.findall(text):
            names.update(_identifiers(captured))
    return names


def _prompt_text(row: dict[str, Any]) -> str:
    if row.get("prompt") is not None:
        return str(row["prompt"])
    return "\n".join(str(m.get("content", "")) for m in row.get("messages") or [])


def _weld(token: str, fragments: set[str] | frozenset[str]) -> tuple[str, str] | None:
    for cut in range(MIN_PART, len(token) - MIN_PART + 1):
        head, tail = token[:cut], token[cut:]
        if head in fragments and tail in fragments:
            if _COMPOUND.search(head) or _COMPOUND.search(tail):
                return head, tail
            if len(head) >= MIN_SIMPLE_PART and len(tail) >= MIN_SIMPLE_PART:
                return head, tail
    return None


def _number_weld(token: str, fragments: set[str]) -> tuple[str, str] | None:
    for cut in range(2, len(token) - 1):
        head, tail = token[:cut], token[cut:]
        if tail[0] != "0" and head in fragments and tail in fragments:
            return head, tail
    return None


def find_splices(
    generation: str, context: list[str], prompt: str, context_numbers: list[str] | None = None
) -> list[dict[str, Any]]:
    """Every welded identifier or number in ``generation``, in order of appearance.

    The declaration and prompt scans are the expensive part, so they run only when some token
    could be a weld at all: declared names are generation words, so a token that does not split
    into context identifiers and generation words cannot split into the real fragments either.
    """
    words = dict.fromkeys(_WORD.findall(generation))  # unique, in order of appearance
    context_set = set(context)
    upper_bound = context_set | words.keys()
    candidates = [
        w
        for w in words
        if w not in context_set and w not in JS_KNOWN and _could_be_weld(w, upper_bound)
    ]
    if not candidates:
        return []
    fragments = context_set | declared_names(generation)
    prompt_words = set(_WORD.findall(prompt))
    prompt_numbers = set(_INTEGER.findall(prompt))
    prompt_numbers.update(str(n) for n in context_numbers or [] if str(n).isdigit())
    number_fragments = set(_INTEGER.findall(generation)) | prompt_numbers
    found: list[dict[str, Any]] = []
    for token in candidates:
        if token in fragments or token in prompt_words or token in prompt_numbers:
            continue
        if token.isdigit():
            if token not in number_fragments:  # part of a decimal such as 1.23456
                continue
            parts = _number_weld(token, number_fragments)
        else:
            parts = _weld(token, fragments)
        if parts is not None:
            found.append(
                {"token": token, "parts": list(parts), "line": _line_of(token, generation)}
            )
    return found


def _could_be_weld(token: str, fragments: set[str]) -> bool:
    if token.isdigit():
        return len(token) >= MIN_NUMBER_DIGITS  # number fragments come from the prompt too
    if token[0].isdigit() or len(token) < 2 * MIN_PART:
        return False
    return _weld(token, fragments) is not None


def _line_of(token: str, text: str) -> int:
    match = re.search(rf"(?<![\w$]){re.escape(token)}(?![\w$])", text)
    return text.count("\n", 0, match.start() if match else 0) + 1


def complete(generation: str, finish_reason: Any, line_range: Any) -> tuple[bool, int]:
    """``(complete, lines)`` of one generation under the completeness rule above."""
    lines = len(generation.strip().splitlines())
    wanted = line_range[0] if isinstance(line_range, list) and line_range else 0
    return finish_reason == "stop" and lines >= int(wanted), lines


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge whether the generation came back without welded tokens."""
    generation = code_view(response.get("output") or "")
    meta = row.get("meta") or {}
    context = list(meta.get("context_identifiers") or [])
    numbers = list(meta.get("context_numbers") or [])
    splices = find_splices(generation, context, _prompt_text(row), numbers)
    observed = "spliced" if splices else "clean"
    ok = observed == str(row["answer"]).strip().lower()
    if splices:
        shown = ", ".join(f"{s['token']} (line {s['line']})" for s in splices[:3])
        why = f"{len(splices)} spliced token(s): {shown}"
    else:
        why = f"no spliced token in {generation.count(chr(10)) + 1} lines"
    finish = response.get("finish_reason")
    done, lines = complete(generation, finish, meta.get("line_range"))
    return binary(
        NAME, ok, observed, why,
        splices=splices[:MAX_REPORTED], complete=done, lines=lines, finish_reason=finish,
    )  # fmt: skip
