"""The instruction resolver on real trees: chain, precedence, imports and every refusal."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_center.engine.instructions import fsread
from context_center.engine.instructions import fsread as instruction_fsread
from context_center.engine.instructions import model as instruction_model
from context_center.engine.instructions.resolve import (
    MAX_IMPORT_DEPTH,
    ImportStatus,
    InstructionScope,
    Resolution,
    parse_import_target,
    resolve_instructions,
)

SECRET = "TOP-SECRET-OUTSIDE-CONTENT"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git workspace with an outside secret next to it (``tmp_path/secret.md``)."""
    root = tmp_path / "outer" / "repo"
    (root / ".git").mkdir(parents=True)
    write(tmp_path / "outer" / "secret.md", SECRET)
    write(tmp_path / "outer" / "AGENTS.md", "parent of the root: never loaded")
    return root


def labels(res: Resolution) -> list[str]:
    return [doc.label for doc in res.documents]


def codes(res: Resolution) -> list[str]:
    return [diag.code for diag in res.diagnostics]


def body(res: Resolution, label: str) -> str:
    return next(doc.body for doc in res.documents if doc.label == label)


def resolve(home: Path, root: Path, target: Path | None = None) -> Resolution:
    return resolve_instructions(home, None, target or root)


# --------------------------------------------------------------------------- chain


def test_monorepo_chain_for_api_excludes_sibling_and_parent(home: Path, repo: Path) -> None:
    write(repo / "AGENTS.md", "root rule")
    write(repo / "services" / "AGENTS.md", "services rule")
    write(repo / "services" / "api" / "AGENTS.md", "api rule")
    write(repo / "services" / "web" / "AGENTS.md", "web rule")

    res = resolve(home, repo, repo / "services" / "api")

    assert labels(res) == [
        "workspace/AGENTS.md",
        "workspace/services/AGENTS.md",
        "workspace/services/api/AGENTS.md",
    ]
    assert [doc.directory for doc in res.documents] == [
        "workspace",
        "workspace/services",
        "workspace/services/api",
    ]
    assert res.target == "workspace/services/api"
    everything = "\n".join(doc.body for doc in res.documents)
    assert "web rule" not in everything
    assert "parent of the root" not in everything
    assert res.diagnostics == ()
    assert res.local_workspace == repo


def test_precedence_user_project_ancestor_local(home: Path, repo: Path) -> None:
    write(home / "AGENTS.md", "user plain")
    write(repo / "CLAUDE.md", "root claude")
    write(repo / "REASONIX.md", "root reasonix")
    write(repo / "AGENTS.local.md", "root local")
    write(repo / "pkg" / "AGENTS.md", "pkg plain")
    write(repo / "pkg" / "CLAUDE.local.md", "pkg local")

    res = resolve(home, repo, repo / "pkg")

    got = [(d.label, d.scope, d.precedence, d.order) for d in res.documents]
    assert got == [
        ("user/AGENTS.md", InstructionScope.USER, 0, 0),
        ("workspace/REASONIX.md", InstructionScope.PROJECT, 10, 1),
        ("workspace/CLAUDE.md", InstructionScope.PROJECT, 10, 2),
        ("workspace/AGENTS.local.md", InstructionScope.LOCAL, 11, 3),
        ("workspace/pkg/AGENTS.md", InstructionScope.ANCESTOR, 12, 4),
        ("workspace/pkg/CLAUDE.local.md", InstructionScope.LOCAL, 13, 5),
    ]


