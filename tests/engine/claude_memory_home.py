"""A Claude Code auto-memory folder in Claude Code's own format, for the tests.

Claude Code 2.1 writes one Markdown file per memory with front matter ``name``,
``description`` and ``type`` (user, feedback, project, reference), the memory below it
(feedback and project memories as the rule or fact, then **Why:** and **How to apply:**), and
a ``MEMORY.md`` index of one line per memory: ``- [Title](file.md) — one-line hook``. Older
auto memory also kept plain topic files without front matter (``debugging.md``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

FILES = {
    "feedback_pnpm.md": """---
name: Prefers pnpm
description: Use pnpm, never npm, for installs and scripts in this repository
type: feedback
---

Use pnpm for every install and script; never run npm here.
**Why:** the lockfile is pnpm-lock.yaml and npm rewrote it twice last week.
**How to apply:** run `pnpm install` / `pnpm test`, and correct any npm command in docs you touch.
""",
    "project_staging.md": """---
name: Staging deploys
description: Staging is deployed by hand on Fridays; the pipeline only builds
type: project
---

Staging deploys are manual and happen on Fridays after the QA sign-off.
**Why:** the shared staging database is reset on Thursday nights.
**How to apply:** never suggest an automatic staging deploy; mention the Friday window instead.
""",
    "reference_grafana.md": """---
name: Latency dashboards
description: Where the checkout latency dashboards live
type: reference
---

The checkout latency dashboards are at https://grafana.example.com/d/checkout (board "Checkout p95").
""",
    "user_role.md": """---
name: 安娜的角色
description: 后端工程师，刚开始接触前端
type: user
---

安娜是资深后端工程师，刚开始接触这个仓库的前端部分；解释前端时多给背景。
""",
    "debugging.md": """# Debugging notes

- The flaky checkout test fails when the Redis container starts late; rerun with `--wait-redis`.
""",
    "deploy_token.md": """---
name: Deploy token
description: The token the mirror job uses
type: reference
---

The mirror job authenticates with ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8.
""",
}

INDEX = """- [Prefers pnpm](feedback_pnpm.md) — pnpm only, never npm
- [Staging deploys](project_staging.md) — manual, Fridays after QA
- [Latency dashboards](reference_grafana.md) — Grafana board for checkout p95
- [安娜的角色](user_role.md) — 后端工程师，前端新手
"""


def encoded(path: Path) -> str:
    """Claude Code's folder name for a project path (every non-alphanumeric character is '-')."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


def memory_folder(user_home: Path, project_root: Path) -> Path:
    return user_home / ".claude" / "projects" / encoded(project_root) / "memory"


def build(user_home: Path, project_root: Path, *, index: str | None = INDEX) -> Path:
    """The memory folder of ``project_root`` under ``user_home/.claude``, filled in."""
    folder = memory_folder(user_home, project_root)
    folder.mkdir(parents=True)
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    if index is not None:
        (folder / "MEMORY.md").write_text(index, encoding="utf-8")
    for i, path in enumerate(sorted(folder.iterdir())):
        os.utime(path, (1_790_000_000 + i, 1_790_000_000 + i))
    return folder


def snapshot(root: Path) -> dict[str, tuple[bytes | None, int, int]]:
    """Every path under root: (bytes or None for a folder, mode, mtime in ns)."""
    out: dict[str, tuple[bytes | None, int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            data = None if path.is_dir() else path.read_bytes()
            out[str(path.relative_to(root))] = (data, st.st_mode, st.st_mtime_ns)
    return out
