"""No absolute local path in provider-visible text: the home, the workspace and the OS home
directory are replaced (longest first) by stable placeholders wherever a text quotes them.

The redaction is the engine's one provider-visible sanitizer (``gate.visible.Visibility``), so
the prefix and the agent profiles show what the recall block shows: the workspace as
``<workspace>``, each home and the OS home (``Path.home()`` and ``$HOME``) as
``<local-home>``, any other home-shaped path (``/home/<user>``, ``/Users/<user>``, ``/root``,
``C:\\Users\\<user>``, ``%2Fhome%2F<user>``, ``~<user>/``) as ``<local-home>`` too, secrets
withheld as ``[withheld: <label>]`` and control characters escaped (``\\x1b``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from context_center.engine.gate.visible import LOCAL_HOME as LOCAL_HOME
from context_center.engine.gate.visible import LOCAL_WORKSPACE as LOCAL_WORKSPACE
from context_center.engine.gate.visible import Visibility, visibility

Redactor = Visibility


def os_home() -> Path | None:
    try:
        return Path.home()
    except (RuntimeError, KeyError):
        return None


def redactor_for(workspace: Path, *homes: Path, stores: Sequence[Path] = ()) -> Redactor:
    """The workspace as ``<workspace>``; each home and the OS home as ``<local-home>``; the
    memory stores and the cache as ``<memory-store>`` (longest first, as in the block)."""
    return visibility(workspace=workspace, home=homes, store_paths=tuple(stores))