def test_workspace_root_explicit_git_or_target(home: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain" / "deep"
    write(plain.parent / "AGENTS.md", "above the target, no .git anywhere")
    write(plain / "AGENTS.md", "target rule")
    res = resolve_instructions(home, None, plain)
    assert labels(res) == ["workspace/AGENTS.md"]
    assert body(res, "workspace/AGENTS.md") == "target rule"

    explicit = resolve_instructions(home, plain.parent, plain)
    assert labels(explicit) == ["workspace/AGENTS.md", "workspace/deep/AGENTS.md"]


def test_git_file_marks_a_worktree_root(home: Path, tmp_path: Path) -> None:
    root = tmp_path / "wt"
    write(root / ".git", "gitdir: elsewhere")
    write(root / "AGENTS.md", "wt root")
    res = resolve_instructions(home, None, root / "a" / "b")
    assert labels(res) == ["workspace/AGENTS.md"]
    assert res.target == "workspace/a/b"


def test_target_outside_workspace_is_a_diagnostic(home: Path, repo: Path, tmp_path: Path) -> None:
    write(repo / "AGENTS.md", "root rule")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    res = resolve_instructions(home, repo, outside)
    assert codes(res) == ["target_outside_workspace"]
    assert res.diagnostics[0].path == "above/2/elsewhere"  # a label, never ../../
    assert labels(res) == ["workspace/AGENTS.md"]
    assert str(tmp_path) not in res.diagnostics[0].message
    assert res.diagnostics[0].local_path == outside


def test_user_files_and_empty_documents(home: Path, repo: Path) -> None:
    write(home / "REASONIX.md", "user reasonix")
    write(home / "CLAUDE.local.md", "user local")
    write(repo / "AGENTS.md", "   \n\n")
    res = resolve(home, repo)
    assert labels(res) == ["user/REASONIX.md", "user/CLAUDE.local.md"]
    assert {d.scope for d in res.documents} == {InstructionScope.USER}
    assert {d.directory for d in res.documents} == {"user"}


# --------------------------------------------------------------------------- dedup


def test_identical_bodies_keep_the_most_specific(home: Path, repo: Path) -> None:
    write(repo / "AGENTS.md", "same rule\n")
    write(repo / "api" / "AGENTS.md", "same rule")
    res = resolve(home, repo, repo / "api")
    assert labels(res) == ["workspace/api/AGENTS.md"]
    assert [(d.label, d.kept) for d in res.duplicates] == [
        ("workspace/AGENTS.md", "workspace/api/AGENTS.md")
    ]
    assert res.documents[0].order == 0


def test_symlinked_alias_in_one_directory_is_loaded_once(home: Path, repo: Path) -> None:
    write(repo / "AGENTS.md", "the rules")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    res = resolve(home, repo)
    assert labels(res) == ["workspace/AGENTS.md"]
    assert [d.label for d in res.duplicates] == ["workspace/CLAUDE.md"]


# --------------------------------------------------------------------------- imports


def test_legitimate_imports_expand_and_refusals_stay_visible(
    home: Path, repo: Path, tmp_path: Path
) -> None:
    outer = tmp_path / "outer"
    write(repo / "docs" / "testing.md", "run the tests")
    os.symlink(outer / "secret.md", repo / "docs" / "link.md")
    write(
        repo / "AGENTS.md",
        "\n".join(
            [
                "# Rules",
                "@docs/testing.md",
                "@../secret.md",
                f"@{outer / 'secret.md'}",
                "@~/secret.md",
                "@docs/link.md",
            ]
        ),
    )

    res = resolve(home, repo)
    text = body(res, "workspace/AGENTS.md")

    assert '<instruction-import path="workspace/docs/testing.md">\nrun the tests\n' in text
    assert SECRET not in text
    got = [(d.code, d.reason, d.path, d.source_path, d.line) for d in res.diagnostics]
    assert len({g[0] for g in got}) == 4, "each refusal has its own code"
    assert got == [
        ("import_outside_source", "parent_escape", "../secret.md", "workspace/AGENTS.md", 3),
        ("import_absolute_path", "absolute", str(outer / "secret.md"), "workspace/AGENTS.md", 4),
        ("import_home_path", "home", "~/secret.md", "workspace/AGENTS.md", 5),
        ("import_symlink_escape", "symlink", "workspace/docs/link.md", "workspace/AGENTS.md", 6),
    ]
    # every refused line is still there, with a note naming its code
    for raw, code in [
        ("@../secret.md", "import_outside_source"),
        ("@~/secret.md", "import_home_path"),
        ("@docs/link.md", "import_symlink_escape"),
    ]:
        assert f"{raw} <!-- instruction import rejected ({code}):" in text
    doc = res.documents[0]
    assert [(i.target, i.status) for i in doc.imports] == [
        ("workspace/docs/testing.md", ImportStatus.LOADED),
        ("../secret.md", ImportStatus.REJECTED),
        (str(outer / "secret.md"), ImportStatus.REJECTED),
        ("~/secret.md", ImportStatus.REJECTED),
        ("workspace/docs/link.md", ImportStatus.REJECTED),
    ]


def test_symlinked_directory_on_the_way_is_an_escape(
    home: Path, repo: Path, tmp_path: Path
) -> None:
    os.symlink(tmp_path / "outer", repo / "shared")
    write(repo / "AGENTS.md", "@shared/secret.md")
    res = resolve(home, repo)
    assert [(d.code, d.reason) for d in res.diagnostics] == [("import_symlink_escape", "symlink")]
    assert SECRET not in body(res, "workspace/AGENTS.md")


def test_symlink_inside_the_owner_is_followed(home: Path, repo: Path) -> None:
    write(repo / "real" / "rules.md", "real rules")
    os.symlink(repo / "real", repo / "alias")
    write(repo / "AGENTS.md", "@alias/rules.md")
    res = resolve(home, repo)
    assert res.diagnostics == ()
    assert "real rules" in body(res, "workspace/AGENTS.md")


def test_imports_are_confined_to_the_owning_directory(home: Path, repo: Path) -> None:
    write(repo / "shared.md", "root-level shared file")
    write(repo / "AGENTS.md", "root")
    write(repo / "api" / "AGENTS.md", "@../shared.md\n@docs/x.md")
    write(repo / "api" / "docs" / "x.md", "x\n@../../shared.md\n@../y.md")
    write(repo / "api" / "y.md", "y inside api")
    res = resolve(home, repo, repo / "api")
    api = body(res, "workspace/api/AGENTS.md")
    assert "root-level shared file" not in api
    assert "y inside api" in api  # ../ from a nested import is fine while inside the owner
    assert [(d.code, d.source_path, d.line) for d in res.diagnostics] == [
        ("import_outside_source", "workspace/api/AGENTS.md", 1),
        ("import_outside_source", "workspace/api/docs/x.md", 2),
    ]


def test_backslash_paths_are_imports(home: Path, repo: Path) -> None:
    write(repo / "docs" / "win.md", "windows style")
    write(repo / "AGENTS.md", "@docs\\win.md")
    res = resolve(home, repo)
    assert '<instruction-import path="workspace/docs/win.md">' in body(res, "workspace/AGENTS.md")


def test_unreadable_imports(home: Path, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "adir.md").mkdir()
    os.mkfifo(repo / "pipe.md")
    write(repo / "locked.md", "locked content")
    write(repo / "AGENTS.md", "@missing.md\n@adir.md\n@pipe.md\n@locked.md")
    locked = os.path.realpath(repo / "locked.md")
    real_open = os.open

    def deny(path: object, *args: object, **kwargs: object) -> int:
        if os.fspath(path) == locked:  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fsread.os, "open", deny)

    result: list[Resolution] = []
    worker = threading.Thread(target=lambda: result.append(resolve(home, repo)), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "resolution hung on a FIFO"

    res = result[0]
    assert [(d.code, d.reason, d.line) for d in res.diagnostics] == [
        ("import_unreadable", "missing", 1),
        ("import_unreadable", "directory", 2),
        ("import_unreadable", "not_regular_file", 3),
        ("import_unreadable", "permission_denied", 4),
    ]
    text = body(res, "workspace/AGENTS.md")
    assert "locked content" not in text
    assert text.count("rejected (import_unreadable)") == 4


def test_fifo_or_directory_as_top_level_document(home: Path, repo: Path) -> None:
    os.mkfifo(repo / "AGENTS.md")
    (repo / "CLAUDE.md").mkdir()
    write(repo / "REASONIX.md", "fine")
    res = resolve(home, repo)
    assert labels(res) == ["workspace/REASONIX.md"]
    assert [(d.code, d.reason, d.path) for d in res.diagnostics] == [
        ("document_unreadable", "not_regular_file", "workspace/AGENTS.md"),
        ("document_unreadable", "directory", "workspace/CLAUDE.md"),
    ]


def test_top_level_symlink_leaving_the_workspace(home: Path, repo: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "outer" / "secret.md", repo / "AGENTS.md")
    write(repo / "docs" / "AGENTS.md", "inner")
    os.symlink(repo / "docs" / "AGENTS.md", repo / "CLAUDE.md")  # inside: fine
    res = resolve(home, repo)
    assert labels(res) == ["workspace/CLAUDE.md"]
    assert [(d.code, d.path) for d in res.diagnostics] == [
        ("document_symlink_escape", "workspace/AGENTS.md")
    ]
    assert all(SECRET not in doc.body for doc in res.documents)


def test_diamond_is_included_once(home: Path, repo: Path) -> None:
    write(repo / "shared.md", "SHARED-BODY")
    write(repo / "a.md", "A\n@shared.md")
    write(repo / "b.md", "B\n@shared.md")
    write(repo / "AGENTS.md", "@a.md\n@b.md")
    res = resolve(home, repo)
    text = body(res, "workspace/AGENTS.md")
    assert text.count("SHARED-BODY") == 1
    assert "@shared.md <!-- instruction import skipped: already loaded above -->" in text
    assert text.index("SHARED-BODY") < text.index("already loaded above")
    assert res.diagnostics == ()
    statuses = [(i.source, i.target, i.status) for i in res.documents[0].imports]
    assert statuses == [
        ("workspace/AGENTS.md", "workspace/a.md", ImportStatus.LOADED),
        ("workspace/a.md", "workspace/shared.md", ImportStatus.LOADED),
        ("workspace/AGENTS.md", "workspace/b.md", ImportStatus.LOADED),
        ("workspace/b.md", "workspace/shared.md", ImportStatus.ALREADY_LOADED),
    ]


def test_cycles_terminate(home: Path, repo: Path) -> None:
    write(repo / "self.md", "SELF\n@self.md")
    write(repo / "a.md", "A-BODY\n@b.md")
    write(repo / "b.md", "B-BODY\n@a.md")
    write(repo / "AGENTS.md", "TOP\n@AGENTS.md\n@self.md\n@a.md")
    res = resolve(home, repo)
    text = body(res, "workspace/AGENTS.md")
    for marker in ("TOP", "SELF", "A-BODY", "B-BODY"):
        assert text.count(marker) == 1
    assert [(d.code, d.source_path, d.path) for d in res.diagnostics] == [
        ("import_cycle", "workspace/AGENTS.md", "workspace/AGENTS.md"),
        ("import_cycle", "workspace/self.md", "workspace/self.md"),
        ("import_cycle", "workspace/b.md", "workspace/a.md"),
    ]


def test_seven_deep_chain_stops_at_five(home: Path, repo: Path) -> None:
    for level in range(1, 8):
        write(repo / "chain" / f"c{level}.md", f"LEVEL-{level}\n@c{level + 1}.md")
    write(repo / "AGENTS.md", "@chain/c1.md")
    res = resolve(home, repo)
    text = body(res, "workspace/AGENTS.md")
    for level in range(1, MAX_IMPORT_DEPTH + 1):
        assert f"LEVEL-{level}" in text
    assert "LEVEL-6" not in text and "LEVEL-7" not in text
    assert [(d.code, d.source_path, d.path, d.line) for d in res.diagnostics] == [
        ("import_depth", "workspace/chain/c5.md", "workspace/chain/c6.md", 2)
    ]
    assert "@c6.md <!-- instruction import rejected (import_depth):" in text
    assert max(i.depth for i in res.documents[0].imports) == MAX_IMPORT_DEPTH + 1


def test_too_large_import(home: Path, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(instruction_model, "MAX_FILE_BYTES", 64)
    monkeypatch.setattr(instruction_fsread, "MAX_FILE_BYTES", 64)  # the limit reads obey
    write(repo / "big.md", "x" * 65)
    write(repo / "AGENTS.md", "@big.md")
    res = resolve(home, repo)
    assert codes(res) == ["import_too_large"]


# --------------------------------------------------------------------------- decoding


def test_gb18030_documents_and_imports_are_decoded(home: Path, repo: Path) -> None:
    write(repo / "AGENTS.md", "提交前运行测试。\n@规则/中文.md\n".encode("gb18030"))
    write(repo / "规则" / "中文.md", "不要修改生成的文件。".encode("gb18030"))
    res = resolve(home, repo)
    text = body(res, "workspace/AGENTS.md")
    assert text.startswith("提交前运行测试。")
    assert '<instruction-import path="workspace/规则/中文.md">\n不要修改生成的文件。' in text
    assert res.diagnostics == ()


def test_utf8_bom_and_crlf_are_normalised(home: Path, repo: Path) -> None:
    write(repo / "AGENTS.md", b"\xef\xbb\xbfline one\r\nline two\r\n")
    res = resolve(home, repo)
    assert body(res, "workspace/AGENTS.md") == "line one\nline two"


def test_invalid_encoding_is_a_diagnostic(home: Path, repo: Path) -> None:
    bad = b"\xff\xfe\x80 not text"
    write(repo / "AGENTS.md", bad)
    write(repo / "CLAUDE.md", "@bad.md")
    write(repo / "bad.md", bad)
    res = resolve(home, repo)
    assert labels(res) == ["workspace/CLAUDE.md"]
    assert [(d.code, d.path) for d in res.diagnostics] == [
        ("document_undecodable", "workspace/AGENTS.md"),
        ("import_undecodable", "workspace/bad.md"),
    ]


# --------------------------------------------------------------------------- what is an import


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("@docs/a.md", "docs/a.md"),
        ("   @docs/a.md  ", "docs/a.md"),
        ("@a.md", "a.md"),
        ("@docs\\a.md", "docs\\a.md"),
        ("@mention", None),
        ("@a/b and more", None),
        ("@", None),
        ("see @docs/a.md", None),
        ("`@docs/a.md`", None),
        ("@docs/a.md\tx", None),
    ],
)
def test_parse_import_target(line: str, expected: str | None) -> None:
    assert parse_import_target(line) == expected


