"""One LaTeX number read by ``math-verify`` (issue 30: "use what the field maintains where it
fits"), for the flexible reading's cleaning (:mod:`stages.scoring.flexible`).

math-verify parses LaTeX math into SymPy. It is used for exactly one thing: a math segment that
holds a command (``\\dfrac{7}{20}``, ``-\\frac{3}{4}``, ``3\\frac{1}{3}``, ``1{,}900``,
``\\left(\\frac{3}{4}\\right)``) whose value is one rational number. Anything else — an
expression (``\\frac{597-23}{2}`` stays an unevaluated product, so the prompt's own expression
sent back never becomes its value), a symbol, a set, a root — is left to the project's own
cleaning and number grammar. Measured here (math-verify 0.9.0) on plain text it misreads what the
grammar reads right: ``1.90 × 10^3`` as 10, ``3 1/3`` as 1, ``22 (9 + 11 + 2)`` as 2, a Unicode
minus as nothing, and it evaluates ``3-4`` and ``(597 - 23) * 3 - 3``; so it never sees plain text.

Cost: its import (SymPy, the LaTeX grammar) is about 0.3 s, paid only by a process that meets a
LaTeX command; a parse takes 5-60 ms, so results are cached.
"""

from __future__ import annotations

import threading
from functools import lru_cache

MAX_CHARS = 200
TIMEOUT_S = 2


@lru_cache(maxsize=4096)
def read(latex: str) -> str | None:
    """The rational number ``latex`` is (``"7/20"``, ``"-3/4"``, ``"1900"``), or None."""
    if "\\" not in latex and "{" not in latex or len(latex) > MAX_CHARS:
        return None
    import sympy
    from math_verify.parser import LatexExtractionConfig, parse

    # Its timeout arms SIGALRM, which only the main thread may do; elsewhere the segment's
    # length cap bounds the work.
    limit = TIMEOUT_S if threading.current_thread() is threading.main_thread() else None
    try:
        parsed = parse(f"${latex}$", [LatexExtractionConfig()], parsing_timeout=limit)
    except Exception:  # a parser failure means "not a number it can read"
        return None
    value = parsed[0] if parsed else None
    if not isinstance(value, sympy.Rational):
        return None
    return str(value.p) if value.q == 1 else f"{value.p}/{value.q}"
