"""The detached child that writes a home's recall cache (``recall/rewrite.py`` starts it).

``python -m context_center.engine.facade.rewrite_child HOME WORKSPACE MARKER TOKEN``: opens the
engine for that home and workspace, brings the recall index up to date with the stores (from
the cache and the journal, or a load) and writes the cache; at the end, whatever happens,
removes the marker if it still holds TOKEN. It prints nothing (its output goes nowhere).
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    home, workspace, marker, token = Path(argv[0]), Path(argv[1]), Path(argv[2]), argv[3]
    try:
        from context_center.engine.facade import Engine

        Engine(home=home, workspace=workspace).refresh_recall_cache()
        return 0
    except Exception:  # derived data: the next process catches up or rebuilds it
        return 1
    finally:
        from context_center.engine.recall.rewrite import release

        release(marker, token)  # only our own marker: another may have taken it over


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
