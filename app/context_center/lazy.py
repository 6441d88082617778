"""Lazy package exports (PEP 562): a name is imported from its module on first use, so a
package's ``__init__`` costs nothing until one of its names is asked for (the per-turn
processes import only what their command needs). Standard library only."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: ``exports`` maps each name to the module that
    defines it, relative to ``package`` (``"models"``) or absolute (``"context_center.x"``).
    A name that is a submodule of that module (``atomic``) is that submodule. The value is
    kept in ``namespace`` (the package's globals), so the next lookup is a plain one."""

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where if where.startswith("context_center.") else f"{package}.{where}"
        owner = importlib.import_module(module)
        try:
            value = getattr(owner, name)
        except AttributeError:
            value = importlib.import_module(f"{module}.{name}")
        namespace[name] = value
        if exports.get(where) == where:
            # importing the submodule ``accept`` bound the package's name ``accept`` to the
            # module itself (``dismiss`` loaded first would leave it so): the export wins
            namespace[where] = getattr(owner, where)
        return value

    return __getattr__
