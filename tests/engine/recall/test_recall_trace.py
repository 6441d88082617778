"""The persisted trace: times with millisecond precision, like every other time in the project."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from recall_env import MakeFact

from context_center.engine.recall import Recaller, load_trace, trace_path
from context_center.engine.store.paths import Layout

AT = datetime(2026, 7, 27, 12, 0, 30, 813456, tzinfo=UTC)


def test_trace_time_has_milliseconds(make_fact: MakeFact, home: Path, workspace: Path) -> None:
    layout = Layout(home, workspace)
    facts = (make_fact("deploy", "Deploy payments cluster."),)
    result = Recaller(layout).recall("deploy payments cluster", facts, now=AT)
    assert result.trace.model_dump(mode="json")["at"] == "2026-07-27T12:00:30.813Z"
    saved = json.loads(trace_path(layout).read_text(encoding="utf-8"))
    assert saved["at"] == "2026-07-27T12:00:30.813Z"
    loaded = load_trace(layout)
    assert loaded is not None
    assert loaded.at == datetime(2026, 7, 27, 12, 0, 30, 813000, tzinfo=UTC)


def test_whole_second_keeps_three_digits(make_fact: MakeFact) -> None:
    facts = (make_fact("deploy", "Deploy payments cluster."),)
    at = datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
    trace = Recaller(None).recall("continue", facts, now=at).trace
    text = trace.model_dump(mode="json")["at"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text), text
    assert text == "2026-07-27T12:00:00.000Z"
