"""Standing instructions: the chain, the prefix, a person's rule, editing one file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.changes import Changes
from context_center.engine.facade.core import EngineCore

if TYPE_CHECKING:
    from context_center.engine.instructions.docfile import LoadedDoc
    from context_center.engine.instructions.prefix import Prefix
    from context_center.engine.instructions.resolve import Resolution
    from context_center.engine.instructions.rules import RuleScope
    from context_center.engine.store.memory import MemoryView

# The bounded walk for the workspace's instruction folders.
SKIP_DIRS = frozenset({"node_modules", "venv", "__pycache__", "build", "dist"})
MAX_FOLDER_DEPTH = 4
MAX_FOLDERS = 200


class InstructionsAPI(EngineCore):
    def _target(self, target: str | Path | None) -> Path:
        if target:
            return Path(target).expanduser().absolute()
        if self.cwd.is_relative_to(self.workspace):
            return self.cwd
        return self.workspace

    def instructions(self, target: str | Path | None = None) -> Resolution:
        """The instruction chain that applies to ``target``: by default the current directory
        when it lies inside the workspace, else the workspace root."""
        from context_center.engine.instructions.resolve import resolve_instructions

        return resolve_instructions(
            self.home, self.workspace if self.explicit_workspace else None, self._target(target)
        )

    def prefix(
        self,
        target: str | Path | None = None,
        view: MemoryView | None = None,
        *,
        resolution: Resolution | None = None,
    ) -> Prefix:
        """The provider-visible stable prefix: stable guidance, instructions, memory index.
        ``resolution`` reuses a chain the caller already resolved for the same target."""
        from context_center.engine.instructions.prefix import build_prefix

        view = view if view is not None else self.memory.load(persist_cache=False)
        chain = resolution if resolution is not None else self.instructions(target)
        return build_prefix(chain, view.facts, view.conflicts)

    def instruction_folders(self) -> list[str]:
        """Workspace folders (relative, "." first) holding an instruction file: the targets a
        person can pick. A bounded walk that skips hidden and build folders."""
        from context_center.engine.instructions.resolve import (
            DOCUMENT_NAMES,
            LOCAL_DOCUMENT_NAMES,
        )

        names = set(DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES)
        found = ["."]
        base_depth = len(self.workspace.parts)
        for root, dirs, files in os.walk(self.workspace):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
            if len(Path(root).parts) - base_depth >= MAX_FOLDER_DEPTH:
                dirs[:] = []
            if root != str(self.workspace) and names & set(files):
                found.append(Path(os.path.relpath(root, self.workspace)).as_posix())
            if len(found) >= MAX_FOLDERS:
                break
        return found

    def _label(self, path: Path) -> str:
        for base, prefix in ((self.workspace, "workspace"), (self.home, "user")):
            if path.is_relative_to(base):
                return f"{prefix}/{path.relative_to(base).as_posix()}"
        return path.name

    def add_rule(
        self, note: str, scope: RuleScope | str, *, workspace: Path | None = None
    ) -> Changes[Path]:
        """Append a standing rule (a person's ``/remember``) to the right instruction file."""
        from context_center.engine.instructions.rules import add_rule

        path = add_rule(self.home, workspace or self.workspace, note, scope)
        return Changes(path, instructions=(self._label(path),))

    def read_instruction_file(self, path: Path) -> LoadedDoc:
        """One instruction file for the editor (encoding, line endings and hash kept)."""
        from context_center.engine.instructions.docfile import read_document

        return read_document(path)

    def save_instruction_file(self, doc: LoadedDoc, text: str) -> Changes[LoadedDoc]:
        """Compare-and-set save: refused with ``content_conflict`` if the file changed."""
        from context_center.engine.instructions.docfile import save_document

        saved = save_document(doc, text)
        return Changes(saved, instructions=(self._label(saved.path),))
