"""The state every part of the ``Engine`` shares: home, workspace, layout and the two stores."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.store.paths import Layout, resolve_home

if TYPE_CHECKING:
    from context_center.engine.changes import Changes
    from context_center.engine.kinds import Scope
    from context_center.engine.model import Fact
    from context_center.engine.store.memory import Memory


class EngineCore:
    """Holds the layout and the stores; the area mixins add the operations."""

    def __init__(self, home: str | Path | None = None, workspace: str | Path | None = None) -> None:
        self.home = resolve_home(home)
        # An explicit workspace is the instruction root as given; otherwise the root is the
        # nearest ancestor holding .git (of the current directory, or of a target).
        self.explicit_workspace = bool(workspace)
        self.given_workspace = str(workspace) if workspace else None  # as typed (remote forms)
        self.cwd = Path.cwd().absolute()
        if workspace:
            self.workspace = Path(workspace).expanduser().absolute()
        else:
            from context_center.engine.instructions.resolve import find_workspace_root

            self.workspace = find_workspace_root(Path.cwd().absolute())
        self.layout = Layout(self.home, self.workspace)
        self._memory: Memory | None = None

    @property
    def memory(self) -> Memory:
        """Both stores, created on first use: a cold recall proven current by the store
        stamps never needs them (nor the store modules)."""
        if self._memory is None:
            from context_center.engine.store.memory import Memory

            self._memory = Memory(self.layout)
        return self._memory

    def prepare_write(self) -> Changes[list[str]]:
        """Before a person's write from a one-shot command: upgrade legacy facts when the
        stores' caches say there are any (``Memory.migrate_if_needed``; no store is loaded
        otherwise). The value is the refs migrated."""
        from context_center.engine.changes import migrated

        return migrated(self.memory.migrate_if_needed())

    def require_workspace(self) -> None:
        """Refuse a workspace that does not exist (``workspace_not_found``): every command
        checks this before it reads or writes anything, so a mistyped ``--workspace`` creates
        no store for a folder that is not there."""
        from context_center.engine.errors import WorkspaceNotFound
        from context_center.engine.suggestions.remote import is_remote_location

        if self.workspace.is_dir():
            return
        if is_remote_location(self.given_workspace or self.workspace):
            raise WorkspaceNotFound(
                f"workspace {self.given_workspace or self.workspace.name} is a remote location: "
                "Context Center works on "
                "a local folder (open it where it lives, or mount it)",
                code="remote_workspace",
            )
        what = "is not a folder" if self.workspace.exists() else "does not exist"
        raise WorkspaceNotFound(
            f"workspace {self.workspace.name or self.workspace} {what}: "
            "check --workspace (or run from inside the project)"
        )

    def _memory_for(self, workspace: Path) -> Memory:
        """Writes for this workspace go through this engine's own stores, so their in-memory
        state sees them at once; other workspaces get stores of their own."""
        if str(workspace) == str(self.workspace):
            return self.memory
        from context_center.engine.store.memory import Memory

        return Memory(Layout(self.home, Path(workspace)))

    @staticmethod
    def _scope_of(fact: Fact) -> Scope:
        return fact.scope
