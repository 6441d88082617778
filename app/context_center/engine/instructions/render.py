"""The JSON forms of a resolved chain (``memory instructions --json``) for every agent.

Absolute paths appear only with ``local_paths=True`` (``local_*`` fields, for local tools).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from context_center.engine.instructions.model import (
    IMPORT_ABSOLUTE_PATH,
    IMPORT_HOME_PATH,
    FileStatus,
    InstructionDiagnostic,
    InstructionImport,
    Resolution,
)


def _local(path: Path | None) -> str | None:
    return os.fspath(path) if path is not None else None


def import_dict(imp: InstructionImport, local_paths: bool = False) -> dict[str, Any]:
    item: dict[str, Any] = {
        "source": imp.source,
        "target": imp.target,
        "line": imp.line,
        "depth": imp.depth,
        "status": imp.status.value,
        "code": imp.code,
        "loaded_as": imp.loaded_as,
    }
    if local_paths:
        item["local_path"] = _local(imp.local_path)
    return item


def diagnostic_dict(diag: InstructionDiagnostic, local_paths: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": diag.code,
        "severity": diag.severity.value,
        "reason": diag.reason,
        "path": diag.path,
        "source_path": diag.source_path,
        "line": diag.line,
        "message": diag.message,
    }
    if local_paths:
        entry["local_path"] = _local(diag.local_path)
        entry["local_source_path"] = _local(diag.local_source_path)
    return entry


def file_dict(item: FileStatus, local_paths: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = item.model_dump(mode="json")
    if local_paths:
        entry["local_path"] = _local(item.local_path)
    return entry


OUTSIDE = "<path outside the workspace>"


def _outside(resolution: Resolution, redact: Callable[[str], str]) -> Callable[[str], str]:
    """``redact``, after every refused absolute or ``~`` import target (``/etc/hostname``,
    ``~/notes.md``: paths a file wrote, of no folder the redaction knows) became ``OUTSIDE``."""
    targets = sorted(
        {
            imp.target
            for doc in resolution.documents
            for imp in doc.imports
            if imp.code in (IMPORT_ABSOLUTE_PATH, IMPORT_HOME_PATH) and imp.target
        },
        key=len,
        reverse=True,
    )
    if not targets:
        return redact

    def hide(text: str) -> str:
        for target in targets:
            if target in text:
                text = text.replace(target, OUTSIDE)
        return redact(text)

    return hide


def _redacted(value: Any, redact: Callable[[str], str]) -> Any:
    """``value`` (JSON data) with every string passed through ``redact``."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(v, redact) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v, redact) for v in value]
    return value


def render_instructions_json(
    resolution: Resolution, *, local_paths: bool = False
) -> dict[str, Any]:
    """The ``memory instructions --json`` form. Absolute paths only with ``local_paths=True``."""
    documents = []
    # Bodies quote local paths as the files wrote them; like the prefix, the JSON shows them as
    # <workspace>/<local-home> unless local paths were asked for.
    from context_center.engine.instructions.redact import redactor_for

    redact = redactor_for(resolution.local_workspace, resolution.local_home)
    for doc in resolution.documents:
        item: dict[str, Any] = {
            "label": doc.label,
            "scope": doc.scope.value,
            "directory": doc.directory,
            "precedence": doc.precedence,
            "order": doc.order,
            "size": doc.size,
            "imports": [import_dict(imp, local_paths) for imp in doc.imports],
            "body": doc.body,  # redacted with the rest below
        }
        if local_paths:
            item["local_path"] = os.fspath(doc.local_path)
            item["local_directory"] = os.fspath(doc.local_directory)
        documents.append(item)
    result: dict[str, Any] = {
        "agent": resolution.agent.value,
        "target": resolution.target,
        "documents": documents,
        "duplicates": [dup.model_dump() for dup in resolution.duplicates],
        "diagnostics": [diagnostic_dict(d, local_paths) for d in resolution.diagnostics],
        "files": [file_dict(f, local_paths) for f in resolution.files],
        "limits": dict(resolution.limits),
        "cut": resolution.cut.model_dump() if resolution.cut is not None else None,
    }
    if resolution.text:
        result["text"] = resolution.text
    if not local_paths:
        # diagnostics, imports and files quote paths too ("import of '/home/ann/x.md'
        # refused"): every text of the JSON is provider-visible (the MCP tool hands it over)
        result = _redacted(result, _outside(resolution, redact))
    if local_paths:
        result["local_home"] = os.fspath(resolution.local_home)
        result["local_workspace"] = os.fspath(resolution.local_workspace)
        result["local_target"] = os.fspath(resolution.local_target)
    return result
