"""The parsed vocabulary's derived copy under the cache root (``recall/vocabcache.py``)."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from context_center.engine.recall import stem, tokenize, vocab, vocabcache

MODULES = (vocab, tokenize, stem)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(tmp_path / "cache"))
    vocab.vocabulary.cache_clear()
    yield tmp_path / "cache" / vocabcache.FILE_NAME
    vocab.vocabulary.cache_clear()


def _parsed() -> vocab.Vocabulary:
    return vocab.parse(vocab.package_text(vocab.DATA_FILE))


def _same(a: vocab.Vocabulary, b: vocab.Vocabulary) -> None:
    assert a == b
    assert a.columns == b.columns  # compare=False: checked on its own
    assert a.pairs == b.pairs
    assert [[type(f.terms) for f in g] for g in a.groups] == [
        [type(f.terms) for f in g] for g in b.groups
    ]


def test_package_text_is_what_importlib_resources_reads() -> None:
    from importlib import resources

    for name in (vocab.DATA_FILE, "common_en.tsv"):
        data = resources.files("context_center.engine.recall").joinpath("data", name)
        assert vocab.package_text(name) == data.read_text(encoding="utf-8")
        assert vocab.package_data(name) == data.read_bytes()


def test_package_data_asks_importlib_resources_when_the_loader_cannot_read_the_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from importlib import resources

    class _Elsewhere:  # a loader whose data is not beside the module (a frozen bundle)
        def get_data(self, path: str) -> bytes:
            raise FileNotFoundError(path)

    want = resources.files("context_center.engine.recall").joinpath("data", vocab.DATA_FILE)
    monkeypatch.setattr(vocab.__spec__, "loader", _Elsewhere())
    assert vocab.package_data(vocab.DATA_FILE) == want.read_bytes()


def test_the_first_process_parses_and_writes_the_copy_the_next_reads(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = vocab.vocabulary()
    assert cache.is_file() and cache.stat().st_mode & 0o777 == 0o600
    _same(first, _parsed())
    vocab.vocabulary.cache_clear()
    monkeypatch.setattr(vocab, "parse", lambda text: pytest.fail("parsed again"))
    again = vocab.vocabulary()
    _same(again, first)


def test_an_edited_vocabulary_file_is_parsed_not_read_from_the_copy(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vocab.vocabulary()
    assert cache.is_file()
    vocab.vocabulary.cache_clear()
    edited = vocab.package_data(vocab.DATA_FILE) + "kubectl rollout\t滚动发布\n".encode()
    monkeypatch.setattr(vocab, "package_data", lambda name: edited)
    got = vocab.vocabulary()
    assert ("kubectl", "rollout") in got.by_words
    _same(got, vocab.parse(edited.decode()))
    vocab.vocabulary.cache_clear()  # and the copy now describes the edited file
    assert vocabcache.load(vocabcache.key_of(edited, MODULES) or "") is not None


def test_an_edited_module_source_changes_the_key(tmp_path: Path) -> None:
    data = vocab.package_data(vocab.DATA_FILE)
    source = tmp_path / "fake_stem.py"
    source.write_text("def stem(w): return w\n")
    fake = types.ModuleType("fake_stem")
    fake.__file__ = str(source)
    key = vocabcache.key_of(data, (vocab, tokenize, fake))
    assert key is not None and key == vocabcache.key_of(data, (vocab, tokenize, fake))
    source.write_text("def stem(w): return w[:-1]\n")
    assert vocabcache.key_of(data, (vocab, tokenize, fake)) != key
    assert vocabcache.key_of(data + b"\n", MODULES) != vocabcache.key_of(data, MODULES)
    fake.__file__ = str(tmp_path / "compiled.pyc")  # no source to read: nothing is cached
    assert vocabcache.key_of(data, (vocab, fake)) is None


def test_a_copy_for_another_key_or_a_damaged_copy_is_not_used(cache: Path) -> None:
    vocab.vocabulary()
    raw = cache.read_bytes()
    key = vocabcache.key_of(vocab.package_data(vocab.DATA_FILE), MODULES)
    assert key is not None
    assert vocabcache.decode(raw, key) is not None
    assert vocabcache.decode(raw, "0" * 40) is None
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0x20
    for damaged in (
        raw[: len(raw) // 2],
        b"[]",
        b'{"format": 1}',
        bytes(flipped),  # the digest no longer matches
        raw[:8] + b"\0" * 16 + raw[24:],
        b"ccvocab\x01" + raw[8:],  # another format
    ):
        assert vocabcache.decode(damaged, key) is None
    cache.write_bytes(raw[:100])
    vocab.vocabulary.cache_clear()
    _same(vocab.vocabulary(), _parsed())
    assert vocabcache.decode(cache.read_bytes(), key) is not None  # written again


def test_the_copy_round_trips_a_small_vocabulary() -> None:
    small = vocab.parse("a b|c\t甲乙|丙丁|latin\nc\t甲乙\n# x\nsolo\t丙\nunit test\t单元测试\t测\n")
    key = "k" * 40
    data = vocabcache.encode(small, key)
    assert data is not None
    got = vocabcache.decode(data, key)
    assert got is not None
    _same(vocab.assemble(got), small)


def test_a_nested_json_bomb_in_the_copy_is_not_used(cache: Path) -> None:
    key = vocabcache.key_of(vocab.package_data(vocab.DATA_FILE), MODULES)
    assert key is not None
    assert vocabcache.decode(b"[" * 100_000, key) is None
    assert vocabcache.decode(b'{"format":' * 100_000, key) is None


def test_a_copy_with_the_right_digest_but_other_containers_is_not_used() -> None:
    import hashlib
    import marshal

    key = "k" * 40
    bad_parts = (
        (),  # not four parts
        ([], {}, {}, ()),  # the groups in another container
        ((), {}, [], ()),
        ("", {}, {}, (), ()),
    )
    for parts in bad_parts:
        payload = marshal.dumps((key, parts))
        raw = vocabcache.MAGIC + hashlib.blake2b(payload, digest_size=16).digest() + payload
        assert vocabcache.decode(raw, key) is None
