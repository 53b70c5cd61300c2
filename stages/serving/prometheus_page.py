"""A server's Prometheus text page read into one number per metric (issue 33).

The page is parsed by ``prometheus_client``'s own parser (the reference implementation of the
text format), never line by line here. What the parser yields is then folded so that every
engine's page reads the same way:

- a name is the sample's name without a trailing ``_total``: the parser writes a counter's samples
  as ``<family>_total`` even where the engine wrote none (llama.cpp's ``n_tokens_max``, TGI's
  counters), and a page whose ``TYPE`` line names the family without ``_total`` leaves its
  samples untyped; both spellings of one counter must meet under one name;
- the values of one name are summed over its label sets (vLLM's engines, SGLang's cache sources
  and data-parallel ranks, a ``model_name`` per adapter), except the gauges of
  :data:`SHARES`, which are fractions and are averaged over their label sets;
- histogram buckets and summary quantiles are left out (their ``_sum`` and ``_count`` are
  kept), and so are the ``_created`` timestamps ``prometheus_client`` adds beside counters and
  values that are not finite (``NaN``, ``+Inf``: no figure can be computed from them).
"""

from __future__ import annotations

import math

SHARES = frozenset(
    {
        "vllm:kv_cache_usage_perc",
        "vllm:gpu_cache_usage_perc",
        "sglang:token_usage",
        "sglang:cache_hit_rate",
        "llamacpp:kv_cache_usage_ratio",
        "llamacpp:n_busy_slots_per_decode",
    }
)
"""Gauges that are a share or a mean, not a count: averaged over label sets, never summed."""

Page = dict[str, float]
"""One scrape: metric name (``_total`` dropped) -> its value."""


class PageError(ValueError):
    """The text is not a Prometheus text page."""


def _name(sample: str) -> str:
    return sample.removesuffix("_total")


def read_page(text: str) -> Page:
    """``{name: value}`` of a Prometheus text page (see the module's rules); raises
    :class:`PageError` when the text breaks the format."""
    from prometheus_client.parser import text_string_to_metric_families

    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    try:
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if "le" in sample.labels or "quantile" in sample.labels:
                    continue
                if sample.name.endswith("_created") or not math.isfinite(sample.value):
                    continue
                name = _name(sample.name)
                sums[name] = sums.get(name, 0.0) + float(sample.value)
                counts[name] = counts.get(name, 0) + 1
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        raise PageError(f"not a Prometheus text page ({type(exc).__name__})") from None
    return {name: total / counts[name] if name in SHARES else total for name, total in sums.items()}
