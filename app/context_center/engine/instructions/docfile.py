"""Reading and saving one instruction file for the in-place editor (runs in the worker thread).

Saving is compare-and-set: the file's bytes are read again and must still have the hash they
had when the editor loaded them, else ``ContentConflict`` (someone else saved in between). The
file keeps its encoding (UTF-8, UTF-8 with BOM, GB18030), its line endings and its mode, and is
replaced through ``engine.atomic`` so a reader never sees half a file. A symbolic link is
written through to its target (so ``CLAUDE.md -> AGENTS.md`` stays a link).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.errors import ContentConflict, InvalidRequest, NotFound
from context_center.engine.store import atomic

MAX_EDIT_BYTES = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class LoadedDoc:
    path: Path  # as shown (may be a link)
    text: str  # with "\n" line endings, as the editor shows it
    sha256: str  # of the bytes on disk
    encoding: str  # "utf-8", "utf-8-sig" or "gb18030"
    newline: str  # "\n" or "\r\n"


def _read_bytes(path: Path) -> bytes:
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise NotFound(f"{path.name} does not exist") from exc
    except OSError as exc:
        raise InvalidRequest(f"cannot read {path.name}: {exc.strerror}") from exc
    if not stat.S_ISREG(st.st_mode):
        raise InvalidRequest(f"{path.name} is not a regular file")
    if st.st_size > MAX_EDIT_BYTES:
        raise InvalidRequest(f"{path.name} is larger than {MAX_EDIT_BYTES} bytes")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidRequest(f"cannot read {path.name}: {exc.strerror}") from exc


def read_document(path: Path) -> LoadedDoc:
    data = _read_bytes(path)
    if data.startswith(_BOM):
        encoding = "utf-8-sig"
    else:
        try:
            data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = "gb18030"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InvalidRequest(f"{path.name} is neither UTF-8 nor GB18030 text") from exc
    newline = "\r\n" if "\r\n" in text else "\n"
    return LoadedDoc(
        path=path,
        text=text.replace("\r\n", "\n"),
        sha256=hashlib.sha256(data).hexdigest(),
        encoding=encoding,
        newline=newline,
    )


def save_document(doc: LoadedDoc, text: str) -> LoadedDoc:
    """Write ``text`` over ``doc.path`` if the file is unchanged since ``doc`` was read."""
    real = Path(os.path.realpath(doc.path))
    current = _read_bytes(real)
    if hashlib.sha256(current).hexdigest() != doc.sha256:
        raise ContentConflict(
            f"{doc.path.name} changed on disk since you opened it; your text was not saved. "
            "Copy it, reload the file and apply your change again."
        )
    body = text.replace("\r\n", "\n")
    if doc.newline == "\r\n":
        body = body.replace("\n", "\r\n")
    try:
        data = body.encode(doc.encoding)
    except UnicodeEncodeError as exc:
        raise InvalidRequest(f"the text cannot be stored as {doc.encoding}") from exc
    mode = stat.S_IMODE(os.stat(real).st_mode)
    atomic.write_bytes(real, data, mode=mode)
    return LoadedDoc(
        doc.path,
        body.replace("\r\n", "\n"),
        hashlib.sha256(data).hexdigest(),
        doc.encoding,
        doc.newline,
    )
