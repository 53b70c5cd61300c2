# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-security-v2: defensive security skills with computed answers (spec 001, the -v2 wave).

Five categories, all defensive:

* toy_ciphers - Caesar, Vigenere and XOR decoding with a given key, encryption-direction traps,
  and recovering a Caesar shift or XOR byte from a known plaintext fragment; every answer is
  produced by running the cipher, and ``prove`` runs it the other way.
* cidr - host counts, subnet counts, address-range unions, network/broadcast addresses,
  covering supernets, membership and overlap, computed with integer bit arithmetic here and
  re-checked with the ``ipaddress`` module. Only private and documentation ranges are used.
* vuln_classification - short code snippets built from templates that plant exactly one
  classic flaw (SQL injection, path traversal, XSS, hard-coded credential, integer overflow,
  OS command injection); the class comes from the template and ``prove`` confirms it with
  signature checks (the flaw's signature present, every other class's absent).
* log_forensics - generated sshd and web access logs; counts, top talkers and first times are
  computed from the generated events and re-parsed from the log text by the proof.
* incident_response - ordering of response phases (identify, contain, eradicate, recover,
  review: the order shared by NIST SP 800-61 and the SANS process) and "what must not be done"
  choices, derived from a small table of scenarios whose steps carry their phase and whose
  harmful actions are flagged.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.security.cidr import ip_text, mask
from families.security.ciphers import WORDS as V3_WORDS
from families.security.incident import PHASES
from families.security.logs import DOC_NETS, clock, log_lines

DATASET_ID = "eval-security-v2"
KIND = "eval"
DESCRIPTION = (
    "Defensive security with computed answers: toy ciphers, CIDR arithmetic, vulnerability "
    "classification of templated snippets, log forensics and incident-response ordering; mixes "
    "mc, exact and numeric rows."
)
SEED = 2_000_701
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "mc"
CATEGORIES = ("toy_ciphers", "cidr", "vuln_classification", "log_forensics", "incident_response")
Item = dict[str, Any]
WORDS = V3_WORDS[:30]  # -v3 extended this list; -v2 keeps its first 30 words
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ---- toy ciphers ------------------------------------------------------------------------------
def caesar(text: str, shift: int) -> str:
    return "".join(ALPHA[(ALPHA.index(c) + shift) % 26] if c in ALPHA else c for c in text)


def vigenere(text: str, key: str, sign: int = 1, skip_spaces: bool = True) -> str:
    """Vigenere over A-Z; the key advances on letters only unless ``skip_spaces`` is False."""
    out, k = [], 0
    for c in text:
        if c in ALPHA:
            out.append(ALPHA[(ALPHA.index(c) + sign * ALPHA.index(key[k % len(key)])) % 26])
            k += 1
        else:
            out.append(c)
            k += 0 if skip_spaces else 1
    return "".join(out)


def xor_hex(text: str, key: bytes) -> str:
    data = text.encode("ascii")
    return " ".join(f"{b ^ key[i % len(key)]:02x}" for i, b in enumerate(data))