def test_code_blocks_and_inline_code_are_not_imports(home: Path, repo: Path) -> None:
    write(repo / "docs" / "a.md", "EXPANDED")
    source = "\n".join(
        [
            "```bash",
            "@docs/a.md",
            "```",
            "~~~~",
            "@docs/a.md",
            "```",
            "@docs/a.md",
            "~~~~",
            "text `start of a span",
            "@docs/a.md",
            "end of the span` text",
            "",
            "@mention",
            "@a/b and more",
            "`@docs/a.md`",
            "a lone ` backtick",
            "@docs/a.md",
        ]
    )
    write(repo / "AGENTS.md", source)
    res = resolve(home, repo)
    doc = res.documents[0]
    assert [i.line for i in doc.imports] == [17]
    assert doc.body.count("EXPANDED") == 1
    assert res.diagnostics == ()


def test_unclosed_fence_hides_the_rest(home: Path, repo: Path) -> None:
    write(repo / "docs" / "a.md", "EXPANDED")
    write(repo / "AGENTS.md", "```\n@docs/a.md\n")
    res = resolve(home, repo)
    assert res.documents[0].imports == ()


# --------------------------------------------------------------------------- privacy


def test_nothing_provider_visible_holds_an_absolute_path(
    home: Path, repo: Path, tmp_path: Path
) -> None:
    os.symlink(tmp_path / "outer" / "secret.md", repo / "CLAUDE.md")
    write(repo / "AGENTS.md", "@missing.md\n@docs/a.md\n@../secret.md")
    write(repo / "docs" / "a.md", "@b.md")
    write(home / "AGENTS.md", "@nested/missing.md")
    res = resolve_instructions(home, repo, tmp_path)
    dumped = res.model_dump_json()
    assert str(tmp_path) not in dumped
    assert "local_" not in dumped
    assert len(res.diagnostics) == 6
    assert all(d.local_path is not None for d in res.diagnostics)


