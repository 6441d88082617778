"""Read-only commands leave a Reasonix home byte-identical (paths, bytes and modes)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
from pathlib import Path

import pytest

from context_center.cli import main
from context_center.engine.store.paths import workspace_slug

FIXTURE = Path(__file__).parent / "fixtures" / "reasonix-home"


def snapshot(root: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every path under ``root`` with its mode and content (a link's target; None for a dir)."""
    out: dict[str, tuple[int, bytes | str | None]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                content: bytes | str | None = os.readlink(path)
            elif stat.S_ISDIR(st.st_mode):
                content = None
            else:
                content = path.read_bytes()
            out[str(path.relative_to(root))] = (st.st_mode, content)
    return out


def run(*argv: str) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    assert code == 0, (argv, out.getvalue(), err.getvalue())
    return code


READ_ONLY = [
    ["memory", "list"],
    ["memory", "read", "package-manager"],
    ["memory", "read", "global/prefers-pnpm"],
    ["memory", "search", "pnpm"],
    ["memory", "recall"],
    ["memory", "instructions"],
    ["memory", "revisions", "release-branch"],
    ["memory", "archived"],
    ["prefix"],
]


@pytest.mark.parametrize("as_json", [False, True])
def test_read_only_commands_leave_a_reasonix_home_byte_identical(
    home: Path, workspace: Path, as_json: bool
) -> None:
    shutil.copytree(FIXTURE, home, dirs_exist_ok=True)
    (home / "projects" / "WORKSPACE").rename(home / "projects" / workspace_slug(workspace))
    before = snapshot(home)
    base = ["--home", str(home), "--workspace", str(workspace)] + (["--json"] if as_json else [])
    for argv in READ_ONLY:
        run(*base, *argv)
        assert snapshot(home) == before, argv
    # what the commands derived lives in the private cache folder outside the home
    from context_center.engine.store.paths import cache_root, store_cache_dir

    store = home / "projects" / workspace_slug(workspace) / "memory"
    cache = store_cache_dir(store)
    assert (cache / "facts-v4.bin").is_file()
    assert home not in cache.parents
    for path in [cache, *cache.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path
    assert stat.S_IMODE((cache_root() / "stores").stat().st_mode) == 0o700


def test_a_write_keeps_the_home_free_of_caches(home: Path, workspace: Path) -> None:
    shutil.copytree(FIXTURE, home, dirs_exist_ok=True)
    (home / "projects" / "WORKSPACE").rename(home / "projects" / workspace_slug(workspace))
    base = ["--home", str(home), "--workspace", str(workspace)]
    run(*base, "memory", "save", "--name", "x", "--type", "project", "--body", "b")
    from context_center.engine.store.paths import store_cache_dir

    store = home / "projects" / workspace_slug(workspace) / "memory"
    assert not (store / ".cache").exists()
    heads = store_cache_dir(store) / "heads"
    assert [p.name for p in heads.iterdir()]  # the head ledger, outside the home
    assert stat.S_IMODE(heads.stat().st_mode) == 0o700
