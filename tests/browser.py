"""Headless Chromium from the system packages, driven by Playwright, for the review sheet tests.

Nothing here downloads a browser: Playwright is pointed at Debian's ``/usr/bin/chromium`` (or
``ATLAS_CHROMIUM``). Where no browser can be had the tests are skipped with the reason, except
under ``.ci/run`` (it sets ``ATLAS_REQUIRE_BROWSER``, after installing Chromium with apt) or on a
runner that sets ``CI``: there a missing browser is a failure, never a silent skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Chromium runs as root here, and the machine's closed network refuses background connections.
ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium_path() -> str:
    """The system Chromium, or skip (fail on CI) saying why there is none."""
    found = os.environ.get("ATLAS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    reason = None
    if not Path(found).is_file():
        reason = "no Chromium (apt-get install chromium; or set ATLAS_CHROMIUM)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "Playwright is not installed (make install brings the dev extra)"
    if reason is not None:
        if os.environ.get("ATLAS_REQUIRE_BROWSER") or os.environ.get("CI"):
            pytest.fail(f"browser tests must run on CI: {reason}")
        pytest.skip(reason)
    return found


@contextlib.contextmanager
def browser_page(downloads: Path) -> Iterator[Any]:
    """A page in a fresh persistent profile (its own local storage), downloads accepted."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with tempfile.TemporaryDirectory(prefix="atlas-chromium-") as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            args=ARGS,  # Playwright passes the fresh profile as --user-data-dir itself
            headless=True,
            accept_downloads=True,
            downloads_path=str(downloads),
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