def toy_ciphers(rng: random.Random, level: int, variant: int) -> Item:
    plain = " ".join(rng.sample(WORDS, 2 + level))
    if variant == 0:
        if level == 0:
            shift = rng.randint(3, 23)
            cipher = caesar(plain, shift)
            q = (
                f'The ciphertext "{cipher}" was made with a Caesar cipher that shifts each '
                f"letter {shift} places forward in the alphabet (wrapping from Z to A); spaces are "
                f"unchanged. Decrypt it."
            )
            meta: dict[str, Any] = {"kind": "caesar_decrypt", "cipher": cipher, "shift": shift}
        elif level == 1:
            key = rng.choice(WORDS)[: rng.randint(3, 5)]
            cipher = vigenere(plain, key)
            q = (
                f'The ciphertext "{cipher}" was made with a Vigenere cipher and the key '
                f'"{key}" (A = shift 0, B = shift 1, ...; the key advances only on letters and '
                f"spaces are unchanged). Decrypt it."
            )
            meta = {"kind": "vigenere_decrypt", "cipher": cipher, "key": key}
        else:
            plain = plain.lower()
            pad = bytes(rng.randint(1, 255) for _ in range(rng.randint(2, 3)))
            cipher = xor_hex(plain, pad)
            q = (
                f"These bytes (hex) are ASCII text XORed with the repeating key "
                f"{' '.join(f'{b:02x}' for b in pad)} (the first byte with the first key byte, "
                f"and so on, starting over at the end of the key): {cipher}. What is the text?"
            )
            meta = {"kind": "xor_decrypt", "cipher": cipher, "key": pad.hex()}
        return {
            "question": q + " Give the plaintext only.",
            "scorer": "exact",
            "answer": plain,
            "meta": meta,
        }
    if variant == 1:
        if level < 2:
            shift = rng.randint(3, 23)
            if level == 0:
                right = caesar(plain, shift)
                wrong = [caesar(plain, -shift), caesar(plain, shift + 1), caesar(plain, shift - 1)]
                q = (
                    f'Encrypt "{plain}" with a Caesar cipher that shifts each letter {shift} '
                    f"places forward in the alphabet (wrapping from Z to A)."
                )
                meta = {"kind": "caesar_encrypt", "plain": plain, "shift": shift}
            else:
                key = rng.choice(WORDS)[:4]
                right = vigenere(plain, key)
                wrong = [
                    vigenere(plain, key, -1),
                    vigenere(plain, key, skip_spaces=False),
                    caesar(plain, ALPHA.index(key[0])),
                ]
                q = (
                    f'Encrypt "{plain}" with the Vigenere key "{key}" (A = shift 0; the key '
                    f"advances only on letters; spaces are unchanged)."
                )
                meta = {"kind": "vigenere_encrypt", "plain": plain, "key": key}
        else:
            a, b = rng.randint(1, 255), rng.randint(1, 255)
            right, wrong = (
                f"{a ^ b:02x}",
                [f"{(a | b):02x}", f"{(a & b):02x}", f"{(a + b) % 256:02x}"],
            )
            q = f"What is the byte 0x{a:02x} XOR 0x{b:02x}, written as two hex digits?"
            meta = {"kind": "xor_byte", "a": a, "b": b}
        wrong = list(dict.fromkeys(w for w in wrong if w != right))
        if len(wrong) < 3:
            return toy_ciphers(rng, level, variant)
        return {
            "question": q,
            "scorer": "mc",
            "correct": right,
            "distractors": wrong[:3],
            "meta": meta,
        }
    if level < 2:
        shift = rng.randint(1, 25)
        cipher = caesar(plain, shift)
        crib = plain.split()[-1] if level == 0 else plain.split()[1]
        q = (
            f'The ciphertext "{cipher}" is a Caesar cipher: every letter was shifted the same '
            f"number of places forward (between 1 and 25, wrapping from Z to A). The plaintext "
            f'contains the word "{crib}". By how many places was it shifted?'
        )
        meta = {"kind": "caesar_shift", "cipher": cipher, "crib": crib}
        return {"question": q, "scorer": "numeric", "answer": str(shift), "meta": meta}
    plain = plain.lower()
    key_byte = rng.randint(1, 255)
    cipher = xor_hex(plain, bytes([key_byte]))
    crib = plain.split()[0]
    q = (
        f"These bytes (hex) are lowercase ASCII text XORed with one repeated key byte: {cipher}. "
        f'The text starts with "{crib}". What is the key byte, as a decimal number from 1 to '
        f"255?"
    )
    meta = {"kind": "xor_key", "cipher": cipher, "crib": crib}
    return {"question": q, "scorer": "numeric", "answer": str(key_byte), "meta": meta}


# ---- CIDR -------------------------------------------------------------------------------------
BASES = ((10, 0, 0, 0, 8), (172, 16, 0, 0, 12), (192, 168, 0, 0, 16))


def ip_int(text: str) -> int:
    a, b, c, d = (int(x) for x in text.split("."))
    return a << 24 | b << 16 | c << 8 | d


def private(value: int) -> bool:
    """Inside 10/8, 172.16/12 or 192.168/16 (the only ranges these rows use)."""
    return any(value & mask(p) == ip_int(f"{a}.{b}.{c}.{d}") for a, b, c, d, p in BASES)


def random_ip(rng: random.Random) -> int:
    a, b, c, d, p = rng.choice(BASES)
    return ip_int(f"{a}.{b}.{c}.{d}") | rng.getrandbits(32 - p)


