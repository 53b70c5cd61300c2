"""Issue 31: the scrubber removes a key in every form a server may echo it — itself, JSON-escaped
in any way, URL-encoded, base64 at any offset of a larger blob in either alphabet — from any
surrounding text, from bytes and from every string of a JSON value.

The checks do not trust the scrubber's own idea of a form: after scrubbing, the text is decoded
the way each form would be read (JSON escapes undone, percent-decoded, every base64 run decoded
at every offset) and the key must not be in any of the results."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from key_forms import ASCII_KEYS, KEYS, TEXT, forms, holds

from stages.network.scrubber import SCRUBBED, Scrubber, base64_cores, excerpt


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), key=KEYS, before=TEXT, after=TEXT)
def test_every_form_in_any_text_is_removed(
    data: st.DataObject, key: str, before: str, after: str
) -> None:
    planted = data.draw(forms(key))
    assert holds(planted, key)  # the oracle sees the form before the scrub
    clean = Scrubber([key])
    text = clean(before + planted + after)
    assert not holds(text, key), text
    assert not clean.found(text) and SCRUBBED in text
    raw = clean((before + planted + after).encode("utf-8"))
    assert not holds(raw.decode("utf-8"), key)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), key=ASCII_KEYS, filler=TEXT)
def test_repeated_and_adjacent_forms_leave_nothing(
    data: st.DataObject, key: str, filler: str
) -> None:
    parts = [data.draw(forms(key)) for _ in range(3)]
    text = Scrubber([key])(parts[0] + parts[1] + filler + parts[2] + key[: len(key) // 2])
    assert not holds(text, key), text


@settings(max_examples=200, deadline=None)
@given(key=ASCII_KEYS, before=TEXT, limit=st.integers(0, 200))
def test_an_excerpt_keeps_no_piece_of_a_form_cut_by_the_limit(
    key: str, before: str, limit: int
) -> None:
    escaped = "".join(f"\\u{ord(c):04x}" for c in key)
    assume(key[:6] not in before + "tail" and escaped[:12] not in before + "tail")
    for planted in (key, escaped, base64.b64encode(key.encode()).decode()):
        shown = excerpt((before + planted + "tail").encode(), limit, [key])
        assert key[:6] not in shown and escaped[:12] not in shown


@settings(max_examples=200, deadline=None)
@given(data=st.data(), key=KEYS)
def test_every_string_of_a_json_value_is_scrubbed(data: st.DataObject, key: str) -> None:
    clean_names = Scrubber([key])
    assume(not clean_names.found("system_fingerprint call_ arguments usage prompt_tokens extra k"))
    form = data.draw(forms(key))
    value: Any = {
        "system_fingerprint": key,
        key: [1, 2.5, None, True, {"id": f"call_{form}", "arguments": json.dumps({"k": key})}],
        "usage": {"prompt_tokens": 3, "extra": [form, [form]]},
    }
    clean = clean_names.value(value)
    assert not any(holds(text, key) for text in _strings(clean)), clean
    assert not holds(json.dumps(clean), key)
    assert clean["usage"]["prompt_tokens"] == 3 and clean["system_fingerprint"] == SCRUBBED
    assert clean[SCRUBBED][:4] == [1, 2.5, None, True]


def _strings(value: Any) -> list[str]:
    """Every string of a JSON value, dict keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@given(key=KEYS)
def test_each_base64_core_is_in_every_blob_at_its_offset(key: str) -> None:
    data = key.encode()
    cores = base64_cores(data)
    for offset in range(3):
        blob = base64.b64encode(bytes(offset) + data + b"\xff\xfe").decode()
        for alphabet in (blob, blob.replace("+", "-").replace("/", "_")):
            assert any(core in alphabet for core in cores)


def test_no_secret_scrubs_nothing_and_short_text_is_kept() -> None:
    assert Scrubber([]).value({"a": ["x"]}) == {"a": ["x"]} and not Scrubber(["", ""])
    clean = Scrubber(["sk-abc/def+ghi jkl"])
    assert clean("id sk-abc\\/def%2Bghi+jkl ok") == "id *** ok"
    assert clean("\\u0073k-abc/def+ghi%20jkl") == "***"
    assert clean(b"x sk-abc/def+ghi jkl") == b"x ***"
    assert clean("sk-abc/def") == "sk-abc/def"  # a piece alone is not the key
