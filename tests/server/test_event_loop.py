"""``serve --loop uvloop`` (issue 16, server CPU per push): an optional faster event loop. Asked for
without the package installed, the server refuses to start with a clear error rather than running on
another loop than the one asked for; with it, the server serves as on asyncio's loop."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from combat_server.client import CombatClient
from combat_server.errors import CombatError
from combat_server.server import cli

ROOT = Path(__file__).resolve().parents[2]


def test_asyncio_is_the_default_loop() -> None:
    parser = argparse.ArgumentParser()
    cli.add_serve_command(parser.add_subparsers())
    assert parser.parse_args(["serve"]).loop == "asyncio"
    assert cli._loop_factory("asyncio") is None


def test_uvloop_asked_for_but_not_installed_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def without_uvloop(name: str, package: str | None = None) -> ModuleType:
        if name == "uvloop":
            raise ImportError("No module named 'uvloop'")
        return real(name, package)

    monkeypatch.setattr(cli.importlib, "import_module", without_uvloop)
    with pytest.raises(CombatError) as refused:
        cli._loop_factory("uvloop")
    assert refused.value.code == "serve/no_uvloop" and "pip install uvloop" in refused.value.message


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_server_on_uvloop_runs_a_fight() -> None:
    pytest.importorskip("uvloop")
    port = _free_port()
    db = Path(tempfile.mkdtemp(prefix="combat-uvloop-")) / "fight.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "combat_server.server", "--loop", "uvloop", "--port", str(port),
                             "--database-url", f"sqlite:///{db}", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        assert b"listening" in line, line
        gm = await CombatClient.connect(f"ws://127.0.0.1:{port}/ws")
        try:
            created = await gm.create_fight("gurps")
            await gm.subscribe(created["token"])
            result = await gm.command("note", {"text": "on uvloop"})
            await gm.wait_for_seq(result["last_seq"])
            assert gm.events[-1].event["payload"]["text"] == "on uvloop"
        finally:
            await gm.close()
    finally:
        proc.terminate()
        proc.wait(10)
