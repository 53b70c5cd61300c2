"""Reading the project's files as they were at a revision, with git only (issue 10).

A revision is a git revision (``HEAD~1``, a branch, a tag, a commit), the name of a DVC
experiment (DVC keeps each experiment as a git ref ``refs/exps/<xx>/<baseline>/<name>``), or
``workspace`` (the files on disk). Nothing here needs the DVC cache: verdicts, metrics and
datasets are all git-tracked. Paths are relative to the current directory (the project root).
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from stages.errors import AtlasError

WORKSPACE = "workspace"


def _git(*args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise AtlasError("git is not installed: `atlas compare` reads revisions with git") from exc


def _experiment_refs(name: str) -> list[str]:
    """Refs of the DVC experiments called ``name`` (``refs/exps/ab/<baseline>/<name>``)."""
    listed = _git("for-each-ref", "--format=%(refname)", "refs/exps")
    refs = listed.stdout.decode().split()
    return [ref for ref in refs if ref.rsplit("/", 1)[-1] == name and ref.count("/") >= 4]


def resolve(name: str) -> str | None:
    """The commit ``name`` points to, or None for ``workspace``; an error names what failed."""
    if name == WORKSPACE:
        return None
    found = _git("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    if found.returncode == 0:
        return found.stdout.decode().strip()
    refs = _experiment_refs(name)
    if len(refs) > 1:
        raise AtlasError(f"{name!r} names {len(refs)} DVC experiments: {', '.join(refs)}")
    if refs:
        commit = _git("rev-parse", "--verify", "--quiet", f"{refs[0]}^{{commit}}")
        if commit.returncode == 0:
            return commit.stdout.decode().strip()
    inside = _git("rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0:
        raise AtlasError(f"{Path.cwd()}: not a git repository (run from the project root)")
    raise AtlasError(
        f"{name!r} is neither a git revision, a DVC experiment (`dvc exp list`) nor 'workspace'"
    )


@dataclass
class Revision:
    """The project's files at one revision."""

    label: str
    """The name the user gave (``HEAD~1``, an experiment name, ``workspace``)."""
    commit: str | None
    """The resolved commit; None for the workspace."""
    _cache: dict[str, bytes | None] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, name: str) -> Revision:
        return cls(name, resolve(name))

    @property
    def short(self) -> str:
        """``HEAD~1 (3f2a1c9)``, or ``workspace``."""
        return self.label if self.commit is None else f"{self.label} ({self.commit[:7]})"

    def read(self, path: str) -> bytes | None:
        """The bytes of ``path`` at this revision, or None when it does not exist there."""
        if path not in self._cache:
            if self.commit is None:
                file = Path(path)
                self._cache[path] = file.read_bytes() if file.is_file() else None
            else:
                shown = _git("show", f"{self.commit}:./{path}")
                self._cache[path] = shown.stdout if shown.returncode == 0 else None
        return self._cache[path]

    def text(self, path: str) -> str | None:
        data = self.read(path)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AtlasError(f"{path} at {self.short}: not UTF-8 (byte {exc.start})") from exc

    def listdir(self, directory: str) -> list[str]:
        """File names directly in ``directory`` at this revision (sorted)."""
        if self.commit is None:
            folder = Path(directory)
            return (
                sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
            )
        listed = _git("ls-tree", "--name-only", f"{self.commit}:./{directory}")
        return sorted(listed.stdout.decode().split("\n")[:-1]) if listed.returncode == 0 else []
