# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-tools-v1: function calling with OpenAI tool schemas, scored ``tool_call`` (spec 001).

Three kinds of item: ``single_tool`` (one tool offered, the request needs it), ``tool_choice``
(three to five tools from different domains, exactly one fits) and ``no_tool`` (small talk, a
request no offered tool can serve, or a question the prompt already answers): gold
``{"tool_call": null}``. Arguments come from seeded values written into the prompt (cities, ISO
dates, amounts, units) or are computed from them (hours and minutes to minutes, a time span, a
date some days later, a product or a sum). ``prove`` validates every gold call against its
schema with a small JSON-schema validator (types, required, enum, pattern, minimum, no extra
properties) and traces every argument back to the prompt text: verbatim, through a fixed
name-to-code table, or by recomputing the derivation from the numbers in the prompt.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

DATASET_ID = "eval-tools-v1"
KIND = "eval"
DESCRIPTION = (
    "Function calling: pick the right tool (or none) from OpenAI tool schemas and fill its "
    "arguments from values stated in, or computed from, the request."
)
SEED = 1_000_606
COUNT = 120
CREATED = "2026-11-29"
DEFAULT_SCORER = "tool_call"
CATEGORIES = ("single_tool", "tool_choice", "no_tool")
DIFFICULTIES = ("easy", "medium", "hard")
SYSTEM = (
    "You are an assistant that can call the tools provided. Call a tool only when the user's "
    "request needs it and one of the tools fits; otherwise reply in plain text."
)
ISO_DATE = r"^\d{4}-\d{2}-\d{2}$"
# fmt: off
CITIES = ("Lisbon", "Oslo", "Nairobi", "Lima", "Osaka", "Dakar", "Quito", "Hanoi", "Perth",
          "Accra", "Porto", "Bergen", "Tunis", "Cusco", "Busan", "Tbilisi", "Muscat", "Riga",
          "Zagreb", "Kigali", "Auckland", "Valparaiso", "Seville", "Krakow")
PEOPLE = ("amara", "bjorn", "chloe", "dmitri", "elena", "farah", "goran", "hiroshi", "ines",
          "jamal", "keiko", "lars", "mei", "nadia", "omar", "priya")
CURRENCIES = {"EUR": "euros", "USD": "US dollars", "GBP": "British pounds",
              "JPY": "Japanese yen", "CHF": "Swiss francs", "CAD": "Canadian dollars",
              "INR": "Indian rupees", "BRL": "Brazilian reais"}
UNIT_NAMES = {"km": "kilometres", "mi": "miles", "kg": "kilograms", "lb": "pounds",
              "l": "litres", "gal": "US gallons", "m": "metres", "ft": "feet"}
UNIT_PAIRS = (("km", "mi"), ("mi", "km"), ("kg", "lb"), ("lb", "kg"), ("l", "gal"),
              ("gal", "l"), ("m", "ft"), ("ft", "m"))
LANGUAGES = {"fr": "French", "es": "Spanish", "de": "German", "it": "Italian",
             "pt": "Portuguese", "ja": "Japanese", "sw": "Swahili", "nl": "Dutch"}
#: enum value -> the words a prompt may use for it (the only non-verbatim string arguments)
ALIASES = {**CURRENCIES, **UNIT_NAMES, **LANGUAGES, "fahrenheit": "Fahrenheit"}
TITLES = ("Dentist appointment", "Team review", "Piano lesson", "Budget meeting",
          "Parents' evening", "Bike service", "Yoga class", "Project kickoff")
LABELS = ("pasta", "tea", "laundry", "bread dough", "boiled eggs", "oven", "parking meter")
SENTENCES = ("Where is the train station?", "The museum opens at nine.",
             "Please close the window.", "How much does this ticket cost?",
             "We are looking for a quiet hotel.", "The meeting has been moved to Friday.",
             "My suitcase did not arrive.", "Is breakfast included?")
