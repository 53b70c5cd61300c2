"""Do the neutral sampling knobs change the embedded engine's greedy answers? (issue 33,
docs/engine.md, "Neutral sampling knobs").

Starts the embedded llama-server once (four slots, as eval runs) and sends the 24-item eval set
of ``repro_embedded.py`` greedy three times: as the project sends it (no knob), with every
llama.cpp knob at its neutral value (``engines.NEUTRAL["llama.cpp"]``), and with the repeat
penalty llama-cpp-python's server applies (1.1) — what a server default that is not neutral
does. Prints how many answers differ from the first, byte for byte, and the server's reported
defaults. Minutes of model time on the 2-core machine: not part of ``make bench``; run
``.venv/bin/python tests/bench/neutral_knobs.py``.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "bench"))

import yaml  # noqa: E402
from repro_embedded import post, prompts  # noqa: E402

from stages.engine.embedded import EngineSettings, embedded_server  # noqa: E402
from stages.inference.server_facts import read_facts  # noqa: E402
from stages.params import ModelParams, resolve_model  # noqa: E402
from stages.protocol.engines import NEUTRAL  # noqa: E402

VARIANTS = {
    "as sent (no knob)": {},
    "every llama.cpp knob neutral": NEUTRAL["llama.cpp"],
    "repeat_penalty 1.1 (llama-cpp-python's default)": {"repeat_penalty": 1.1},
}


def main() -> None:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    model = ModelParams.model_validate(resolve_model(params))
    items = prompts(params, model, "eval")
    with embedded_server(model, EngineSettings.of(model, 4)) as server:
        facts = read_facts(server.url, {}, direct=True)
        shown = {k: (facts.defaults or {}).get(k) for k in NEUTRAL["llama.cpp"]}
        print(f"server defaults ({facts.source}): {json.dumps(shown)}")
        outputs: dict[str, dict[str, str]] = {}
        for name, knobs in VARIANTS.items():
            bodies = [(i, json.dumps({**json.loads(b), **knobs}).encode()) for i, b in items]
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda ib: post(server.url, ib[1])[0], bodies))
            outputs[name] = dict(zip([i for i, _ in bodies], answers, strict=True))
    first = outputs[next(iter(VARIANTS))]
    for name, answers in outputs.items():
        differ = sum(answers[i] != first[i] for i in first)
        print(f"{name}: {differ} of {len(first)} answers differ from the first")


if __name__ == "__main__":
    main()
