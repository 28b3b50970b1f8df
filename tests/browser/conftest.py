"""A real server process and a real headless Chromium for the browser tests.

The server runs as a subprocess (``python -m combat_server.server``, what
``combat-server serve`` runs) on a free loopback port over a SQLite file, so a
test can kill it and start it again on the same port and database. Chromium is
Debian's ``/usr/bin/chromium``; nothing is downloaded. Screenshots go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("COMBAT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync"]
LAPTOP = {"width": 1280, "height": 800}

# Playwright's `expect` waits 5 s by default, whatever a page's own timeout: on a shared 2-core
# machine under load a push can take longer than that to be drawn. A passing assertion returns as
# soon as it holds, so a longer bound only changes how long a real failure takes to be reported.
try:
    from playwright.sync_api import expect as _expect
    _expect.set_options(timeout=15_000)
except ImportError:  # the browser tests are then skipped by their own fixture
    pass
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``serve`` in a subprocess; ``restart()`` keeps the port and the database."""

    #: The module run as ``python -m``: a test may run a launcher that registers a ruleset of its own first.
    module = "combat_server.server"

    def __init__(self, database: Path, port: int) -> None:
        self.database_url = f"sqlite:///{database}"
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = database.with_suffix(".log")

    def start(self) -> None:
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module, "--port", str(self.port),
             "--database-url", self.database_url, "--log-level", "warning"],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("browser") / "fights.sqlite", _free_port())
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium (.ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shoot() -> object:
    """``shoot(page, name)`` saves a screenshot under artifacts/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, full_page: bool = False, focus: Any = None) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        if focus is not None:
            focus.scroll_into_view_if_needed()
        else:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
