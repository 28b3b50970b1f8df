"""The cost of a push's view hash, two trees side by side (issue 16, protocol 5). Not a test; run by hand:

    python bench/view_hash_cost.py /path/to/old/checkout /path/to/new/checkout

Loads ``combat_server/patch.py`` of each tree in this one process, builds a view of N combatants, makes
successive views that each replace one combatant's entry (a new object; every other part shared, as the
server's view builder and a client's patched copies share them) and times ``ViewHasher()`` over them,
alternating the trees; prints the median of 7 per size and the ratio new/old.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any


def load(tree: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, Path(tree) / "combat_server" / "patch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def view(n: int) -> dict[str, Any]:
    return {"seq": 1, "title": "t", "prompts": [],
            "combatants": {f"c{i:03d}": {"name": f"C{i}", "sheet": {"st": 10, "skills": {f"s{j}": j for j in range(30)}},
                                         "condition": {"hp": 10, "fp": 10}} for i in range(n)},
            "derived": {f"c{i:03d}": {"move": 5, "dodge": 8, "notes": ["a" * 40] * 5} for i in range(n)}}


def per_push_us(patch: ModuleType, n: int, pushes: int) -> float:
    v = view(n)
    hasher = patch.ViewHasher()
    hasher(v)
    views = []
    for i in range(pushes):
        combatants = dict(v["combatants"])
        combatants["c000"] = {**combatants["c000"], "condition": {"hp": i, "fp": 10}}
        v = {**v, "combatants": combatants, "seq": i}
        views.append(v)
    t0 = time.perf_counter()
    for v in views:
        hasher(v)
    return (time.perf_counter() - t0) / pushes * 1e6


def main(old_tree: str, new_tree: str) -> None:
    old, new = load(old_tree, "old_patch"), load(new_tree, "new_patch")
    for n, pushes in ((4, 3000), (50, 1000), (500, 300)):
        a, b = [], []
        for _ in range(7):
            a.append(per_push_us(old, n, pushes))
            b.append(per_push_us(new, n, pushes))
        o, w = statistics.median(a), statistics.median(b)
        print(f"{n:4d} combatants: old {o:7.1f} us/push, new {w:7.1f} us/push, new/old {w / o:.2f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
