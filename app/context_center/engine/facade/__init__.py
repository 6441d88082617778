"""The engine's one entry object per (home, workspace), used by the window, the CLI and agents.

``Engine`` is the whole boundary: every capability a front end uses is one of its methods,
grouped by area in the mixins beside this file (facts, instructions, recall, gate,
suggestions). Every mutation returns a ``Changes`` (engine/changes.py). Front ends add
presentation only.
"""

from __future__ import annotations

from context_center.engine.facade.agents import AgentsAPI
from context_center.engine.facade.facts import FactsAPI
from context_center.engine.facade.gate import GateAPI
from context_center.engine.facade.history import HistoryAPI
from context_center.engine.facade.instructions import InstructionsAPI
from context_center.engine.facade.recall import RecallAPI
from context_center.engine.facade.rescope import RescopeAPI
from context_center.engine.facade.suggestions import SuggestionsAPI
from context_center.engine.facade.undo import UndoAPI


class Engine(
    AgentsAPI,
    FactsAPI,
    InstructionsAPI,
    RecallAPI,
    HistoryAPI,
    UndoAPI,
    GateAPI,
    SuggestionsAPI,
    RescopeAPI,
):
    """Holds the layout and the stores; every front end goes through one of these."""


__all__ = ["Engine"]
