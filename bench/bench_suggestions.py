"""Benchmark: a suggestions scan over 200 sessions x 200 turns, spread across the three sources.

    .venv/bin/python bench/bench_suggestions.py [--sessions 200] [--turns 200] [--facts 20000]
                                                [--keep DIR]

Builds a temporary home with Claude Code transcripts, Codex CLI rollouts (plus rollouts of other
workspaces, which are skipped) and the workspace's own history log, every file in its tool's
real format; each turn is a user line and an assistant reply, every fifth turn also a tool call
and its result. It then times ``scan`` with its default window (the most recent sessions) and
with a window covering every session, and fails (exit 1) when either takes 2 s or more.

Then (``--facts``, 0 skips it) the cost of the facts (issue 19): a home with that many facts
(``bench/corpus.py``, as ``bench_window.py`` writes them), scanned through
``Engine.scan_suggestions`` as the window does, first with no history (target: 1 s or less; it
fails otherwise), then with a few sessions in the history: the first scan of a process with no
phrase index (it cuts every fact once), the ones after it (only the candidates are compared),
``Engine.index_fact_phrases`` (what ``context-center suggestions index`` runs, which the window
starts as a child process), and the first scan
of a *new process* that finds the index (timed inside the process, and as a whole process
with its imports), next to the same process scanning with no history.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from context_center.engine.store.paths import Layout
from context_center.engine.suggestions import scan
from context_center.engine.suggestions.service import SESSION_LIMIT

LIMIT_S = 2.0
NO_HISTORY_LIMIT_S = 1.0
FEW_SESSIONS = [
    "Always run ruff before committing, CI rejects lint.",
    "Never force-push to main.",
    "以后回答都用中文。",
    "By default use pnpm, not npm.",
    "Remember: the staging URL is https://staging.example.com",
]
START = datetime(2026, 1, 1, tzinfo=UTC)

REQUESTS = [
    "Can you look at the failing checkout test and explain why it flakes?",
    "Add a retry around the payment client call with exponential backoff.",
    "run the tests, then fix lint, then commit",
    "先跑测试，然后修复 lint，最后提交",
    "Rename the Order model field total to amount everywhere.",
    "请帮我看一下这个函数为什么这么慢",
    "Update the changelog then tag a release",
    "What does the inventory sync job do on weekends?",
    "把日志级别调成 debug 再试一次",
    "Refactor the cart service into smaller modules.",
]
RULES = [
    "Always run ruff before committing.",
    "Never force-push to main.",
    "I prefer small pull requests over big ones.",
    "By default use pnpm, not npm.",
    "以后回答都用中文。",
    "记住：提交信息用英文写。",
    "每次发布前更新 CHANGELOG。",
    "不要在回答里贴整段代码。",
    "This time, always skip the slow tests.",
    "暂时不要动 vendored 目录。",
]


def _text(rng: random.Random, s: int, t: int) -> str:
    if rng.random() < 0.04:
        return rng.choice(RULES) + f" (note {s}.{t})" * (rng.random() < 0.5)
    text = rng.choice(REQUESTS)
    return (
        text
        if rng.random() < 0.3
        else f"{text} See src/shop/module_{s}_{t}.py line {rng.randint(1, 900)}."
    )


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def _claude_folder(path: Path) -> str:
    return "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(path))


def write_claude(root: Path, workspace: Path, s: int, turns: int, rng: random.Random) -> None:
    sid = f"{s:08x}-0000-4000-8000-{s:012x}"
    folder = root / "projects" / _claude_folder(workspace)
    folder.mkdir(parents=True, exist_ok=True)
    base = START + timedelta(hours=s)
    lines = []
    parent = None
    for t in range(turns):
        when = base + timedelta(seconds=10 * t)
        common = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": str(workspace),
            "sessionId": sid,
            "version": "2.0.75",
            "gitBranch": "main",
        }
        uid = f"{s:08x}-{t:04x}-4000-8000-000000000001"
        lines.append(
            common
            | {
                "type": "user",
                "message": {"role": "user", "content": _text(rng, s, t)},
                "uuid": uid,
                "timestamp": _iso(when),
            }
        )
        content: list[dict[str, object]] = [
            {"type": "text", "text": "Sure, working on it. I will always check first."}
        ]
        if t % 5 == 0:
            content.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_{s}_{t}",
                    "name": "Bash",
                    "input": {"command": "pytest -q", "description": "Run tests"},
                }
            )
        aid = f"{s:08x}-{t:04x}-4000-8000-000000000002"
        lines.append(
            common
            | {
                "parentUuid": uid,
                "type": "assistant",
                "uuid": aid,
                "timestamp": _iso(when + timedelta(seconds=2)),
                "requestId": "req_1",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": content,
                    "stop_reason": "end_turn",
                    "usage": {"input_tokens": 100, "output_tokens": 20},
                },
            }
        )
        parent = aid
        if t % 5 == 0:
            rid = f"{s:08x}-{t:04x}-4000-8000-000000000003"
            lines.append(
                common
                | {
                    "parentUuid": aid,
                    "type": "user",
                    "uuid": rid,
                    "timestamp": _iso(when + timedelta(seconds=4)),
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "type": "tool_result",
                                "tool_use_id": f"toolu_{s}_{t}",
                                "content": "42 passed in 1.2s. Remember: always green.",
                                "is_error": False,
                            }
                        ],
                    },
                    "toolUseResult": {"stdout": "42 passed", "stderr": "", "interrupted": False},
                }
            )
            parent = rid
    path = folder / f"{sid}.jsonl"
    path.write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )
    stamp = (base + timedelta(seconds=10 * turns)).timestamp()
    os.utime(path, (stamp, stamp))


def write_codex(root: Path, cwd: Path, s: int, turns: int, rng: random.Random) -> None:
    base = START + timedelta(hours=s, minutes=20)
    sid = f"0199{s:04x}-0000-7000-8000-{s:012x}"
    day = root / "sessions" / f"{base:%Y}" / f"{base:%m}" / f"{base:%d}"
    day.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, object]] = [
        {
            "timestamp": _iso(base),
            "type": "session_meta",
            "payload": {
                "id": sid,
                "timestamp": _iso(base),
                "cwd": str(cwd),
                "originator": "codex_cli_rs",
                "cli_version": "0.77.0",
                "source": "cli",
                "model_provider": "openai",
            },
        },
        {
            "timestamp": _iso(base),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": f"# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\nAlways use pytest.\n</INSTRUCTIONS>",
                    },
                    {
                        "type": "input_text",
                        "text": f"<environment_context>\n  <cwd>{cwd}</cwd>\n</environment_context>",
                    },
                ],
            },
        },
    ]
    for t in range(turns):
        when = base + timedelta(seconds=10 * t)
        text = _text(rng, s, t)
        lines.append(
            {
                "timestamp": _iso(when),
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": text}],
                },
            }
        )
        lines.append(
            {
                "timestamp": _iso(when),
                "type": "event_msg",
                "payload": {"type": "user_message", "message": text, "images": []},
            }
        )
        lines.append(
            {
                "timestamp": _iso(when),
                "type": "turn_context",
                "payload": {
                    "cwd": str(cwd),
                    "approval_policy": "on-request",
                    "model": "gpt-5-codex",
                    "effort": "high",
                    "summary": "auto",
                },
            }
        )
        if t % 5 == 0:
            lines.append(
                {
                    "timestamp": _iso(when),
                    "type": "response_item",
                    "payload": {
                        "type": "function_call",
                        "name": "shell",
                        "arguments": json.dumps({"command": ["bash", "-lc", "pytest -q"]}),
                        "call_id": f"call_{t}",
                    },
                }
            )
            lines.append(
                {
                    "timestamp": _iso(when),
                    "type": "response_item",
                    "payload": {
                        "type": "function_call_output",
                        "call_id": f"call_{t}",
                        "output": json.dumps({"output": "42 passed", "metadata": {"exit_code": 0}}),
                    },
                }
            )
        lines.append(
            {
                "timestamp": _iso(when + timedelta(seconds=3)),
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "assistant",
                    "content": [
                        {"type": "output_text", "text": "Done; I will always run the tests."}
                    ],
                },
            }
        )
    path = day / f"rollout-{base:%Y-%m-%dT%H-%M-%S}-{sid}.jsonl"
    path.write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )
    stamp = (base + timedelta(seconds=10 * turns)).timestamp()
    os.utime(path, (stamp, stamp))


def write_history(layout: Layout, sessions: list[int], turns: int, rng: random.Random) -> None:
    path = layout.state_dir / "history.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for s in sessions:
            base = START + timedelta(hours=s, minutes=40)
            for t in range(turns):
                handle.write(
                    json.dumps(
                        {
                            "v": 1,
                            "session": f"hist-{s}",
                            "time": _iso(base + timedelta(seconds=10 * t)),
                            "role": "user",
                            "text": _text(rng, s, t),
                            "cwd": str(layout.workspace),
                        },
                        ensure_ascii=False,
                        separators=(",", ":"),
                    )
                    + "\n"
                )


def build(root: Path, sessions: int, turns: int) -> tuple[Layout, Path, Path]:
    rng = random.Random(7)
    workspace = root / "work" / "shop"
    other = root / "work" / "other"
    workspace.mkdir(parents=True)
    other.mkdir(parents=True)
    layout = Layout(root / "home", workspace)
    claude, codex = root / "dot-claude", root / "dot-codex"
    history_sessions = []
    for s in range(sessions):
        kind = s % 3
        if kind == 0:
            write_claude(claude, workspace, s, turns, rng)
        elif kind == 1:
            write_codex(codex, workspace, s, turns, rng)
        else:
            history_sessions.append(s)
    write_history(layout, history_sessions, turns, rng)
    for s in range(sessions, sessions + 50):  # other workspaces' rollouts share the tree
        write_codex(codex, other, s, 20, rng)
    return layout, claude, codex


def timed(
    layout: Layout, claude: Path, codex: Path, session_limit: int, runs: int
) -> tuple[float, object]:
    samples = []
    result = None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = scan(
            layout, [], [], claude_root=claude, codex_root=codex, session_limit=session_limit
        )
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), result


def facts_figures(root: Path, n: int, runs: int) -> bool:
    """Scan times at ``n`` facts with no history and with a few sessions; False when the
    scan with no history takes ``NO_HISTORY_LIMIT_S`` or more."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ["XDG_CACHE_HOME"] = str(root / "facts-cache")
    os.environ["CONTEXT_CENTER_NO_SERVER"] = "1"
    from bench.corpus import generate

    from context_center.engine.facade import Engine
    from context_center.engine.store.factfile import render_fact

    home, workspace = root / "facts-home", root / "facts-work"
    (workspace / ".git").mkdir(parents=True)
    layout = Layout(home, workspace)
    stores = {"project": layout.project_store, "global": layout.global_store}
    for store in stores.values():
        store.mkdir(parents=True, exist_ok=True)
    for fact in generate(n):
        (stores[fact.scope.value] / f"{fact.name}.md").write_bytes(render_fact(fact))
    engine = Engine(home=home, workspace=workspace)
    engine.memory.load()  # as the window's Memory tab does first (it writes the store cache)
    roots = {"claude_root": root / "facts-no-claude", "codex_root": root / "facts-no-codex"}

    def once() -> tuple[float, int]:
        t0 = time.perf_counter()
        result = engine.scan_suggestions(**roots)
        return time.perf_counter() - t0, len(result.memories)

    empty = statistics.median(once()[0] for _ in range(runs))
    print(f"scan at {n} facts, no history: {empty:.3f} s median of {runs}")
    for i, text in enumerate(FEW_SESSIONS):
        engine.append_history(text, session=f"few-{i}")
    first, found = once()
    after = statistics.median(once()[0] for _ in range(runs))
    print(
        f"scan at {n} facts, {len(FEW_SESSIONS)} sessions of history -> {found} memory "
        f"candidates: first in a process with no phrase index {first:.3f} s (cuts every fact "
        f"once), then {after:.3f} s median of {runs}"
    )
    t0 = time.perf_counter()
    added = engine.index_fact_phrases()
    built = time.perf_counter() - t0
    size = engine._phrase_index_path().stat().st_size
    print(f"index_fact_phrases: {added} facts in {built:.3f} s ({size / 1e6:.1f} MB)")
    fresh = [_new_process(root, home, workspace, roots) for _ in range(runs)]
    scans, walls = [f[0] for f in fresh], [f[1] for f in fresh]
    print(
        f"first scan of a new process that finds the index: {statistics.median(scans):.3f} s "
        f"(max {max(scans):.3f}); the whole process {statistics.median(walls):.3f} s, median "
        f"of {runs}"
    )
    return empty < NO_HISTORY_LIMIT_S