# fmt: on


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _fn(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


# fmt: off
DATE = {"type": "string", "pattern": ISO_DATE, "description": "Date as YYYY-MM-DD."}
TOOLS = {
    "get_weather": _fn("get_weather", "Get the weather forecast for a city on a date.", _obj({
        "city": {"type": "string", "description": "City name only, e.g. Lisbon."},
        "date": DATE,
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"],
                 "description": "Temperature unit; celsius when omitted."},
    }, ["city", "date"])),
    "convert_currency": _fn("convert_currency", "Convert an amount of money between currencies.",
                            _obj({
        "amount": {"type": "number", "description": "Amount in the source currency."},
        "from_currency": {"type": "string", "enum": sorted(CURRENCIES),
                          "description": "ISO 4217 code of the source currency."},
        "to_currency": {"type": "string", "enum": sorted(CURRENCIES),
                        "description": "ISO 4217 code of the target currency."},
    }, ["amount", "from_currency", "to_currency"])),
    "set_timer": _fn("set_timer", "Start a countdown timer.", _obj({
        "minutes": {"type": "integer", "minimum": 1, "description": "Length in whole minutes."},
        "label": {"type": "string", "description": "Optional name shown when it rings."},
    }, ["minutes"])),
    "create_event": _fn("create_event", "Add an event to the user's calendar.", _obj({
        "title": {"type": "string", "description": "Event title."},
        "date": DATE,
        "start_time": {"type": "string", "pattern": r"^\d{2}:\d{2}$",
                       "description": "Start time, 24-hour HH:MM."},
        "duration_minutes": {"type": "integer", "minimum": 1, "description": "Length in minutes."},
    }, ["title", "date", "start_time", "duration_minutes"])),
    "convert_units": _fn("convert_units", "Convert a length, mass or volume between units.", _obj({
        "value": {"type": "number", "description": "The quantity to convert."},
        "from_unit": {"type": "string", "enum": sorted(UNIT_NAMES), "description": "Source unit."},
        "to_unit": {"type": "string", "enum": sorted(UNIT_NAMES), "description": "Target unit."},
    }, ["value", "from_unit", "to_unit"])),
    "search_flights": _fn("search_flights", "Search for flights between two cities.", _obj({
        "origin": {"type": "string", "description": "Departure city name."},
        "destination": {"type": "string", "description": "Arrival city name."},
        "date": DATE,
        "passengers": {"type": "integer", "minimum": 1, "description": "Travellers; 1 if omitted."},
    }, ["origin", "destination", "date"])),
    "send_email": _fn("send_email", "Send an email.", _obj({
        "to": {"type": "string", "description": "Recipient email address."},
        "subject": {"type": "string", "description": "Subject line."},
        "body": {"type": "string", "description": "Message text (optional)."},
    }, ["to", "subject"])),
    "translate_text": _fn("translate_text", "Translate text into another language.", _obj({
        "text": {"type": "string", "description": "The text to translate."},
        "target_language": {"type": "string", "enum": sorted(LANGUAGES),
                            "description": "ISO 639-1 code of the target language."},
    }, ["text", "target_language"])),
}
# fmt: on


Call = tuple[str, dict[str, Any], str, dict[str, str]]  # text, arguments, match mode, derivations


def _date(rng: random.Random) -> dt.date:
    return dt.date(2027, 1, 1) + dt.timedelta(days=rng.randrange(9 * 365))


def _tidy(x: float) -> int | float:
    """Whole numbers as JSON integers (``404``, not ``404.0``)."""
    return int(x) if x.is_integer() else x


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _weather(rng: random.Random, level: int) -> Call:
    city, day = rng.choice(CITIES), _date(rng)
    if level == 0:
        return (
            f"What will the weather be like in {city} on {day.isoformat()}?",
            {"city": city, "date": day.isoformat()},
            "subset",
            {},
        )
    if level == 1:
        return (
            f"Can you check the forecast for {city} on {day.isoformat()}? I'd like the "
            "temperatures in Fahrenheit.",
            {"city": city, "date": day.isoformat(), "unit": "fahrenheit"},
            "exact",
            {},
        )
    n = rng.randint(2, 9)
    later = (day + dt.timedelta(days=n)).isoformat()
    return (
        f"I arrive in {city} on {day.isoformat()} and leave {n} days later. What is the "
        f"weather forecast in {city} for my departure day?",
        {"city": city, "date": later},
        "subset",
        {"date": "days_after"},
    )


def _currency(rng: random.Random, level: int) -> Call:
    src, dst = rng.sample(sorted(CURRENCIES), 2)
    amount = _tidy(rng.randint(1000, 900000) / 100)
    args = {"amount": amount, "from_currency": src, "to_currency": dst}
    if level == 0:
        return f"Convert {amount:.2f} {src} to {dst}.", args, "exact", {}
    if level == 1:
        return (
            f"How many {CURRENCIES[dst]} would I get for {amount:.2f} {CURRENCIES[src]}?",
            args,
            "exact",
            {},
        )
    n, each = rng.randint(2, 9), rng.randint(15, 990)
    return (
        f"I have to pay {n} invoices of {each} {CURRENCIES[src]} each. How much is the total "
        f"in {CURRENCIES[dst]}?",
        {**args, "amount": n * each},
        "exact",
        {"amount": "product"},
    )


