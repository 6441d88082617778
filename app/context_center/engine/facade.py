"""The engine's one entry object per (home, workspace), used by the window, the CLI and agents."""

from __future__ import annotations

from pathlib import Path

from context_center.engine.memory import Memory, MemoryView
from context_center.engine.paths import Layout, resolve_home


class Engine:
    """Holds the layout and the small managers; every front end goes through one of these."""

    def __init__(self, home: str | Path | None = None, workspace: str | Path | None = None) -> None:
        self.home = resolve_home(home)
        self.workspace = (
            Path(workspace).expanduser().absolute() if workspace else Path.cwd().absolute()
        )
        self.layout = Layout(self.home, self.workspace)
        self.memory = Memory(self.layout)

    def open(self, *, migrate: bool = False, persist_cache: bool = True) -> MemoryView:
        """Load both stores. With ``migrate`` (the window, mutating commands) legacy facts are
        upgraded in place first, which is safe because every rewrite re-checks the file's hash
        under the store lock."""
        if migrate:
            self.memory.migrate()
        return self.memory.load(persist_cache=persist_cache)