# --------------------------------------------------------------------------- property


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    graph=st.lists(st.lists(st.integers(0, 5), max_size=4), min_size=6, max_size=6),
    top=st.lists(st.integers(0, 5), min_size=1, max_size=3),
)
def test_any_import_graph_terminates_and_includes_each_file_once(
    tmp_path_factory: pytest.TempPathFactory, graph: list[list[int]], top: list[int]
) -> None:
    base = tmp_path_factory.mktemp("graph")
    root = base / "ws"
    for index, targets in enumerate(graph):
        lines = [f"FILE-{index}-BODY"] + [f"@f{t}.md" for t in targets]
        write(root / f"f{index}.md", "\n".join(lines))
    write(root / "AGENTS.md", "\n".join(f"@f{t}.md" for t in top))
    res = resolve_instructions(base / "home", root, root)
    text = res.documents[0].body
    for index in range(len(graph)):
        assert text.count(f"FILE-{index}-BODY") <= 1
    assert {d.code for d in res.diagnostics} <= {"import_cycle", "import_depth"}


def test_identical_files_in_one_directory_keep_the_later_one(home: Path, repo: Path) -> None:
    write(repo / "REASONIX.md", "same rules")
    write(repo / "CLAUDE.md", "same rules")
    res = resolve(home, repo)
    assert labels(res) == ["workspace/CLAUDE.md"]
    assert [(d.label, d.kept) for d in res.duplicates] == [
        ("workspace/REASONIX.md", "workspace/CLAUDE.md")
    ]