def cidr(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            p = rng.randint(18, 30)
            net = random_ip(rng) & mask(p)
            q = (
                f"How many usable host addresses does the IPv4 network {ip_text(net)}/{p} have "
                f"(all addresses except the network and broadcast addresses)?"
            )
            meta: dict[str, Any] = {"kind": "hosts", "network": f"{ip_text(net)}/{p}"}
            value = (1 << (32 - p)) - 2
        elif level == 1:
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
    if variant == 1:
        host = random_ip(rng)
        if level < 2:
            p = rng.randint(17, 29)
            net = host & mask(p)
            value = net if level == 0 else net | (~mask(p) & 0xFFFFFFFF)
            what = "network address" if level == 0 else "broadcast address"
            q = f"What is the {what} of the IPv4 address {ip_text(host)}/{p}?"
            meta = {
                "kind": "network" if level == 0 else "broadcast",
                "host": f"{ip_text(host)}/{p}",
            }
            return {
                "question": q + " Give it in dotted decimal form.",
                "scorer": "exact",
                "answer": ip_text(value),
                "meta": meta,
            }
        other = host ^ (1 << rng.randint(4, 13)) ^ rng.getrandbits(4)
        p = 32
        while (host & mask(p)) != (other & mask(p)):
            p -= 1
        block = f"{ip_text(host & mask(p))}/{p}"
        q = (
            f"What is the smallest single IPv4 CIDR block (longest prefix) that contains both "
            f"{ip_text(host)} and {ip_text(other)}? Give it as address/prefix, for example "
            f"10.0.0.0/8."
        )
        meta = {"kind": "supernet", "addresses": [ip_text(host), ip_text(other)]}
        return {"question": q, "scorer": "exact", "answer": block, "meta": meta}
    if level == 0:
        p = rng.randint(20, 26)
        net = random_ip(rng) & mask(p)
        size = 1 << (32 - p)
        inside = net + rng.randrange(size)
        outside = [
            net - rng.randint(1, 300),
            net + size + rng.randint(0, 300),
            net ^ (1 << (32 - p + rng.randint(0, 3))),
        ]
        if not all(map(private, outside)):
            return cidr(rng, level, variant)
        q = f"Which of these IPv4 addresses is inside the network {ip_text(net)}/{p}?"
        meta = {"kind": "member", "network": f"{ip_text(net)}/{p}"}
        return {
            "question": q,
            "scorer": "mc",
            "correct": ip_text(inside),
            "distractors": [ip_text(o) for o in outside],
            "meta": meta,
        }
    if level == 1:
        p = rng.randint(17, 29)
        right = ip_text(mask(p))
        wrong = [ip_text(mask(p - 1)), ip_text(mask(p + 1)), ip_text(mask(p - 8) if p > 8 else 0)]
        q = f"What is the dotted-decimal subnet mask of an IPv4 /{p} network?"
        meta = {"kind": "netmask", "prefix": p}
        wrong = list(dict.fromkeys(w for w in wrong if w != right))
        return {
            "question": q,
            "scorer": "mc",
            "correct": right,
            "distractors": wrong[:3],
            "meta": meta,
        }
    p = rng.randint(18, 22)
    net = random_ip(rng) & mask(p)
    size = 1 << (32 - p)
    q_p = rng.randint(p + 1, 26)
    hit = (net + rng.randrange(size)) & mask(q_p)
    misses: list[str] = []
    while len(misses) < 3:  # neighbours that end before it or start after it
        r_p = rng.randint(p - 2, 26)
        cand = (net + rng.choice((-1, 1)) * rng.randint(1, 4) * size) & mask(r_p)
        text = f"{ip_text(cand)}/{r_p}"
        apart = cand + (1 << (32 - r_p)) <= net or cand >= net + size
        if apart and private(cand) and text not in misses:
            misses.append(text)
    q = f"Which of these IPv4 networks overlaps the network {ip_text(net)}/{p}?"
    meta = {"kind": "overlap", "network": f"{ip_text(net)}/{p}"}
    return {
        "question": q,
        "scorer": "mc",
        "correct": f"{ip_text(hit)}/{q_p}",
        "distractors": misses,
        "meta": meta,
    }


# ---- vulnerability classification -------------------------------------------------------------
CLASSES = {
    "sqli": "SQL injection",
    "path": "Path traversal",
    "xss": "Cross-site scripting (XSS)",
    "secret": "Hard-coded credential",
    "intovf": "Integer overflow",
    "cmdi": "OS command injection",
}
# One template per (class, language); the line starting with "!" is the flawed one.
VULNERABLE = {
    ("sqli", "python"): """def find_{thing}(conn, {param}):
    cur = conn.cursor()
!    cur.execute("SELECT * FROM {table} WHERE {column} = '" + {param} + "'")
    return cur.fetchall()""",
    ("sqli", "php"): """$db = mysqli_connect("db", "app", getenv("DB_PASS"), "shop");
${param} = $_GET['{param}'];
!$rows = mysqli_query($db, "SELECT * FROM {table} WHERE {column} = '" . ${param} . "'");
while ($row = mysqli_fetch_assoc($rows)) {{ print_r($row); }}""",
    ("path", "python"): """@app.route("/{route}")
def {fn}():
    name = request.args.get("{param}", "")
!    return send_file(os.path.join("/srv/{folder}", name))""",
    ("path", "javascript"): """app.get("/{route}", (req, res) => {{
!  const file = path.join(__dirname, "{folder}", req.query.{param});
  res.sendFile(file);
}});""",
    ("xss", "python"): """@app.route("/{route}")
def {fn}():
    term = request.args.get("{param}", "")
!    return "<h1>Results for " + term + "</h1>"
""",
    ("xss", "javascript"): """const params = new URLSearchParams(window.location.search);
const value = params.get("{param}");
!document.getElementById("{thing}").innerHTML = "Hello " + value;""",
    ("secret", "python"): """import psycopg2

!DB_PASSWORD = "{secret}"

def connect():
    return psycopg2.connect(host="db", user="{user}", password=DB_PASSWORD)""",
    ("secret", "java"): """public class {Thing}Client {{
!    private static final String API_TOKEN = "{secret}";

    public Request sign(Request r) {{ return r.withHeader("Authorization", API_TOKEN); }}
}}""",
    ("intovf", "c"): """char *copy_{thing}s(const char *src, uint32_t count) {{
!    uint32_t size = count * {size};
    char *buf = malloc(size);
    if (buf == NULL) return NULL;
    memcpy(buf, src, (size_t)count * {size});
    return buf;
}}""",
    ("cmdi", "python"): """@app.route("/{route}")
def {fn}():
    host = request.args.get("{param}", "")
!    output = os.popen("ping -c 1 " + host).read()
    return output""",
    ("cmdi", "php"): """${param} = $_GET['{param}'];
!$out = shell_exec("nslookup " . ${param});
echo htmlspecialchars($out);""",
}
SAFE_PYTHON = (  # decoys that look like the other classes but are written safely
    """def get_{thing}(conn, item_id):
    cur = conn.cursor()
    cur.execute("SELECT name FROM {table} WHERE id = %s", (item_id,))
    return cur.fetchone()""",
    """def greet(name):
    return "<p>Hello " + html.escape(name) + "</p>\"""",
    """def ping(host):
    return subprocess.run(["ping", "-c", "1", host], capture_output=True, text=True).stdout""",
    """def read_report(name):
    base = os.path.realpath("/srv/reports")
    target = os.path.realpath(os.path.join(base, name))
    if not target.startswith(base + os.sep):
        raise ValueError("invalid report name")
    with open(target) as handle:
        return handle.read()""",
    """def settings():
    return {{"db_password": os.environ["DB_PASSWORD"], "db_user": "{user}"}}""",
)
SAFE_C = (
    """size_t checked_total(size_t count, size_t size) {{
    if (size != 0 && count > SIZE_MAX / size) return 0;
    return count * size;
}}""",
    """void copy_name(char *dst, size_t cap, const char *src) {{
    if (cap == 0) return;
    strncpy(dst, src, cap - 1);
    dst[cap - 1] = '\\0';
}}""",
)
SIGNATURES = {  # how the proof recognises each flaw in rendered code
    "sqli": r"\"(SELECT|INSERT|UPDATE|DELETE)\b[^\"]*'\"\s*[+.]",
    "path": r"(send_file\(os\.path\.join\(|path\.join\(__dirname, [^)]*req\.query)",
    "xss": r"(return \"<h1>[^\"]*\" \+ \w+ \+|innerHTML = .*\+ value)",
    "secret": r"(PASSWORD|TOKEN|SECRET)\w* = \"[^\"]+\"",
    "intovf": r"uint32_t \w+ = \w+ \* \d+;",
    "cmdi": r"(os\.popen|shell_exec|os\.system)\(\"[^\"]*\"\s*[+.]",
}


def render_snippet(rng: random.Random, cls: str, level: int) -> tuple[str, str, int]:
    """Code text, its language and the 1-based number of the flawed line."""
    langs = sorted(lang for c, lang in VULNERABLE if c == cls)
    lang = rng.choice(langs) if level == 0 else ("c" if cls == "intovf" else "python")
    fill = {
        "thing": rng.choice(("order", "invoice", "ticket", "record", "member", "parcel")),
        "param": rng.choice(("q", "name", "user", "term", "ref", "code", "item")),
        "table": rng.choice(("orders", "customers", "tickets", "members", "parcels")),
        "column": rng.choice(("email", "username", "reference", "status", "city")),
        "route": rng.choice(("download", "search", "lookup", "export", "status", "view")),
        "fn": rng.choice(("handler", "serve", "lookup_view", "show", "fetch_view")),
        "folder": rng.choice(("reports", "uploads", "exports", "files", "archive")),
        "user": rng.choice(("app", "svc_report", "webapp", "billing")),
        "secret": rng.choice(("Tr0ub4dor", "Winter", "Harbour", "Lantern"))
        + str(rng.randint(10, 99))
        + rng.choice("!#%&"),
        "size": rng.choice((8, 12, 16, 24, 32, 48, 64)),
    }
    fill["Thing"] = str(fill["thing"]).capitalize()
    body = VULNERABLE[(cls, lang)].format(**fill).strip("\n").split("\n")
    blocks = [body]
    if level:
        pool = SAFE_C if lang == "c" else SAFE_PYTHON
        for extra in rng.sample(pool, min(len(pool), level + (1 if lang == "python" else 0))):
            blocks.append(extra.format(**fill).split("\n"))
        rng.shuffle(blocks)
    lines: list[str] = []
    for block in blocks:
        if lines:
            lines.append("")
        lines += block
    flaw = next(i for i, line in enumerate(lines) if line.startswith("!")) + 1
    lines[flaw - 1] = lines[flaw - 1][1:]
    return "\n".join(lines), lang, flaw


def vuln_classification(rng: random.Random, level: int, variant: int) -> Item:
    cls = rng.choice(sorted(CLASSES))
    code, lang, flaw = render_snippet(rng, cls, level)
    listing = "\n".join(f"{i:>2}  {line}" for i, line in enumerate(code.split("\n"), start=1))
    meta: dict[str, Any] = {
        "kind": "vuln",
        "class": cls,
        "language": lang,
        "flaw_line": flaw,
        "code": code,
    }
    shown = {
        "python": "Python",
        "php": "PHP",
        "javascript": "JavaScript",
        "java": "Java",
        "c": "C",
    }[lang]
    intro = (
        f"This {shown} code (line numbers on the left) contains exactly one security flaw. "
        f"Any names it uses that are not defined here (app, request, os, ...) come from the "
        f"usual libraries.\n\n{listing}\n\n"
    )
    if variant == 2:
        q = intro + "On which line is the flaw? Give the line number."
        return {"question": q, "scorer": "numeric", "answer": str(flaw), "meta": meta}
    others = rng.sample([CLASSES[c] for c in sorted(CLASSES) if c != cls], 3)
    q = intro + "Which kind of vulnerability is it?"
    return {
        "question": q,
        "scorer": "mc",
        "correct": CLASSES[cls],
        "distractors": others,
        "meta": meta,
    }


# ---- log forensics ----------------------------------------------------------------------------
USERS = ("root", "admin", "alice", "bob", "deploy", "backup", "test", "oracle", "git", "carol")


def doc_ips(rng: random.Random, n: int) -> list[str]:
    picks: set[str] = set()
    while len(picks) < n:
        picks.add(rng.choice(DOC_NETS) + str(rng.randint(2, 254)))
    return sorted(picks, key=lambda ip: [int(x) for x in ip.split(".")])


def auth_log(rng: random.Random, level: int) -> tuple[list[str], list[dict[str, Any]]]:
    """sshd lines and their events; on hard rows exactly one failing IP later gets in."""
    attackers = doc_ips(rng, 3 + level)
    legit = [ip for ip in doc_ips(rng, 6) if ip not in attackers][:2]
    events: list[dict[str, Any]] = []
    for ip in attackers:
        for _ in range(rng.randint(1, 6 + 2 * level)):
            events.append({"ok": False, "ip": ip, "user": rng.choice(USERS)})
    for ip in legit:
        events.append({"ok": True, "ip": ip, "user": rng.choice(("alice", "bob", "carol"))})
    rng.shuffle(events)
    times = sorted(rng.sample(range(6 * 3600, 18 * 3600), len(events) + 1))
    for event, t in zip(events, times, strict=False):
        event["t"] = t
    if level == 2:  # one attacker succeeds after its failures
        ip = rng.choice(attackers)
        events.append(
            {"ok": True, "ip": ip, "user": rng.choice(("deploy", "backup", "git")), "t": times[-1]}
        )
    host = rng.choice(("bastion", "gw01", "edge2", "jump"))
    lines = []
    for e in sorted(events, key=lambda e: e["t"]):
        invalid = (
            ""
            if e["ok"] or e["user"] in ("root", "alice", "bob", "carol", "deploy")
            else ("invalid user ")
        )
        verb = "Accepted password" if e["ok"] else "Failed password"
        lines.append(
            f"2024-03-14T{clock(e['t'])}Z {host} sshd[{rng.randint(1000, 9999)}]: {verb} "
            f"for {invalid}{e['user']} from {e['ip']} port {rng.randint(30000, 65000)} "
            f"ssh2"
        )
    return lines, sorted(events, key=lambda e: e["t"])


def unique_top(counts: dict[str, int]) -> str | None:
    best = max(counts.values())
    tops = [k for k, v in counts.items() if v == best]
    return tops[0] if len(tops) == 1 else None


def web_log(rng: random.Random) -> tuple[list[str], list[dict[str, Any]]]:
    ips = doc_ips(rng, 5)
    paths = (
        "/",
        "/login",
        "/admin",
        "/api/orders",
        "/static/app.js",
        "/wp-login.php",
        "/backup.zip",
        "/.env",
        "/search",
    )
    events: list[dict[str, Any]] = []
    for t in sorted(rng.sample(range(8 * 3600, 20 * 3600), rng.randint(25, 40))):
        path = rng.choice(paths)
        status = rng.choice((200, 200, 200, 301, 401, 403, 404, 404, 500))
        size = 0 if status in (301, 304) else rng.randint(200, 9000)
        events.append(
            {"ip": rng.choice(ips), "path": path, "status": status, "bytes": size, "t": t}
        )
    lines = [
        f'{e["ip"]} - - [14/Mar/2024:{clock(e["t"])} +0000] "GET {e["path"]} HTTP/1.1" '
        f'{e["status"]} {e["bytes"]} "-" "Mozilla/5.0"'
        for e in events
    ]
    return lines, events


def log_forensics(rng: random.Random, level: int, variant: int) -> Item:
    if variant in (0, 1):
        lines, events = auth_log(rng, level)
        fails = [e for e in events if not e["ok"]]
        by_ip = {ip: sum(e["ip"] == ip for e in fails) for ip in sorted({e["ip"] for e in fails})}
        by_user = {
            u: sum(e["user"] == u for e in fails) for u in sorted({e["user"] for e in fails})
        }
        meta: dict[str, Any] = {"kind": "auth", "level": level}
        if variant == 0:
            if level == 0:
                answer, ask = unique_top(by_ip), "Which IP address had the most failed logins?"
            elif level == 1:
                answer, ask = (
                    unique_top(by_user),
                    ("Which username appears in the most failed login attempts?"),
                )
            else:
                hits = [e for e in events if e["ok"] and e["ip"] in by_ip]
                answer = hits[0]["user"] if len(hits) == 1 else None
                ask = (
                    "Which account was successfully logged into from an IP address that had "
                    "failed to log in earlier? Give the username."
                )
            meta["question"] = ("top_ip", "top_user", "breached_user")[level]
        else:
            if level == 0:
                answer, ask = str(len(fails)), "How many failed login attempts does the log show?"
            elif level == 1:
                answer, ask = (
                    str(len(by_ip)),
                    ("How many different IP addresses had at least one failed login?"),
                )
            else:
                hits = [e for e in events if e["ok"] and e["ip"] in by_ip]
                answer = str(by_ip[hits[0]["ip"]]) if len(hits) == 1 else None
                ask = (
                    "One IP address logged in successfully after failing earlier. How many "
                    "failed attempts did that IP address make before it got in?"
                )
            meta["question"] = ("fail_count", "fail_ips", "fails_before_breach")[level]
        if answer is None:
            return log_forensics(rng, level, variant)
        q = (
            "Here is an excerpt of an SSH server's authentication log:\n\n"
            + "\n".join(lines)
            + (f"\n\n{ask}")
        )
        return {
            "question": q,
            "scorer": "exact" if variant == 0 else "numeric",
            "answer": answer,
            "meta": meta,
        }
    lines, events = web_log(rng)
    if level == 0:
        counts = {
            p: sum(e["path"] == p and e["status"] == 404 for e in events)
            for p in sorted({e["path"] for e in events})
        }
        ask = "Which path received the most 404 (Not Found) responses?"
    elif level == 1:
        counts = {
            ip: sum(e["ip"] == ip and e["status"] in (401, 403) for e in events)
            for ip in sorted({e["ip"] for e in events})
        }
        ask = "Which IP address received the most 401 or 403 responses?"
    else:
        counts = {
            ip: sum(e["bytes"] for e in events if e["ip"] == ip)
            for ip in sorted({e["ip"] for e in events})
        }
        ask = "Which IP address was sent the most bytes in total (the response size field)?"
    top = unique_top(counts)
    if top is None or len(counts) < 4:
        return log_forensics(rng, level, variant)
    others = [k for k in sorted(counts, key=lambda k: -counts[k]) if k != top][:3]
    q = "Here is an excerpt of a web server's access log:\n\n" + "\n".join(lines) + f"\n\n{ask}"
    meta = {"kind": "web", "question": ("top_404_path", "top_denied_ip", "top_bytes_ip")[level]}
    return {"question": q, "scorer": "mc", "correct": top, "distractors": others, "meta": meta}


# ---- incident response ------------------------------------------------------------------------
SCENARIOS = (
    (
        "A workstation's files are being encrypted and a ransom note is on its screen.",
        {
            "identify": "Confirm the alert and find out which systems and accounts are affected",
            "contain": "Disconnect the affected workstation from the network",
            "eradicate": "Reimage the workstation from a known-good image",
            "recover": "Restore the user's files from a backup verified to be clean",
            "review": "Hold a lessons-learned review and update the response plan",
        },
        (
            "Reconnect the infected workstation to the network so it can download a decryption "
            "tool",
            "Pay the ransom and close the incident without investigating",
        ),
    ),
    (
        "A web shell has been found in the upload folder of a public web server.",
        {
            "identify": "Work out how the web shell was uploaded and what it was used for",
            "contain": "Take the server out of the load balancer and block the attacker's "
            "addresses",
            "eradicate": "Rebuild the server and patch the upload flaw that was abused",
            "recover": "Return the rebuilt server to service and watch it closely",
            "review": "Review the incident and add upload checks to the test suite",
        },
        (
            "Delete the web shell file and keep the server in service without investigating "
            "further",
            "Wipe the server before any logs or disk images have been preserved",
        ),
    ),
    (
        "An employee typed their password into a phishing page that imitated the company login.",
        {
            "identify": "Check the sign-in logs for use of the employee's account",
            "contain": "Reset the password and revoke the account's active sessions",
            "eradicate": "Remove the mail-forwarding rules and app grants the attacker added",
            "recover": "Give the account back to the employee with multi-factor sign-in enabled",
            "review": "Review the incident and share the phishing example in awareness training",
        },
        (
            "Tell the employee to ignore it because the password was only typed once",
            "Keep the password unchanged so that the attacker does not notice the investigation",
        ),
    ),
    (
        "A cloud access key was pushed to a public code repository.",
        {
            "identify": "Find out what the exposed key could access and whether it was used",
            "contain": "Revoke the exposed key so that it no longer works",
            "eradicate": "Remove the key from the repository, including its history",
            "recover": "Deploy a newly issued key to the services that need it",
            "review": "Add automatic secret scanning to the code pipeline",
        },
        (
            "Delete the key in a new commit and keep using the same key",
            "Make the repository private and treat the key as safe again",
        ),
    ),
)
STEP_LABELS = "PQRST"


def incident_response(rng: random.Random, level: int, variant: int) -> Item:
    text, steps, harmful = rng.choice(SCENARIOS)
    if variant == 1:
        bad = rng.choice(harmful)
        good = rng.sample([steps[p] for p in PHASES], 3)
        q = f"{text} Which of these actions should NOT be taken?"
        meta: dict[str, Any] = {"kind": "ir_avoid", "harmful": list(harmful), "steps": steps}
        return {"question": q, "scorer": "mc", "correct": bad, "distractors": good, "meta": meta}
    phases = list(PHASES[1:]) if level == 0 else list(PHASES)
    shown = rng.sample(phases, len(phases))
    labels = dict(zip(STEP_LABELS, shown, strict=False))
    listing = "\n".join(f"{lab}. {steps[p]}" for lab, p in labels.items())
    right = [lab for p in phases for lab, q in labels.items() if q == p]
    q_text = (
        f"{text} Following the standard incident-response lifecycle (as in NIST SP 800-61 and "
        f"the SANS process: identification, containment, eradication, recovery, lessons "
        f"learned), put these steps in order:\n\n{listing}\n\n"
    )
    meta = {"kind": "ir_order", "labels": labels}
    if variant == 2:
        lab = rng.choice(list(labels))
        ask = f"At which position (1 = first) in the correct order does step {lab} belong?"
        meta["asked"] = lab
        return {
            "question": q_text + ask,
            "scorer": "numeric",
            "answer": str(right.index(lab) + 1),
            "meta": meta,
        }
    wrong: list[str] = []
    while len(wrong) < 3:
        order = list(right)
        if level == 2:  # one adjacent swap: nearly right
            i = rng.randrange(len(order) - 1)
            order[i], order[i + 1] = order[i + 1], order[i]
        else:
            rng.shuffle(order)
        text_order = ", ".join(order)
        if order != right and text_order not in wrong:
            wrong.append(text_order)
    return {
        "question": q_text + "Which order is correct?",
        "scorer": "mc",
        "correct": ", ".join(right),
        "distractors": wrong,
        "meta": meta,
    }


# ---- rows and proofs --------------------------------------------------------------------------
BUILDERS = {
    "toy_ciphers": toy_ciphers,
    "cidr": cidr,
    "vuln_classification": vuln_classification,
    "log_forensics": log_forensics,
    "incident_response": incident_response,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the question form."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"sec2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the answer")
    )


def _auth_answer(row: dict[str, Any]) -> str:
    pattern = re.compile(
        r"T(\d\d:\d\d:\d\d)Z \S+ sshd\[\d+\]: (Accepted|Failed) password for "
        r"(?:invalid user )?(\S+) from (\S+) port"
    )
    parsed = [pattern.search(line) for line in log_lines(row["prompt"])]
    assert all(parsed), row["id"]
    events = [m.groups() for m in parsed if m]
    fails = [e for e in events if e[1] == "Failed"]
    failed_ips = {e[3] for e in fails}
    question = row["meta"]["question"]
    if question in ("top_ip", "top_user"):
        col = 3 if question == "top_ip" else 2
        counts: dict[str, int] = {}
        for e in fails:
            counts[e[col]] = counts.get(e[col], 0) + 1
        ranked = sorted(counts.values(), reverse=True)
        assert ranked[0] > ranked[1], row["id"]
        return max(counts, key=counts.__getitem__)
    if question == "fail_count":
        return str(len(fails))
    if question == "fail_ips":
        return str(len(failed_ips))
    (breach,) = [e for e in events if e[1] == "Accepted" and e[3] in failed_ips]
    if question == "breached_user":
        return breach[2]
    return str(sum(1 for e in fails if e[3] == breach[3] and e[0] < breach[0]))


def _web_answer(row: dict[str, Any]) -> str:
    pattern = re.compile(r'^(\S+) - - \[[^\]]+\] "GET (\S+) HTTP/1\.1" (\d{3}) (\d+) ')
    totals: dict[str, int] = {}
    for line in log_lines(row["prompt"]):
        m = pattern.match(line)
        assert m, line
        ip, path, status, size = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        question = row["meta"]["question"]
        if question == "top_404_path" and status == 404:
            totals[path] = totals.get(path, 0) + 1
        elif question == "top_denied_ip" and status in (401, 403):
            totals[ip] = totals.get(ip, 0) + 1
        elif question == "top_bytes_ip":
            totals[ip] = totals.get(ip, 0) + size
    ranked = sorted(totals.values(), reverse=True)
    assert len(ranked) == 1 or ranked[0] > ranked[1], row["id"]
    return max(totals, key=totals.__getitem__)


def _expected(row: dict[str, Any]) -> str:  # noqa: C901 - one branch per question kind
    import ipaddress

    m, kind = row["meta"], row["meta"]["kind"]
    answer = row["answer"]
    if kind == "caesar_decrypt":
        assert caesar(answer, m["shift"]) == m["cipher"]  # encrypting the answer gives the text
        return caesar(m["cipher"], 26 - m["shift"])
    if kind == "vigenere_decrypt":
        assert vigenere(answer, m["key"]) == m["cipher"]
        return vigenere(m["cipher"], m["key"], -1)
    if kind == "xor_decrypt":
        key = bytes.fromhex(m["key"])
        assert xor_hex(answer, key) == m["cipher"]
        data = bytes.fromhex(m["cipher"].replace(" ", ""))
        return bytes(b ^ key[i % len(key)] for i, b in enumerate(data)).decode("ascii")
    if kind in ("caesar_encrypt", "vigenere_encrypt"):
        undo = (
            (lambda c: caesar(c, -m["shift"]))
            if kind == "caesar_encrypt"
            else (lambda c: vigenere(c, m["key"], -1))
        )
        (right,) = [c for c in row["choices"] if undo(c) == m["plain"]]
        return right
    if kind == "xor_byte":
        return f"{m['a'] ^ m['b']:02x}"
    if kind == "caesar_shift":
        shifts = [s for s in range(1, 26) if m["crib"] in caesar(m["cipher"], -s).split()]
        assert len(shifts) == 1, row["id"]
        return str(shifts[0])
    if kind == "xor_key":
        data = bytes.fromhex(m["cipher"].replace(" ", ""))
        keys = [
            k
            for k in range(1, 256)
            if bytes(b ^ k for b in data).decode("latin-1").startswith(m["crib"])
        ]
        assert len(keys) == 1, row["id"]
        return str(keys[0])
    if kind in ("hosts", "subnets", "union"):
        if kind == "union":
            nets = [ipaddress.IPv4Network(n) for n in m["networks"]]
            merged = ipaddress.collapse_addresses(nets)
            return str(sum(n.num_addresses for n in merged))
        net = ipaddress.ip_network(m["network"])
        if kind == "hosts":
            return str(len(list(net.hosts())))
        return str(len(list(net.subnets(new_prefix=m["sub"]))))
    if kind in ("network", "broadcast"):
        iface = ipaddress.ip_interface(m["host"])
        return str(
            iface.network.network_address if kind == "network" else iface.network.broadcast_address
        )
    if kind == "supernet":
        a, b = (ipaddress.ip_address(x) for x in m["addresses"])
        net = ipaddress.ip_network(f"{a}/32")
        while b not in net:
            net = net.supernet()
        return str(net)
    if kind == "member":
        net = ipaddress.ip_network(m["network"])
        (inside,) = [c for c in row["choices"] if ipaddress.ip_address(c) in net]
        return inside
    if kind == "netmask":
        return str(ipaddress.ip_network(f"0.0.0.0/{m['prefix']}").netmask)
    if kind == "overlap":
        net = ipaddress.ip_network(m["network"])
        (hit,) = [c for c in row["choices"] if ipaddress.ip_network(c).overlaps(net)]
        return hit
    if kind == "vuln":
        lines = m["code"].split("\n")
        for cls, sig in SIGNATURES.items():
            hits = [i + 1 for i, line in enumerate(lines) if re.search(sig, line)]
            assert hits == ([m["flaw_line"]] if cls == m["class"] else []), (row["id"], cls, hits)
        return CLASSES[m["class"]] if row["scorer"] == "mc" else str(m["flaw_line"])
    if kind == "auth":
        return _auth_answer(row)
    if kind == "web":
        return _web_answer(row)
    if kind == "ir_order":
        order = sorted(m["labels"], key=lambda lab: PHASES.index(m["labels"][lab]))
        if row["scorer"] == "numeric":
            return str(order.index(m["asked"]) + 1)
        return ", ".join(order)
    if kind == "ir_avoid":
        (bad,) = [c for c in row["choices"] if c in m["harmful"]]
        assert all(c in m["steps"].values() for c in row["choices"] if c != bad), row["id"]
        return bad
    raise AssertionError(f"no proof for {kind}")


def prove(row: dict[str, Any]) -> None:
    expected = _expected(row)
    if row["scorer"] == "mc":
        assert v2.check_mc_layout(row) == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    classes = {r["meta"]["class"] for r in rows if r["category"] == "vuln_classification"}
    assert len(classes) >= 5, classes


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
