"""What a model may see of a text: the one sanitizer for every provider-visible string.

``visible_text(text, *, home=None, workspace=None, cc_home=None, store_paths=())`` returns
``text`` with, in this order:

1. **Secrets withheld.** Every span ``gate.secrets.find_sensitive`` reports (the write gate's
   own rules) becomes ``[withheld: <label>]``, e.g. ``[withheld: GitHub token]``; overlapping
   spans become one marker. E-mail addresses are kept: they are not credentials, the gate
   already asked a person about them, and instruction files name maintainers on purpose
   (the same choice as ``instructions.withhold``).
2. **Local paths redacted.** Longest first, each also when URL-encoded (``%2F`` for ``/``):
   each store path in ``store_paths`` and the cache folder -> ``<memory-store>``; the workspace
   root (and its store slug, ``-home-alice-proj``) -> ``<workspace>``; the Context Center home
   ``cc_home``, ``home``, ``Path.home()`` and ``$HOME`` -> ``<local-home>``. Then any other
   home-shaped path: ``/home/<user>``, ``/Users/<user>`` (a name with spaces when a separator
   follows), ``/root``, ``C:\\Users\\<user>``, ``%2Fhome%2F<user>``, and ``~<user>/`` (or the
   bare ``~<user>`` of a home named above) -> ``<local-home>``. A path must end at a separator
   or the end of a name: ``/home/alice2`` is not ``/home/alice``. ``~/`` reveals nothing and is
   kept.
3. **Control characters escaped** (``gate.control.escape_controls``): ESC becomes the text
   ``\\x1b``, U+202E the text ``\\u202e``; tabs and line breaks are kept.

Every argument is optional: with none, the OS home is still redacted and secrets and control
characters are still handled. Paths may be ``str`` or ``os.PathLike``; ``home`` may also be
several homes (a user home and an agent's home). A ``Visibility`` holds
the compiled redaction for one set of paths; ``visible_text`` caches one per set, so calling it
per string is cheap. ``MARKERS`` lists the markers this adds, for renderers that escape
markup (the recall block lets exactly these through).

``visible_scope(visibility)`` makes ``provider_visible(text)`` use that visibility inside a
``with`` block (a context variable: per thread and per task): the recall pipeline renders the
block deep inside with no paths at hand, and the recaller, which knows the layout, opens the
scope.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from context_center.engine import rxcache
from context_center.engine.gate.control import CONTROL_RE, ESCAPE_SEQUENCE, escape_controls
from context_center.engine.gate.secrets import find_sensitive

LOCAL_HOME = "<local-home>"
LOCAL_WORKSPACE = "<workspace>"
MEMORY_STORE = "<memory-store>"
MARKERS = (LOCAL_HOME, LOCAL_WORKSPACE, MEMORY_STORE)
WITHHELD = "[withheld: {label}]"
KEPT_KINDS = frozenset({"email"})

PathArg = str | os.PathLike[str]
# Texts a Visibility remembers, least recently used first out: a recall turn shows each fact's
# title and snippet, and the same facts come back turn after turn (a fact's text is scanned for
# secrets once while it stays recent). The result is a pure function of the text and the
# Visibility's paths, so a remembered answer is never stale. At most _MEMO_CHARS characters of
# texts and results are kept (a few megabytes).
_MEMO_SIZE = 4096
_MEMO_CHARS = 2 << 20

# Folders in a homes folder that are no one's home (``/Users/Shared``, ``C:\\Users\\Public``,
# Homebrew's ``/home/linuxbrew``), and a placeholder (``/home/$USER``): kept as they are.
_NOT_A_USER = (
    r"(?!(?:shared|public|default|default user|all users|linuxbrew)(?![^\\/\s\"'`]))(?!\$)"
)
_USER_CHARS = _NOT_A_USER + r"[^\\/\s\"'`<>|:;,()\[\]{}%]+"
# macOS and Windows user names may contain spaces ("Bob Smith"): such a segment is taken whole
# when a path separator follows it (up to three spaces); otherwise only its first word is.
_SPACED_USER = rf"{_USER_CHARS}(?: {_USER_CHARS}){{1,3}}(?=[\\/])|{_USER_CHARS}"
# ``/Users/<name>``; in lower case (macOS file systems ignore case) not before a number or a
# web route's word (``GET /users/123``, ``/users/me``: routes, not homes).
_MAC_USERS = (
    r"(?:(?-i:Users)|users(?!/+(?:[0-9]++|me|new|profile|settings|login|logout|signup|register"
    r"|edit|search|current|self)(?![^\\/\s\"'`?#])))"
)
_END = r"(?![\w.\-])"
# Where a home-shaped path starts: not inside a longer path or a name, but right after a
# one-letter option (``-I/home/ann/include``, ``-L/Users/bob/lib``).
_START = r"(?:(?<=-[A-Za-z])|(?<![\w.\-]))"
_GENERIC_HOMES = (
    # /home/ann (also /home//ann), /var/home/ann (Fedora Atomic), /Users/Ann
    rf"{_START}/(?:var/+)?(?:home/+{_USER_CHARS}|{_MAC_USERS}/+(?:{_SPACED_USER}))",
    # another system's view of a home: WSL's /mnt/c/Users/ann, macOS /Volumes/Disk/Users/ann,
    # Windows' \\wsl$\Ubuntu\home\ann and //wsl.localhost/Ubuntu/home/ann, \\server\Users\ann
    rf"{_START}/mnt/[a-z]/+users/+(?:{_SPACED_USER})",
    rf"{_START}/volumes/[^/\n]{{1,64}}/{_MAC_USERS}/+(?:{_SPACED_USER})",
    rf"(?:\\\\|//)wsl(?:\.localhost|\$)[\\/][^\\/\s]++[\\/]+home[\\/]+{_USER_CHARS}",
    rf"\\\\[^\\/\s]++\\users\\(?:{_SPACED_USER})",
    rf"{_START}/(?:var/)?root{_END}",
    rf"(?<![\w.\-])[a-z]:[\\/]+(?:users|documents and settings)[\\/]+(?:{_SPACED_USER})",
    rf"(?<![\w.\-%])%2f(?:home|users)%2f{_USER_CHARS}",
    rf"(?<![\w.\-%])%2froot{_END}",
    r"(?<![\w~])~[A-Za-z_][A-Za-z0-9_.\-]*+(?=[\\/])",
)


# What ``_os_homes`` reads: $HOME, and ``Path.home()`` (on POSIX $HOME or the password
# database, on Windows these variables).
HOME_VARIABLES = ("HOME",) if os.name != "nt" else ("HOME", "USERPROFILE", "HOMEDRIVE", "HOMEPATH")


# What the cache folder (``store.paths.cache_root``, always redacted) depends on.
CACHE_VARIABLES = ("CONTEXT_CENTER_CACHE", "XDG_CACHE_HOME")


def os_home_key() -> tuple[str | None, ...]:
    """What the OS homes of ``_os_homes`` and the cache folder depend on: a caller that keeps
    a ``Visibility`` keeps it while this stays the same."""
    return tuple(map(os.environ.get, HOME_VARIABLES + CACHE_VARIABLES))


def _cache_folder() -> list[str]:
    """The cache folder of every store and workspace (``<memory-store>``: derived store data),
    wherever ``$CONTEXT_CENTER_CACHE`` or ``$XDG_CACHE_HOME`` put it."""
    from context_center.engine.store.paths import cache_root

    with suppress(OSError, RuntimeError, ValueError):
        return [str(cache_root())]
    return []


def _os_homes() -> list[str]:
    homes = []
    with suppress(RuntimeError, KeyError):
        homes.append(str(Path.home()))
    env = os.environ.get("HOME")
    if env:
        homes.append(env)
    return homes


def _paths(value: PathArg | Iterable[PathArg] | None) -> list[PathArg]:
    if value is None:
        return []
    if isinstance(value, str | os.PathLike):
        return [value]
    return list(value)


def _variants(path: PathArg) -> set[str]:
    """The absolute and the resolved spelling of ``path`` (never the file-system root)."""
    out = set()
    for variant in (os.path.abspath(path), os.path.realpath(path)):
        variant = variant.rstrip("/\\") or variant
        if len(Path(variant).parts) >= 2:
            out.add(variant)
    return out


# One separator as a text may spell it: itself, URL-encoded once or twice, a JSON-escaped
# ``\/``; then more of them or ``./`` (``/tmp//ws``, ``/tmp/./ws`` are the same folder).
_ONE_SLASH = r"(?:/|\\/|\\|%2[Ff]|%252[Ff]|%5[Cc])"
_ONE_BACKSLASH = r"(?:\\|%5[Cc]|%255[Cc])"
_SLASH = rf"{_ONE_SLASH}(?:{_ONE_SLASH}|\.{_ONE_SLASH})*+"
_BACKSLASH = rf"{_ONE_BACKSLASH}(?:{_ONE_BACKSLASH}|\.{_ONE_BACKSLASH})*+"


def _path_regex(path: str) -> str:
    """``path`` as a pattern that also matches its URL-encoded form (``%2F``, ``%5C``), only
    as a whole path: not inside a longer one (``/var/root`` does not hold ``/root``)."""
    parts = re.split(r"([\\/])", path)
    out = []
    for part in parts:
        if part == "/":
            out.append(_SLASH)
        elif part == "\\":
            out.append(_BACKSLASH)
        else:
            out.append(re.escape(part))
    if len([p for p in parts if p not in ("/", "\\", "")]) >= 2:
        # a path of two names or more is that path wherever it is: glued to an option
        # (``-isystem/tmp/ws``), a word (``started\n/tmp/ws`` in escaped JSON), a scheme
        # (``vscode://file/tmp/ws``) or another path (``/private/tmp/ws``); and without its
        # first separator where no path or name goes before (``tmp/ws/src`` in a tar listing)
        whole = "".join(out)
        if parts[0] == "" and len(parts) > 2:
            whole = f"(?:{whole}|(?<![\\w./\\\\%]){''.join(out[2:])})"
        return whole + r"(?![\w\-])"
    # one name (``/root``): not inside a longer path or a name (``/var/root``,
    # ``example.com/root``), but after ``..`` (``../``)
    return r"(?<![\w\-])(?<!\w\.)" + "".join(out) + r"(?![\w\-])"


def _needles(paths: list[str]) -> tuple[str, ...] | None:
    """The longest name of each path (what ``_path_regex`` matches literally); None when a
    path has no name to look for."""
    out = []
    for path in paths:
        names = [n for n in re.split(r"[\\/]", path) if n]
        if not names:
            return None
        out.append(max(names, key=len))
    return tuple(dict.fromkeys(out))


class Visibility:
    """The redaction of one set of local paths, compiled once; call it on a text."""

    def __init__(
        self,
        *,
        home: PathArg | Iterable[PathArg] | None = None,
        workspace: PathArg | None = None,
        cc_home: PathArg | None = None,
        store_paths: Iterable[PathArg] = (),
    ) -> None:
        user_homes: list[PathArg] = [*_paths(home), *_os_homes()]
        pairs: list[tuple[list[PathArg], str]] = [
            ([*store_paths, *_cache_folder()], MEMORY_STORE),
            ([workspace] if workspace is not None else [], LOCAL_WORKSPACE),
            ([*([cc_home] if cc_home is not None else []), *user_homes], LOCAL_HOME),
        ]
        table: dict[str, str] = {}
        for paths, marker in pairs:
            for path in paths:
                for variant in _variants(path):
                    table.setdefault(variant, marker)
        if workspace is not None:  # the store's folder name for this workspace, both spellings
            for variant in _variants(workspace):
                slug = re.sub(r"[/\\:]", "-", variant)
                if len(slug) > 1:
                    table.setdefault(slug, LOCAL_WORKSPACE)
        exact = sorted(table, key=len, reverse=True)
        # Exact paths are matched as written (two users may differ only in case on Linux);
        # the generic shapes ignore case (``/Users``, ``C:\\USERS``, ``%2f``).
        # (``re``'s own compile: the pattern holds this home's paths, no entry for the shared
        # table of ``rxcache``, which keeps the patterns every process compiles alike)
        self._exact = re.compile("|".join(f"({_path_regex(p)})" for p in exact)) if exact else None
        self._exact_markers = [table[p] for p in exact]
        # Every match of a path's pattern holds each of its names literally (only the
        # separators vary), so a text holding none of the longest names holds no such path.
        self._needles = _needles(exact)
        users = sorted({Path(p).name for p in user_homes if Path(p).name})
        self._memo: OrderedDict[str, str] = OrderedDict()  # recent texts, see _MEMO_SIZE
        self._memo_chars = 0
        self._memo_lock = threading.Lock()
        self._bare_user = re.compile(
            rf"(?<![\w~])~(?:{'|'.join(re.escape(u) for u in users)}){_END}" if users else r"(?!)"
        )

    def paths(self, text: str) -> str:
        """``text`` with local paths redacted (no secret or control handling). The text
        between control sequences is redacted piece by piece: a path right after a colour
        code (``ESC[1m/home/ann``) is still a path, though an ``m`` comes before it."""
        if not text:
            return text
        if _CONTROL_RUN.search(text) is None:
            return self._paths(text)
        out, at = [], 0
        for m in _CONTROL_RUN.finditer(text):
            out += [self._paths(text[at : m.start()]), m.group()]
            at = m.end()
        out.append(self._paths(text[at:]))
        return "".join(out)

    def _paths(self, text: str) -> str:
        if not text:
            return text
        if self._exact is not None and (
            self._needles is None or any(n in text for n in self._needles)
        ):
            text = self._exact.sub(lambda m: self._exact_markers[(m.lastindex or 1) - 1], text)
        text = redact_home_shapes(text)
        return self._bare_user.sub(LOCAL_HOME, text) if "~" in text else text

    def __call__(self, text: str) -> str:
        if not text:
            return text
        memo = self._memo
        with self._memo_lock:
            done = memo.get(text)
            if done is not None:
                memo.move_to_end(text)
                return done
        done = escape_controls(self.paths(withhold_secrets(text)))
        with self._memo_lock:
            if text not in memo:
                memo[text] = done
                self._memo_chars += len(text) + len(done)
                while len(memo) > 1 and (len(memo) > _MEMO_SIZE or self._memo_chars > _MEMO_CHARS):
                    old, gone = memo.popitem(last=False)
                    self._memo_chars -= len(old) + len(gone)
        return done


# A terminal escape sequence (``ESC[1m``) or one control or bidirectional character, as
# ``gate.control`` finds them: where ``Visibility.paths`` cuts.
_CONTROL_RUN = re.compile(f"{ESCAPE_SEQUENCE.pattern}|{CONTROL_RE.pattern}")
_HOME_SHAPES = rxcache.compile("|".join(f"(?:{a})" for a in _GENERIC_HOMES), re.IGNORECASE)


def redact_home_shapes(text: str) -> str:
    """Only the home-shaped paths of any user (``/home/ann``, ``/Users/Ann``, ``/root``,
    ``C:\\Users\\ann``, ``%2Fhome%2Fann``, ``~ann/``) -> ``<local-home>``: for a caller with
    no paths at hand. ``visible_text`` does this and more."""
    if "/" in text or "\\" in text or "%" in text or "~" in text:
        return _HOME_SHAPES.sub(LOCAL_HOME, text)
    return text


_LINE_TAIL = frozenset(" \t\r-*+")
_SENTENCE_END = frozenset(".,;:")


def _span_end(text: str, start: int, end: int) -> int:
    """Where a withheld span really ends: never past a line break that only leads into the
    next line's list marker (a key "split across lines" must not swallow the next rule), and
    not over a sentence's closing punctuation."""
    cut = text.rfind("\n", start, end)
    if cut > start and all(ch in _LINE_TAIL for ch in text[cut + 1 : end]):
        end = cut
    while (
        end - 1 > start
        and text[end - 1] in _SENTENCE_END
        and (end == len(text) or text[end].isspace())
    ):
        end -= 1
    return end


def withhold_secrets(text: str, keep: frozenset[str] = KEPT_KINDS) -> str:
    """``text`` with every sensitive span (but the kinds in ``keep``) replaced by
    ``[withheld: <label>]``; overlapping spans become one marker."""
    spans = [s for s in find_sensitive(text) if s.kind not in keep] if text else []
    if not spans:
        return text
    # sorted by start, longest first at one start
    return _with_markers(text, ((s.start, _span_end(text, s.start, s.end), s.label) for s in spans))


def _with_markers(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, label)`` (in order of start) replaced by its
    ``[withheld: <label>]``; a span that starts inside the marker just written widens it."""
    parts: list[str] = []
    cursor = 0
    for start, end, label in spans:
        if start < cursor:  # overlaps the marker just written: widen it
            cursor = max(cursor, end)
            continue
        parts += [text[cursor:start], WITHHELD.format(label=label)]
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


# Where a part of a name or a reference starts: a slug writes a token's own separators the
# same way (``deploy-glpat-…``, ``frob-sk-proj-…``), where the scan wants no token character
# before a token.
_NAME_PART = re.compile(r"[-_./]")


@lru_cache(maxsize=4096)  # a pure function of the text; listings repeat the same names
def withhold_in_name(text: str) -> str:
    """``withhold_secrets`` for a fact's name, file name, id or reference: also every secret
    that starts a part of it (after ``-``, ``_``, ``.`` or ``/``), read as written and with
    each ``-`` read as ``_``."""
    if not text:
        return text
    spans: set[tuple[int, int, str]] = set()
    starts = (0, *(m.end() for m in _NAME_PART.finditer(text)))
    # a slug also turns a token's "_" into "-" (``ghp_…`` becomes ``ghp-…``): read both ways
    for spelled in dict.fromkeys((text, text.replace("-", "_"))):
        for at in starts:
            for s in find_sensitive(spelled[at:]) if at < len(spelled) else ():
                if s.kind not in KEPT_KINDS:
                    spans.add((at + s.start, at + s.end, s.label))
    if not spans:
        return text
    return _with_markers(text, sorted(spans, key=lambda s: (s[0], -s[1])))


@lru_cache(maxsize=32)
def _cached(
    homes: tuple[str, ...],
    workspace: str | None,
    cc_home: str | None,
    stores: tuple[str, ...],
    os_homes: tuple[str, ...],
) -> Visibility:
    return Visibility(home=homes, workspace=workspace, cc_home=cc_home, store_paths=stores)


def _key(path: PathArg | None) -> str | None:
    return None if path is None else os.fspath(path)


def visibility(
    *,
    home: PathArg | Iterable[PathArg] | None = None,
    workspace: PathArg | None = None,
    cc_home: PathArg | None = None,
    store_paths: Iterable[PathArg] = (),
) -> Visibility:
    """The (cached) ``Visibility`` for these paths (``home`` may be several homes)."""
    homes = tuple(os.fspath(p) for p in _paths(home))
    stores = tuple(os.fspath(p) for p in store_paths)
    return _cached(homes, _key(workspace), _key(cc_home), stores, (*_os_homes(), *_cache_folder()))


def visible_text(
    text: str,
    *,
    home: PathArg | Iterable[PathArg] | None = None,
    workspace: PathArg | None = None,
    cc_home: PathArg | None = None,
    store_paths: Iterable[PathArg] = (),
) -> str:
    """``text`` as a model may see it: secrets withheld, local paths redacted, control
    characters escaped (see the module docstring for the exact rules and markers)."""
    if not text:
        return text
    return visibility(home=home, workspace=workspace, cc_home=cc_home, store_paths=store_paths)(
        text
    )


_SCOPE: ContextVar[Visibility | None] = ContextVar("provider_visibility", default=None)


@contextmanager
def visible_scope(scope: Visibility) -> Iterator[Visibility]:
    """Within the block, ``provider_visible`` uses ``scope``."""
    token = _SCOPE.set(scope)
    try:
        yield scope
    finally:
        _SCOPE.reset(token)


def provider_visible(text: str) -> str:
    """``visible_text`` with the paths of the current ``visible_scope`` (the OS home only
    outside any scope)."""
    scope = _SCOPE.get()
    return (scope or visibility())(text)
