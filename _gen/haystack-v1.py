# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""haystack-v1: needle-in-a-haystack recipes from 1k to 256k tokens (spec 001, "The haystack
algorithm" and "kind: haystack").

Rows are recipes, not text: ``build.py`` (a verbatim copy of ``_gen/families/haystack/build.py``,
shipped with the dataset) rebuilds each document exactly, and every row records the digest, size and
needle line numbers of the result. Documents of at most 32k tokens are also written to
``static/<id>.txt`` with one trailing newline that is not part of the hashed text. ``prove``
rebuilds each document and checks the recorded facts and the needles' uniqueness.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.haystack import build as builder
from families.haystack import needles

DATASET_ID = "haystack-v1"
KIND = "haystack"
DESCRIPTION = (
    "Needle-in-a-haystack recipes at eight sizes (1k-256k tokens), single needles at three "
    "depths and three-needle retrieval; build.py rebuilds every document exactly."
)
SEED = 20_261_201
CREATED = "2026-12-01"
DEFAULT_SCORER = None
SIZES = (1024, 2048, 4096, 8192, 16384, 32768, 131072, 262144)
#: (id suffix, needle depths) per variant; each size gets every variant.
VARIANTS: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("d10", (0.1,)),
    ("d50", (0.5,)),
    ("d90", (0.9,)),
    ("multi", (0.2, 0.5, 0.8)),
)
COUNT = len(SIZES) * len(VARIANTS)
STATIC_MAX_TOKENS = 32768


def _static_file(row_id: str, target_tokens: int) -> str | None:
    return f"static/{row_id}.txt" if target_tokens <= STATIC_MAX_TOKENS else None


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    target_tokens = SIZES[idx // len(VARIANTS)]
    suffix, depths = VARIANTS[idx % len(VARIANTS)]
    row_id = f"hay-{needles.size_label(target_tokens)}-{suffix}"
    recipe = needles.make_recipe(rng, target_tokens, depths)
    _, facts = needles.materialise(recipe)
    return {
        "id": row_id,
        "kind": "single" if len(depths) == 1 else "multi",
        **recipe,
        **facts,
        "static_file": _static_file(row_id, target_tokens),
    }


def prove(row: dict[str, Any]) -> None:
    needles.prove_recipe(row, row["id"])
    assert row["static_file"] == _static_file(row["id"], row["target_tokens"]), row["id"]
    assert (row["kind"] == "multi") == (len(row["needles"]) > 1), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["seed"], "seed")
    assert sorted({r["target_tokens"] for r in rows}) == list(SIZES)


def extra_files(rows: list[dict[str, Any]]) -> dict[str, bytes]:
    """The builder, byte for byte, and the materialised small documents."""
    files = {"build.py": Path(builder.__file__).read_bytes()}
    for row in rows:
        if row["static_file"]:
            files[row["static_file"]] = (builder.build_document(row) + "\n").encode("utf-8")
    return files


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
        extra_files=extra_files,
        argv=argv,
    )


if __name__ == "__main__":
    main()
