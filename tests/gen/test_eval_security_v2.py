"""eval-security-v2: ciphers re-run both ways with independent code (translate tables, int
arithmetic), CIDR answers recomputed with ``ipaddress`` ranges (the generator uses bit masks),
logs re-parsed from the prompt with ``str.split``, snippets re-classified by source-to-sink
matching, and incident-response orders re-sorted by lifecycle phase."""

from __future__ import annotations

import ipaddress
import json
import string
from pathlib import Path
from typing import Any

import pytest

ROWS_PATH = Path(__file__).resolve().parents[2] / "datasets" / "eval-security-v2" / "rows.jsonl"
ROWS = [json.loads(line) for line in ROWS_PATH.read_text(encoding="utf-8").splitlines()]
UP = string.ascii_uppercase
LIFECYCLE = ["identify", "contain", "eradicate", "recover", "review"]
PRIVATE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")]
SINKS = {  # (class, a fragment the flawed line must contain)
    "sqli": ("SELECT", "'\""),
    "path": ("join(", "sendFile|send_file|req.query"),
    "xss": ("<h1>|innerHTML", "+"),
    "secret": ('= "', "PASSWORD|TOKEN"),
    "intovf": ("uint32_t", "= count * "),
    "cmdi": ("popen|shell_exec", '" +|" .'),
}


def _shift(text: str, k: int) -> str:
    return text.translate(str.maketrans(UP, UP[k % 26 :] + UP[: k % 26]))


def _vig(text: str, key: str, sign: int) -> str:
    out, i = "", 0
    for ch in text:
        if ch == " ":
            out += ch
            continue
        out += chr((ord(ch) - 65 + sign * (ord(key[i % len(key)]) - 65)) % 26 + 65)
        i += 1
    return out


def _xor(hex_text: str, key: bytes) -> bytes:
    data = [int(h, 16) for h in hex_text.split()]
    return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))


def _has(line: str, alternatives: str) -> bool:
    return any(a in line for a in alternatives.split("|"))


def _cipher(row: dict[str, Any]) -> str:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "caesar_decrypt":
        assert _shift(row["answer"], m["shift"]) == m["cipher"]
        return _shift(m["cipher"], -m["shift"])
    if kind == "vigenere_decrypt":
        assert _vig(row["answer"], m["key"], 1) == m["cipher"]
        return _vig(m["cipher"], m["key"], -1)
    if kind == "xor_decrypt":
        text = _xor(m["cipher"], bytes.fromhex(m["key"])).decode()
        assert _xor(" ".join(f"{b:02x}" for b in text.encode()), bytes.fromhex(m["key"])) == bytes(
            int(h, 16) for h in m["cipher"].split()
        )
        return text
    if kind == "caesar_encrypt":
        return _shift(m["plain"], m["shift"])
    if kind == "vigenere_encrypt":
        return _vig(m["plain"], m["key"], 1)
    if kind == "xor_byte":
        return format(int(m["a"]) ^ int(m["b"]), "02x")
    if kind == "caesar_shift":
        (k,) = [k for k in range(1, 26) if m["crib"] in _shift(m["cipher"], -k).split(" ")]
        return str(k)
    first = int(m["cipher"].split()[0], 16)
    key = first ^ ord(m["crib"][0])
    assert _xor(m["cipher"], bytes([key])).decode().startswith(m["crib"])
    return str(key)


def _cidr(row: dict[str, Any]) -> str:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "hosts":
        net = ipaddress.ip_network(m["network"])
        return str(int(net.broadcast_address) - int(net.network_address) - 1)
    if kind == "subnets":
        return str(2 ** (m["sub"] - ipaddress.ip_network(m["network"]).prefixlen))
    if kind == "union":
        covered: set[int] = set()
        for text in m["networks"]:
            net = ipaddress.ip_network(text)
            covered |= set(range(int(net.network_address), int(net.broadcast_address) + 1))
        return str(len(covered))
    if kind in ("network", "broadcast"):
        net = ipaddress.ip_interface(m["host"]).network
        return str(net[0] if kind == "network" else net[-1])
    if kind == "supernet":
        a, b = (int(ipaddress.ip_address(x)) for x in m["addresses"])
        prefix = 32 - (a ^ b).bit_length()
        return str(ipaddress.ip_network(f"{ipaddress.ip_address(a)}/{prefix}", strict=False))
    if kind == "netmask":
        return str(ipaddress.IPv4Network(f"10.0.0.0/{m['prefix']}", strict=False).netmask)
    net = ipaddress.ip_network(m["network"])
    if kind == "member":
        (hit,) = [c for c in row["choices"] if net[0] <= ipaddress.ip_address(c) <= net[-1]]
        return hit
    (hit,) = [
        c
        for c in row["choices"]
        if ipaddress.ip_network(c)[0] <= net[-1] and net[0] <= ipaddress.ip_network(c)[-1]
    ]
    return hit


