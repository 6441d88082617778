"""One read per file per resolution: decoded text with secrets withheld, and its findings.

Every profile reads instruction files through a ``SourceCache``, so a file imported from three
places is read once, the text an agent is given never holds a secret, and the diagnostics name
each withheld span once, at the line of the file it is on.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.instructions import fsread, model
from context_center.engine.instructions.withhold import Finding, withhold

_PACKAGE_RE = re.compile(r"^@?[a-z0-9][\w.-]*/[\w.-]+$")
_EXTENSION_RE = re.compile(r"\.[A-Za-z0-9]{1,8}$")


@dataclass(frozen=True)
class Source:
    text: str  # decoded, LF newlines, secrets withheld
    stat: os.stat_result
    findings: tuple[Finding, ...]

    @property
    def identity(self) -> tuple[int, int]:
        return fsread.identity(self.stat)


@dataclass
class SourceCache:
    """Reads (vetted, bounded) and remembers them by (device, inode)."""

    _by_id: dict[tuple[int, int], Source] = field(default_factory=dict)
    _labels: dict[tuple[int, int], tuple[str, Path]] = field(default_factory=dict)

    def read(self, path: Path, st: os.stat_result | None = None) -> Source:
        """Decoded text of ``path`` (links followed). Raises ``fsread.ReadError``."""
        real = fsread.realpath(path)
        st = st if st is not None else fsread.stat_regular(real)
        key = fsread.identity(st)
        cached = self._by_id.get(key)
        if cached is not None:
            return cached
        text, findings = withhold(fsread.read_text(real, st))
        source = Source(text=text, stat=st, findings=findings)
        self._by_id[key] = source
        return source

    def used(self, source: Source, label: str, path: Path) -> None:
        """``source`` reached the agent under ``label`` (for the withheld-secret notes)."""
        self._labels.setdefault(source.identity, (label, path))

    def secret_diagnostics(self) -> list[model.InstructionDiagnostic]:
        out: list[model.InstructionDiagnostic] = []
        for key, (label, path) in self._labels.items():
            for finding in self._by_id[key].findings:
                out.append(secret_diagnostic(label, path, finding))
        return out


def secret_diagnostic(
    label: str, path: Path | None, finding: Finding
) -> model.InstructionDiagnostic:
    return model.InstructionDiagnostic(
        code=model.INSTRUCTION_SECRET_WITHHELD,
        reason=finding.kind,
        path=label,
        source_path=label,
        line=finding.line,
        message=(
            f"a {finding.label} on line {finding.line} of {label} was withheld from the "
            "agent's text; move it out of the instruction file"
        ),
        severity=model.Severity.WARNING,
        local_path=path,
        local_source_path=path,
    )


def looks_like_package(raw: str, source_dir: Path) -> bool:
    """``@tanstack/react-query``: a scope/name without an extension whose first part is no
    directory next to the file."""
    spec = raw.replace("\\", "/").lstrip("@")
    if not _PACKAGE_RE.match(raw) or _EXTENSION_RE.search(spec):
        return False
    first = spec.split("/", 1)[0]
    try:
        return not os.path.isdir(source_dir / first)
    except (OSError, ValueError):
        return True
