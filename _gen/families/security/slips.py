"""Wrong answers of eval-security-v3's unchanged families, for eval-security-v4's probes.

Each function takes a finished open row (exact or numeric) and returns ``(wrong, spellings)``:
answers of the gold's form that a careless solver gives (``common.probes`` drops any that equal
an accepted answer) and extra correct spellings (none here). mc rows need none: their options
are the slips. Deterministic: no random draws.

* toy ciphers: decrypting with the shift one off or in the wrong direction, the Vigenere key
  advancing on spaces, a letter slipped, the ciphertext copied, the words in reverse order;
  the shift counted backwards (26 - k), the ASCII case bit, counts one off;
* CIDR: the broadcast address for the network address and back, the neighbouring prefixes'
  blocks, the last usable host; every address counted (no -2), half or double the subnets,
  overlapping blocks counted twice;
* log forensics: the log's other accounts, addresses and login times; counts one off, every
  line or every address counted, all of the address's failures, a total missing one line.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from families.security import ciphers, logs

Slips = tuple[list[Any], list[str]]


def toy_ciphers(row: dict[str, Any]) -> Slips:
    m, kind = row["meta"], row["meta"]["kind"]
    if row["scorer"] == "numeric":
        gold = int(row["answer"])
        wrong = [gold - 1, gold + 1]
        if kind == "caesar_shift":
            wrong.append(26 - gold)
        elif kind == "xor_key":
            wrong.append(gold ^ 0x20)
        return [w for w in wrong if w > 0], []
    plain, text = row["answer"], m["cipher"]
    wrong = [text, " ".join(reversed(plain.split())), plain[:-1] + _next_letter(plain[-1])]
    if kind == "caesar_decrypt":
        k = m["shift"]
        wrong += [ciphers.caesar(text, -(k + 1)), ciphers.caesar(text, -(k - 1))]
        wrong.append(ciphers.caesar(text, k))
    elif kind == "vigenere_decrypt":
        wrong.append(ciphers.vigenere(text, m["key"], -1, on_spaces=True))
        wrong.append(ciphers.vigenere(text, m["key"], 1))
    return wrong, []


def _next_letter(letter: str) -> str:
    """The letter one place on in the alphabet, same case (a slip in the last letter)."""
    base = ord("A") if letter.isupper() else ord("a")
    return chr((ord(letter) - base + 1) % 26 + base)


def cidr(row: dict[str, Any]) -> Slips:
    m, kind = row["meta"], row["meta"]["kind"]
    if row["scorer"] == "numeric":
        gold = int(row["answer"])
        if kind == "hosts":
            return [gold + 2, gold + 1, gold - 1], []
        if kind == "subnets":
            return [gold * 2, gold // 2, gold - 1, gold + 1], []
        blocks = [ipaddress.ip_network(n) for n in m["networks"]]
        return [sum(b.num_addresses for b in blocks), gold - 1, gold + 1], []
    if kind == "supernet":
        a = ipaddress.ip_address(m["addresses"][0])
        prefix = int(row["answer"].split("/")[1])
        near = [p for p in (prefix - 1, prefix + 1, prefix - 2) if 0 < p <= 32]
        return [str(ipaddress.ip_network(f"{a}/{p}", strict=False)) for p in near], []
    host = ipaddress.ip_interface(m["host"])
    p = host.network.prefixlen
    nets = [ipaddress.ip_network(f"{host.ip}/{q}", strict=False) for q in (p - 1, p, p + 1)]
    network, broadcast = nets[1].network_address, nets[1].broadcast_address
    if kind == "network":
        wrong = [broadcast, host.ip, network + 1, *(n.network_address for n in nets)]
    else:
        wrong = [network, broadcast - 1, *(n.broadcast_address for n in nets)]
    return [str(w) for w in wrong], []


def log_forensics(row: dict[str, Any]) -> Slips:
    m, lines = row["meta"], logs.log_lines(row["prompt"])
    if m["kind"] == "web":
        return _web(row, lines), []
    facts = logs.auth_facts(lines)
    question = m["question"]
    if row["scorer"] == "numeric":
        gold = int(row["answer"])
        wrong = [gold - 1, gold + 1]
        if question == "fail_count":
            wrong.append(len(lines))
        elif question == "fail_ips":
            wrong.append(len(facts["ips_seen"]))
        else:
            ip = facts["breacher_ip"]
            wrong.append(sum(1 for line in lines if f"from {ip} " in line and "Failed" in line))
        return [w for w in wrong if w >= 0], []
    if question in ("top_ip", "breacher_ip"):
        return facts["ips_seen"], []
    if question == "breach_time":
        times = [logs.AUTH_LINE.search(line) for line in lines]
        return [t.group(1) for t in times if t and t.group(2) == "Accepted"], []
    users = [logs.AUTH_LINE.search(line) for line in lines]
    return sorted({u.group(3) for u in users if u}), []


def _web(row: dict[str, Any], lines: list[str]) -> list[int]:
    m, gold = row["meta"], int(row["answer"])
    parsed = [logs._web_fields(line) for line in lines]
    mine = [p for p in parsed if p[0] == m["ip"]]
    wrong = [gold - 1, gold + 1]
    if m["question"] == "status_count":
        wrong.append(len(mine))
    elif m["question"] == "bytes_to_ip":
        wrong += [gold - mine[-1][3], sum(p[3] for p in parsed if p[2] == 200 and p[0] == m["ip"])]
    else:
        wrong.append(sum(1 for p in parsed if p[1] == m["path"]))
    return [w for w in wrong if w >= 0]
