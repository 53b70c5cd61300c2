"""CIDR family of eval-security-v3: IPv4 address arithmetic on private ranges only.

Forms: counts (usable hosts, subnets of a size, addresses covered by overlapping rules: numeric),
network / broadcast address and smallest common block (exact), and four mc forms: which address
lies in a network, the mask of a prefix, which network overlaps another, the smallest common
block. Wrong options are near misses of the same shape: neighbouring addresses just outside the
network, the masks and blocks of the neighbouring prefix lengths (a window of four consecutive
prefixes with the right one at a drawn place, so it is not the middle value), networks that touch
but do not overlap.

Answers are computed with integer bit masks here; the proof recomputes them with the standard
library's ``ipaddress`` module.
"""

from __future__ import annotations

import ipaddress
import random
from typing import Any

CATEGORY = "cidr"
FORMS = ("numeric", "mc", "exact", "mc", "numeric", "mc", "exact", "mc")
BASES = ((10, 8), (172 << 24 | 16 << 16, 12), (192 << 24 | 168 << 16, 16))
Item = dict[str, Any]


def ip_text(value: int) -> str:
    return ".".join(str(value >> s & 255) for s in (24, 16, 8, 0))


def mask(prefix: int) -> int:
    return (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF


def private(value: int) -> bool:
    """Inside 10/8, 172.16/12 or 192.168/16 (the only ranges these rows use)."""
    bases = ((10 << 24, 8), *BASES[1:])
    return any(value & mask(p) == base for base, p in bases)


def random_ip(rng: random.Random) -> int:
    base, p = rng.choice(((10 << 24, 8), *BASES[1:]))
    return base | rng.getrandbits(32 - p)


def _count(rng: random.Random, kind: int) -> Item:
    if kind == 0:
        p = rng.randint(18, 30)
        net = random_ip(rng) & mask(p)
        q = (
            f"How many usable host addresses does the IPv4 network {ip_text(net)}/{p} have "
            f"(all addresses except the network and broadcast addresses)?"
        )
        meta: dict[str, Any] = {"kind": "hosts", "network": f"{ip_text(net)}/{p}"}
        value = (1 << (32 - p)) - 2
    elif kind == 1:
        p = rng.randint(16, 24)
        sub = p + rng.randint(2, 8)
        net = random_ip(rng) & mask(p)
        q = f"How many /{sub} subnets fit in the IPv4 network {ip_text(net)}/{p}?"
        meta = {"kind": "subnets", "network": f"{ip_text(net)}/{p}", "sub": sub}
        value = 1 << (sub - p)
    else:
        base = random_ip(rng) & mask(20)
        blocks = []
        for _ in range(3):
            p = rng.randint(22, 26)
            blocks.append(((base | rng.getrandbits(12)) & mask(p), p))
        covered: set[int] = set()
        for b, p in blocks:
            covered.update(range(b, b + (1 << (32 - p))))
        value = len(covered)
        listing = ", ".join(f"{ip_text(b)}/{p}" for b, p in blocks)
        q = (
            f"A firewall rule allows traffic from these IPv4 networks: {listing}. How many "
            f"distinct addresses does the rule allow in total (count every address, including "
            f"network and broadcast addresses; overlapping addresses count once)?"
        )
        meta = {"kind": "union", "networks": [f"{ip_text(b)}/{p}" for b, p in blocks]}
    return {"question": q, "scorer": "numeric", "answer": str(value), "meta": meta}


def _address(rng: random.Random, kind: int) -> Item:
    host = random_ip(rng)
    if kind < 2:
        p = rng.randint(17, 29)
        net = host & mask(p)
        value = net if kind == 0 else net | (~mask(p) & 0xFFFFFFFF)
        what = ("network", "broadcast")[kind]
        return {
            "question": f"What is the {what} address of the IPv4 address {ip_text(host)}/{p}? "
            f"Give it in dotted decimal form.",
            "scorer": "exact",
            "answer": ip_text(value),
            "meta": {"kind": what, "host": f"{ip_text(host)}/{p}"},
        }
    other, p = _pair(rng, host)
    q = (
        f"What is the smallest single IPv4 CIDR block (longest prefix) that contains both "
        f"{ip_text(host)} and {ip_text(other)}? Give it as address/prefix, for example "
        f"10.0.0.0/8."
    )
    meta = {"kind": "supernet", "addresses": [ip_text(host), ip_text(other)]}
    return {
        "question": q,
        "scorer": "exact",
        "answer": f"{ip_text(host & mask(p))}/{p}",
        "meta": meta,
    }


def _pair(rng: random.Random, host: int) -> tuple[int, int]:
    """Another private address and the longest prefix the two share."""
    other = host ^ (1 << rng.randint(4, 13)) ^ rng.getrandbits(4)
    p = 32
    while (host & mask(p)) != (other & mask(p)):
        p -= 1
    return other, p


def _member(rng: random.Random, level: int) -> Item:
    p = rng.randint(20 + level, 24 + level)
    net = random_ip(rng) & mask(p)
    size = 1 << (32 - p)
    inside = net + rng.randrange(1, size - 1)
    outside = [
        net - rng.randint(1, size // 2),
        net + size + rng.randint(0, size // 2),
        inside ^ (1 << (32 - p + rng.randint(0, 2))),  # one bit of the prefix flipped
    ]
    q = f"Which of these IPv4 addresses is inside the network {ip_text(net)}/{p}?"
    return {
        "question": q,
        "scorer": "mc",
        "correct": ip_text(inside),
        "distractors": [ip_text(o) for o in outside],
        "meta": {"kind": "member", "network": f"{ip_text(net)}/{p}"},
    }


def _window(rng: random.Random, low: int, high: int) -> tuple[int, list[int]]:
    """A right prefix in [low, high] and four consecutive prefixes around it (drawn place)."""
    p = rng.randint(low, high)
    start = p - rng.randrange(4)
    return p, [start + i for i in range(4) if start + i != p]


def _netmask(rng: random.Random, level: int) -> Item:
    p, others = _window(rng, (9, 17, 21)[level], (16, 24, 29)[level])
    return {
        "question": f"What is the dotted-decimal subnet mask of an IPv4 /{p} network?",
        "scorer": "mc",
        "correct": ip_text(mask(p)),
        "distractors": [ip_text(mask(o)) for o in others],
        "meta": {"kind": "netmask", "prefix": p},
    }


def _overlap(rng: random.Random, level: int) -> Item:
    p = rng.randint(18 + level, 22 + level)
    net = random_ip(rng) & mask(p)
    size = 1 << (32 - p)
    q_p = rng.randint(p + 1, p + 4)
    hit = (net + rng.randrange(size)) & mask(q_p)
    misses: list[str] = []
    while len(misses) < 3:  # blocks of a similar size just before or just after it
        r_p = rng.randint(p - 1, p + 4)
        side = rng.choice((-1, 1))
        cand = (net + side * rng.randint(1, 2) * size + rng.randrange(size)) & mask(r_p)
        text = f"{ip_text(cand)}/{r_p}"
        apart = cand + (1 << (32 - r_p)) <= net or cand >= net + size
        if apart and private(cand) and text not in misses:
            misses.append(text)
    return {
        "question": f"Which of these IPv4 networks overlaps the network {ip_text(net)}/{p}?",
        "scorer": "mc",
        "correct": f"{ip_text(hit)}/{q_p}",
        "distractors": misses,
        "meta": {"kind": "overlap", "network": f"{ip_text(net)}/{p}"},
    }


def _common_block(rng: random.Random, level: int) -> Item:
    host = random_ip(rng)
    other, p = _pair(rng, host)
    start = p - rng.randrange(4)
    blocks = [f"{ip_text(host & mask(s))}/{s}" for s in range(start, start + 4)]
    right = f"{ip_text(host & mask(p))}/{p}"
    q = (
        f"What is the smallest single IPv4 CIDR block (longest prefix) that contains both "
        f"{ip_text(host)} and {ip_text(other)}?"
    )
    return {
        "question": q,
        "scorer": "mc",
        "correct": right,
        "distractors": [b for b in blocks if b != right],
        "meta": {"kind": "supernet", "addresses": [ip_text(host), ip_text(other)]},
    }


MC_BUILDERS = (_member, _netmask, _overlap, _common_block)


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        if FORMS[form] == "numeric":
            item = _count(rng, (level + form // 4) % 3)
        elif FORMS[form] == "exact":
            item = _address(rng, (level + form // 4) % 3)
        else:
            item = MC_BUILDERS[form // 2](rng, level)
        if item["meta"]["kind"] == "netmask" or all(map(_private_text, _addresses(item))):
            return item


def _addresses(item: Item) -> list[str]:
    meta = item["meta"]
    texts = [meta.get("network"), meta.get("host"), *meta.get("networks", [])]
    texts += [*meta.get("addresses", []), item.get("correct"), *item.get("distractors", [])]
    return [t for t in texts if t]


def _private_text(text: str) -> bool:
    return private(int(ipaddress.ip_interface(text).ip))


# ---- proof: the ipaddress module ---------------------------------------------------------------
def _expected(row: dict[str, Any]) -> str:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "union":
        merged = ipaddress.collapse_addresses(ipaddress.IPv4Network(n) for n in m["networks"])
        return str(sum(n.num_addresses for n in merged))
    if kind == "hosts":
        return str(len(list(ipaddress.ip_network(m["network"]).hosts())))
    if kind == "subnets":
        return str(len(list(ipaddress.ip_network(m["network"]).subnets(new_prefix=m["sub"]))))
    if kind in ("network", "broadcast"):
        net = ipaddress.ip_interface(m["host"]).network
        return str(net.network_address if kind == "network" else net.broadcast_address)
    if kind == "supernet":
        a, b = (ipaddress.ip_address(x) for x in m["addresses"])
        net = ipaddress.ip_network(f"{a}/32")
        while b not in net:
            net = net.supernet()
        return str(net)
    if kind == "netmask":
        return str(ipaddress.ip_network(f"0.0.0.0/{m['prefix']}").netmask)
    net = ipaddress.ip_network(m["network"])
    if kind == "member":
        (inside,) = [c for c in row["choices"] if ipaddress.ip_address(c) in net]
        return inside
    assert kind == "overlap", kind
    (hit,) = [c for c in row["choices"] if ipaddress.ip_network(c).overlaps(net)]
    return hit


def prove(row: dict[str, Any]) -> None:
    expected, kind = _expected(row), row["meta"]["kind"]
    if row["scorer"] == "mc":
        assert row["choices"]["ABCD".index(row["answer"])] == expected, (row["id"], expected)
        if kind != "netmask":
            assert all(ipaddress.ip_interface(c).ip.is_private for c in row["choices"]), row["id"]
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)