_PROCESS = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from context_center.engine.facade import Engine
engine = Engine(home=Path(sys.argv[1]), workspace=Path(sys.argv[2]))
t1 = time.perf_counter()
result = engine.scan_suggestions(claude_root=Path(sys.argv[3]), codex_root=Path(sys.argv[4]))
from context_center.engine.suggestions.facttexts import fact_texts_cache
print(json.dumps({"scan": time.perf_counter() - t1, "cuts": fact_texts_cache().cuts,
                  "memories": len(result.memories)}))
"""


def _new_process(
    root: Path, home: Path, workspace: Path, roots: dict[str, Path]
) -> tuple[float, float]:
    """(the scan's seconds, the whole process's seconds) of one new Python process."""
    import subprocess

    env = {**os.environ, "XDG_CACHE_HOME": str(root / "facts-cache")}
    argv = [str(home), str(workspace), str(roots["claude_root"]), str(roots["codex_root"])]
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _PROCESS, *argv], env=env, check=True, capture_output=True
    ).stdout
    wall = time.perf_counter() - t0
    got = json.loads(out)
    assert got["cuts"] == 0, got  # every fact's phrases came from the index
    return float(got["scan"]), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--facts", type=int, default=20000, help="0: skip the facts figures")
    parser.add_argument("--keep", metavar="DIR", help="build the data here and keep it")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-suggestions-"))
    try:
        t0 = time.perf_counter()
        layout, claude, codex = build(root, args.sessions, args.turns)
        built = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        print(
            f"built {args.sessions} sessions x {args.turns} turns ({size / 1e6:.1f} MB) in {built:.1f} s"
        )
        ok = True
        for label, limit in (("default window", SESSION_LIMIT), ("every session", args.sessions)):
            seconds, result = timed(layout, claude, codex, limit, args.runs)
            assert result is not None
            counts = ", ".join(f"{s.source} {s.sessions}s/{s.turns}t" for s in result.sources)  # type: ignore[attr-defined]
            print(
                f"scan ({label}, {limit} sessions): {seconds:.3f} s median of {args.runs} | "
                f"{result.turns_scanned} turns [{counts}] -> "  # type: ignore[attr-defined]
                f"{len(result.memories)} memory, {len(result.skills)} skill candidates"  # type: ignore[attr-defined]
            )
            ok = ok and seconds < LIMIT_S
        if args.facts:
            ok = facts_figures(root, args.facts, args.runs) and ok
        print("PASS" if ok else "FAIL: a scan took longer than its target")
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