def _timer(rng: random.Random, level: int) -> Call:
    minutes = rng.randint(2, 95)
    if level == 0:
        return f"Set a timer for {minutes} minutes, please.", {"minutes": minutes}, "subset", {}
    if level == 1:
        label = rng.choice(LABELS)
        return (
            f'Start a {minutes}-minute timer called "{label}".',
            {"minutes": minutes, "label": label},
            "exact",
            {},
        )
    hours, rest = rng.randint(1, 3), rng.randint(5, 55)
    return (
        f"Set a timer for {hours} hour{'s' if hours > 1 else ''} and {rest} minutes.",
        {"minutes": hours * 60 + rest},
        "subset",
        {"minutes": "hours_minutes"},
    )


def _event(rng: random.Random, level: int) -> Call:
    title, day = rng.choice(TITLES), _date(rng).isoformat()
    start, length = rng.randint(28, 76) * 15, rng.randint(1, 12) * 15
    args = {"title": title, "date": day, "start_time": _clock(start), "duration_minutes": length}
    if level < 2:
        return (
            f'Put "{title}" in my calendar on {day} at {_clock(start)} for {length} minutes.',
            args,
            "exact",
            {},
        )
    return (
        f'Put "{title}" in my calendar on {day} from {_clock(start)} to {_clock(start + length)}.',
        args,
        "exact",
        {"duration_minutes": "time_span"},
    )


def _units(rng: random.Random, level: int) -> Call:
    src, dst = rng.choice(UNIT_PAIRS)
    value = _tidy(rng.randint(20, 5000) / 10)
    args = {"value": value, "from_unit": src, "to_unit": dst}
    if level == 0:
        return f"Convert {value:g} {src} to {dst}.", args, "exact", {}
    if level == 1:
        return (f"How many {UNIT_NAMES[dst]} are {value:g} {UNIT_NAMES[src]}?", args, "exact", {})
    laps, each = rng.randint(2, 12), rng.randint(2, 40)
    return (
        f"I carried {laps} loads of {each} {UNIT_NAMES[src]} each. What is that in total, "
        f"in {UNIT_NAMES[dst]}?",
        {**args, "value": laps * each},
        "exact",
        {"value": "product"},
    )


def _flights(rng: random.Random, level: int) -> Call:
    origin, destination = rng.sample(CITIES, 2)
    day = _date(rng).isoformat()
    args = {"origin": origin, "destination": destination, "date": day}
    if level == 0:
        return f"Find me flights from {origin} to {destination} on {day}.", args, "subset", {}
    if level == 1:
        n = rng.randint(2, 6)
        return (
            f"Search flights from {origin} to {destination} on {day} for {n} passengers.",
            {**args, "passengers": n},
            "exact",
            {},
        )
    adults, children = rng.randint(1, 4), rng.randint(1, 4)
    return (
        f"Look for flights from {origin} to {destination} on {day} for {adults} adult"
        f"{'s' if adults > 1 else ''} and {children} child{'ren' if children > 1 else ''}.",
        {**args, "passengers": adults + children},
        "exact",
        {"passengers": "sum"},
    )


def _email(rng: random.Random, level: int) -> Call:
    who, ref = rng.choice(PEOPLE), rng.randint(1000, 9999)
    to = f"{who}@example.org"
    subject = f"{'Invoice' if level == 0 else 'Order'} {ref}"
    body = rng.choice(SENTENCES)
    return (
        f'Email {to} with the subject "{subject}" and the message "{body}"',
        {"to": to, "subject": subject},
        "subset",
        {},
    )


def _translate(rng: random.Random, level: int) -> Call:
    text, code = rng.choice(SENTENCES), rng.choice(sorted(LANGUAGES))
    return (
        f'Translate "{text}" into {LANGUAGES[code]}.',
        {"text": text, "target_language": code},
        "exact",
        {},
    )


