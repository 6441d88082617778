"""Auto-recall: conservative BM25 over both stores, explained by a trace, fast at 50k facts.

Public API::

    Recaller(layout).recall(message, facts, conflicts, *, max_facts=4, max_chars=2400,
                            now=None) -> RecallResult(block, trace)
    Recaller(layout).search(query, facts=None, *, scope=None, type=None, limit=20) -> list[Hit]
    Recaller(layout).subject_groups(facts=None) -> list[SubjectGroup]   # current over superseded
    Recaller.sync(facts) / upsert(fact) / remove(fact_id, scope=None) / save_cache()
    search(query, facts, scope=None, type=None, limit=20) -> list[Hit]   # throwaway index
    load_trace(layout) -> RecallTrace | None

A turn runs forward through ``pipeline.py``: terms (``terms.py``, with the bilingual
vocabulary of ``vocab.py``) -> candidates and scores (``scoring.py``) -> policy filters
(``filters.py``) -> budget -> block (``block.py``) and trace (``trace.py``).

Qt-free; see ``index.py`` for why rank-bm25's BM25Okapi is not used for ranking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.lazy import lazy_exports

if TYPE_CHECKING:
    from context_center.engine.recall.block import LOCAL_HOME, redact_home
    from context_center.engine.recall.hits import Hit
    from context_center.engine.recall.index import RecallIndex, SyncStats
    from context_center.engine.recall.policy import Reason, is_generic_turn
    from context_center.engine.recall.recaller import (
        CACHE_FILE,
        Recaller,
        RecallResult,
        search,
    )
    from context_center.engine.recall.subjects import SubjectGroup
    from context_center.engine.recall.tokenize import QueryTerm, query_terms, searchable, tokens
    from context_center.engine.recall.trace import (
        TRACE_FILE,
        RecallTrace,
        SelectedFact,
        Suppression,
        load_trace,
        save_trace,
        trace_path,
    )

# Names load their module on first use: importing one light submodule (the policy's
# constants, the trace) never pulls in numpy and the whole recall stack.
_WHERE = {
    "LOCAL_HOME": "block",
    "redact_home": "block",
    "RecallIndex": "index",
    "SyncStats": "index",
    "Reason": "policy",
    "is_generic_turn": "policy",
    "CACHE_FILE": "recaller",
    "Hit": "hits",
    "Recaller": "recaller",
    "RecallResult": "recaller",
    "search": "recaller",
    "SubjectGroup": "subjects",
    "QueryTerm": "tokenize",
    "query_terms": "tokenize",
    "searchable": "tokenize",
    "tokens": "tokenize",
    "TRACE_FILE": "trace",
    "RecallTrace": "trace",
    "SelectedFact": "trace",
    "Suppression": "trace",
    "load_trace": "trace",
    "save_trace": "trace",
    "trace_path": "trace",
}


__getattr__ = lazy_exports(__name__, _WHERE, globals())


__all__ = [
    "CACHE_FILE",
    "LOCAL_HOME",
    "TRACE_FILE",
    "Hit",
    "QueryTerm",
    "Reason",
    "RecallIndex",
    "RecallResult",
    "RecallTrace",
    "Recaller",
    "SelectedFact",
    "SubjectGroup",
    "Suppression",
    "SyncStats",
    "is_generic_turn",
    "load_trace",
    "query_terms",
    "redact_home",
    "save_trace",
    "search",
    "searchable",
    "tokens",
    "trace_path",
]
