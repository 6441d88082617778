"""Standard input and output as non-blocking pipes for the SDK's stdio transport.

The SDK's ``stdio_server`` reads and writes the standard streams through worker threads (one
hand-off per line read, two per message written). On a busy machine each hand-off waits for
a thread to be scheduled, which dominated a round trip. Given explicit streams,
``stdio_server`` still does the parsing and framing; these streams are asyncio pipe
transports on private duplicates of file descriptors 0 and 1, with no threads. As the SDK
does, while serving fd 0 reads the null device and fd 1 goes to standard error, so nothing
else in the process can write on the wire.

When standard input or output is not a pipe, socket or terminal (a regular file), the SDK's
own thread-based streams are used instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
from collections.abc import AsyncIterator
from typing import Any

import anyio

from context_center.mcp.unicode import may_spell_surrogates, replace_lone_surrogates

MAX_LINE = 64 * 1024 * 1024  # one JSON-RPC message per line; a large fact body fits


def without_lone_surrogates(line: str) -> str:
    """``line`` with each lone surrogate its JSON spells (``"\\udcff"``) made U+FFFD, as an
    invalid UTF-8 byte already is: the SDK's parser refuses such a message without a reply
    (no id is read), so the client would wait forever; now it is answered."""
    if not may_spell_surrogates(line):
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line  # not JSON at all, or nested too deeply: the SDK reports it
    end = "\n" if line.endswith("\n") else ""
    return json.dumps(replace_lone_surrogates(message), ensure_ascii=False) + end


def _pipe_like(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


class _Lines:
    """``async for line in stdin`` over a StreamReader (text, as the SDK expects)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self.last = ""  # the line handed out last: the one the SDK is reading now

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        self.last = without_lone_surrogates(line.decode("utf-8", errors="replace"))
        return self.last


def request_id(line: str) -> tuple[bool, str | int | None]:
    """``(True, id)`` for a line that is a JSON object with a ``method`` and a usable ``id``
    (a request), ``(True, None)`` for one that is no message at all (JSON-RPC answers it with
    a null id), ``(False, None)`` for a notification or a response (nothing to answer)."""
    if not line.strip():
        return False, None
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return True, None
    if not isinstance(message, dict) or "method" not in message:
        return (not isinstance(message, dict) or "id" not in message), None
    ident = message.get("id")
    if ident is None or isinstance(ident, bool) or not isinstance(ident, str | int):
        return "id" in message, None
    return True, ident


def _not_json(line: str) -> bool:
    """Whether ``line`` is no JSON at all (JSON nested deeper than the parser goes is JSON)."""
    try:
        json.loads(line)
    except ValueError:
        return True
    except RecursionError:
        return False
    return False


class AnswerUnreadable:
    """The SDK's read stream, answering each line it could not read as a message (a batch,
    ``params`` that is not an object, arguments nested deeper than its parser goes…): the SDK
    drops such a line unanswered, and a client would wait for its reply forever. The answer
    is JSON-RPC's parse error for a line that is no JSON, its invalid-request error for the
    rest, with the request's id when it has one."""

    def __init__(self, stream: Any, write: Any, lines: _Lines) -> None:
        self._stream, self._write, self._lines = stream, write, lines

    def __getattr__(self, name: str) -> Any:  # last_context and the rest
        return getattr(self._stream, name)

    async def receive(self) -> Any:
        item = await self._stream.receive()
        if isinstance(item, Exception):
            await self._answer()
        return item

    async def _answer(self) -> None:
        from mcp.shared.message import SessionMessage
        from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

        line = self._lines.last
        answer, ident = request_id(line)
        if not answer:
            return
        if _not_json(line):  # JSON-RPC's parse error; the rest is an invalid request
            error = ErrorData(code=PARSE_ERROR, message="not JSON")
        else:
            error = ErrorData(code=INVALID_REQUEST, message="not a valid JSON-RPC request")
        await self._write.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=ident, error=error)))

    async def aclose(self) -> None:
        await self._stream.aclose()

    def __aiter__(self) -> AnswerUnreadable:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnswerUnreadable:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        result: bool | None = await self._stream.__aexit__(*exc)
        return result


class _Writer:
    """``await stdout.write(text)`` / ``await stdout.flush()`` over a pipe transport."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        # A lone surrogate can only sit inside a JSON string: as the escape "\udcff" the line
        # stays UTF-8 and JSON (a strict encode would drop the whole reply).
        self._writer.write(text.encode("utf-8", errors="backslashreplace"))

    async def flush(self) -> None:
        await self._writer.drain()


@contextlib.asynccontextmanager
async def pipe_streams() -> AsyncIterator[tuple[Any, Any] | None]:
    """``(stdin, stdout)`` for ``stdio_server``; None when the standard streams are not pipes."""
    if not (_pipe_like(0) and _pipe_like(1)):
        yield None
        return
    loop = asyncio.get_running_loop()
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    reader = asyncio.StreamReader(limit=MAX_LINE)
    in_file = os.fdopen(wire_in, "rb", buffering=0)
    out_file = os.fdopen(wire_out, "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), in_file
    )
    write_transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, out_file
    )
    writer = asyncio.StreamWriter(write_transport, protocol, reader, loop)
    try:
        yield _Lines(reader), _Writer(writer)
    finally:
        with contextlib.suppress(Exception):
            await writer.drain()
        read_transport.close()
        write_transport.close()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
