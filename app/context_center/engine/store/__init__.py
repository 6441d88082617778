"""Fact files on disk: the store and its cache, revisions and archive, atomic writes, locks,
paths and the derived ``MEMORY.md`` index."""
