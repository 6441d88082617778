"""The window's languages: Qt's translation system, the language choice and the compiled ``.qm``.

Every visible string of ``ui/`` goes through ``QCoreApplication.translate(context, source)``
with English as the source text, in one of two spellings ``pyside6-lupdate`` extracts:

* module ``TEXT`` tables: ``TEXT = Texts("Ctx", {"key": QT_TRANSLATE_NOOP("Ctx", "English")})``;
  ``TEXT["key"]`` translates at the moment it is read;
* inline: ``translate("Ctx", "English {n}").format(n=n)``.

The context is the module's (one per module; the same string in the ``Texts`` call and in each
entry — ``tests/ui/test_i18n.py`` checks it). Sources live in ``resources/i18n/*.ts``
(``tools/i18n_update`` runs lupdate over ``ui/``); the ``.qm`` Qt loads is built by the install
(``setup.py``'s ``build_py`` runs PySide6's lrelease) or, when the packaged ``.qm`` is missing or
older than its ``.ts`` (an editable install, a checkout), compiled here into the user's cache
folder with the same lrelease.

The language: ``--language`` / ``$CONTEXT_CENTER_LANGUAGE``, else the saved setting
(``LANGUAGE_KEY`` in the window's QSettings: ``system``, ``en`` or ``zh_CN``), else the system
locale (``QLocale.system()``: any Chinese → ``zh_CN``, anything else → English). A changed
setting applies at the next start.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

log = logging.getLogger(__name__)

LANGUAGE_KEY = "ui/language"
LANGUAGE_ENV = "CONTEXT_CENTER_LANGUAGE"
SYSTEM = "system"
ENGLISH = "en"
CHINESE = "zh_CN"
CHOICES = (SYSTEM, ENGLISH, CHINESE)
TRANSLATED = (CHINESE,)  # languages with a .ts of their own (English is the source)
I18N_DIR = Path(__file__).resolve().parent.parent / "resources" / "i18n"
CATALOG = "context_center"


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:  # lupdate knows this name
    """Mark ``source`` for lupdate under ``context``; returns it unchanged (a typed version of
    PySide6's, which is typed ``object``)."""
    return source


def translate(context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``QCoreApplication.translate``; lupdate extracts the literal ``context`` and ``source``."""
    return QCoreApplication.translate(context, source, disambiguation, n)


class Texts(Mapping[str, str]):
    """A module's table of strings: ``source`` holds the English, ``[key]`` the translation."""

    def __init__(self, context: str, source: Mapping[str, str]) -> None:
        self.context = context
        self.source = dict(source)

    def __getitem__(self, key: str) -> str:
        return QCoreApplication.translate(self.context, self.source[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.source)

    def __len__(self) -> int:
        return len(self.source)


# -- which language -----------------------------------------------------------------------


def normalise(choice: str | None) -> str | None:
    """``zh_CN``, ``zh-cn``, ``zh``, ``中文`` → ``zh_CN``; ``en*`` → ``en``; ``system``; else None."""
    if not choice:
        return None
    value = choice.strip().replace("-", "_").lower()
    if value in ("system", "auto", "default"):
        return SYSTEM
    if value.startswith("zh") or value == "中文":
        return CHINESE
    if value.startswith("en") or value in ("c", "posix"):
        return ENGLISH
    return None


def system_language(locale: QLocale | None = None) -> str:
    locale = locale or QLocale.system()
    return CHINESE if locale.language() == QLocale.Language.Chinese else ENGLISH


def resolve_language(
    override: str | None = None,
    saved: Any = None,
    locale: QLocale | None = None,
) -> str:
    """The language to show: an override (CLI or environment), else the saved choice, else
    the system locale. Always ``en`` or ``zh_CN``."""
    for choice in (
        override,
        os.environ.get(LANGUAGE_ENV),
        saved if isinstance(saved, str) else None,
    ):
        value = normalise(choice)
        if value is not None:
            return system_language(locale) if value == SYSTEM else value
    return system_language(locale)


def saved_choice(settings: Any) -> str:
    """The choice stored in the window's settings (``system`` when none or unknown)."""
    value = normalise(str(settings.value(LANGUAGE_KEY, SYSTEM) or SYSTEM))
    return value or SYSTEM


# -- the compiled catalog -----------------------------------------------------------------


def ts_path(language: str) -> Path:
    return I18N_DIR / f"{CATALOG}_{language}.ts"


def lrelease_command() -> list[str] | None:
    """PySide6's lrelease (the wheel ships it), else one on PATH."""
    try:
        import PySide6

        folder = Path(PySide6.__file__).resolve().parent
        for name in ("lrelease.exe", "lrelease") if sys.platform == "win32" else ("lrelease",):
            if (folder / name).is_file():
                return [str(folder / name)]
    except ImportError:  # pragma: no cover - the window cannot run without PySide6
        pass
    for name in ("pyside6-lrelease", "lrelease"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def compile_ts(ts: Path, qm: Path) -> bool:
    """Run lrelease ``ts`` → ``qm`` (written beside and renamed into place)."""
    command = lrelease_command()
    if command is None:
        log.warning("no lrelease found: %s stays untranslated", ts.name)
        return False
    qm.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=qm.stem, suffix=".qm", dir=qm.parent)
    os.close(fd)
    try:
        done = subprocess.run(
            [*command, "-silent", str(ts), "-qm", tmp],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode != 0 or Path(tmp).stat().st_size == 0:
            log.warning("lrelease failed on %s: %s", ts.name, done.stderr.strip())
            return False
        os.replace(tmp, qm)
        return True
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("lrelease failed on %s: %s", ts.name, exc)
        return False
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cache_dir() -> Path:
    """``$CONTEXT_CENTER_CACHE/i18n``, else the platform's user cache folder's."""
    env = os.environ.get("CONTEXT_CENTER_CACHE")
    if env:
        return Path(env).expanduser().absolute() / "i18n"
    import platformdirs

    return Path(platformdirs.user_cache_dir("context-center", "context-center")) / "i18n"


STAMP_SUFFIX = ".source-sha256"  # beside a built .qm: the sha256 of the .ts it was built from


def _packaged_is_current(packaged: Path, ts: Path, digest: str) -> bool:
    """The build hook's stamp names the .ts's hash; without one, the .qm is current when it
    is not older than the .ts."""
    if not packaged.is_file():
        return False
    stamp = packaged.with_name(packaged.name + STAMP_SUFFIX)
    if stamp.is_file():
        return stamp.read_text(encoding="ascii").strip() == digest
    return packaged.stat().st_mtime >= ts.stat().st_mtime


def qm_file(language: str) -> Path | None:
    """The ``.qm`` for ``language``: the packaged one when it was built from this ``.ts``
    (or, without a stamp, is not older than it); else one compiled from the ``.ts`` into the
    cache (named by the ``.ts``'s hash, so an edited ``.ts`` is compiled again). None: no
    catalog (English) or no lrelease."""
    ts = ts_path(language)
    packaged = ts.with_suffix(".qm")
    if not ts.is_file():
        return packaged if packaged.is_file() else None
    full = hashlib.sha256(ts.read_bytes()).hexdigest()
    if _packaged_is_current(packaged, ts, full):
        return packaged
    digest = full[:16]
    cached = cache_dir() / f"{CATALOG}_{language}-{digest}.qm"
    if cached.is_file() or compile_ts(ts, cached):
        return cached
    return None


# -- installing ---------------------------------------------------------------------------

_installed: list[QTranslator] = []
_current = {"language": ENGLISH}


def current_language() -> str:
    """The language ``install`` last set up (``en`` until then)."""
    return _current["language"]


def uninstall() -> None:
    app = QCoreApplication.instance()
    while _installed:
        translator = _installed.pop()
        if app is not None:
            QCoreApplication.removeTranslator(translator)
    if _current["language"] != ENGLISH:
        QLocale.setDefault(QLocale.system())
    _current["language"] = ENGLISH


def install(language: str) -> str:
    """Load ``language``'s catalog (and Qt's own, for standard buttons) into the application.
    Returns the language actually shown (``en`` when the catalog cannot be loaded)."""
    uninstall()
    if language not in TRANSLATED:
        return ENGLISH
    qm = qm_file(language)
    ours = QTranslator()
    if qm is None or not ours.load(str(qm)):
        log.warning("no translation for %s: the window stays in English", language)
        return ENGLISH
    QCoreApplication.installTranslator(ours)
    _installed.append(ours)
    qt_own = QTranslator()
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt_own.load(f"qtbase_{language}", folder) or qt_own.load(f"qt_{language}", folder):
        QCoreApplication.installTranslator(qt_own)
        _installed.append(qt_own)
    QLocale.setDefault(QLocale(language))
    _current["language"] = language
    return language


def lookup(context: str, source: str) -> str:
    """Translate a source string held in a variable (one lupdate found elsewhere, marked
    with ``QT_TRANSLATE_NOOP``): ``translate`` for values lupdate cannot see."""
    return QCoreApplication.translate(context, source)


def translate_in(language: str, context: str, source: str) -> str:
    """``source`` in ``language`` whatever is installed (to say something in the language
    just chosen)."""
    if language == current_language():
        return QCoreApplication.translate(context, source)
    if language not in TRANSLATED:
        return source
    qm = qm_file(language)
    translator = QTranslator()
    if qm is None or not translator.load(str(qm)):
        return source
    return translator.translate(context, source) or source


def install_language(settings: Any, override: str | None = None) -> str:
    """At start-up, before any widget is built: the language from ``override`` (``--language``),
    ``$CONTEXT_CENTER_LANGUAGE``, the saved setting or the system locale, installed."""
    return install(resolve_language(override, saved_choice(settings)))
