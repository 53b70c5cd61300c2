# ruff: noqa: E501 - templates are code as a model reads it; wrapping them would change the rows
"""Python handler templates for eval-security-v3's vulnerability family (``vulns.py``).

Each template is one small function whose body is a ``{SINK}`` slot, with three lists of fillings
for that slot: ``unsafe`` (the textbook flaw), ``subtle`` (a flaw that looks handled: formatting
that only looks parameterised, a prefix check without the separator, escaping that skips quotes,
a default secret behind an environment lookup, options smuggled into an argument list) and
``safe``. A safe filling differs from an unsafe one by a call or a check, so the same function,
the same sink and often the same concatenation appear on both sides: which sink a snippet uses
says nothing about whether it is the flawed one (issue 13: -v2 snippets fell to a keyword rule).

Sinks are the application's helpers, mocked by the proof: ``db.execute``, ``os.popen``,
``os.system``, ``subprocess.run`` / ``check_output``, ``send_file``, ``open``, ``Response``,
``redirect`` and ``connect``. Placeholders: ``{table}``, ``{col}``, ``{thing}``, ``{folder}``,
``{user}``, ``{secret}``.
"""

from __future__ import annotations

CLASSES = {
    "sqli": "SQL injection",
    "cmdi": "OS command injection",
    "path": "Path traversal",
    "xss": "Cross-site scripting (XSS)",
    "redirect": "Open redirect",
    "secret": "Hard-coded credential",
}
Template = dict[str, object]
_GUARD_NAME = '        raise ValueError("invalid name")'

