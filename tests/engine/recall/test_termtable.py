"""The packed term table finds every term by binary search, and remembers what it found."""

from __future__ import annotations

import random

import numpy as np
import pytest

from context_center.engine.recall import termtable
from context_center.engine.recall.termtable import Strings, TermTable, pack_strings


def _table(terms: list[str]) -> TermTable:
    blob, off = pack_strings(terms)
    order = np.array(sorted(range(len(terms)), key=terms.__getitem__), dtype=np.uint32)
    return TermTable(packed=Strings(blob, off), order=order)


def test_lookups_agree_with_a_dict_before_and_after_adds() -> None:
    rng = random.Random(7)
    words = sorted(
        {"".join(rng.choices("abcdefgh部署中", k=rng.randint(1, 6))) for _ in range(9000)}
    )
    rng.shuffle(words)
    base, later = words[:6000], words[6000:]
    table = _table(base)  # over 4096 offsets: the memoryview path
    want = {t: i for i, t in enumerate(base)}
    for _ in range(2):  # the second pass is answered from the memo
        for t in base + later[:50]:
            assert table.get(t) == want.get(t), t
    for t in later:
        want[t] = table.add(t)
    assert len(table) == len(want)
    for t in words:
        assert table.get(t) == want[t]
        assert table[want[t]] == t
    assert table.add(base[3]) == want[base[3]]  # a base term is never added again


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(termtable, "MEMO_TERMS", 10)
    terms = [f"t{i:05d}" for i in range(5000)]
    table = _table(terms)
    for i, t in enumerate(terms):
        assert table.get(t) == i
    assert len(table._found) == 10
