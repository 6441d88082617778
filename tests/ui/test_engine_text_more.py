"""The rarer refusals a person meets in the window, in its language (ui/refusal_text.py): an
approval decided elsewhere, changed since it was reviewed or no longer applicable; a damaged
queue; a fact file broken on disk; an unsafe or unwritable store; an archive entry gone; a sync
conflict that cannot be resolved; an instruction file or rule refused; a skill folder leading
out of the workspace.

Each message is produced by the engine itself (a real call on a real tree, at most with an OS
failure injected where a test cannot cause it) and must be in the form named, so a reworded
engine message fails here; in English it is shown as written, in zh_CN as the translation
filled with the engine's names and numbers."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from context_center.engine import Engine, EngineError, FactType, Scope
from context_center.ui import i18n
from context_center.ui.refusal_text import CODES, FORMS, error_message, recover_reason


@pytest.fixture
def zh(qapp) -> Iterator[Callable[[EngineError, str], str]]:  # type: ignore[no-untyped-def]
    """``zh(exc, key)``: ``exc``'s message in zh_CN; fails unless the engine wrote it in the
    form ``key`` (and unless English shows it as written)."""

    def shown(exc: EngineError, key: str) -> str:
        found = FORMS.parse(str(exc), CODES.get(exc.code, ()))
        assert found is not None and found[0] == key, (exc.code, str(exc))
        i18n.uninstall()
        assert error_message(exc) == str(exc)
        assert i18n.install("zh_CN") == "zh_CN"
        return error_message(exc)

    assert i18n.install("zh_CN") == "zh_CN"
    yield shown
    i18n.uninstall()


def refused(call: Callable[[], object]) -> EngineError:
    with pytest.raises(EngineError) as err:
        call()
    return err.value


def _propose(engine: Engine, **fields: Any) -> str:
    request = {"controller": "interactive", "owns_store": True, "agent": "claude-code", **fields}
    pending = engine.agent_write(request).value.pending_id
    assert pending is not None
    return pending


def _create(engine: Engine, name: str) -> str:
    return _propose(
        engine,
        operation="create",
        name=name,
        title=f"Title of {name}",
        description="d",
        type="user",
        body="x",
    )


def _pending_file(engine: Engine, item: str) -> Path:
    return engine.approvals.root / "pending" / f"{item}.json"


# -- the approval queue ------------------------------------------------------------------------


def test_approvals_decided_elsewhere_or_changed_since_in_chinese(zh, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    done, gone, waiting = _create(engine, "one"), _create(engine, "two"), _create(engine, "three")
    engine.approve(done)
    engine.reject(gone)
    assert zh(refused(lambda: engine.approve(done)), "approved_once") == (
        f"审批条目 {done} 已被批准；每个条目只能审批一次"
    )
    assert zh(refused(lambda: engine.reject(gone)), "rejected_once") == (
        f"审批条目 {gone} 已被拒绝；每个条目只能审批一次"
    )
    stale = refused(lambda: engine.approve(waiting, expected_sha256="0" * 64))
    assert zh(stale, "not_reviewed") == (
        f"审批条目 {waiting} 已不是你审阅过的那一条（内容哈希不同）；请重新显示后再批准"
    )
    assert zh(refused(lambda: engine.approve(waiting, {"body": ""})), "edited_no_body") == (
        "编辑后的事实没有正文"
    )
    assert zh(refused(lambda: engine.approve(waiting, {"name": None})), "edited_no_name") == (
        "编辑后的事实没有名称"
    )


def test_undoing_a_rejection_that_cannot_be_undone_in_chinese(zh, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    done, gone, waiting = _create(engine, "one"), _create(engine, "two"), _create(engine, "three")
    engine.approve(done)
    engine.reject(gone)
    engine.requeue_rejected(gone)
    assert zh(refused(lambda: engine.requeue_rejected(waiting)), "pending_not_rejected") == (
        f"审批条目 {waiting} 仍在等待审批，并未被拒绝"
    )
    assert zh(refused(lambda: engine.requeue_rejected(done)), "approved_not_rejected") == (
        f"审批条目 {done} 已被批准，并未被拒绝"
    )
    assert zh(refused(lambda: engine.requeue_rejected(gone)), "already_requeued") == (
        f"审批条目 {gone} 已经放回过队列"
    )


def test_an_approval_the_store_moved_past_in_chinese(zh, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    update = _propose(
        engine, operation="update", ref=fact.ref, expected_revision=1, body="b", description="d"
    )
    forget = _propose(engine, operation="forget", ref=fact.ref)
    assert zh(refused(lambda: engine.approve(forget, {"body": "x"})), "forget_no_edit") == (
        "遗忘请求没有可编辑的内容；请按原样批准或拒绝它"
    )
    engine.update_fact(fact.ref, expected_revision=1, body="c")
    conflict = refused(lambda: engine.approve(update))
    assert conflict.code == "approval_conflict"
    assert zh(conflict, "not_applied") == (
        f"审批条目 {update} 无法应用：project/flow.md 的修订版冲突：预期 1，实际 2。"
        "没有写入任何内容；该条目仍在等待审批（拒绝它，或编辑后再次批准）。"
    )


def test_a_damaged_approval_queue_in_chinese(zh, engine: Engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    item, other = _create(engine, "one"), _create(engine, "two")
    path = _pending_file(engine, item)
    record = json.loads(path.read_text())
    record["content"]["body"] = "changed by hand"
    path.write_text(json.dumps(record))
    assert zh(refused(lambda: engine.approve(item)), "record_altered") == (
        f"审批记录 {item} 在排队之后被改动过（内容哈希不同）"
    )
    path.write_text(json.dumps({"id": item}))
    damaged = refused(lambda: engine.approve(item))
    n = str(damaged).split(": ")[1].split(" ")[0]
    assert zh(damaged, "record_damaged") == f"审批记录 {item}.json 已损坏：{n} 处问题"
    path.write_text(_pending_file(engine, other).read_text())
    assert zh(refused(lambda: engine.approve(item)), "record_other_id") == (
        f"审批记录 {item}.json 写的是另一个 ID（{other}）"
    )
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    update = _propose(
        engine, operation="update", ref=fact.ref, expected_revision=1, body="b", description="d"
    )
    record = json.loads(_pending_file(engine, update).read_text())
    record["expected_revision"] = None  # outside the content hash
    _pending_file(engine, update).write_text(json.dumps(record))
    assert zh(refused(lambda: engine.approve(update)), "record_no_target") == (
        f"审批条目 {update} 没有目标或基准修订版"
    )
    path.unlink()
    (tmp_path / "elsewhere.json").write_text("{}")
    path.symlink_to(tmp_path / "elsewhere.json")
    assert zh(refused(lambda: engine.approve(item)), "record_unreadable") == (
        f"无法读取审批文件 {item}.json：文件的位置上是一个符号链接"
    )


def test_an_approval_queue_that_cannot_be_created_in_chinese(  # type: ignore[no-untyped-def]
    zh, tmp_path: Path, workspace: Path
) -> None:
    home = tmp_path / "other-home"
    home.mkdir()
    (home / "approvals").write_text("not a folder")
    engine = Engine(home=home, workspace=workspace)
    exc = refused(lambda: _create(engine, "one"))
    assert zh(exc, "cannot_create_queue") == (
        f"无法创建审批队列文件夹 {home / 'approvals'}：文件已存在"
    )


# -- facts and their store ---------------------------------------------------------------------


def test_fact_refusals_in_chinese(zh, engine: Engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    same = refused(lambda: engine.rescope_fact(fact.ref, Scope.PROJECT, expected_revision=1))
    assert zh(same, "same_scope") == "project/flow.md 已经是项目事实"
    engine.update_fact(fact.ref, expected_revision=1, body="b")
    assert zh(refused(lambda: engine.restore_fact(fact.ref, 2)), "revision_current") == (
        "project/flow.md 的修订版 2 已经是当前版本"
    )
    (engine.layout.project_store / "flow.md").write_text("")
    broken = refused(lambda: engine.update_fact(fact.ref, expected_revision=2, body="c"))
    assert zh(broken, "cannot_be_used") == "project/flow.md 无法使用：文件为空"


def test_a_fact_file_that_cannot_be_read_in_chinese(zh, engine: Engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.store import factstore

    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value

    def denied(*_args: object, **_kw: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(factstore, "read_fact_file", denied)
    exc = refused(lambda: engine.update_fact(fact.ref, expected_revision=1, body="b"))
    assert zh(exc, "cannot_be_read") == "无法读取 project/flow.md：权限不足"


def test_an_unsafe_store_in_chinese(zh, engine: Engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    engine.create_fact(name="flow", type=FactType.PROJECT, body="a")
    store = engine.layout.project_store
    index = store / "MEMORY.md"
    index.unlink()
    index.symlink_to(tmp_path / "elsewhere.md")
    write = lambda: engine.create_fact(name="more", type=FactType.PROJECT, body="b")  # noqa: E731
    assert zh(refused(write), "index_link") == (
        "存储的 MEMORY.md 是符号链接；拒绝读取或替换它（删除这个链接后索引会重建）"
    )
    index.unlink()
    index.mkdir()
    assert zh(refused(write), "index_not_plain").startswith(
        "存储的 MEMORY.md 不是独立的普通文件（而是文件夹、设备，或与另一个文件共享的硬链接）"
    )
    index.rmdir()
    (store / ".lock").unlink(missing_ok=True)
    (store / ".lock").symlink_to(tmp_path / "lock")
    assert zh(refused(write), "lock_link") == "项目存储的锁文件（.lock）是符号链接；拒绝跟随它"


def test_a_store_that_cannot_be_written_in_chinese(  # type: ignore[no-untyped-def]
    zh, tmp_path: Path, workspace: Path, monkeypatch
) -> None:
    from context_center.engine.store import atomic, locking

    home = tmp_path / "other-home"
    home.mkdir()
    (home / "memory").write_text("not a folder")
    engine = Engine(home=home, workspace=workspace)
    exc = refused(
        lambda: engine.create_fact(name="g", type=FactType.USER, body="a", scope=Scope.GLOBAL)
    )
    assert zh(exc, "cannot_create_store") == "无法创建全局存储：不是目录"

    def read_only(*_args: object, **_kw: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    project = Engine(home=tmp_path / "home", workspace=workspace)
    with monkeypatch.context() as patch:
        patch.setattr(atomic, "create_exclusive", read_only)
        exc = refused(lambda: project.create_fact(name="p", type=FactType.PROJECT, body="a"))
    assert zh(exc, "cannot_write_store") == "无法写入项目存储：只读文件系统"
    with monkeypatch.context() as patch:
        patch.setattr(type(locking.file_lock(tmp_path / "x.lock")), "acquire", read_only)
        exc = refused(lambda: project.create_fact(name="q", type=FactType.PROJECT, body="a"))
    assert zh(exc, "cannot_lock") == "无法获取项目存储的锁：只读文件系统"


# -- the archive -------------------------------------------------------------------------------


def test_archive_refusals_in_chinese(zh, engine: Engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    engine.forget_fact(fact.ref)
    [archived] = engine.archived()
    ref, entry = engine.archive_ref(archived), archived.path
    name, data = entry.name, entry.read_bytes()
    recover = lambda: engine.recover_fact(ref)  # noqa: E731
    entry.unlink()
    assert zh(refused(recover), "archive_missing") == f"找不到归档的记忆：{name}"
    entry.symlink_to(tmp_path / "elsewhere.md")
    link = refused(recover)
    assert zh(link, "archive_not_regular") == f"找不到归档的记忆：{name} 不是普通文件"
    # the Archive tab says it after "… was not recovered:" (its "cannot recover: " taken off)
    assert recover_reason(link.code, str(link)) == f"找不到归档的记忆：{name} 不是普通文件"
    entry.unlink()
    entry.write_text("")
    assert zh(refused(recover), "archive_unreadable") == "无法读取归档条目：文件为空"
    entry.write_bytes(data)
    folder = entry.parent
    folder.rename(tmp_path / "moved")
    folder.symlink_to(tmp_path / "moved", target_is_directory=True)
    assert zh(refused(recover), "archive_folder") == (
        "找不到归档的记忆：.archive 文件夹是符号链接，或不是文件夹"
    )
    folder.unlink()
    assert zh(refused(recover), "archive_none") == "找不到归档的记忆（这个存储没有归档）"
    (tmp_path / "moved").rename(folder)
    (folder / "notes.txt").write_text("x")
    odd = refused(lambda: engine.recover_fact(folder / "notes.txt"))
    assert zh(odd, "archive_not_entry") == (
        f"找不到归档的记忆：{folder / 'notes.txt'} 不是这个存储归档中的条目"
    )
    assert zh(refused(lambda: engine.recover_fact("nope.md")), "archive_not_workspace") == (
        "找不到归档的记忆：nope.md 不是这个工作区归档中的条目"
    )


# -- sync conflicts ----------------------------------------------------------------------------


def test_sync_conflicts_that_cannot_be_resolved_in_chinese(zh, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    engine.create_fact(name="flow", type=FactType.PROJECT, body="a")
    store = engine.layout.project_store
    good = (store / "flow.md").read_text()
    orphan = "gone.sync-conflict-20261201-101010-ABC.md"
    (store / orphan).write_text(good.replace("name: flow", "name: gone"))
    keep = engine.keep_sync_side
    assert zh(refused(lambda: keep(Scope.PROJECT, orphan, "copy")), "copy_orphan") == (
        f"{orphan} 是一条不再活动的事实的冲突副本"
    )
    (store / orphan).unlink()
    copy = "flow.sync-conflict-20261201-101010-ABC.md"
    (store / copy).write_text("")
    assert zh(refused(lambda: keep(Scope.PROJECT, copy, "copy")), "copy_not_fact") == (
        f"{copy} 无法作为事实读取：文件为空"
    )
    (store / copy).unlink()

    def markers(ours: str) -> None:
        (store / "flow.md").write_text(f"<<<<<<< ours\n{ours}=======\n{good}>>>>>>> theirs\n")

    markers(good.replace("name: flow", "name: other"))
    ours = lambda: keep(Scope.PROJECT, "flow.md", "ours")  # noqa: E731
    assert zh(refused(ours), "side_other_fact") == "flow.md 的 ours 一侧写的是另一条事实（other）"
    markers("plain words\n")
    assert zh(refused(ours), "side_not_fact").startswith(
        "flow.md 的 ours 一侧无法作为事实读取：不是事实：文件没有前置元数据块"
    )
    (store / "flow.md").write_text("<<<<<<< ours\nx\n")
    assert zh(refused(ours), "no_git_conflict") == "flow.md 中没有可以解决的完整 git 冲突"


# -- the instruction editor and its rules -------------------------------------------------------


def test_instruction_file_refusals_in_chinese(  # type: ignore[no-untyped-def]
    zh, engine: Engine, workspace: Path, tmp_path: Path, monkeypatch
) -> None:
    agents = workspace / "AGENTS.md"
    rule = lambda: engine.add_rule("run the tests first", "project")  # noqa: E731
    read = lambda: engine.read_instruction_file(agents)  # noqa: E731
    controls = refused(lambda: engine.add_rule("use \x1b[31mred\x1b[0m", "project"))
    assert zh(controls, "rule_controls") == (
        "规则包含控制字符（ESC (terminal escape sequence)）；常驻规则是纯文本，因此没有写入任何内容"
    )
    agents.write_bytes(b"\xff\xfe\x00\x81\x30")
    assert zh(refused(rule), "rule_undecodable") == (
        "AGENTS.md 既不是 UTF-8，也不是 GB18030；不修改它"
    )
    assert zh(refused(read), "doc_undecodable") == (
        "AGENTS.md 既不是 UTF-8 文本，也不是 GB18030 文本"
    )
    agents.write_bytes(b"x" * (1024 * 1024 + 1))
    big = refused(read)
    assert zh(big, "doc_too_large") == "AGENTS.md 大于 1048576 字节"
    agents.unlink()
    agents.mkdir()
    assert refused(rule).code == "instruction_unwritable"
    assert zh(refused(rule), "not_regular") == "AGENTS.md 不是普通文件"
    assert zh(refused(read), "not_regular") == "AGENTS.md 不是普通文件"
    agents.rmdir()
    (tmp_path / "outside.md").write_text("- x\n")
    agents.symlink_to(tmp_path / "outside.md")
    assert zh(refused(rule), "rule_link") == f"AGENTS.md 是指向 {workspace.name} 之外的符号链接"
    agents.unlink()
    agents.symlink_to(workspace / "gone.md")
    assert zh(refused(rule), "cannot_use") == "无法使用 AGENTS.md：没有这个文件或目录"
    agents.unlink()
    agents.write_text("- a\n")
    from context_center.engine.instructions import rules

    reads = iter(range(1000))
    monkeypatch.setattr(rules, "_read", lambda _path: f"- {next(reads)}\n".encode())
    assert zh(refused(rule), "rule_busy") == "添加规则时指令文件一直在变化；请重试"


# -- suggestions -------------------------------------------------------------------------------


def _skill(engine: Engine, tmp_path: Path) -> Any:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, session in enumerate(["s1", "s1", "s2"]):
        engine.append_history(
            "build it, then deploy to staging", session=session, time=t0 + timedelta(minutes=i)
        )
    scan = engine.scan_suggestions(claude_root=tmp_path / "c", codex_root=tmp_path / "x")
    [skill] = scan.skills
    return skill


def test_suggestion_refusals_in_chinese(  # type: ignore[no-untyped-def]
    zh, engine: Engine, workspace: Path, tmp_path: Path, monkeypatch
) -> None:
    assert zh(refused(lambda: engine.restore_suggestion("abc")), "not_dismissed_undo") == (
        "建议 abc 没有被忽略；没有可撤销的操作"
    )
    skill = _skill(engine, tmp_path)
    roots = {"claude_root": tmp_path / "c", "codex_root": tmp_path / "x"}
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / ".agents").mkdir()
    (workspace / ".agents" / "skills").symlink_to(outside, target_is_directory=True)
    accept = lambda: engine.accept_suggestion(skill, **roots)  # noqa: E731
    assert zh(refused(accept), "skill_outside") == (
        f".agents/skills 指向工作区之外（{outside}）；技能只写在工作区内：请把这个链接换成文件夹，"
        "或删除它"
    )
    (workspace / ".agents" / "skills").unlink()
    (workspace / ".agents" / "skills").write_text("not a folder")
    assert zh(refused(accept), "cannot_create") == (
        f"无法创建 .agents/skills/{skill.name}：不是目录"
    )
    from context_center.engine.suggestions import decisions

    path = decisions.decisions_path(engine.layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = Path(f"{path}.lock")
    lock.symlink_to(tmp_path / "lock")
    dismiss = lambda: engine.dismiss_suggestion(skill, **roots)  # noqa: E731
    assert zh(refused(dismiss), "lock_link_decisions") == (
        f"建议决定记录（{path.name}）的锁文件（{lock.name}）是符号链接；拒绝跟随它"
    )
    lock.unlink()
    monkeypatch.setattr(decisions, "LOCK_TIMEOUT_S", 0.05)
    held = decisions.file_lock(lock)
    with held:
        busy = refused(dismiss)
    assert zh(busy, "busy") == (
        f"建议决定记录（{path.name}）正忙：另一个进程持有它的锁已超过 0 秒；请重试"
    )


# -- the dialog --------------------------------------------------------------------------------


@pytest.mark.expect_ui_errors
def test_the_refusal_dialog_shows_an_approval_conflict_in_chinese(ctx, zh) -> None:  # type: ignore[no-untyped-def]
    engine = ctx.engine
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    item = _propose(engine, operation="forget", ref=fact.ref)
    engine.update_fact(fact.ref, expected_revision=1, body="b")
    conflict = refused(lambda: engine.approve(item))
    ctx.show_dialogs = True
    ctx.report(conflict)
    box = ctx.last_dialog
    assert box.informativeText() == (
        f"审批条目 {item} 无法应用：project/flow.md 的修订版冲突：预期 1，实际 2。"
        "没有写入任何内容；该条目仍在等待审批（拒绝它，或编辑后再次批准）。"
    )
    box.close()


# -- the queue's and the suggestions' own files --------------------------------------------------


def test_unsafe_queue_files_in_chinese(zh, engine: Engine, tmp_path: Path, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    first, second, third = _create(engine, "one"), _create(engine, "two"), _create(engine, "three")
    audit = engine.approvals.root / "audit.jsonl"
    audit.unlink()
    audit.symlink_to(tmp_path / "elsewhere.log")
    assert zh(refused(lambda: engine.reject(first)), "audit_link") == (
        "审批审计日志 audit.jsonl 是符号链接；拒绝跟随它"
    )
    audit.unlink()
    audit.mkdir()
    assert zh(refused(lambda: engine.reject(second)), "audit_open") == (
        "无法打开审批审计日志 audit.jsonl：是一个目录"
    )
    audit.rmdir()
    os.mkfifo(audit)
    assert zh(refused(lambda: engine.reject(third)), "audit_not_regular") == (
        "审批审计日志 audit.jsonl 不是普通文件"
    )
    home = tmp_path / "linked-home"
    home.mkdir()
    (tmp_path / "real-queue").mkdir()
    (home / "approvals").symlink_to(tmp_path / "real-queue", target_is_directory=True)
    linked = Engine(home=home, workspace=workspace)
    assert zh(refused(lambda: _create(linked, "one")), "queue_link") == (
        f"审批队列文件夹 {home / 'approvals'} 是符号链接，或不是文件夹；拒绝写入那里"
    )


def test_a_damaged_decisions_file_in_chinese(zh, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.suggestions.decisions import decisions_path

    path = decisions_path(engine.layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"decisions": 5}')
    exc = refused(lambda: engine.restore_suggestion("abc"))
    assert zh(exc, "decisions_invalid") == (
        f"{path} 不是有效的建议决定文件（no decisions list）；请修复或删除它，然后重试"
    )


# -- a rule's folder -------------------------------------------------------------------------


def test_a_rule_whose_folder_is_a_file_in_chinese(zh, workspace: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.instructions.rules import add_rule

    home = tmp_path / "home-file"
    home.write_text("not a folder")
    exc = refused(lambda: add_rule(home, workspace, "run the tests first", "user"))
    assert zh(exc, "rule_no_folder") == "无法创建 AGENTS.md：home-file 不是文件夹"
