"""What an answer commits to: one grammar for the numeric, contains, exact and mc scorers (issue
30; docs/scoring.md#one-committed-answer), under the strict and the flexible reading alike.

Each scorer finds the *candidates* of its answer's kind in the answer text — numbers, option
labels and option texts, the words of a category (weekday names, the dataset's answers) — each
with a *key* that says which answer it names (a number's value, an option's letter, a weekday's
index). This module then reads the text's structure around them:

1. **The main clause** runs from the start of the text to the first *break* after the first
   candidate: a line break, an opening bracket, ``, ; : . ! ?`` followed by a space, or a spaced
   dash before a word (``A - fossil``; a dash before a digit is subtraction). Nothing inside a
   candidate is a break (``1,000``, an option text holding a comma).
2. **An equation resolves to its last side**: when the main clause holds ``=`` (or ``≈``) after
   its first candidate, only what follows the last one is the value; the rest is working
   (``x = 17 + 21 = 38`` commits to 38).
3. **One value**: the value part must hold candidates of exactly one key. Two keys — a range, a
   conjunction, a list, several labels in any punctuation (``3-4``, ``W and G``, ``A.B.C.D``) —
   commit to none. So does a main clause with a negation before the value or within three words
   after it (``it is not 43``, ``ce n'est pas jeudi``), or with a disjunction, hedge, contrast or
   question mark (``42 or so``, ``maybe 42``, ``42?``): the reply does not commit.
4. **Commentary**: every later segment (each bracket group, each clause after a break, each
   line) may hold other candidates only as *working* or as *rejections*. A candidate of another
   key there is
   - rejected, and harmless, when a negation precedes it in its segment (``38 (not 36)``);
   - *offered*, and the reply commits to none, when the segment holds a disjunction, hedge,
     contrast or question mark (``W (or G)``, ``W, maybe G``, ``mardi [jeudi?]``,
     ``C: but D is also plausible``);
   - working, and harmless, inside brackets or in a clause opened by an explanation connective
     (``11 (counting day 0)``, ``472 (an increase of 72)``, ``22, since 9 + 11 + 2``) — unless the
     segment is the bare candidate (``42 (43)``, ``W, G``) or a restatement marker before a bare
     candidate (``42 (i.e. 43)``, ``42 (= 43)``; ``38 (= 17 + 21)`` is working);
   - anywhere else a second answer (``42. Actually it's 43``), and the reply commits to none.

Word classes are those of :mod:`stages.scoring.lexicon`, for English and the row's language,
matched with the candidates themselves masked (``Mai``, a month, is not Italian ``mai``).
:func:`last_sentence` chooses the part of a reply without an answer line that the flexible
reading judges.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass

from stages.scoring.lexicon import WordClasses

_MASK = "\ue000"
_BREAK = re.compile(r"\n|[(\[{]|[,;:.!?。](?=\s)|[,;:.!?。]$|\s[-–—]+\s+(?=[^\W\d])")
_EQUALS = re.compile(r"=|≈|≃")
_BRACKET_OPEN = "([{"
_BRACKET_CLOSE = {"(": ")", "[": "]", "{": "}"}
_RESTATEMENT_START = re.compile(r"^\W*(?:=|≈|~)")
_SENTENCE_END = re.compile(r"\n|(?<=[.!?。])\s+")
_AFTER_WORDS = 3
# The short disjunctions no language lends (Spanish/Italian "o", Spanish "u", Swahili "au"),
# right before another candidate: "85 (o 86)" offers 86 whatever the row's language.
_SHORT_DISJUNCTION = re.compile(rf"(?<![\w'])(?:o|u|au|ama)\s+{_MASK}", re.I)


@dataclass(frozen=True)
class Candidate:
    """One candidate answer of the scorer's kind, found in the text."""

    start: int
    """Where it starts in the text given to :func:`commit`."""
    end: int
    """Where it ends (exclusive)."""
    key: Hashable
    """Which answer it names: equal keys are one answer written twice."""


@dataclass(frozen=True)
class Commitment:
    """What a text commits to."""

    candidate: Candidate | None
    """The committed candidate (its first occurrence in the value part), or None."""
    value_text: str
    """The value part of the main clause (after the last ``=``), stripped."""
    why: str
    """Why the text commits to nothing (empty when it commits)."""

    @property
    def key(self) -> Hashable | None:
        """The committed key, or None."""
        return None if self.candidate is None else self.candidate.key


def masked(text: str, candidates: list[Candidate]) -> str:
    """``text`` with every candidate's characters replaced by a private-use mark."""
    chars = list(text)
    for cand in candidates:
        chars[cand.start : cand.end] = _MASK * (cand.end - cand.start)
    return "".join(chars)


def _main_end(plain: str, start: int) -> int:
    match = _BREAK.search(plain, start)
    return len(plain) if match is None else match.start()


def _segments(plain: str, start: int) -> list[tuple[int, int, bool]]:
    """Commentary after ``start`` as (start, end, bracketed) spans."""
    spans: list[tuple[int, int, bool]] = []
    index = start
    while index < len(plain):
        char = plain[index]
        if char in _BRACKET_OPEN:
            depth, end = 0, index
            while end < len(plain):
                depth += (plain[end] == char) - (plain[end] == _BRACKET_CLOSE[char])
                end += 1
                if depth == 0:
                    break
            spans.append((index, end, True))
            index = end
            continue
        match = _BREAK.search(plain, index + 1)
        end = len(plain) if match is None else match.start()
        spans.append((index, end, False))
        index = end
    return spans


