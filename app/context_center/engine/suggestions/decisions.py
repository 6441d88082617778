"""A person's accept and dismiss decisions: ``Layout.state_dir / "suggestions.json"``.

The file is private (0600 in a 0700 folder, see ``private.py``) and replaced whole under a lock.
Decisions are matched by id and by the candidate's content key, so a dismissed statement stays
dismissed when it is said again in a new session.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store import atomic
from context_center.engine.store.locking import LOG_TIMEOUT_S, file_lock, hold
from context_center.engine.store.paths import Layout
from context_center.engine.store.private import FILE_MODE, ensure_private_dir
from context_center.engine.suggestions.models import Decision

DECISIONS_FILE = "suggestions.json"
DECISIONS_VERSION = 1
LOCK_TIMEOUT_S = LOG_TIMEOUT_S


def decisions_path(layout: Layout) -> Path:
    return layout.state_dir / DECISIONS_FILE


def load_decisions(layout: Layout, *, strict: bool = False) -> list[Decision]:
    """The recorded decisions. An unreadable file counts as none, or raises with ``strict``
    (so a write never replaces a file it could not understand)."""
    path = decisions_path(layout)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        if strict:
            raise StoreUnavailable(f"cannot read {path.name}: {exc.strerror}") from exc
        return []
    try:
        data = json.loads(raw)
        rows = data["decisions"] if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise ValueError("no decisions list")
        return [Decision.model_validate(row) for row in rows]
    except (ValueError, KeyError, TypeError, ValidationError, RecursionError) as exc:
        if strict:
            raise StoreUnavailable(
                f"{path} is not a valid decisions file ({exc}); fix or remove it, then try again"
            ) from exc
        return []


def record(layout: Layout, decision: Decision) -> None:
    path = decisions_path(layout)
    ensure_private_dir(path.parent)
    lock = file_lock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S, mode=FILE_MODE)
    with hold(lock, f"the suggestion decisions ({path.name})"):
        rows = [d for d in load_decisions(layout, strict=True) if d.id != decision.id]
        rows.append(decision)
        payload = {
            "v": DECISIONS_VERSION,
            "decisions": [d.model_dump(mode="json") for d in rows],
        }
        # replaced whole, so a file an older version left 0644 comes back 0600
        text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
        atomic.write_text(path, text, mode=FILE_MODE)


def remove(layout: Layout, decision_id: str) -> Decision | None:
    """Drop the decision recorded for ``decision_id`` (a person's undo of a dismissal): the
    candidate may be proposed again. Returns the decision removed, None when there was none."""
    path = decisions_path(layout)
    if not path.exists():
        return None
    lock = file_lock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S, mode=FILE_MODE)
    with hold(lock, f"the suggestion decisions ({path.name})"):
        rows = load_decisions(layout, strict=True)
        gone = next((d for d in rows if d.id == decision_id), None)
        if gone is None:
            return None
        payload = {
            "v": DECISIONS_VERSION,
            "decisions": [d.model_dump(mode="json") for d in rows if d.id != decision_id],
        }
        text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
        atomic.write_text(path, text, mode=FILE_MODE)
        return gone