def _logs(row: dict[str, Any]) -> str:
    lines = row["prompt"].split("\n\n")[1].split("\n")
    q = row["meta"]["question"]
    if row["meta"]["kind"] == "web":
        totals: dict[str, int] = {}
        for line in lines:
            parts = line.split()
            ip, path, status, size = parts[0], parts[6], int(parts[8]), int(parts[9])
            key = path if q == "top_404_path" else ip
            add = {
                "top_404_path": status == 404,
                "top_denied_ip": status in (401, 403),
                "top_bytes_ip": size,
            }[q]
            totals[key] = totals.get(key, 0) + int(add)
        return max(totals, key=lambda k: totals[k])
    events = []
    for line in lines:
        words = line.split()
        ok = words[3] == "Accepted"
        user = words[words.index("for") + 1]
        if user == "invalid":
            user = words[words.index("for") + 3]
        events.append((words[0], ok, user, words[words.index("from") + 1]))
    fails = [e for e in events if not e[1]]
    failed_ips = {e[3] for e in fails}
    if q == "top_ip":
        return max(failed_ips, key=lambda ip: sum(e[3] == ip for e in fails))
    if q == "top_user":
        users = {e[2] for e in fails}
        return max(users, key=lambda u: sum(e[2] == u for e in fails))
    if q == "fail_count":
        return str(len(fails))
    if q == "fail_ips":
        return str(len(failed_ips))
    (breach,) = [e for e in events if e[1] and e[3] in failed_ips]
    if q == "breached_user":
        return breach[2]
    return str(sum(e[3] == breach[3] and e[0] < breach[0] for e in fails))


def _vuln(row: dict[str, Any]) -> str:
    m = row["meta"]
    lines = m["code"].split("\n")
    flagged = [
        (cls, i + 1)
        for cls, (a, b) in SINKS.items()
        for i, line in enumerate(lines)
        if _has(line, a)
        and _has(line, b)
        and "escape" not in line
        and "%s" not in line
        and "os.environ" not in line
    ]
    assert flagged == [(m["class"], m["flaw_line"])], flagged
    names = {
        "sqli": "SQL injection",
        "path": "Path traversal",
        "xss": "Cross-site scripting (XSS)",
        "secret": "Hard-coded credential",
        "intovf": "Integer overflow",
        "cmdi": "OS command injection",
    }
    return names[m["class"]] if row["scorer"] == "mc" else str(m["flaw_line"])


def _incident(row: dict[str, Any]) -> str:
    m = row["meta"]
    if m["kind"] == "ir_avoid":
        bad = [c for c in row["choices"] if c not in m["steps"].values()]
        assert len(bad) == 1 and bad[0] in m["harmful"]
        return bad[0]
    order = sorted(m["labels"], key=lambda lab: LIFECYCLE.index(m["labels"][lab]))
    return str(order.index(m["asked"]) + 1) if row["scorer"] == "numeric" else ", ".join(order)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_answer_recomputed(row: dict[str, Any]) -> None:
    checker = {
        "toy_ciphers": _cipher,
        "cidr": _cidr,
        "log_forensics": _logs,
        "vuln_classification": _vuln,
        "incident_response": _incident,
    }[row["category"]]
    expected = checker(row)
    if row["scorer"] == "mc":
        assert row["choices"][ord(row["answer"]) - 65] == expected
    else:
        assert row["answer"] == expected


def test_only_private_addresses_in_cidr_rows() -> None:
    for row in ROWS:
        if row["category"] != "cidr":
            continue
        texts = [
            row["meta"].get("network"),
            row["meta"].get("host"),
            *row["meta"].get("networks", []),
            *row["meta"].get("addresses", []),
            *(row.get("choices") or []),
        ]
        for text in filter(None, texts):
            if "." in text and text.count(".") == 3 and not text.startswith("255"):
                addr = ipaddress.ip_interface(text).ip
                assert any(addr in net for net in PRIVATE), (row["id"], text)


def test_suite_shape() -> None:
    assert len(ROWS) >= 100
    assert {r["scorer"] for r in ROWS} == {"mc", "exact", "numeric"}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
