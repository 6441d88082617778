"""Tokenising English identifiers and CJK text; query terms, distinctiveness, common words."""

from __future__ import annotations

from context_center.engine.recall.tokenize import is_common, query_terms, searchable, tokens


def test_identifiers_stay_findable() -> None:
    assert tokens("Fix AuthHandler in release_v2 (#6928)") == [
        "fix",
        "authhandler",
        "in",
        "release_v2",
        "6928",
    ]


def test_full_width_letters_fold_to_ascii() -> None:
    assert tokens("ＡｕｔｈＨａｎｄｌｅｒ") == ["authhandler"]


def test_cjk_bigrams_and_lone_unigram() -> None:
    assert tokens("自动召回") == ["自动", "动召", "召回"]
    assert tokens("我 is here") == ["is", "here", "我"]
    assert sorted(tokens("テスト 한국어")) == sorted(["テス", "スト", "한국", "국어"])


def test_mixed_script_splits_at_script_boundary() -> None:
    assert sorted(tokens("v2版本")) == ["v2", "版本"]


def test_distinctive_terms_remember_how_they_were_written() -> None:
    terms = {t.text: t for t in query_terms("fix AuthHandler in release_v2 for #42 v2 10 2024")}
    assert terms["authhandler"].distinctive  # inner capital
    assert terms["release_v2"].distinctive  # underscore and digit
    assert terms["42"].distinctive  # written as #42
    assert terms["v2"].distinctive  # digit
    # Bare numbers and dates are never identifiers (issue 18: "2026", "11" and "1" of a pasted
    # error matched unrelated facts); "#42" is.
    assert not terms["2024"].distinctive and terms["2024"].number
    assert not terms["10"].distinctive and terms["10"].number
    assert not terms["42"].number
    assert not terms["fix"].distinctive


def test_hash_anywhere_in_the_message_makes_the_term_distinctive() -> None:
    terms = {t.text: t for t in query_terms("see deploy and also #deploy")}
    assert terms["deploy"].distinctive


def test_common_words_are_not_searchable() -> None:
    assert [t.text for t in searchable(query_terms("can you please help me with this?"))] == []
    assert [t.text for t in searchable(query_terms("帮我看一下这个"))] == []
    assert is_common("什么") and is_common("可以") and is_common("这个")
    assert not is_common("缓存") and not is_common("deploy")


def test_query_terms_keep_first_occurrence_order_without_duplicates() -> None:
    assert [t.text for t in query_terms("deploy Deploy DEPLOY cluster")] == ["deploy", "cluster"]


def test_long_runs_are_cut_into_pieces() -> None:
    blob = "a" * 200
    assert [len(t) for t in tokens(blob)] == [80, 80, 40]


def test_vague_programming_words_are_common() -> None:
    for word in [
        "update",
        "file",
        "files",
        "code",
        "fix",
        "changes",
        "session",
        "tokens",
        "issue",
        "problem",
        "work",
        "working",
        "run",
        "add",
        "remove",
        "new",
        "old",
    ]:
        assert is_common(word), word
    for word in ["更新", "文件", "代码", "修复", "会话", "工作", "执行"]:
        assert is_common(word), word
    # Words that are distinctive in practice stay searchable.
    for word in ["deploy", "tests", "build", "authhandler", "kubernetes", "发布", "部署"]:
        assert not is_common(word), word


def test_identifiers_are_kept_among_vague_words() -> None:
    terms = searchable(query_terms("update the file for AuthHandler in release_v2 (#6928)"))
    assert [t.text for t in terms] == ["authhandler", "release_v2", "6928"]


def test_bigrams_straddling_two_common_words_are_common() -> None:
    assert [t.text for t in searchable(query_terms("修复代码"))] == []  # 修复|复代|代码
    assert [t.text for t in searchable(query_terms("更新一下文件"))] == []  # 新一, 下文
    # A bigram that reaches into a word that is not common stays searchable.
    assert [t.text for t in searchable(query_terms("继续发布"))] == ["续发", "发布"]
    assert "作流" in [t.text for t in searchable(query_terms("工作流"))]


def test_all_capitals_words_are_marked_not_identifiers() -> None:
    terms = {t.text: t for t in query_terms("API FATAL error in AuthHandler, PAYMENTS_IT unset")}
    assert terms["api"].caps and not terms["api"].distinctive
    assert terms["fatal"].caps and not terms["fatal"].distinctive
    assert terms["authhandler"].distinctive and not terms["authhandler"].caps
    assert terms["payments_it"].distinctive  # an underscore: an identifier however written
    # Written once in lower case, a word is an ordinary word.
    assert not {t.text: t for t in query_terms("API or api")}["api"].caps
