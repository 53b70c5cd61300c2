"""The serving figures that comparisons and headlines show, read in one place so that a change
of the serving metrics layout (issue 14) is adapted here only.

``metrics/<w>.serving.json`` keeps the main pass's figures at ``main.ttft_s.p50``,
``main.itl_s.p50`` and ``main.output_tokens_per_s.aggregate``; files written before that layout
have them at the top level, which is read when there is no ``main`` block.
"""

from __future__ import annotations

from typing import Any

#: Figure name -> its path inside the main pass's block.
FIGURES: dict[str, tuple[str, str]] = {
    "ttft_p50_s": ("ttft_s", "p50"),
    "itl_p50_s": ("itl_s", "p50"),
    "output_tokens_per_s": ("output_tokens_per_s", "aggregate"),
}


def _number(node: Any, path: tuple[str, ...]) -> float | None:
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    if isinstance(node, int | float) and not isinstance(node, bool):
        return float(node)
    return None


def serving_figures(doc: dict[str, Any] | None) -> dict[str, float | None]:
    """``{ttft_p50_s, itl_p50_s, output_tokens_per_s}`` of a serving metrics file (None: absent)."""
    if not doc:
        return dict.fromkeys(FIGURES)
    main = doc["main"] if isinstance(doc.get("main"), dict) else doc
    return {name: _number(main, path) for name, path in FIGURES.items()}