BUILDERS = {
    "get_weather": _weather,
    "convert_currency": _currency,
    "set_timer": _timer,
    "create_event": _event,
    "convert_units": _units,
    "search_flights": _flights,
    "send_email": _email,
    "translate_text": _translate,
}
#: which tools each difficulty draws its requests from (hard ones need a computed argument)
BY_LEVEL = (
    (
        "get_weather",
        "convert_currency",
        "set_timer",
        "create_event",
        "convert_units",
        "search_flights",
        "send_email",
    ),
    (
        "get_weather",
        "convert_currency",
        "set_timer",
        "convert_units",
        "search_flights",
        "send_email",
        "translate_text",
    ),
    (
        "get_weather",
        "convert_currency",
        "set_timer",
        "create_event",
        "convert_units",
        "search_flights",
    ),
)
CHAT = (
    "Thanks a lot, that was exactly what I needed for my trip to {city}!",
    "Good morning! My name is {name} and I am new here.",
    "I just got back from {city}. What a lovely week it was.",
    "Hello! {name} says hi, by the way.",
    "No more questions for now, thank you. Greetings from {city}!",
)
#: (tempting tool, question whose answer the prompt states, the stated answer key)
ANSWERED = ("get_weather", "search_flights", "convert_currency", "set_timer", "create_event")


def _answered(rng: random.Random, tool: str) -> tuple[str, str]:
    city, other = rng.sample(CITIES, 2)
    day = _date(rng).isoformat()
    if tool == "get_weather":
        t = rng.randint(-5, 35)
        return (
            f"The forecast I read says {t} degrees Celsius in {city} on {day}. According to "
            "that forecast, how warm will it be? Just repeat the number.",
            str(t),
        )
    if tool == "search_flights":
        return (
            f"I already booked my flight from {city} to {other} on {day}. Remind me: which "
            "city am I flying to?",
            other,
        )
    if tool == "convert_currency":
        a = rng.randint(20, 900)
        b = a * rng.randint(88, 106) // 100  # a plausible rate; the number is what matters
        return (
            f"I exchanged {a} euros and received {b} Swiss francs. How many Swiss francs did "
            "I receive?",
            str(b),
        )
    if tool == "set_timer":
        m = rng.randint(3, 90)
        return (
            f"I started a {m}-minute timer for the {rng.choice(LABELS)} a moment ago. How "
            "long was the timer?",
            str(m),
        )
    start = _clock(rng.randint(28, 76) * 15)
    return (
        f'My calendar already has "{rng.choice(TITLES)}" on {day} at {start}. At what time '
        "does it start?",
        start,
    )


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category = CATEGORIES[idx % len(CATEGORIES)]
    j = idx // len(CATEGORIES)
    level, k = j % len(DIFFICULTIES), j // len(DIFFICULTIES)
    meta: dict[str, Any] = {"arguments_match": "exact"}
    answer: dict[str, Any] = {"tool_call": None}
    if category != "no_tool":
        pool = BY_LEVEL[level]
        tool = pool[(k + (0 if category == "single_tool" else 3)) % len(pool)]
        text, args, match, derived = BUILDERS[tool](rng, level)
        names = [tool]
        if category == "tool_choice":
            names += rng.sample([t for t in sorted(TOOLS) if t != tool], 2 + level)
            rng.shuffle(names)
        answer = {"tool_call": {"name": tool, "arguments": args}}
        meta.update(arguments_match=match, **({"derived": derived} if derived else {}))
    elif level == 0:
        text = CHAT[k % len(CHAT)].format(city=rng.choice(CITIES), name=rng.choice(PEOPLE).title())
        names = rng.sample(sorted(TOOLS), 2)
        meta["no_tool_reason"] = "small_talk"
    elif level == 1:
        wanted = BY_LEVEL[0][k % len(BY_LEVEL[0])]
        text, args, _, _ = BUILDERS[wanted](rng, 0)
        names = rng.sample([t for t in sorted(TOOLS) if t != wanted], 3)
        meta.update(no_tool_reason="no_fitting_tool", requested={"name": wanted, "arguments": args})
    else:
        tempting = ANSWERED[k % len(ANSWERED)]
        text, stated = _answered(rng, tempting)
        names = [tempting, *rng.sample([t for t in sorted(TOOLS) if t != tempting], 2)]
        rng.shuffle(names)
        meta.update(no_tool_reason="answer_in_prompt", stated=stated)
    meta["tools"] = [TOOLS[n] for n in names]
    return {
        "id": f"tools-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}],
        "answer": answer,
        "scorer": DEFAULT_SCORER,
        "meta": meta,
    }


# --- proofs ----------------------------------------------------------------------------------

