"""A deterministic synthetic fact corpus (English and Chinese) for benchmarks.

``generate(n)`` yields ``Fact`` objects; the same ``(n, seed)`` always gives the same facts
(ids, times, text), so a second process can regenerate exactly the corpus a first process
indexed (needed to measure a cold start against an on-disk cache). ``write_corpus`` hands
each fact to a callback, e.g. to render it into a store directory::

    from bench.corpus import generate, write_corpus
    write_corpus(20_000, lambda fact: (store / f"{fact.name}.md").write_bytes(render(fact)))

Text: word frequencies follow a Zipf law over a vocabulary of real words plus synthetic
ones (about 12k English, 9k Chinese words), with identifiers (``AuthHandler7``,
``release_v12``), ticket numbers (``#6928``), repository paths (``src/cache/queue_retry.py``)
and home paths mixed in; bodies are about 80-1,300 characters. About 45% of the facts are
Chinese, 10% mixed, the rest English; 20% are global, and 15% of those carry the title of the
project fact before them, so project-over-global conflicts occur (about 3% of the facts);
types rotate.

``QUERIES`` is a fixed query set over words every corpus size contains: identifier
questions, English and Chinese questions, generic turns and common-word-only requests.
``TURN_QUERIES`` (246 messages) adds identifiers, paths, head/torso/tail words in English,
Chinese and mixed, titles of facts every size holds and generic turns.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

from context_center.engine.model import Fact, FactType, Scope

EN_WORDS = """
release branch deploy pipeline cache token config database migration schema review test lint
format commit service api gateway auth handler queue worker retry timeout metrics log trace
build docker image kubernetes cluster node pod secret vault certificate proxy nginx server
client request response header cookie session login password user account role permission
policy audit event stream kafka topic partition offset consumer producer batch job cron
scheduler task runner agent prompt model context memory recall index search query ranking
score budget limit quota rate throttle backoff circuit breaker fallback replica shard leader
follower election consensus snapshot backup restore archive revision history diff patch merge
rebase conflict tag version semver changelog package dependency lockfile registry mirror
artifact bundle installer desktop window dialog button menu toolbar panel layout theme font
color icon shortcut keyboard mouse screen display render frame animation latency throughput
memory leak profile benchmark regression flaky ci runner matrix workflow action permission
payment invoice billing subscription customer order cart checkout refund tax currency ledger
report dashboard chart alert pager incident postmortem oncall runbook playbook escalation
sqlite postgres mysql redis mongo elastic s3 bucket object blob storage volume disk mount
python rust golang typescript javascript react vue svelte django flask fastapi pydantic numpy
pytest ruff mypy black isort coverage fixture mock stub fake spy assertion snapshot golden
encoding utf8 unicode locale timezone calendar date duration interval period deadline
frontend backend middleware plugin extension hook callback listener observer signal slot
thread process async await future promise coroutine loop executor pool semaphore mutex lock
"""
EN_COMMON = [
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "for",
    "on",
    "with",
    "that",
    "this",
    "it",
    "be",
    "as",
    "are",
    "we",
    "use",
    "when",
    "by",
    "from",
    "not",
    "or",
    "should",
    "after",
    "before",
    "must",
    "always",
    "never",
    "all",
    "new",
    "old",
]
ZH_WORDS = """
发布 分支 部署 流水线 缓存 配置 数据库 迁移 评审 测试 提交 服务 网关 认证 队列 重试 超时
指标 日志 约定 镜像 集群 节点 密钥 证书 代理 服务器 客户端 请求 响应 会话 登录 密码 用户
账号 角色 权限 策略 审计 事件 消息 主题 分区 消费者 生产者 批处理 任务 调度 模型 上下文
记忆 召回 索引 搜索 查询 排序 评分 预算 限流 退避 熔断 降级 副本 分片 选举 快照 备份 恢复
归档 历史 差异 补丁 合并 变基 冲突 标签 版本 变更日志 依赖 锁文件 仓库 制品 安装包 桌面
窗口 对话框 按钮 菜单 工具栏 面板 布局 主题 字体 颜色 图标 快捷键 键盘 屏幕 渲染 动画 延迟
吞吐 内存 泄漏 性能 基准 回归 不稳定 持续集成 工作流 支付 发票 账单 订阅 客户 订单 购物车
结算 退款 税费 货币 账本 报表 仪表盘 图表 告警 值班 故障 复盘 手册 升级 存储 磁盘 编码
时区 日历 日期 时长 间隔 周期 截止 前端 后端 中间件 插件 扩展 钩子 回调 监听 线程 进程
异步 协程 执行器 线程池 信号量 互斥锁 规范 文档 注释 接口 参数 返回值 异常 错误码 兼容
"""
ZH_COMMON = list("的了是在和有也都要会把给让从对就")
ZH_CHARS = (
    "数据模型服务系统管理配置文件接口参数用户权限安全网络存储缓存队列任务调度日志监控告警测试"
    "发布部署版本分支合并提交代码审查构建镜像容器集群节点资源进程线程内存磁盘请求响应会话认证"
    "授权密钥证书加密解密签名验证格式编码时间日期周期延迟超时重试失败成功状态事件消息通知订阅"
    "支付订单客户账单报表统计分析指标图表页面窗口按钮菜单布局主题样式字体颜色图标动画渲染性能"
)

IDENT_PARTS = [
    "Auth",
    "Handler",
    "Payment",
    "Queue",
    "Cache",
    "Token",
    "Session",
    "Release",
    "Deploy",
    "Index",
    "Recall",
    "Memory",
    "Config",
    "Schema",
    "Router",
    "Client",
    "Server",
    "Worker",
    "Retry",
    "Budget",
    "Trace",
    "Store",
    "Fact",
    "Engine",
    "Panel",
    "Window",
]


def _synthetic_en(rng: random.Random, count: int) -> list[str]:
    sy = [
        "ka",
        "lo",
        "mi",
        "ne",
        "ru",
        "sa",
        "ti",
        "vo",
        "be",
        "da",
        "fe",
        "gu",
        "hi",
        "jo",
        "ke",
        "li",
        "mo",
        "nu",
        "pa",
        "re",
        "si",
        "to",
        "ve",
        "wa",
        "xo",
        "yu",
        "ze",
    ]
    out: set[str] = set()
    while len(out) < count:
        out.add("".join(rng.choice(sy) for _ in range(rng.randint(2, 4))))
    return sorted(out)


def _synthetic_zh(rng: random.Random, count: int) -> list[str]:
    out: set[str] = set()
    while len(out) < count:
        out.add("".join(rng.choice(ZH_CHARS) for _ in range(rng.choice((2, 2, 3, 4)))))
    return sorted(out)


class _Zipf:
    def __init__(self, words: list[str], s: float = 1.07) -> None:
        self.words = words
        self.cum = list(itertools.accumulate(1.0 / (r + 1) ** s for r in range(len(words))))

    def draw(self, rng: random.Random, k: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cum, k=k)


class _Vocab:
    def __init__(self, seed: int) -> None:
        rng = random.Random(seed * 7919 + 1)
        en_real = EN_WORDS.split()
        en = en_real + [w for w in _synthetic_en(rng, 12_000) if w not in set(en_real)]
        zh_real = ZH_WORDS.split()
        zh = zh_real + [w for w in _synthetic_zh(rng, 9_000) if w not in set(zh_real)]
        self.en = _Zipf(en)
        self.zh = _Zipf(zh)
        self.idents = [a + b for a in IDENT_PARTS for b in IDENT_PARTS if a != b]
        self.en_words = en
        self.zh_words = zh


def fact_id(seed: int, i: int) -> str:
    return "mem-" + hashlib.blake2b(f"{seed}:{i}".encode(), digest_size=16).hexdigest()


def _english(rng: random.Random, v: _Vocab, words: int) -> str:
    out = v.en.draw(rng, words)
    for j in range(0, words, 9):
        out.insert(j, rng.choice(EN_COMMON))
    if rng.random() < 0.35:
        out.insert(
            rng.randrange(len(out)),
            v.idents[int(rng.paretovariate(1.2)) % len(v.idents)]
            + rng.choice(("", "", str(rng.randint(1, 9)))),
        )
    if rng.random() < 0.2:
        out.insert(rng.randrange(len(out)), f"release_v{rng.randint(1, 40)}")
    if rng.random() < 0.2:
        out.insert(rng.randrange(len(out)), f"#{rng.randint(1000, 9999)}")
    if rng.random() < 0.05:
        out.insert(rng.randrange(len(out)), f"/home/user{rng.randint(1, 9)}/src/app.py")
    if rng.random() < 0.15:  # a path in the repository
        a, b, c = v.en.draw(rng, 3)
        ext = rng.choice((".py", ".ts", ".yaml", ".go", ".md", ".toml"))
        out.insert(rng.randrange(len(out)), rng.choice((f"src/{a}/{b}_{c}{ext}", f"{a}/{b}{ext}")))
    return " ".join(out) + "."


def _chinese(rng: random.Random, v: _Vocab, words: int) -> str:
    parts: list[str] = []
    for j, w in enumerate(v.zh.draw(rng, words)):
        parts.append(w)
        if j % 3 == 2:
            parts.append(rng.choice(ZH_COMMON))
        if j % 11 == 10:
            parts.append(rng.choice("，。；"))
    if rng.random() < 0.2:
        parts.insert(
            rng.randrange(len(parts)), v.idents[int(rng.paretovariate(1.2)) % len(v.idents)]
        )
    return "".join(parts) + "。"


def generate(n: int, *, seed: int = 7) -> Iterator[Fact]:
    """``n`` facts, deterministic in ``(n, seed)`` (a prefix of a bigger corpus is the same)."""
    vocab = _Vocab(seed)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    types = list(FactType)
    previous = ""
    for i in range(n):
        rng = random.Random(seed * 1_000_003 + i)
        kind = rng.random()
        if kind < 0.45:
            title = _chinese(rng, vocab, 3).rstrip("。")
            desc = _chinese(rng, vocab, 8)
            body = _chinese(rng, vocab, rng.randint(30, 110))
        elif kind < 0.55:
            title = _english(rng, vocab, 3).rstrip(".")
            desc = _chinese(rng, vocab, 8)
            body = _english(rng, vocab, rng.randint(20, 60)) + _chinese(
                rng, vocab, rng.randint(15, 50)
            )
        else:
            title = _english(rng, vocab, 4).rstrip(".")
            desc = _english(rng, vocab, 10)
            body = _english(rng, vocab, rng.randint(40, 160))
        scope = Scope.GLOBAL if i % 5 == 4 else Scope.PROJECT
        if scope is Scope.GLOBAL and rng.random() < 0.15:
            title = previous  # the same title in both stores: a project-over-global conflict
        previous = title
        when = base + timedelta(minutes=37 * i % 400_000)
        yield Fact(
            id=fact_id(seed, i),
            revision=1,
            created_at=when,
            updated_at=when,
            name=f"fact-{i:06d}",
            title=title,
            description=desc,
            type=types[i % 4],
            scope=scope,
            body=body,
        )


def generate_list(n: int, *, seed: int = 7) -> list[Fact]:
    return list(generate(n, seed=seed))


def write_corpus(n: int, write: Callable[[Fact], object], *, seed: int = 7) -> int:
    """Generate ``n`` facts and pass each to ``write``; returns how many were written."""
    count = 0
    for fact in generate(n, seed=seed):
        write(fact)
        count += 1
    return count


def _queries(seed: int = 7) -> list[str]:
    v = _Vocab(seed)
    en, zh = v.en_words, v.zh_words
    q = [
        # identifier-bearing
        f"why does {v.idents[0]} fail after the {en[3]} {en[40]}?",
        f"{v.idents[1]}3 {en[120]} error",
        "release_v12 checklist",
        "what did we decide in #4242",
        f"fix {v.idents[5]} {en[7]} timeout",
        # English questions (head, torso and tail words)
        f"how do we {en[2]} the {en[10]} {en[55]}",
        f"{en[0]} {en[1]} {en[4]}",
        f"{en[200]} {en[333]} {en[901]}",
        f"where is the {en[1500]} {en[2100]} documented",
        f"{en[5000]} {en[7000]}",
        f"is {en[64]} {en[65]} still required for {en[66]}",
        f"{en[20]} {en[21]} {en[22]} {en[23]} {en[24]} {en[25]} {en[26]} {en[27]}",
        "kubernetes",
        # Chinese questions
        f"{zh[0]}{zh[1]}怎么配置？",
        f"{zh[2]}的{zh[30]}是什么约定",
        f"如何优化{zh[5]}{zh[9]}",
        f"{zh[150]}{zh[400]}",
        f"{zh[1200]}和{zh[3000]}的关系",
        f"{zh[7]}",
        f"上次{zh[60]}{zh[61]}{zh[62]}失败的原因",
        # mixed
        f"{v.idents[2]} 的 {zh[11]} 怎么处理",
        # generic / common only
        "continue",
        "继续",
        "ok",
        "can you help me with this?",
        "帮我看一下这个",
    ]
    return q


QUERIES = _queries()


def _turn_queries(seed: int = 7) -> list[str]:
    """At least 200 messages of mixed kinds, deterministic: the 26 above, identifiers,
    paths, English, Chinese and mixed questions over head, torso and tail words, titles of
    facts every corpus size holds (the first 100), and generic turns."""
    v = _Vocab(seed)
    rng = random.Random(seed * 31 + 5)
    en, zh, idents = v.en_words, v.zh_words, v.idents
    out = list(QUERIES)
    for k in range(40):
        ident = idents[(k * 37) % len(idents)]
        out.append(
            rng.choice(
                (
                    f"why does {ident} {en[rng.randrange(300)]} fail?",
                    f"{ident}{rng.randint(1, 9)} {en[rng.randrange(2000)]} error",
                    f"release_v{rng.randint(1, 40)} {en[rng.randrange(100)]}",
                    f"what did we decide in #{rng.randint(1000, 9999)}",
                    f"where is src/{en[rng.randrange(200)]}/{en[rng.randrange(200)]}_{en[rng.randrange(200)]}.py used",
                )
            )
        )
    for _ in range(50):
        words = [en[int(rng.paretovariate(0.6)) % len(en)] for _ in range(rng.randint(1, 6))]
        out.append(
            rng.choice(("how do we ", "what is the ", "", "can you check the ")) + " ".join(words)
        )
    for _ in range(50):
        words = [zh[int(rng.paretovariate(0.6)) % len(zh)] for _ in range(rng.randint(1, 4))]
        out.append(
            rng.choice(("", "如何", "为什么", ""))
            + "的".join(words)
            + rng.choice(("？", "", "怎么配置"))
        )
    for _ in range(30):
        out.append(
            f"{idents[rng.randrange(len(idents))]} 的 {zh[rng.randrange(3000)]} 和 {en[rng.randrange(3000)]}"
        )
    titles = [f.title for f in generate(100, seed=seed)]
    for k in range(30):
        out.append(titles[(k * 7) % len(titles)])
    out += [
        "continue", "go on", "thanks", "好的", "谢谢", "next", "yes", "do it", "looks good",
        "please continue with the plan", "继续上一步", "what now?", "and then?", "ok, ship it",
        "hmm", "sure", "fine", "再来一次", "let's go", "done?",
    ]  # fmt: skip
    return out


TURN_QUERIES = _turn_queries()
