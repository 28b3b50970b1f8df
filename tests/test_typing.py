"""The package type-checks with ``mypy --strict`` (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_passes_on_the_package() -> None:
    """mypy --strict reports no error anywhere in combat_server."""
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "-p", "combat_server"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