JSON_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def schema_errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """The JSON-schema subset the tools use: type, enum, pattern, minimum, properties,
    required, additionalProperties: false, items."""
    kind = schema["type"]
    if isinstance(value, bool) and kind != "boolean" or not isinstance(value, JSON_TYPES[kind]):
        return [f"{path}: expected {kind}, got {type(value).__name__}"]
    errors = []
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in enum")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{path}: {value} below minimum")
    if kind == "object":
        props = schema.get("properties", {})
        errors += [f"{path}: missing {r}" for r in schema.get("required", []) if r not in value]
        for key, item in value.items():
            if key in props:
                errors += schema_errors(item, props[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected {key}")
    if kind == "array" and "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(item, schema["items"], f"{path}[{i}]")
    return errors


def _check_tool(tool: dict[str, Any]) -> None:
    assert tool["type"] == "function" and set(tool["function"]) == {
        "name",
        "description",
        "parameters",
    }
    params = tool["function"]["parameters"]
    assert params["type"] == "object" and set(params["required"]) <= set(params["properties"])
    for prop in params["properties"].values():
        assert prop["type"] in JSON_TYPES and prop["description"]
        assert "enum" not in prop or (prop["enum"] and len(set(prop["enum"])) == len(prop["enum"]))


def derive(rule: str, prompt: str) -> Any:
    """Recompute a derived argument from the numbers written in the prompt."""
    if rule == "days_after":
        day, n = re.search(r"on (\d{4}-\d{2}-\d{2}) and leave (\d+) days later", prompt).groups()
        return (dt.date.fromisoformat(day) + dt.timedelta(days=int(n))).isoformat()
    if rule == "product":
        a, b = re.search(r"(\d+) (?:invoices|loads) of (\d+) ", prompt).groups()
        return int(a) * int(b)
    if rule == "hours_minutes":
        h, m = re.search(r"(\d+) hours? and (\d+) minutes", prompt).groups()
        return int(h) * 60 + int(m)
    if rule == "time_span":
        h1, m1, h2, m2 = map(
            int, re.search(r"from (\d\d):(\d\d) to (\d\d):(\d\d)", prompt).groups()
        )
        return h2 * 60 + m2 - h1 * 60 - m1
    a, b = re.search(r"for (\d+) adults? and (\d+) child", prompt).groups()  # "sum"
    return int(a) + int(b)


def _traced(value: Any, prompt: str) -> bool:
    """A string stated verbatim (or by its fixed name) or a number written in the prompt."""
    if isinstance(value, str):
        words = [value] + ([ALIASES[value]] if value in ALIASES else [])
        return any(re.search(rf"(?<![\w@.-]){re.escape(w)}(?![\w@-])", prompt, re.I) for w in words)
    return any(float(n) == value for n in re.findall(r"\d+(?:\.\d+)?", prompt))


def _prove_call(
    call: dict[str, Any],
    tools: list[dict[str, Any]],
    prompt: str,
    match: str,
    derived: dict[str, str],
) -> None:
    by_name = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    schema, args = by_name[call["name"]], call["arguments"]
    assert not schema_errors(args, schema), schema_errors(args, schema)
    assert match == "subset" or set(args) == set(schema["properties"]), "exact needs every property"
    for key, value in args.items():
        assert (
            derive(derived[key], prompt) == value if key in derived else _traced(value, prompt)
        ), key


def prove(row: dict[str, Any]) -> None:
    meta, prompt = row["meta"], row["messages"][-1]["content"]
    tools = meta["tools"]
    for tool in tools:
        _check_tool(tool)
    names = [t["function"]["name"] for t in tools]
    assert len(set(names)) == len(names) and meta["arguments_match"] in ("subset", "exact")
    assert len(names) == {
        "single_tool": 1,
        "tool_choice": 3 + DIFFICULTIES.index(row["difficulty"]),
    }.get(row["category"], len(names))
    call = row["answer"]["tool_call"]
    if call is not None:
        assert call["name"] in names and row["category"] != "no_tool"
        _prove_call(call, tools, prompt, meta["arguments_match"], meta.get("derived", {}))
        assert (row["difficulty"] == "hard") == bool(meta.get("derived")), row["id"]
        return
    reason = meta["no_tool_reason"]
    if reason == "small_talk":
        assert not re.search(r"\d|\?", prompt), row["id"]
    elif reason == "no_fitting_tool":  # a real request, but for a tool that is not offered
        wanted = meta["requested"]
        assert wanted["name"] not in names
        _prove_call(wanted, [TOOLS[wanted["name"]]], prompt, "subset", {})
    else:
        assert meta["stated"] in prompt and "?" in prompt, row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["messages"][-1]["content"], "prompt")
    seen = {(r["category"], r["difficulty"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES), seen
    called = {r["answer"]["tool_call"]["name"] for r in rows if r["answer"]["tool_call"]}
    assert called == set(TOOLS), called


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
