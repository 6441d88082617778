"""Known engine errors: a problem a person can act on, with a stable code.

Anything else raised from the engine is a bug and is shown loudly. The CLI maps
`EngineError` to exit 1 and `{"error": {"code", "message"}}`; the window maps it to one dialog.
"""

from __future__ import annotations


class EngineError(Exception):
    """A known, user-facing failure. `code` is part of the CLI's JSON contract."""

    code = "engine_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


class InvalidRequest(EngineError):
    code = "invalid_request"


class InvalidName(InvalidRequest):
    code = "invalid_name"


class NotFound(EngineError):
    code = "not_found"


class AlreadyExists(EngineError):
    code = "already_exists"


class RevisionConflict(EngineError):
    code = "revision_conflict"

    def __init__(self, message: str, *, current_revision: int | None = None) -> None:
        super().__init__(message)
        self.current_revision = current_revision


class ContentConflict(RevisionConflict):
    """The file changed on disk (a hand edit) although its revision did not."""

    code = "content_conflict"


class ArchiveRefused(EngineError):
    code = "recover_refused"


class StoreUnavailable(EngineError):
    code = "store_unavailable"


class PhraseIndexBehind(EngineError):
    """A suggestions scan asked to cut at most ``max_cuts`` facts would have to cut more: the
    workspace's phrase index does not describe them (``Engine.index_fact_phrases`` does)."""

    code = "phrase_index_behind"


class ApprovalRefused(EngineError):
    code = "approval_refused"


class WorkspaceNotFound(NotFound):
    """The workspace given does not exist (a typo must not create a phantom store)."""

    code = "workspace_not_found"
