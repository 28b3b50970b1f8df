"""Rulesets are plug-ins registered through the ``combat_server.rulesets`` entry-point group (#9,
Registration): the project registers ``gurps`` there, ``rules/ruleset.py`` imports no ruleset,
and a ruleset that fails to load, or two with the same name and version, stop ``serve`` with
an error naming them.

Plug-ins are real distributions: a ``.dist-info`` with an ``entry_points.txt`` and a module,
in a directory on ``PYTHONPATH`` of a real ``combat-server`` process.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import combat_server
from combat_server.engine.fight import Engine
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.ruleset import ENTRY_POINT_GROUP, get_ruleset, known_rulesets

SCRIPT = shutil.which("combat-server", path=str(Path(sys.executable).parent)) or shutil.which("combat-server")

#: A second ruleset built on gurps under another name: what a plug-in distribution ships.
VARIANT = '''
from combat_server.rules.gurps.ruleset import GurpsRuleset

class VariantRuleset(GurpsRuleset):
    name = "variant"
    version = "2.0"
'''
#: Another class claiming gurps 1.0.
TWIN = '''
from combat_server.rules.gurps.ruleset import GurpsRuleset

class TwinRuleset(GurpsRuleset):
    pass
'''
BROKEN = '''
raise ImportError("this ruleset needs the dice tower package")
'''


def plugin(path: Path, dist: str, entry_points: dict[str, str], modules: dict[str, str]) -> Path:
    """Install a distribution named ``dist`` (version 0.1) into ``path``: its metadata, its entry
    points in the rulesets group, and its modules."""
    info = path / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n", encoding="utf-8")
    lines = [f"[{ENTRY_POINT_GROUP}]"] + [f"{k} = {v}" for k, v in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for module, source in modules.items():
        (path / f"{module}.py").write_text(source, encoding="utf-8")
    return path


def env_with(path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COMBAT_DATABASE_URL", "PYTHONPATH")}
    env["PYTHONPATH"] = str(path)
    return env


def serve(tmp_path: Path, plugins: Path) -> subprocess.CompletedProcess[str]:
    """Run ``combat-server serve`` with the plug-ins until it exits or says it listens (then it is
    stopped); one that does neither is killed after 60 s."""
    assert SCRIPT, "the combat-server console script is not installed (pip install -e '.[test]')"
    proc = subprocess.Popen([SCRIPT, "serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path / 's.sqlite'}"],
                            cwd=tmp_path, env=env_with(plugins), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "listening on" in line:
                proc.terminate()
                break
        out, err = proc.communicate()
    finally:
        watchdog.cancel()
    return subprocess.CompletedProcess(proc.args, proc.returncode, "".join(lines) + out, err)


def python(code: str, plugins: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], env=env_with(plugins), capture_output=True, text=True,
                          timeout=60)


def test_the_project_registers_gurps_through_its_entry_point() -> None:
    eps = [ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == "gurps"]
    assert [ep.load() for ep in eps] == [GurpsRuleset]
    assert type(get_ruleset("gurps")) is GurpsRuleset
    assert known_rulesets()["gurps"] == GurpsRuleset.version


def test_the_registry_imports_no_ruleset() -> None:
    """rules/ruleset.py knows rulesets only through the entry points."""
    path = Path(combat_server.__file__).parent / "rules" / "ruleset.py"
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    # gurps, ...; the kit (rules/kit) is shared by every ruleset and is none itself
    packages = {p.name for p in path.parent.iterdir() if (p / "__init__.py").exists()} - {"kit"}
    assert packages and not [m for m in imported if m.split(".")[2:3] and m.split(".")[2] in packages
                             and m.startswith("combat_server.rules.")]


def test_a_fight_names_its_ruleset() -> None:
    """No hidden default in the engine: creating a fight without a ruleset is a programming error."""
    assert inspect.signature(Engine.create_fight).parameters["ruleset"].default is inspect.Parameter.empty


def test_a_plugin_distribution_adds_its_ruleset(tmp_path: Path) -> None:
    plugins = plugin(tmp_path / "site", "variant-rulesets", {"variant": "variant_ruleset:VariantRuleset"},
                     {"variant_ruleset": VARIANT})
    out = python("from combat_server.rules.ruleset import known_rulesets; print(known_rulesets())", plugins)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "{'gurps': '1.0', 'shell': '1.0', 'variant': '2.0'}"


def test_one_ruleset_registered_by_two_distributions_is_not_a_duplicate(tmp_path: Path) -> None:
    """The same class seen twice (e.g. a checkout installed twice on the path) is one ruleset."""
    plugins = plugin(tmp_path / "site", "gurps-again", {"gurps": "combat_server.rules.gurps.ruleset:GurpsRuleset"},
                     {})
    out = python("from combat_server.rules.ruleset import load_rulesets; print(load_rulesets())", plugins)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "{'gurps': '1.0', 'shell': '1.0'}"


def test_a_ruleset_that_fails_to_load_stops_serve_naming_it(tmp_path: Path) -> None:
    plugins = plugin(tmp_path / "site", "broken-rulesets", {"broken": "broken_ruleset:BrokenRuleset"},
                     {"broken_ruleset": BROKEN})
    out = serve(tmp_path, plugins)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "listening" not in out.stdout
    assert "error: ruleset/load_failed:" in out.stderr
    assert "entry point broken = broken_ruleset:BrokenRuleset of broken-rulesets 0.1 failed to load" in out.stderr
    assert "ImportError: this ruleset needs the dice tower package" in out.stderr
    assert "Traceback" not in out.stderr


def test_an_entry_point_that_names_no_ruleset_stops_serve_naming_it(tmp_path: Path) -> None:
    plugins = plugin(tmp_path / "site", "odd-rulesets", {"odd": "odd_ruleset:NOT_A_RULESET"},
                     {"odd_ruleset": "NOT_A_RULESET = 42\n"})
    out = serve(tmp_path, plugins)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "entry point odd = odd_ruleset:NOT_A_RULESET of odd-rulesets 0.1 failed to load" in out.stderr
    assert "not a Ruleset subclass or instance" in out.stderr


def test_two_rulesets_with_the_same_name_and_version_stop_serve_naming_both(tmp_path: Path) -> None:
    plugins = plugin(tmp_path / "site", "twin-rulesets", {"twin": "twin_ruleset:TwinRuleset"},
                     {"twin_ruleset": TWIN})
    out = serve(tmp_path, plugins)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "listening" not in out.stdout
    assert "error: ruleset/duplicate:" in out.stderr
    assert "ruleset gurps 1.0 is registered twice" in out.stderr
    assert "entry point gurps = combat_server.rules.gurps.ruleset:GurpsRuleset of combat-server" in out.stderr
    assert "entry point twin = twin_ruleset:TwinRuleset of twin-rulesets 0.1" in out.stderr


def test_serve_starts_with_a_plugin_ruleset(tmp_path: Path) -> None:
    """The control case: a well-formed plug-in does not stop the server."""
    plugins = plugin(tmp_path / "site", "variant-rulesets", {"variant": "variant_ruleset:VariantRuleset"},
                     {"variant_ruleset": VARIANT})
    out = serve(tmp_path, plugins)
    assert "listening on" in out.stdout, out.stderr


def test_an_unknown_version_lists_the_rulesets_versions_not_the_rulesets() -> None:
    """``fight/unknown_ruleset`` for a version: ``known`` is what the client could ask for instead,
    the versions of that ruleset (for an unknown name it is the rulesets)."""
    from combat_server.errors import CombatError

    with pytest.raises(CombatError) as err:
        get_ruleset("gurps", "9")
    versions = sorted(v for n, v in _registered_pairs() if n == "gurps")
    assert err.value.code == "fight/unknown_ruleset"
    assert err.value.details["known"] == versions and "9" not in versions
    assert known_rulesets()["gurps"] in versions and "shell" not in err.value.details["known"]
    assert "has no version '9'" in err.value.message
    with pytest.raises(CombatError) as err:
        get_ruleset("chess")
    assert err.value.details["known"] == sorted(known_rulesets())


def _registered_pairs() -> list[tuple[str, str]]:
    from combat_server.rules import ruleset as registry

    return list(registry._REGISTRY)
