"""Where the shared GCS sample files are: <repo>/../shared/gcs-samples (never copied into the repository),
looked for above the repository too (a git worktree sits one level deeper)."""

from __future__ import annotations

from pathlib import Path

SAMPLES = next((p / "shared" / "gcs-samples" for p in Path(__file__).resolve().parents[1].parents
                if (p / "shared" / "gcs-samples").is_dir()), Path("../shared/gcs-samples"))
KNIGHT_GCS = SAMPLES / "fighter-shield_Noble-Knight.gcs"
GUNNER_GCS = SAMPLES / "gunner-damaged_Uncle-Rufus-as-Wade.gcs"
ARCHER_GCS = SAMPLES / "archer_Basic-Archer.gcs"