TEMPLATES: dict[str, list[Template]] = {
    "sqli": [
        {
            "head": "def find_{thing}(email):",
            "unsafe": [
                """    return db.execute("SELECT * FROM {table} WHERE {col} = '" + email + "'")""",
                """    return db.execute(f"SELECT * FROM {table} WHERE {col} = '{{email}}'")""",
            ],
            "subtle": [
                """    return db.execute("SELECT * FROM {table} WHERE {col} = '%s'" % email)"""
            ],
            "safe": [
                """    return db.execute("SELECT * FROM {table} WHERE {col} = %s", (email,))""",
                """    return db.execute("SELECT * FROM {table} WHERE {col} = ?", [email])""",
            ],
        },
        {
            "head": "def list_{table}(sort):",
            "unsafe": ["""    return db.execute("SELECT * FROM {table} ORDER BY " + sort)"""],
            "subtle": [
                """    sort = sort.replace(";", "")
    return db.execute("SELECT * FROM {table} ORDER BY " + sort)"""
            ],
            "safe": [
                """    if sort not in ("{col}", "created_at"):
        raise ValueError("unknown sort column")
    return db.execute("SELECT * FROM {table} ORDER BY " + sort)""",
                """    column = {{"newest": "created_at", "name": "{col}"}}[sort]
    return db.execute("SELECT * FROM {table} ORDER BY " + column)""",
            ],
        },
        {
            "head": "def get_{thing}(item_id):",
            "unsafe": ["""    return db.execute("SELECT * FROM {table} WHERE id = " + item_id)"""],
            "subtle": [
                """    return db.execute("SELECT * FROM {table} WHERE id = %s" % item_id)"""
            ],
            "safe": [
                """    return db.execute("SELECT * FROM {table} WHERE id = " + str(int(item_id)))""",
                """    return db.execute("SELECT * FROM {table} WHERE id = %s", (int(item_id),))""",
            ],
        },
    ],
    "cmdi": [
        {
            "head": "def ping_host(host):",
            "unsafe": [
                """    return os.popen("ping -c 1 -- " + host).read()""",
                """    return subprocess.run(f"ping -c 1 -- {{host}}", shell=True).stdout""",
            ],
            "subtle": [
                """    return subprocess.run(["sh", "-c", "ping -c 1 -- " + host]).stdout""",
            ],
            "safe": [
                """    return subprocess.run(["ping", "-c", "1", "--", host]).stdout""",
                """    return os.popen("ping -c 1 -- " + shlex.quote(host)).read()""",
            ],
        },
        {
            "head": "def clone_repo(url):",
            "unsafe": ["""    os.system("git clone " + url + " /srv/repos/incoming")"""],
            "subtle": [
                """    subprocess.run(["git", "clone", url, "/srv/repos/incoming"], check=True)"""
            ],
            "safe": [
                """    subprocess.run(["git", "clone", "--", url, "/srv/repos/incoming"], check=True)""",
                """    os.system("git clone -- " + shlex.quote(url) + " /srv/repos/incoming")""",
            ],
        },
        {
            "head": "def archive_{folder}(folder):",
            "unsafe": [
                """    return subprocess.check_output("tar czf /tmp/{folder}.tgz -- " + folder, shell=True)"""
            ],
            "subtle": [
                """    return subprocess.check_output("tar czf /tmp/{folder}.tgz -- '" + folder + "'", shell=True)"""
            ],
            "safe": [
                """    return subprocess.check_output(["tar", "czf", "/tmp/{folder}.tgz", "--", folder])""",
                """    return subprocess.check_output("tar czf /tmp/{folder}.tgz -- " + shlex.quote(folder), shell=True)""",
            ],
        },
    ],
    "path": [
        {
            "head": "def download_{thing}(name):",
            "unsafe": [
                """    return send_file(os.path.join("/srv/{folder}", name))""",
                """    return send_file("/srv/{folder}/" + name)""",
            ],
            "subtle": [
                f"""    if ".." in name:
{_GUARD_NAME}
    return send_file(os.path.join("/srv/{{folder}}", name))""",
                f"""    path = os.path.normpath(os.path.join("/srv/{{folder}}", name))
    if not path.startswith("/srv/{{folder}}"):
{_GUARD_NAME}
    return send_file(path)""",
            ],
            "safe": [
                """    return send_file(os.path.join("/srv/{folder}", os.path.basename(name)))""",
                f"""    path = os.path.normpath(os.path.join("/srv/{{folder}}", name))
    if not path.startswith("/srv/{{folder}}/"):
{_GUARD_NAME}
    return send_file(path)""",
                f"""    if ".." in name or name.startswith("/"):
{_GUARD_NAME}
    return send_file(os.path.join("/srv/{{folder}}", name))""",
            ],
        },
        {
            "head": "def read_log(day):",
            "unsafe": [
                """    with open("/var/log/{folder}/" + day + ".log") as handle:
        return handle.read()"""
            ],
            "subtle": [
                """    if not re.match(r"[0-9-]+", day):
        raise ValueError("invalid day")
    with open("/var/log/{folder}/" + day + ".log") as handle:
        return handle.read()"""
            ],
            "safe": [
                """    if not re.fullmatch(r"[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}", day):
        raise ValueError("invalid day")
    with open("/var/log/{folder}/" + day + ".log") as handle:
        return handle.read()""",
                """    with open("/var/log/{folder}/" + os.path.basename(day) + ".log") as handle:
        return handle.read()""",
            ],
        },
    ],
    "xss": [
        {
            "head": "def search_page(term):",
            "unsafe": [
                """    return Response("<h1>Results for " + term + "</h1>")""",
                """    return Response(f"<h1>Results for {{term}}</h1>")""",
            ],
            "subtle": [
                """    shown = html.escape(term)
    return Response("<h1>Results for " + term + "</h1>")"""
            ],
            "safe": [
                """    return Response("<h1>Results for " + html.escape(term) + "</h1>")""",
                """    shown = html.escape(term)
    return Response("<h1>Results for " + shown + "</h1>")""",
            ],
        },
        {
            "head": "def profile_link(username):",
            "unsafe": ["""    return Response('<a href="/users/' + username + '">profile</a>')"""],
            "subtle": [
                """    return Response('<a href="/users/' + html.escape(username, quote=False) + '">profile</a>')"""
            ],
            "safe": [
                """    return Response('<a href="/users/' + html.escape(username) + '">profile</a>')""",
                """    return Response('<a href="/users/' + urllib.parse.quote(username) + '">profile</a>')""",
            ],
        },
        {
            "head": "def page_footer(page):",
            "unsafe": ["""    return Response("<p>Page " + str(page) + " of {thing}s</p>")"""],
            "subtle": ["""    return Response("<p>Page " + page.strip() + " of {thing}s</p>")"""],
            "safe": ["""    return Response("<p>Page " + str(int(page)) + " of {thing}s</p>")"""],
        },
    ],
    "redirect": [
        {
            "head": "def after_login(next_url):",
            "unsafe": ["""    return redirect(next_url)"""],
            "subtle": [
                """    if not next_url.startswith("/"):
        next_url = "/"
    return redirect(next_url)""",
                """    if not next_url.startswith("https://shop.example.com"):
        next_url = "/"
    return redirect(next_url)""",
            ],
            "safe": [
                """    if next_url not in ("/", "/orders", "/account"):
        next_url = "/"
    return redirect(next_url)""",
                """    return redirect({{"orders": "/orders", "account": "/account"}}.get(next_url, "/"))""",
            ],
        },
        {
            "head": "def open_tab(tab):",
            "unsafe": ["""    return redirect("https://" + tab + "/account")"""],
            "subtle": ["""    return redirect("https://shop.example.com" + tab)"""],
            "safe": [
                """    return redirect("https://shop.example.com/account?tab=" + urllib.parse.quote(tab))""",
                """    return redirect("https://shop.example.com/" + urllib.parse.quote(tab))""",
            ],
        },
    ],
    "secret": [
        {
            "head": "def open_db():",
            "unsafe": ["""    return connect("db.internal", "{user}", "{secret}")"""],
            "subtle": [
                """    return connect("db.internal", "{user}", os.environ.get("DB_PASSWORD", "{secret}"))""",
                """    return connect("db.internal", "{user}", os.getenv("DB_PASSWORD") or "{secret}")""",
            ],
            "safe": [
                """    return connect("db.internal", "{user}", os.environ["DB_PASSWORD"])""",
                """    return connect("db.internal", "{user}", read_secret("db-password"))""",
            ],
        },
        {
            "head": "def mail_session():",
            "unsafe": ["""    return connect("smtp.internal", "{user}", "{secret}")"""],
            "subtle": [
                """    token = os.environ.get("MAIL_TOKEN", "{secret}")
    return connect("smtp.internal", "{user}", token)"""
            ],
            "safe": [
                """    token = os.environ.get("MAIL_TOKEN")
    if not token:
        raise RuntimeError("MAIL_TOKEN is not set")
    return connect("smtp.internal", "{user}", token)""",
                """    return connect("smtp.internal", "{user}", read_secret("mail-token"))""",
            ],
        },
    ],
}
IMPORTS = "import html\nimport os\nimport re\nimport shlex\nimport subprocess\nimport urllib.parse"
FILLS = {
    "thing": ("order", "invoice", "ticket", "member", "parcel", "report"),
    "table": ("orders", "customers", "tickets", "members", "parcels"),
    "col": ("email", "username", "reference", "status", "city"),
    "folder": ("reports", "uploads", "exports", "backups", "archive"),
    "user": ("app", "svc_report", "webapp", "billing"),
}
SECRET_WORDS = ("Winter", "Harbour", "Lantern", "Copper", "Meadow", "Falcon")
