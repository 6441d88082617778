"""Claude Code's own auto memory for a workspace: where it is (``location``), what is in it and
what Claude Code loads of it (``reader``), and copying it into the store (``importer``).

Everything here only reads Claude Code's files; the import writes facts into Context Center's
store through the Engine, never into Claude Code's folder.
"""

from context_center.engine.claude_memory.importer import (
    ImportItem,
    ImportReport,
    Planned,
    plan_import,
)
from context_center.engine.claude_memory.location import (
    MemoryLocation,
    canonical_root,
    config_dir,
    locate,
)
from context_center.engine.claude_memory.reader import (
    INDEX_FILE,
    MAX_INDEX_LINES,
    MAX_INDEX_UNITS,
    ClaudeMemoryFile,
    ClaudeMemoryView,
    IndexLine,
    IndexLoad,
    index_load,
    read_view,
)

__all__ = [
    "INDEX_FILE",
    "MAX_INDEX_LINES",
    "MAX_INDEX_UNITS",
    "ClaudeMemoryFile",
    "ClaudeMemoryView",
    "ImportItem",
    "ImportReport",
    "IndexLine",
    "IndexLoad",
    "MemoryLocation",
    "Planned",
    "canonical_root",
    "config_dir",
    "index_load",
    "locate",
    "plan_import",
    "read_view",
]