def _keys(cands: list[Candidate], start: int, end: int) -> list[Candidate]:
    return [c for c in cands if start <= c.start and c.end <= end]


def _joined_to_other(plain: str, cands: list[Candidate], main_end: int, words: WordClasses) -> bool:
    """True when a disjunction in the main clause joins an answer to a word that is not the same
    answer (``lundi ou dix``, ``42 or so``; ``Nb or niobium`` names one answer twice)."""
    if words.disjunction is None:
        return False
    for match in words.disjunction.finditer(plain, 0, main_end):
        left = [c for c in cands if c.end <= match.start()
                and not plain[c.end : match.start()].strip(" ,")]  # fmt: skip
        right = [c for c in cands if c.start >= match.end()
                 and not plain[match.end() : c.start].strip(" ,")]  # fmt: skip
        if left and right:
            continue  # two candidates: the same answer, or already two keys
        if left and plain[match.end() : main_end].strip(" ,.;:!"):
            return True
        if right and plain[: match.start()].strip(" ,"):
            return True
    return False


def _negated_after(plain: str, end: int, limit: int, words: WordClasses) -> bool:
    after = plain[end:limit].split()[:_AFTER_WORDS]
    return words.has("negation", " ".join(after))


def _bare(plain: str, start: int, end: int, words: WordClasses) -> bool:
    """True when the span holds its candidates and nothing else but punctuation and list
    conjunctions (an arithmetic operator is working, not punctuation)."""
    rest = plain[start:end].replace(_MASK, " ")
    if words.list_conjunction is not None:
        rest = words.list_conjunction.sub(" ", rest)
    return not re.sub(r"[^\w+\-*/×÷·^]+|_", "", rest)


def _judge_segment(
    plain: str, span: tuple[int, int, bool], others: list[Candidate], words: WordClasses
) -> str:
    """Why the segment's other candidates make the reply commit to none ('' when harmless)."""
    start, end, bracketed = span
    text = plain[start:end]
    if words.offers(text) or _SHORT_DISJUNCTION.search(text):
        return "offers another answer after it"
    free = []
    for cand in others:
        if not words.has("negation", plain[start : cand.start]):
            free.append(cand)
    if not free:
        return ""
    inner = text.lstrip().lstrip("([{").lstrip(",;:.-–— ")
    inner_start = end - len(inner)
    opened = words.connective is not None and words.connective.match(inner) is not None
    if not (bracketed or opened):
        return "names another answer after it"
    if _bare(plain, start, end, words):
        return "lists another answer after it"
    marker = _RESTATEMENT_START.match(inner) or (
        words.restatement.match(inner) if words.restatement is not None else None
    )
    if marker is not None and _bare(plain, inner_start + marker.end(), end, words):
        return "restates it as another answer"
    return ""


def commit(text: str, candidates: list[Candidate], words: WordClasses) -> Commitment:
    """What ``text`` commits to among ``candidates`` (sorted, non-overlapping spans of ``text``),
    by the module's rules."""
    if not candidates:
        return Commitment(None, "", "holds no answer of its kind")
    plain = masked(text, candidates)
    first = candidates[0]
    main_end = _main_end(plain, first.end)
    main = plain[:main_end]
    value_start = 0
    for match in _EQUALS.finditer(main, first.end):
        value_start = match.end()
    in_value = _keys(candidates, value_start, main_end)
    value_text = text[value_start:main_end].strip()
    keys = list(dict.fromkeys(c.key for c in in_value))
    if not keys:
        return Commitment(None, value_text, "holds no answer after its last '='")
    if len(keys) > 1:
        return Commitment(None, value_text, "offers several answers in its main clause")
    chosen = in_value[0]
    if words.has("negation", main[: chosen.start]) or _negated_after(
        plain, chosen.end, main_end, words
    ):
        return Commitment(None, value_text, "negates its answer")
    if _joined_to_other(plain, _keys(candidates, 0, main_end), main_end, words):
        return Commitment(None, value_text, "offers an alternative to its answer")
    for span in _segments(plain, main_end):
        others = [c for c in _keys(candidates, span[0], span[1]) if c.key != chosen.key]
        if others:
            why = _judge_segment(plain, span, others, words)
            if why:
                return Commitment(None, value_text, why)
    return Commitment(chosen, value_text, "")


def sentences(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s sentences and lines (split after ``. ! ?`` and at line breaks)."""
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if text[start : match.start()].strip():
            spans.append((start, match.start()))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def last_sentence(
    text: str, candidates: list[Candidate], words: WordClasses
) -> tuple[int, int] | None:
    """The flexible reading of a reply with neither answer line nor box: the span of its last
    sentence holding a candidate — or None when another sentence is a *bare* candidate of a
    different key (a list of answers, one a line: ``43\\n42``, ``A. …\\nB. …``), or no sentence
    holds one."""
    spans = [s for s in sentences(text) if _keys(candidates, *s)]
    if not spans:
        return None
    last = spans[-1]
    plain = masked(text, candidates)
    final_keys = {c.key for c in _keys(candidates, *last)}
    for span in spans[:-1]:
        keys = {c.key for c in _keys(candidates, *span)}
        if keys - final_keys and _bare(plain, span[0], span[1], words):
            return None
    return last
