"""The private log file: created at once (0600), written through a rotating handler made at
the first record, so a run that logs nothing never imports ``logging.handlers``."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from context_center.mcp import logs


@pytest.fixture
def state(tmp_path: Path) -> Path:
    yield tmp_path / "state"
    logs.close_files()


def test_records_reach_the_private_file_and_it_rotates(
    state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 400)
    path = logs.to_file(state, "x.log")
    assert path is not None and path.exists() and path.stat().st_mode & 0o777 == 0o600
    assert path.read_text() == ""
    assert logs.to_file(state, "x.log") == path  # once per file
    log = logging.getLogger("context_center.test_logs")
    old = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)
    try:
        for i in range(20):
            log.warning("record number %d of the test", i)
    finally:
        logging.getLogger().setLevel(old)
    logs.close_files()
    assert "record number 19 of the test" in path.read_text()
    assert (state / "x.log.1").exists()  # rotated at MAX_BYTES
    assert not (state / "x.log.3").exists()  # BACKUPS kept


def test_a_file_that_cannot_be_opened_is_none(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the folder should be")
    assert logs.to_file(tmp_path / "state", "x.log") is None


def test_a_run_that_logs_nothing_does_not_import_the_handlers(tmp_path: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from context_center.mcp import logs; "
        "assert logs.to_file(Path(sys.argv[1]), 'x.log'); "
        "print('logging.handlers' in sys.modules, 'socket' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "state")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["False", "False"]
