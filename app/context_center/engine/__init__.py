"""The Qt-free context engine: fact store, instructions, recall, write gate, suggestions.

This package is the one way in for every front end (the CLI, the window, the agent server):
they import names from ``context_center.engine`` only, never from its submodules
(tests/test_boundary.py enforces it). Names are loaded on first use, so importing the package
costs nothing and a recall process pulls in only what recall needs.

Nothing in this package may import PySide6 or qasync (tests/engine/test_no_qt.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.lazy import lazy_exports

if TYPE_CHECKING:
    from context_center.engine.agents.caller import (
        AgentCaller as AgentCaller,
    )
    from context_center.engine.agents.caller import (
        Controller as Controller,
    )
    from context_center.engine.changes import (
        Area as Area,
    )
    from context_center.engine.changes import (
        Changes as Changes,
    )
    from context_center.engine.changes import (
        FactChange as FactChange,
    )
    from context_center.engine.changes import (
        FactChangeKind as FactChangeKind,
    )
    from context_center.engine.claude_memory import (
        ClaudeMemoryFile as ClaudeMemoryFile,
    )
    from context_center.engine.claude_memory import (
        ClaudeMemoryView as ClaudeMemoryView,
    )
    from context_center.engine.claude_memory import (
        ImportReport as ImportReport,
    )
    from context_center.engine.errors import (
        AlreadyExists as AlreadyExists,
    )
    from context_center.engine.errors import (
        ApprovalRefused as ApprovalRefused,
    )
    from context_center.engine.errors import (
        ArchiveRefused as ArchiveRefused,
    )
    from context_center.engine.errors import (
        ContentConflict as ContentConflict,
    )
    from context_center.engine.errors import (
        EngineError as EngineError,
    )
    from context_center.engine.errors import (
        InvalidName as InvalidName,
    )
    from context_center.engine.errors import (
        InvalidRequest as InvalidRequest,
    )
    from context_center.engine.errors import (
        NotFound as NotFound,
    )
    from context_center.engine.errors import (
        PhraseIndexBehind as PhraseIndexBehind,
    )
    from context_center.engine.errors import (
        RevisionConflict as RevisionConflict,
    )
    from context_center.engine.errors import (
        StoreUnavailable as StoreUnavailable,
    )
    from context_center.engine.errors import (
        WorkspaceNotFound as WorkspaceNotFound,
    )
    from context_center.engine.facade import (
        Engine as Engine,
    )
    from context_center.engine.facade.history import HistoryRow as HistoryRow
    from context_center.engine.gate.approvals import (
        ApprovalQueue as ApprovalQueue,
    )
    from context_center.engine.gate.approvals import (
        ApprovalRecord as ApprovalRecord,
    )
    from context_center.engine.gate.approvals import (
        ApprovalResult as ApprovalResult,
    )
    from context_center.engine.gate.approvals import (
        Status as Status,
    )
    from context_center.engine.gate.approvals import (
        final_content as final_content,
    )
    from context_center.engine.gate.control import (
        escape_controls as escape_controls,
    )
    from context_center.engine.gate.control import (
        has_controls as has_controls,
    )
    from context_center.engine.gate.decision import (
        DEFAULT_TYPE as DEFAULT_TYPE,
    )
    from context_center.engine.gate.decision import (
        GateDecision as GateDecision,
    )
    from context_center.engine.gate.decision import (
        Operation as Operation,
    )
    from context_center.engine.gate.decision import (
        Outcome as Outcome,
    )
    from context_center.engine.gate.decision import (
        assess as assess,
    )
    from context_center.engine.gate.proposal import (
        ProposedContent as ProposedContent,
    )
    from context_center.engine.gate.records import (
        ApprovalConflict as ApprovalConflict,
    )
    from context_center.engine.gate.secrets import (
        SensitiveSpan as SensitiveSpan,
    )
    from context_center.engine.gate.secrets import (
        find_sensitive as find_sensitive,
    )
    from context_center.engine.gate.visible import (
        Visibility as Visibility,
    )
    from context_center.engine.gate.visible import (
        visibility as visibility,
    )
    from context_center.engine.gate.visible import (
        visible_text as visible_text,
    )
    from context_center.engine.gate.visible import (
        withhold_secrets as withhold_secrets,
    )
    from context_center.engine.instructions.compare import (
        AgentSummary as AgentSummary,
    )
    from context_center.engine.instructions.compare import (
        CompareCell as CompareCell,
    )
    from context_center.engine.instructions.compare import (
        CompareRow as CompareRow,
    )
    from context_center.engine.instructions.compare import (
        Comparison as Comparison,
    )
    from context_center.engine.instructions.compare import (
        CrossDiagnostic as CrossDiagnostic,
    )
    from context_center.engine.instructions.compare import (
        compare_json as compare_json,
    )
    from context_center.engine.instructions.compare import (
        diff_texts as diff_texts,
    )
    from context_center.engine.instructions.docfile import (
        LoadedDoc as LoadedDoc,
    )
    from context_center.engine.instructions.docfile import (
        read_document as read_document,
    )
    from context_center.engine.instructions.docfile import (
        save_document as save_document,
    )
    from context_center.engine.instructions.fsread import (
        find_workspace_root as find_workspace_root,
    )
    from context_center.engine.instructions.model import (
        Agent as Agent,
    )
    from context_center.engine.instructions.model import (
        CodexCut as CodexCut,
    )
    from context_center.engine.instructions.model import (
        FileState as FileState,
    )
    from context_center.engine.instructions.model import (
        FileStatus as FileStatus,
    )
    from context_center.engine.instructions.model import (
        InstructionImport as InstructionImport,
    )
    from context_center.engine.instructions.model import (
        InstructionScope as InstructionScope,
    )
    from context_center.engine.instructions.model import (
        Severity as Severity,
    )
    from context_center.engine.instructions.prefix import (
        Prefix as Prefix,
    )
    from context_center.engine.instructions.prefix import (
        PrefixPart as PrefixPart,
    )
    from context_center.engine.instructions.prefix import (
        build_prefix as build_prefix,
    )
    from context_center.engine.instructions.prefix import (
        render_instructions_json as render_instructions_json,
    )
    from context_center.engine.instructions.resolve import (
        DOCUMENT_NAMES as DOCUMENT_NAMES,
    )
    from context_center.engine.instructions.resolve import (
        LOCAL_DOCUMENT_NAMES as LOCAL_DOCUMENT_NAMES,
    )
    from context_center.engine.instructions.resolve import (
        ImportStatus as ImportStatus,
    )
    from context_center.engine.instructions.resolve import (
        InstructionDiagnostic as InstructionDiagnostic,
    )
    from context_center.engine.instructions.resolve import (
        InstructionDocument as InstructionDocument,
    )
    from context_center.engine.instructions.resolve import (
        Resolution as Resolution,
    )
    from context_center.engine.instructions.rules import (
        RuleScope as RuleScope,
    )
    from context_center.engine.instructions.rules import (
        add_rule as add_rule,
    )
    from context_center.engine.instructions.rules import (
        normalize_note as normalize_note,
    )
    from context_center.engine.kinds import (
        FactType as FactType,
    )
    from context_center.engine.kinds import (
        Freshness as Freshness,
    )
    from context_center.engine.kinds import (
        FreshnessClock as FreshnessClock,
    )
    from context_center.engine.kinds import (
        Scope as Scope,
    )
    from context_center.engine.kinds import (
        format_time as format_time,
    )
    from context_center.engine.kinds import (
        utc_now as utc_now,
    )
    from context_center.engine.model import (
        CREATE_FIELDS as CREATE_FIELDS,
    )
    from context_center.engine.model import (
        UPDATE_FIELDS as UPDATE_FIELDS,
    )
    from context_center.engine.model import (
        Conflict as Conflict,
    )
    from context_center.engine.model import (
        Diagnostic as Diagnostic,
    )
    from context_center.engine.model import (
        Fact as Fact,
    )
    from context_center.engine.recall import (
        Recaller as Recaller,
    )
    from context_center.engine.recall import (
        RecallTrace as RecallTrace,
    )
    from context_center.engine.recall import (
        SelectedFact as SelectedFact,
    )
    from context_center.engine.recall import (
        Suppression as Suppression,
    )
    from context_center.engine.recall import (
        load_trace as load_trace,
    )
    from context_center.engine.recall.policy import (
        DEFAULT_MAX_CHARS as DEFAULT_MAX_CHARS,
    )
    from context_center.engine.recall.policy import (
        DEFAULT_MAX_FACTS as DEFAULT_MAX_FACTS,
    )
    from context_center.engine.recall.policy import (
        MAX_MAX_FACTS as MAX_MAX_FACTS,
    )
    from context_center.engine.recall.policy import (
        MIN_MAX_CHARS as MIN_MAX_CHARS,
    )
    from context_center.engine.store import (
        atomic as atomic,
    )
    from context_center.engine.store.factstore import (
        ArchivedEntry as ArchivedEntry,
    )
    from context_center.engine.store.factstore import (
        Entry as Entry,
    )
    from context_center.engine.store.factstore import (
        RevisionEntry as RevisionEntry,
    )
    from context_center.engine.store.factstore import (
        gc_paused as gc_paused,
    )
    from context_center.engine.store.paths import (
        resolve_home as resolve_home,
    )
    from context_center.engine.store.syncresolve import (
        SyncConflict as SyncConflict,
    )
    from context_center.engine.suggestions import (
        AcceptResult as AcceptResult,
    )
    from context_center.engine.suggestions import (
        CandidateEdit as CandidateEdit,
    )
    from context_center.engine.suggestions import (
        Decision as Decision,
    )
    from context_center.engine.suggestions import (
        MemoryCandidate as MemoryCandidate,
    )
    from context_center.engine.suggestions import (
        ScanResult as ScanResult,
    )
    from context_center.engine.suggestions import (
        SkillCandidate as SkillCandidate,
    )
    from context_center.engine.suggestions import (
        SourceCount as SourceCount,
    )
    from context_center.engine.suggestions import (
        accept as accept,
    )
    from context_center.engine.suggestions import (
        append_turn as append_turn,
    )
    from context_center.engine.suggestions import (
        dismiss as dismiss,
    )
    from context_center.engine.suggestions import (
        remote_reason as remote_reason,
    )
    from context_center.engine.suggestions.service import (
        default_roots as default_roots,
    )
    from context_center.engine.watch import WatchGroup as WatchGroup
    from context_center.engine.watch import chain_files as chain_files
    from context_center.engine.watch import watch_groups as watch_groups

_EXPORTS: dict[str, str] = {
    "HistoryRow": "context_center.engine.facade.history",
    "Area": "context_center.engine.changes",
    "resolve_home": "context_center.engine.store.paths",
    "Changes": "context_center.engine.changes",
    "WatchGroup": "context_center.engine.watch",
    "chain_files": "context_center.engine.watch",
    "watch_groups": "context_center.engine.watch",
    "FactChange": "context_center.engine.changes",
    "FactChangeKind": "context_center.engine.changes",
    "AgentCaller": "context_center.engine.agents.caller",
    "AlreadyExists": "context_center.engine.errors",
    "ApprovalRefused": "context_center.engine.errors",
    "ArchiveRefused": "context_center.engine.errors",
    "ContentConflict": "context_center.engine.errors",
    "EngineError": "context_center.engine.errors",
    "WorkspaceNotFound": "context_center.engine.errors",
    "InvalidName": "context_center.engine.errors",
    "InvalidRequest": "context_center.engine.errors",
    "NotFound": "context_center.engine.errors",
    "RevisionConflict": "context_center.engine.errors",
    "StoreUnavailable": "context_center.engine.errors",
    "PhraseIndexBehind": "context_center.engine.errors",
    "Engine": "context_center.engine.facade",
    "ApprovalQueue": "context_center.engine.gate.approvals",
    "ApprovalRecord": "context_center.engine.gate.approvals",
    "ApprovalResult": "context_center.engine.gate.approvals",
    "CREATE_FIELDS": "context_center.engine.model",  # the fields; not the gate's import cost
    "Status": "context_center.engine.gate.approvals",
    "UPDATE_FIELDS": "context_center.engine.model",
    "final_content": "context_center.engine.gate.approvals",
    "Controller": "context_center.engine.agents.caller",
    "DEFAULT_TYPE": "context_center.engine.gate.decision",
    "GateDecision": "context_center.engine.gate.decision",
    "Operation": "context_center.engine.gate.decision",
    "Outcome": "context_center.engine.gate.decision",
    "assess": "context_center.engine.gate.decision",
    "ProposedContent": "context_center.engine.gate.proposal",
    "ApprovalConflict": "context_center.engine.gate.records",
    "SensitiveSpan": "context_center.engine.gate.secrets",
    "find_sensitive": "context_center.engine.gate.secrets",
    "escape_controls": "context_center.engine.gate.control",
    "has_controls": "context_center.engine.gate.control",
    "Visibility": "context_center.engine.gate.visible",
    "visibility": "context_center.engine.gate.visible",
    "visible_text": "context_center.engine.gate.visible",
    "withhold_secrets": "context_center.engine.gate.visible",
    "LoadedDoc": "context_center.engine.instructions.docfile",
    "read_document": "context_center.engine.instructions.docfile",
    "save_document": "context_center.engine.instructions.docfile",
    "Prefix": "context_center.engine.instructions.prefix",
    "build_prefix": "context_center.engine.instructions.prefix",
    "render_instructions_json": "context_center.engine.instructions.prefix",
    "DOCUMENT_NAMES": "context_center.engine.instructions.resolve",
    "ImportStatus": "context_center.engine.instructions.resolve",
    "InstructionDiagnostic": "context_center.engine.instructions.resolve",
    "InstructionDocument": "context_center.engine.instructions.resolve",
    "LOCAL_DOCUMENT_NAMES": "context_center.engine.instructions.resolve",
    "Resolution": "context_center.engine.instructions.resolve",
    "find_workspace_root": "context_center.engine.instructions.fsread",
    "AgentSummary": "context_center.engine.instructions.compare",
    "CompareCell": "context_center.engine.instructions.compare",
    "CompareRow": "context_center.engine.instructions.compare",
    "Comparison": "context_center.engine.instructions.compare",
    "CrossDiagnostic": "context_center.engine.instructions.compare",
    "compare_json": "context_center.engine.instructions.compare",
    "diff_texts": "context_center.engine.instructions.compare",
    "Agent": "context_center.engine.instructions.model",
    "CodexCut": "context_center.engine.instructions.model",
    "FileState": "context_center.engine.instructions.model",
    "FileStatus": "context_center.engine.instructions.model",
    "InstructionImport": "context_center.engine.instructions.model",
    "InstructionScope": "context_center.engine.instructions.model",
    "Severity": "context_center.engine.instructions.model",
    "PrefixPart": "context_center.engine.instructions.prefix",
    "RuleScope": "context_center.engine.instructions.rules",
    "add_rule": "context_center.engine.instructions.rules",
    "normalize_note": "context_center.engine.instructions.rules",
    "Conflict": "context_center.engine.model",
    "Diagnostic": "context_center.engine.model",
    "Fact": "context_center.engine.model",
    "FactType": "context_center.engine.kinds",
    "Freshness": "context_center.engine.kinds",
    "FreshnessClock": "context_center.engine.kinds",
    "Scope": "context_center.engine.kinds",
    "format_time": "context_center.engine.kinds",
    "utc_now": "context_center.engine.kinds",
    "RecallTrace": "context_center.engine.recall",
    "Recaller": "context_center.engine.recall",
    "SelectedFact": "context_center.engine.recall",
    "Suppression": "context_center.engine.recall",
    "load_trace": "context_center.engine.recall",
    "DEFAULT_MAX_CHARS": "context_center.engine.recall.policy",
    "DEFAULT_MAX_FACTS": "context_center.engine.recall.policy",
    "MAX_MAX_FACTS": "context_center.engine.recall.policy",
    "MIN_MAX_CHARS": "context_center.engine.recall.policy",
    "atomic": "context_center.engine.store",
    "ArchivedEntry": "context_center.engine.store.factstore",
    "Entry": "context_center.engine.store.factstore",
    "RevisionEntry": "context_center.engine.store.factstore",
    "gc_paused": "context_center.engine.store.factstore",
    "SyncConflict": "context_center.engine.store.syncresolve",
    "ClaudeMemoryFile": "context_center.engine.claude_memory",
    "ClaudeMemoryView": "context_center.engine.claude_memory",
    "ImportReport": "context_center.engine.claude_memory",
    "AcceptResult": "context_center.engine.suggestions",
    "CandidateEdit": "context_center.engine.suggestions",
    "Decision": "context_center.engine.suggestions",
    "MemoryCandidate": "context_center.engine.suggestions",
    "ScanResult": "context_center.engine.suggestions",
    "SkillCandidate": "context_center.engine.suggestions",
    "SourceCount": "context_center.engine.suggestions",
    "accept": "context_center.engine.suggestions",
    "append_turn": "context_center.engine.suggestions",
    "dismiss": "context_center.engine.suggestions",
    "remote_reason": "context_center.engine.suggestions",
    "default_roots": "context_center.engine.suggestions.service",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS, globals())


def __dir__() -> list[str]:
    return __all__
