"""Standing instructions: each agent's chain, the comparison, the prefix, a person's rule,
editing one file.

Claude Code and Codex read the user's own home (``~/.claude``, ``~/.codex`` or
``$CODEX_HOME``): ``user_home`` is that home, ``Path.home()`` unless set (tests and the demo
set it, so the engine never reads the real home there). ``instruction_ceiling`` stops Claude
Code's walk up from the target (None: the filesystem root, as Claude Code does).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.changes import Changes
from context_center.engine.facade.core import EngineCore

if TYPE_CHECKING:
    from context_center.engine.instructions.compare import Comparison
    from context_center.engine.instructions.docfile import LoadedDoc
    from context_center.engine.instructions.model import Agent
    from context_center.engine.instructions.prefix import Prefix
    from context_center.engine.instructions.resolve import Resolution
    from context_center.engine.instructions.rules import RuleScope
    from context_center.engine.instructions.service import Places
    from context_center.engine.store.memory import MemoryView


class InstructionsAPI(EngineCore):
    _user_home: Path | None = None
    codex_home: Path | None = None  # None: $CODEX_HOME, else <user_home>/.codex
    instruction_ceiling: Path | None = None

    @property
    def user_home(self) -> Path:
        """The user's home for Claude Code and Codex files (default ``Path.home()``)."""
        return self._user_home if self._user_home is not None else Path.home()

    @user_home.setter
    def user_home(self, value: str | Path | None) -> None:
        self._user_home = Path(value).expanduser().absolute() if value else None

    def _places(self) -> Places:
        from context_center.engine.instructions.service import Places

        return Places(
            home=self.home,
            workspace=self.workspace if self.explicit_workspace else None,
            user_home=self.user_home,
            codex_home=self.codex_home,
            ceiling=self.instruction_ceiling,
        )

    def _target(self, target: str | Path | None) -> Path:
        """``target`` (it must exist: ``target_not_found``), else the current directory when it
        lies inside the workspace, else the workspace root."""
        from context_center.engine.instructions.service import check_target

        if target:
            return check_target(Path(target).expanduser().absolute(), self.workspace)
        if self.cwd.is_relative_to(self.workspace):
            return self.cwd
        return self.workspace

    def instructions(
        self, target: str | Path | None = None, *, agent: Agent | str = "reasonix"
    ) -> Resolution:
        """The instruction chain ``agent`` (reasonix, claude-code, codex) loads for ``target``."""
        from context_center.engine.instructions.service import resolve_for

        return resolve_for(agent, self._places(), self._target(target))

    def compare_instructions(self, target: str | Path | None = None) -> Comparison:
        """Every instruction file found for ``target`` and what each agent does with it."""
        from context_center.engine.instructions.service import compare_for

        return compare_for(self._places(), self._target(target))

    def prefix(
        self,
        target: str | Path | None = None,
        view: MemoryView | None = None,
        *,
        resolution: Resolution | None = None,
        agent: Agent | str = "reasonix",
    ) -> Prefix:
        """What a session of ``agent`` starts with. Reasonix: the budgeted stable prefix
        (stable guidance, instructions, memory index); another agent: its instruction text.
        ``resolution`` reuses a chain the caller already resolved for the same target."""
        from context_center.engine.instructions.service import prefix_for

        chain = resolution if resolution is not None else self.instructions(target, agent=agent)
        if chain.agent.value != "reasonix":
            return prefix_for(chain, (), ())
        view = view if view is not None else self.memory.load(persist_cache=False)
        lay = self.layout
        stores = (lay.project_store, lay.global_store, lay.cache_dir)
        return prefix_for(chain, view.facts, view.conflicts, store_paths=stores)

    def instruction_folders(self) -> list[str]:
        """Workspace folders (relative, "." first) holding an instruction file of any agent:
        the targets a person can pick. A bounded walk that skips hidden and build folders."""
        from context_center.engine.instructions.folders import instruction_folders

        return instruction_folders(self.workspace)

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
