<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Activity</name>
    <message>
        <source>shortened to fit the budget</source>
        <translation>为适应预算已截短</translation>
    </message>
    <message>
        <source>the whole turn</source>
        <translation>整轮对话</translation>
    </message>
</context>
<context>
    <name>ActivityTab</name>
    <message>
        <source>Show in Memory</source>
        <translation>在记忆中显示</translation>
    </message>
    <message>
        <source>Open the selected recalled fact in the Memory tab (or double-click it)</source>
        <translation>在“记忆”标签页中打开所选的已召回事实（或双击它）</translation>
    </message>
    <message>
        <source>Left out, and why</source>
        <translation>被排除的事实及原因</translation>
    </message>
    <message>
        <source>What the model sees</source>
        <translation>模型看到的内容</translation>
    </message>
    <message>
        <source>(empty: nothing is added to the user turn)</source>
        <translation>（空：不向用户消息添加任何内容）</translation>
    </message>
    <message>
        <source>“{query}”  ·  {when} (local)  ·  searchable terms: {terms}</source>
        <translation>“{query}”  ·  {when}（本地时间）  ·  可检索词：{terms}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Nothing recalled: {reason}</source>
        <translation>未召回任何内容：{reason}</translation>
    </message>
    <message>
        <source>Recalled {n} fact</source>
        <translation>已召回 {n} 条事实</translation>
    </message>
    <message>
        <source>Recalled {n} facts</source>
        <translation>已召回 {n} 条事实</translation>
    </message>
    <message>
        <source>Recalled {n} fact: {refs}; omitted {omitted}</source>
        <translation>已召回 {n} 条事实：{refs}；排除 {omitted}</translation>
    </message>
    <message>
        <source>Recalled {n} facts: {refs}; omitted {omitted}</source>
        <translation>已召回 {n} 条事实：{refs}；排除 {omitted}</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>  ·  omitted {omitted}  ·  distinctive matches: {candidates}  ·  {used} of {budget} characters, at most {max_facts} facts  ·  {ms:.1f} ms</source>
        <translation>  ·  排除 {omitted}  ·  {candidates} 个特征匹配  ·  已用 {used} / {budget} 字符，最多 {max_facts} 条事实  ·  {ms:.1f} 毫秒</translation>
    </message>
    <message>
        <source>… and {n} more left out (not listed).</source>
        <translation>……另有 {n} 条被排除（未列出）。</translation>
    </message>
    <message>
        <source>Last recall in this workspace</source>
        <translation>本工作区的最近一次召回</translation>
    </message>
    <message>
        <source>Try a message</source>
        <translation>试一条消息</translation>
    </message>
    <message>
        <source>The latest user turn an agent recalled memory for, and why each fact was or was not added.</source>
        <translation>智能体最近一次为其召回记忆的用户消息，以及每条事实被加入或未被加入的原因。</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Read the latest trace again</source>
        <translation>重新读取最新的追踪记录</translation>
    </message>
    <message>
        <source>Type a message as you would to an agent…</source>
        <translation>像对智能体那样输入一条消息…</translation>
    </message>
    <message>
        <source>Try</source>
        <translation>试一下</translation>
    </message>
    <message>
        <source>Run recall for this message (nothing is saved)</source>
        <translation>为这条消息运行召回（不保存任何内容）</translation>
    </message>
    <message>
        <source>See what would be recalled for a message, and why other facts would not. This does not change the last recall.</source>
        <translation>查看一条消息会召回什么，以及其他事实为何不会被召回。这不会改变最近一次召回。</translation>
    </message>
    <message>
        <source>Type a message first.</source>
        <translation>请先输入一条消息。</translation>
    </message>
    <message>
        <source>No recall has run in this workspace yet. When an agent asks Context Center to recall memory for a user turn, the explanation appears here.</source>
        <translation>本工作区尚未运行过召回。当智能体请 Context Center 为某条用户消息召回记忆时，说明会显示在这里。</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Review: {operation} {target}</source>
        <translation>审阅：{operation} {target}</translation>
    </message>
    <message>
        <source>Why the gate asks you</source>
        <translation>闸门为何请你决定</translation>
    </message>
    <message>
        <source>(no reason recorded)</source>
        <translation>（未记录原因）</translation>
    </message>
    <message>
        <source>Proposed content</source>
        <translation>提议的内容</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Reason for rejecting (optional)</source>
        <translation>拒绝原因（可选）</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Nothing is written; the agent&apos;s write is dropped</source>
        <translation>不写入任何内容；丢弃智能体的写入</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Decide later; the write stays pending</source>
        <translation>稍后再决定；写入保持待审批</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Change a copy of the proposal; your edited content is written</source>
        <translation>修改提议的副本；写入的是你编辑后的内容</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Approve forget</source>
        <translation>批准遗忘</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>正文</translation>
    </message>
    <message>
        <source>Not approved: {reason}</source>
        <translation>未批准：{reason}</translation>
    </message>
    <message>
        <source>It would be refused: the fact moved on since the agent proposed this</source>
        <translation>会被拒绝：智能体提议之后，该事实已有新的修订版</translation>
    </message>
    <message>
        <source>Write it now</source>
        <translation>立即写入</translation>
    </message>
    <message>
        <source>Fact to forget (it is archived, not deleted)</source>
        <translation>要遗忘的事实（会被归档，而不是删除）</translation>
    </message>
    <message>
        <source>Edited content</source>
        <translation>编辑后的内容</translation>
    </message>
    <message>
        <source>The current revision cannot be read.</source>
        <translation>无法读取当前修订版。</translation>
    </message>
    <message>
        <source>{ref} (revision {n}, current)</source>
        <translation>{ref}（修订版 {n}，当前）</translation>
    </message>
    <message>
        <source>edited proposal</source>
        <translation>编辑后的提议</translation>
    </message>
    <message>
        <source>proposed</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Editing</source>
        <translation>编辑中</translation>
    </message>
    <message>
        <source>Approve edited</source>
        <translation>批准编辑后的内容</translation>
    </message>
    <message>
        <source>You edited this proposal without approving it.</source>
        <translation>你编辑了这个提议，但尚未批准。</translation>
    </message>
    <message>
        <source>{agent} wants to create {target}</source>
        <translation>{agent} 想要创建 {target}</translation>
    </message>
    <message>
        <source>{agent} wants to update {target}</source>
        <translation>{agent} 想要更新 {target}</translation>
    </message>
    <message>
        <source>{agent} wants to forget {target}</source>
        <translation>{agent} 想要遗忘 {target}</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Controller</source>
        <translation>控制方</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队时间</translation>
    </message>
    <message>
        <source>{type} (not given by the agent)</source>
        <translation>{type}（智能体未指定）</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>{ref} (id {id})</source>
        <translation>{ref}（id {id}）</translation>
    </message>
    <message>
        <source>Based on</source>
        <translation>基于</translation>
    </message>
    <message>
        <source>revision {n}</source>
        <translation>修订版 {n}</translation>
    </message>
    <message>
        <source>this workspace</source>
        <translation>本工作区</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>{ref} cannot be read now ({why}). Approving would fail, with or without edits. Reject this write; if the fact should still change, ask the agent to propose it again.</source>
        <translation>现在无法读取 {ref}（{why}）。无论是否编辑，批准都会失败。请拒绝这次写入；如果该事实仍需修改，请让智能体重新提议。</translation>
    </message>
    <message>
        <source>it is no longer active</source>
        <translation>它已不再处于活动状态</translation>
    </message>
    <message>
        <source>{ref} has moved on: it is at revision {current}, and this write was proposed against revision {base}. It cannot be approved (nothing newer is overwritten, and editing the proposal does not change what it was based on). Reject it, or ask the agent to propose it again against revision {current}; the changes below are against the current revision.</source>
        <translation>{ref} 已有新的修订版：当前是修订版 {current}，而这次写入是基于修订版 {base} 提议的。它无法被批准（不会覆盖更新的内容，编辑提议也不会改变它所基于的版本）。请拒绝它，或让智能体基于修订版 {current} 重新提议；下方的更改是相对于当前修订版的。</translation>
    </message>
    <message>
        <source>Sensitive information detected, highlighted below: {found}. Approving writes it into memory as it is; edit it out first if it should not be kept.</source>
        <translation>检测到敏感信息，已在下方高亮：{found}。批准会把它原样写入记忆；如果不应保留，请先编辑删除。</translation>
    </message>
    <message>
        <source>{label} (line {line})</source>
        <translation>{label}（第 {line} 行）</translation>
    </message>
</context>
<context>
    <name>Approvals</name>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>遗忘</translation>
    </message>
    <message>
        <source>{type} (implicit)</source>
        <translation>{type}（隐含）</translation>
    </message>
    <message>
        <source>this workspace</source>
        <translation>本工作区</translation>
    </message>
</context>
<context>
    <name>ApprovalsTab</name>
    <message>
        <source>Approval inbox</source>
        <translation>审批收件箱</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>审阅…</translation>
    </message>
    <message>
        <source>Open the selected write to approve, edit or reject it</source>
        <translation>打开所选的写入，以批准、编辑或拒绝</translation>
    </message>
    <message>
        <source>Memory writes proposed by agents that need a person: global or personal facts, updates, forgets, possible duplicates and anything that looks sensitive. Nothing is written until you approve it in the review dialog.</source>
        <translation>智能体提议的、需要人来决定的记忆写入：全局或个人事实、更新、遗忘、可能的重复以及看起来敏感的内容。在审阅对话框中批准之前，不会写入任何内容。</translation>
    </message>
    <message>
        <source>No writes are waiting for you.

When an agent proposes a memory write that needs a person, it appears here and the toolbar shows a count.</source>
        <translation>没有等待你处理的写入。

当智能体提议一项需要人来决定的记忆写入时，它会出现在这里，工具栏也会显示数量。</translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>放弃你的编辑？</translation>
    </message>
    <message>
        <source>You edited the proposal in the review dialog without approving it.</source>
        <translation>你在审阅对话框中编辑了提议，但尚未批准。</translation>
    </message>
    <message>
        <source>The write stays pending either way; only your edits are dropped.</source>
        <translation>无论如何写入都会保持待审批；只会丢弃你的编辑。</translation>
    </message>
    <message>
        <source>Discard edits</source>
        <translation>放弃编辑</translation>
    </message>
    <message>
        <source>1 write waiting for you</source>
        <translation>1 项写入等待你处理</translation>
    </message>
    <message>
        <source>{n} writes waiting for you</source>
        <translation>{n} 项写入等待你处理</translation>
    </message>
    <message>
        <source>nothing waiting</source>
        <translation>没有待处理项</translation>
    </message>
    <message>
        <source>Approved: {operation} {target}</source>
        <translation>已批准：{operation} {target}</translation>
    </message>
    <message>
        <source>Rejected: {operation} {target}</source>
        <translation>已拒绝：{operation} {target}</translation>
    </message>
    <message>
        <source>Reject selected…</source>
        <translation>拒绝所选…</translation>
    </message>
    <message>
        <source>Reject every selected write without opening it (nothing is written)</source>
        <translation>不打开、直接拒绝所有所选写入（不写入任何内容）</translation>
    </message>
    <message>
        <source>Reject writes</source>
        <translation>拒绝写入</translation>
    </message>
    <message>
        <source>Reject 1 write?</source>
        <translation>拒绝 1 项写入？</translation>
    </message>
    <message>
        <source>Reject {n} writes?</source>
        <translation>拒绝 {n} 项写入？</translation>
    </message>
    <message>
        <source>Nothing of them is written; each decision is recorded. Undo queues them again.</source>
        <translation>它们都不会被写入；每项决定都会被记录。撤销会把它们重新排队。</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Rejected {n} write</source>
        <translation>已拒绝 {n} 项写入</translation>
    </message>
    <message>
        <source>Rejected {n} writes</source>
        <translation>已拒绝 {n} 项写入</translation>
    </message>
    <message>
        <source> · {n} skipped: {error}</source>
        <translation> · 跳过 {n} 项：{error}</translation>
    </message>
</context>
<context>
    <name>ArchiveTab</name>
    <message>
        <source>(unreadable: {error})</source>
        <translation>（无法读取：{error}）</translation>
    </message>
    <message>
        <source>Forgotten facts wait here. Recovering one makes it active again as a new revision; it is refused while another active fact has the same id or name.</source>
        <translation>被遗忘的事实保存在这里。恢复后它会作为新的修订版重新生效；如果另一条活动事实有相同的 id 或名称，恢复会被拒绝。</translation>
    </message>
    <message>
        <source>Recover under a new name…</source>
        <translation>以新名称恢复…</translation>
    </message>
    <message>
        <source>Bring it back under another name; it keeps its id and revision history</source>
        <translation>以另一个名称恢复；保留其 id 和修订历史</translation>
    </message>
    <message>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>The archive is empty: nothing has been forgotten in this workspace or globally.</source>
        <translation>归档为空：本工作区和全局都没有遗忘过任何内容。</translation>
    </message>
    <message>
        <source>No archived fact selected</source>
        <translation>未选择归档事实</translation>
    </message>
    <message>
        <source>Archived {when}</source>
        <translation>归档于 {when}</translation>
    </message>
    <message>
        <source>{ref} · {kind} · revision {n} · archived {when}</source>
        <translation>{ref} · {kind} · 修订版 {n} · 归档于 {when}</translation>
    </message>
    <message>
        <source>Recover under a new name</source>
        <translation>以新名称恢复</translation>
    </message>
    <message>
        <source>{ref} is taken. Recover the archived fact as (a file name in {scope}):</source>
        <translation>{ref} 已被占用。将归档事实恢复为（{scope} 中的文件名）：</translation>
    </message>
    <message>
        <source>Recovered {ref} as revision {n}</source>
        <translation>已将 {ref} 恢复为修订版 {n}</translation>
    </message>
    <message>
        <source> Recover it under another name, or forget the active fact first.</source>
        <translation> 请以另一个名称恢复，或先遗忘那条活动事实。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{ref} was not recovered:&lt;/b&gt; {reason}.</source>
        <translation>&lt;b&gt;{ref} 未恢复：&lt;/b&gt;{reason}。</translation>
    </message>
</context>
<context>
    <name>CandidateEditor</name>
    <message>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <source>{source} · session &lt;code&gt;{session}&lt;/code&gt; · {when}</source>
        <translation>{source} · 会话 &lt;code&gt;{session}&lt;/code&gt; · {when}</translation>
    </message>
    <message>
        <source>No quoted turns.</source>
        <translation>没有引用的对话。</translation>
    </message>
    <message>
        <source>project (this workspace)</source>
        <translation>项目（本工作区）</translation>
    </message>
    <message>
        <source>global (every workspace)</source>
        <translation>全局（所有工作区）</translation>
    </message>
    <message>
        <source>One step per line</source>
        <translation>每行一个步骤</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>正文</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Writes</source>
        <translation>写入位置</translation>
    </message>
    <message>
        <source>Evidence: your own words (times are local)</source>
        <translation>证据：你自己的原话（本地时间）</translation>
    </message>
    <message>
        <source>Memory suggestion: {title}</source>
        <translation>记忆建议：{title}</translation>
    </message>
    <message>
        <source>Why: {reason}. Accepting saves it as a fact right away (your click is the approval); you can edit every field first.</source>
        <translation>原因：{reason}。接受后会立即保存为事实（你的点击即是批准）；你可以先编辑每个字段。</translation>
    </message>
    <message>
        <source>a new fact in the chosen scope</source>
        <translation>所选范围中的一条新事实</translation>
    </message>
    <message>
        <source>Skill suggestion: {name}</source>
        <translation>技能建议：{name}</translation>
    </message>
    <message>
        <source>You asked for this workflow in {turns} turns across {sessions} sessions. Accepting writes a SKILL.md that agents can follow; an existing skill is never overwritten.</source>
        <translation>你在 {sessions} 个会话的 {turns} 轮对话中要求过这个工作流程。接受后会写入一个智能体可以遵循的 SKILL.md；已有的技能永远不会被覆盖。</translation>
    </message>
</context>
<context>
    <name>ClaudeMemoryTab</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>not listed</source>
        <translation>未列出</translation>
    </message>
    <message>
        <source>loaded</source>
        <translation>已加载</translation>
    </message>
    <message>
        <source>listed, not loaded</source>
        <translation>已列出，未加载</translation>
    </message>
    <message>
        <source>There is no MEMORY.md: Claude Code loads no index for this workspace.</source>
        <translation>没有 MEMORY.md：Claude Code 不会为本工作区加载索引。</translation>
    </message>
    <message>
        <source>MEMORY.md has {lines} lines ({units} characters).</source>
        <translation>MEMORY.md 有 {lines} 行（{units} 个字符）。</translation>
    </message>
    <message>
        <source>Claude Code loads all of it at the start of every conversation.</source>
        <translation>Claude Code 会在每次对话开始时加载全部内容。</translation>
    </message>
    <message>
        <source>Claude Code loads only the first {n} lines (cut by {cut}: at most 200 lines and 25,000 characters) and adds a warning.</source>
        <translation>Claude Code 只加载前 {n} 行（按 {cut} 截断：最多 200 行、25,000 个字符），并附加一条警告。</translation>
    </message>
    <message>
        <source>{n} imported</source>
        <translation>已导入 {n} 条</translation>
    </message>
    <message>
        <source>{n} would be imported</source>
        <translation>将导入 {n} 条</translation>
    </message>
    <message>
        <source>{n} duplicate</source>
        <translation>重复 {n} 条</translation>
    </message>
    <message>
        <source>{n} skipped</source>
        <translation>跳过 {n} 条</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>nothing to import</source>
        <translation>没有可导入的内容</translation>
    </message>
    <message>
        <source>Preview: {summary}.</source>
        <translation>预览：{summary}。</translation>
    </message>
    <message>
        <source>{summary}.</source>
        <translation>{summary}。</translation>
    </message>
    <message>
        <source>into the project store</source>
        <translation>导入项目存储</translation>
    </message>
    <message>
        <source>into the global store</source>
        <translation>导入全局存储</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Preview import</source>
        <translation>预览导入</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>What Claude Code loads</source>
        <translation>Claude Code 加载的内容</translation>
    </message>
    <message>
        <source>Claude Code&apos;s own memory for this workspace, read from {folder}. Read-only: Context Center never writes there. Import copies these memories into a store as new facts.</source>
        <translation>Claude Code 自己为本工作区保存的记忆，读取自 {folder}。只读：Context Center 从不写入那里。导入会把这些记忆作为新事实复制到某个存储中。</translation>
    </message>
    <message>
        <source>Claude Code has no memory for this workspace yet (nothing in {folder}).</source>
        <translation>Claude Code 还没有本工作区的记忆（{folder} 中没有内容）。</translation>
    </message>
    <message>
        <source>The memory folder holds no memories.</source>
        <translation>记忆文件夹中没有记忆。</translation>
    </message>
    <message>
        <source>No memory selected</source>
        <translation>未选择记忆</translation>
    </message>
    <message>
        <source>{file}: not read</source>
        <translation>{file}：未读取</translation>
    </message>
    <message>
        <source>no type</source>
        <translation>无类型</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Claude Code memory: {summary}</source>
        <translation>Claude Code 记忆：{summary}</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>Queued</source>
        <translation>排队时间</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Controller</source>
        <translation>控制方</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <source>Type · scope</source>
        <translation>类型 · 范围</translation>
    </message>
    <message>
        <source>Why it needs you</source>
        <translation>为何需要你</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Freshness</source>
        <translation>新鲜度</translation>
    </message>
    <message>
        <source>Rev</source>
        <translation>修订版</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Last update, in local time ({offset})</source>
        <translation>最后更新时间，本地时间（{offset}）</translation>
    </message>
    <message>
        <source>Suggestion</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>How many of your turns, in how many sessions, support it</source>
        <translation>有多少轮你的对话、分布在多少个会话中支持它</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Turns</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Malformed lines that were skipped (never fatal)</source>
        <translation>被跳过的格式错误行（不会导致失败）</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Left out</source>
        <translation>被排除</translation>
    </message>
    <message>
        <source>Why not</source>
        <translation>未召回原因</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>归档时间</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>In MEMORY.md</source>
        <translation>在 MEMORY.md 中</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Hooks</source>
        <translation>钩子</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Refs</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>途径</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
</context>
<context>
    <name>CompareText</name>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>imported by {source}</source>
        <translation>由 {source} 导入</translation>
    </message>
    <message>
        <source>already loaded as {label}</source>
        <translation>已作为 {label} 加载</translation>
    </message>
    <message>
        <source>same text as {label}</source>
        <translation>与 {label} 的文本相同</translation>
    </message>
    <message>
        <source>project_doc_max_bytes ({n}) was used up before this file</source>
        <translation>在这个文件之前 project_doc_max_bytes（{n}）就已用完</translation>
    </message>
    <message>
        <source>paths: {paths} (loads when Claude reads a matching file)</source>
        <translation>paths: {paths}（Claude 读取匹配的文件时才加载）</translation>
    </message>
    <message>
        <source>{prefix} is {agent}&apos;s own home</source>
        <translation>{prefix} 是 {agent} 自己的主目录</translation>
    </message>
    <message>
        <source>Claude Code reads {name} only when a file it loads imports it</source>
        <translation>只有当 Claude Code 加载的文件导入 {name} 时，它才会读取</translation>
    </message>
    <message>
        <source>no file Claude Code loads here imports it</source>
        <translation>Claude Code 在这里加载的文件都没有导入它</translation>
    </message>
    <message>
        <source>Codex reads only AGENTS.override.md, AGENTS.md or a fallback name, not {name}</source>
        <translation>Codex 只读取 AGENTS.override.md、AGENTS.md 或备用文件名，不读取 {name}</translation>
    </message>
    <message>
        <source>Codex follows no imports</source>
        <translation>Codex 不跟随任何导入</translation>
    </message>
    <message>
        <source>Reasonix never reads {name}</source>
        <translation>Reasonix 从不读取 {name}</translation>
    </message>
    <message>
        <source>Reasonix imports only an @path alone on its line, inside the file&apos;s folder</source>
        <translation>Reasonix 只导入单独占一行、位于该文件所在文件夹内的 @路径</translation>
    </message>
    <message>
        <source>{agent} does not read it here</source>
        <translation>{agent} 在这里不读取它</translation>
    </message>
    <message>
        <source>{source}:{line} imports {target} for Claude Code; Reasonix reads only an @path alone on its line and skips it</source>
        <translation>{source}:{line} 为 Claude Code 导入了 {target}；Reasonix 只读取单独占一行的 @路径，会跳过它</translation>
    </message>
    <message>
        <source>{source}:{line}: Claude Code follows the import of {target}; Reasonix refuses it ({code})</source>
        <translation>{source}:{line}：Claude Code 会跟随对 {target} 的导入；Reasonix 拒绝它（{code}）</translation>
    </message>
    <message>
        <source>{source}:{line} imports {target} for {agent}; Codex follows no imports, so it never sees it</source>
        <translation>{source}:{line} 为 {agent} 导入了 {target}；Codex 不跟随任何导入，所以永远看不到它</translation>
    </message>
    <message>
        <source>{label} reaches {agents}; {never}</source>
        <translation>{label} 会被 {agents} 读到；{never}</translation>
    </message>
    <message>
        <source>Codex stops at byte {byte} of {label} (line {line}, column {column}): project_doc_max_bytes is {limit}</source>
        <translation>Codex 在 {label} 的第 {byte} 字节处停止（第 {line} 行，第 {column} 列）：project_doc_max_bytes 为 {limit}</translation>
    </message>
    <message>
        <source>Codex stops at byte {byte} of {label} (line {line}, column {column}): project_doc_max_bytes is {limit}; never reached: {lost}</source>
        <translation>Codex 在 {label} 的第 {byte} 字节处停止（第 {line} 行，第 {column} 列）：project_doc_max_bytes 为 {limit}；从未读到：{lost}</translation>
    </message>
    <message>
        <source>“{rule}” is in {agent}&apos;s context {n} times ({places})</source>
        <translation>“{rule}”在 {agent} 的上下文中出现了 {n} 次（{places}）</translation>
    </message>
    <message>
        <source>never {agent} ({why})</source>
        <translation>{agent} 读不到（{why}）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect {agent}</source>
        <translation>连接 {agent}</translation>
    </message>
    <message>
        <source>Disconnect {agent}</source>
        <translation>断开 {agent}</translation>
    </message>
    <message>
        <source>Connect &lt;b&gt;{agent}&lt;/b&gt; ({scope} configuration) to this home? Its config gets this program&apos;s MCP server{hooks}. Every other setting and comment stays, and each changed file is backed up first.</source>
        <translation>把 &lt;b&gt;{agent}&lt;/b&gt;（{scope}配置）连接到本数据目录？其配置会写入本程序的 MCP 服务器{hooks}。其他设置和注释都保持不变，每个被修改的文件都会先备份。</translation>
    </message>
    <message>
        <source> and its hooks</source>
        <translation>及其钩子</translation>
    </message>
    <message>
        <source>Disconnect &lt;b&gt;{agent}&lt;/b&gt; ({scope} configuration)? Exactly the entries connect writes are removed; every other setting and comment stays, and each changed file is backed up first.</source>
        <translation>断开 &lt;b&gt;{agent}&lt;/b&gt;（{scope}配置）？只移除 connect 写入的条目；其他设置和注释都保持不变，每个被修改的文件都会先备份。</translation>
    </message>
    <message>
        <source>{file} will be created</source>
        <translation>将创建 {file}</translation>
    </message>
    <message>
        <source>{file} will be changed</source>
        <translation>将修改 {file}</translation>
    </message>
    <message>
        <source>{file} will be removed (nothing else is left in it)</source>
        <translation>将删除 {file}（其中不再有其他内容）</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开</translation>
    </message>
    <message>
        <source>the project&apos;s</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>your user</source>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>ConnectionsTab</name>
    <message>
        <source>connected, points here</source>
        <translation>已连接，指向这里</translation>
    </message>
    <message>
        <source>connected to another home or program</source>
        <translation>已连接到另一个数据目录或程序</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>config cannot be read</source>
        <translation>无法读取配置</translation>
    </message>
    <message>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>已应用</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>已排队</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已禁止</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>已允许</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>+{n} more</source>
        <translation>另 {n} 条</translation>
    </message>
    <message>
        <source>query of {n} characters</source>
        <translation>{n} 个字符的查询</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>连接…</translation>
    </message>
    <message>
        <source>Write this program&apos;s MCP server (and Claude Code&apos;s hooks) into the selected agent&apos;s config, after showing what changes</source>
        <translation>先显示将要修改的内容，再把本程序的 MCP 服务器（以及 Claude Code 的钩子）写入所选智能体的配置</translation>
    </message>
    <message>
        <source>Disconnect…</source>
        <translation>断开…</translation>
    </message>
    <message>
        <source>Remove exactly what connect wrote from the selected agent&apos;s config, after showing what changes</source>
        <translation>先显示将要修改的内容，再从所选智能体的配置中精确移除 connect 写入的内容</translation>
    </message>
    <message>
        <source>Agents use this home through its MCP server and, for Claude Code, its hooks. Select an agent and press Connect… (or run `context-center connect claude-code`, codex, cursor); Disconnect… removes exactly what connect wrote.</source>
        <translation>智能体通过本数据目录的 MCP 服务器使用它；Claude Code 还会通过钩子使用。选择一个智能体并按“连接…”（或运行 `context-center connect claude-code`、codex、cursor）；“断开…”会精确移除 connect 写入的内容。</translation>
    </message>
    <message>
        <source>Connected {agent} ({scope}): {files} written</source>
        <translation>已连接 {agent}（{scope}）：已写入 {files}</translation>
    </message>
    <message>
        <source>Disconnected {agent} ({scope}): {files} written</source>
        <translation>已断开 {agent}（{scope}）：已写入 {files}</translation>
    </message>
    <message>
        <source>Nothing to change: {agent} ({scope}) is as asked</source>
        <translation>无需修改：{agent}（{scope}）已是所要的状态</translation>
    </message>
    <message>
        <source>{file} kept changing while you looked: nothing was written</source>
        <translation>查看期间 {file} 一直在变化：未写入任何内容</translation>
    </message>
    <message>
        <source>Access log: the one agent access so far</source>
        <translation>访问日志：目前只有 1 次智能体访问</translation>
    </message>
    <message>
        <source>Access log, newest first: the last {n} agent accesses</source>
        <translation>访问日志：最近 {n} 次智能体访问，最新的在前</translation>
    </message>
    <message>
        <source>Access log: no agent has used this workspace yet</source>
        <translation>访问日志：还没有智能体使用过本工作区</translation>
    </message>
</context>
<context>
    <name>DecisionUndo</name>
    <message>
        <source>Dismissed “{title}”: it will not be proposed again. Undo lists it again (the dismissal is removed).</source>
        <translation>已忽略“{title}”：以后不会再提出。撤销会重新列出它（移除这次忽略）。</translation>
    </message>
    <message>
        <source>“{title}” is listed again</source>
        <translation>“{title}”已重新列出</translation>
    </message>
    <message>
        <source>Rejected {target}. Undo puts the same write back in the queue as a new item (the rejection stays in the audit log).</source>
        <translation>已拒绝 {target}。撤销会把同一写入作为新条目重新放入队列（拒绝记录仍保留在审计日志中）。</translation>
    </message>
    <message>
        <source>Rejected {n} writes. Undo puts each back in the queue as a new item (the rejections stay in the audit log).</source>
        <translation>已拒绝 {n} 项写入。撤销会把每一项作为新条目重新放入队列（拒绝记录仍保留在审计日志中）。</translation>
    </message>
    <message>
        <source>{n} write is waiting for approval again</source>
        <translation>{n} 项写入重新等待审批</translation>
    </message>
    <message>
        <source>{n} writes are waiting for approval again</source>
        <translation>{n} 项写入重新等待审批</translation>
    </message>
</context>
<context>
    <name>DiagnosticText</name>
    <message>
        <source>absolute paths are not allowed</source>
        <translation>不允许使用绝对路径</translation>
    </message>
    <message>
        <source>paths starting with ~ are not allowed</source>
        <translation>不允许以 ~ 开头的路径</translation>
    </message>
    <message>
        <source>the path leaves the directory that owns the instruction file</source>
        <translation>该路径离开了指令文件所在的目录</translation>
    </message>
    <message>
        <source>a symbolic link on the way leads outside the owning directory</source>
        <translation>路径上的一个符号链接指向所在目录之外</translation>
    </message>
    <message>
        <source>it does not exist</source>
        <translation>它不存在</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>it is a directory</source>
        <translation>它是一个目录</translation>
    </message>
    <message>
        <source>it is not a regular file (FIFO, device or socket)</source>
        <translation>它不是普通文件（FIFO、设备或套接字）</translation>
    </message>
    <message>
        <source>it cannot be read</source>
        <translation>无法读取它</translation>
    </message>
    <message>
        <source>it changed while being read</source>
        <translation>读取期间它发生了变化</translation>
    </message>
    <message>
        <source>it is larger than {n} bytes</source>
        <translation>它大于 {n} 字节</translation>
    </message>
    <message>
        <source>it is neither valid UTF-8 nor valid GB18030</source>
        <translation>它既不是有效的 UTF-8，也不是有效的 GB18030</translation>
    </message>
    <message>
        <source>it is already being imported on this chain</source>
        <translation>它已在这条链上被导入</translation>
    </message>
    <message>
        <source>imports nest at most {n} levels deep</source>
        <translation>导入最多嵌套 {n} 层</translation>
    </message>
    <message>
        <source>it looks like a package name, not a file; no such file exists</source>
        <translation>它看起来像包名而不是文件；不存在这个文件</translation>
    </message>
    <message>
        <source>it is outside the working directory</source>
        <translation>它在工作目录之外</translation>
    </message>
    <message>
        <source>the frontmatter is too large</source>
        <translation>前置元数据太大</translation>
    </message>
    <message>
        <source>the frontmatter is not valid YAML; quote globs</source>
        <translation>前置元数据不是有效的 YAML；请给通配模式加引号</translation>
    </message>
    <message>
        <source>the frontmatter is not valid YAML (line {line}); quote globs</source>
        <translation>前置元数据不是有效的 YAML（第 {line} 行）；请给通配模式加引号</translation>
    </message>
    <message>
        <source>paths: must be a glob or a list of globs</source>
        <translation>paths: 必须是一个通配模式或通配模式列表</translation>
    </message>
    <message>
        <source>project_doc_max_bytes must be a non-negative integer</source>
        <translation>project_doc_max_bytes 必须是非负整数</translation>
    </message>
    <message>
        <source>{key} must be a list of strings</source>
        <translation>{key} 必须是字符串列表</translation>
    </message>
    <message>
        <source>config.toml was not read: {error}</source>
        <translation>未读取 config.toml：{error}</translation>
    </message>
    <message>
        <source>{label} was not loaded: {reason}</source>
        <translation>未加载 {label}：{reason}</translation>
    </message>
    <message>
        <source>{label} was not loaded: its real path is outside the home</source>
        <translation>未加载 {label}：它的真实路径在主目录之外</translation>
    </message>
    <message>
        <source>{label} was not loaded: its real path is outside the workspace</source>
        <translation>未加载 {label}：它的真实路径在工作区之外</translation>
    </message>
    <message>
        <source>{label} is a link to a file outside the workspace; Codex follows it</source>
        <translation>{label} 是指向工作区之外文件的链接；Codex 会跟随它</translation>
    </message>
    <message>
        <source>import of &apos;{label}&apos; refused ({code}): {reason}</source>
        <translation>拒绝导入“{label}”（{code}）：{reason}</translation>
    </message>
    <message>
        <source>import of &apos;{label}&apos; refused: {reason}</source>
        <translation>拒绝导入“{label}”：{reason}</translation>
    </message>
    <message>
        <source>the target directory ({label}) is outside the workspace; resolved for the workspace root instead</source>
        <translation>目标目录（{label}）在工作区之外；已改为按工作区根目录解析</translation>
    </message>
    <message>
        <source>a {what} on line {line} of {label} was withheld from the agent&apos;s text; move it out of the instruction file</source>
        <translation>{label} 第 {line} 行的 {what} 已从智能体的文本中隐去；请把它移出指令文件</translation>
    </message>
    <message>
        <source>{label} is not valid UTF-8: Codex reads it with replacement characters</source>
        <translation>{label} 不是有效的 UTF-8：Codex 会用替换字符读取它</translation>
    </message>
    <message>
        <source>config.toml: {problem}; the default is used</source>
        <translation>config.toml：{problem}；使用默认值</translation>
    </message>
    <message>
        <source>{label} never reaches Codex: the {n}-byte project_doc_max_bytes was used up before it</source>
        <translation>{label} 到不了 Codex：{n} 字节的 project_doc_max_bytes 在它之前就已用完</translation>
    </message>
    <message>
        <source>{label} never reaches Codex: project_doc_max_bytes ({limit}) left {n} bytes for it, only whitespace</source>
        <translation>{label} 到不了 Codex：project_doc_max_bytes（{limit}）留给它的 {n} 字节全是空白</translation>
    </message>
    <message>
        <source>{label} is {size} bytes: Codex reads {n} of them; only the first {shown} are shown here</source>
        <translation>{label} 有 {size} 字节：Codex 读取其中 {n} 字节；这里只显示前 {shown} 字节</translation>
    </message>
    <message>
        <source>{label} has {n} characters: Claude Code warns at start-up that a memory file over {limit} will impact performance</source>
        <translation>{label} 有 {n} 个字符：Claude Code 启动时会警告，超过 {limit} 个字符的记忆文件会影响性能</translation>
    </message>
    <message>
        <source>project_doc_max_bytes ({limit}) cuts {label} at byte {byte} (line {line}, column {column}): {size} bytes, {lines} non-empty lines never reach Codex</source>
        <translation>project_doc_max_bytes（{limit}）在第 {byte} 字节处截断 {label}（第 {line} 行，第 {column} 列）：{size} 字节、{lines} 行非空内容到不了 Codex</translation>
    </message>
    <message>
        <source>project_doc_max_bytes ({limit}) cuts {label} at byte {byte} (line {line}, column {column}): {size} bytes, {lines} non-empty lines never reach Codex, from: {preview}</source>
        <translation>project_doc_max_bytes（{limit}）在第 {byte} 字节处截断 {label}（第 {line} 行，第 {column} 列）：{size} 字节、{lines} 行非空内容到不了 Codex，从此处开始：{preview}</translation>
    </message>
    <message>
        <source>@{written} names no file; Claude Code skips it without a word</source>
        <translation>@{written} 指向的文件不存在；Claude Code 会默默跳过它</translation>
    </message>
    <message>
        <source>@{written} names no file; Claude Code skips it without a word (it looks like a package name)</source>
        <translation>@{written} 指向的文件不存在；Claude Code 会默默跳过它（它看起来像包名）</translation>
    </message>
    <message>
        <source>Claude Code follows imports at most {n} levels deep; {label} is not loaded</source>
        <translation>Claude Code 最多跟随 {n} 层导入；不会加载 {label}</translation>
    </message>
    <message>
        <source>{label} is outside the working directory: Claude Code asks once per project before loading external imports, and loads nothing from them until you agree</source>
        <translation>{label} 在工作目录之外：Claude Code 在加载外部导入前会按项目询问一次，在你同意之前不会从中加载任何内容</translation>
    </message>
    <message>
        <source>{label} holds more rule files or folders than are read here; only the first ones are shown</source>
        <translation>{label} 中的规则文件或文件夹多于这里读取的数量；只显示前面的部分</translation>
    </message>
    <message>
        <source>{label}: {problem}</source>
        <translation>{label}：{problem}</translation>
    </message>
    <message>
        <source>{label} adds {n} characters to every session (more than {limit}); move what is not a rule into memory</source>
        <translation>{label} 为每个会话增加 {n} 个字符（超过 {limit}）；请把不属于规则的内容移到记忆中</translation>
    </message>
    <message>
        <source>{label} adds {n} characters to every session</source>
        <translation>{label} 为每个会话增加 {n} 个字符</translation>
    </message>
    <message>
        <source>the instructions are {n} characters (more than {limit}); every session carries all of them</source>
        <translation>指令共 {n} 个字符（超过 {limit}）；每个会话都会带上全部指令</translation>
    </message>
    <message>
        <source>Permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>No such file or directory</source>
        <translation>没有这个文件或目录</translation>
    </message>
    <message>
        <source>Input/output error</source>
        <translation>输入/输出错误</translation>
    </message>
    <message>
        <source>Too many levels of symbolic links</source>
        <translation>符号链接层级过多</translation>
    </message>
    <message>
        <source>Read-only file system</source>
        <translation>只读文件系统</translation>
    </message>
    <message>
        <source>No space left on device</source>
        <translation>设备上没有剩余空间</translation>
    </message>
    <message>
        <source>Disk quota exceeded</source>
        <translation>超出磁盘配额</translation>
    </message>
    <message>
        <source>Not a directory</source>
        <translation>不是目录</translation>
    </message>
    <message>
        <source>Is a directory</source>
        <translation>是一个目录</translation>
    </message>
    <message>
        <source>File name too long</source>
        <translation>文件名过长</translation>
    </message>
    <message>
        <source>Operation not permitted</source>
        <translation>不允许的操作</translation>
    </message>
    <message>
        <source>File exists</source>
        <translation>文件已存在</translation>
    </message>
    <message>
        <source>{error}</source>
        <translation>{error}</translation>
    </message>
    <message>
        <source>the index is a symbolic link or not a plain file of its own; changes to this store are refused until it is removed</source>
        <translation>索引是符号链接，或不是独立的普通文件；在移除它之前，对这个存储的修改都会被拒绝</translation>
    </message>
    <message>
        <source>a symlink stands in place of a fact file</source>
        <translation>事实文件的位置上是一个符号链接</translation>
    </message>
    <message>
        <source>a symlink stands in place of the file</source>
        <translation>文件的位置上是一个符号链接</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>the file changed while it was being opened</source>
        <translation>打开文件期间它发生了变化</translation>
    </message>
    <message>
        <source>id {id} is also used by {others}</source>
        <translation>ID {id} 也被 {others} 使用</translation>
    </message>
    <message>
        <source>declares the name &apos;{name}&apos;, which {others} also uses; rename one of them (its name field)</source>
        <translation>声明的名称“{name}”也被 {others} 使用；请重命名其中一个（它的 name 字段）</translation>
    </message>
    <message>
        <source>YAML aliases are not allowed (line {line})</source>
        <translation>不允许使用 YAML 别名（第 {line} 行）</translation>
    </message>
    <message>
        <source>frontmatter uses the tag &apos;{tag}&apos;, which is not allowed (line {line})</source>
        <translation>前置元数据使用了不允许的标签“{tag}”（第 {line} 行）</translation>
    </message>
    <message>
        <source>frontmatter keys must be text (line {line})</source>
        <translation>前置元数据的键必须是文本（第 {line} 行）</translation>
    </message>
    <message>
        <source>frontmatter is not valid YAML: {detail}</source>
        <translation>前置元数据不是有效的 YAML：{detail}</translation>
    </message>
    <message>
        <source>duplicate frontmatter key &apos;{key}&apos; (line {line})</source>
        <translation>前置元数据的键“{key}”重复（第 {line} 行）</translation>
    </message>
    <message>
        <source>frontmatter starts with &apos;---&apos; but is never closed</source>
        <translation>前置元数据以 &apos;---&apos; 开头，但没有结束</translation>
    </message>
    <message>
        <source>frontmatter could not be split from the body</source>
        <translation>无法把前置元数据与正文分开</translation>
    </message>
    <message>
        <source>frontmatter must be a mapping of keys to values</source>
        <translation>前置元数据必须是键到值的映射</translation>
    </message>
    <message>
        <source>{field} must be a timestamp</source>
        <translation>{field} 必须是时间戳</translation>
    </message>
    <message>
        <source>{field} is not an RFC 3339 timestamp: &apos;{value}&apos;</source>
        <translation>{field} 不是 RFC 3339 时间戳：“{value}”</translation>
    </message>
    <message>
        <source>{field} must be text</source>
        <translation>{field} 必须是文本</translation>
    </message>
    <message>
        <source>metadata must be a mapping</source>
        <translation>metadata 必须是映射</translation>
    </message>
    <message>
        <source>scope &apos;{value}&apos; is not project or global</source>
        <translation>范围“{value}”既不是 project 也不是 global</translation>
    </message>
    <message>
        <source>revision &apos;{value}&apos; is not a positive integer</source>
        <translation>修订版“{value}”不是正整数</translation>
    </message>
    <message>
        <source>revision &apos;{value}&apos; is out of range</source>
        <translation>修订版“{value}”超出范围</translation>
    </message>
    <message>
        <source>{field} &apos;{value}&apos; is not one of user, feedback, project, reference</source>
        <translation>{field}“{value}”不是 user、feedback、project、reference 之一</translation>
    </message>
    <message>
        <source>file declares scope &apos;{value}&apos; but lies in the {scope} store</source>
        <translation>文件声明的范围是“{value}”，但它位于{scope}存储中</translation>
    </message>
    <message>
        <source>file is {n} bytes; the limit is {limit}</source>
        <translation>文件有 {n} 字节；上限是 {limit}</translation>
    </message>
    <message>
        <source>file is over the limit of {limit} bytes</source>
        <translation>文件超过了 {limit} 字节的上限</translation>
    </message>
    <message>
        <source>file contains NUL bytes</source>
        <translation>文件包含 NUL 字节</translation>
    </message>
    <message>
        <source>file is not valid UTF-8 (byte {n})</source>
        <translation>文件不是有效的 UTF-8（第 {n} 字节）</translation>
    </message>
    <message>
        <source>a sync tool&apos;s conflict copy of {original}; compare the two and keep one side</source>
        <translation>同步工具生成的 {original} 冲突副本；请比较两者并保留一方</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>the file holds an unresolved merge (git conflict markers &lt;&lt;&lt;&lt;&lt;&lt;&lt; ======= &gt;&gt;&gt;&gt;&gt;&gt;&gt;); keep one side</source>
        <translation>文件中有未解决的合并（git 冲突标记 &lt;&lt;&lt;&lt;&lt;&lt;&lt; ======= &gt;&gt;&gt;&gt;&gt;&gt;&gt;）；请保留一方</translation>
    </message>
    <message>
        <source>not a fact: the file has no frontmatter block (a first line &apos;---&apos;, &apos;key: value&apos; lines, a closing &apos;---&apos;)</source>
        <translation>不是事实：文件没有前置元数据块（首行 &apos;---&apos;、若干 &apos;key: value&apos; 行、结尾 &apos;---&apos;）</translation>
    </message>
    <message>
        <source>not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>unreadable ({error})</source>
        <translation>无法读取（{error}）</translation>
    </message>
    <message>
        <source>a link (not followed)</source>
        <translation>是一个链接（不跟随）</translation>
    </message>
    <message>
        <source>larger than {n} KB</source>
        <translation>大于 {n} KB</translation>
    </message>
    <message>
        <source>no usable name</source>
        <translation>没有可用的名称</translation>
    </message>
    <message>
        <source>the memory is empty</source>
        <translation>这条记忆是空的</translation>
    </message>
    <message>
        <source>it holds sensitive content ({labels}); copy what you need by hand</source>
        <translation>它包含敏感内容（{labels}）；请手动复制你需要的部分</translation>
    </message>
    <message>
        <source>a fact named &apos;{name}&apos; already exists in {scope}</source>
        <translation>{scope}范围中已有名为“{name}”的事实</translation>
    </message>
    <message>
        <source>the fact {ref} already has the title &apos;{title}&apos;</source>
        <translation>事实 {ref} 已经使用了标题“{title}”</translation>
    </message>
    <message>
        <source>the fact {ref} already has the title &quot;{title}&quot;</source>
        <translation>事实 {ref} 已经使用了标题“{title}”</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>No differences between {a} and {b}.</source>
        <translation>{a} 与 {b} 之间没有差异。</translation>
    </message>
</context>
<context>
    <name>Discard</name>
    <message>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <source>Discard them, or keep editing?</source>
        <translation>放弃这些更改，还是继续编辑？</translation>
    </message>
    <message>
        <source>Discard changes</source>
        <translation>放弃更改</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Someone else changed this first</source>
        <translation>有人先修改了它</translation>
    </message>
    <message>
        <source>The file changed on disk</source>
        <translation>文件已在磁盘上被修改</translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>Already exists</source>
        <translation>已存在</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Workspace not found</source>
        <translation>未找到工作区</translation>
    </message>
    <message>
        <source>Invalid name</source>
        <translation>名称无效</translation>
    </message>
    <message>
        <source>Cannot do that</source>
        <translation>无法执行</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>存储不可用</translation>
    </message>
    <message>
        <source>Approval refused</source>
        <translation>批准被拒绝</translation>
    </message>
    <message>
        <source>A newer revision was saved meanwhile; nothing was overwritten.</source>
        <translation>期间已保存了更新的修订版；没有覆盖任何内容。</translation>
    </message>
    <message>
        <source>The file was edited outside Context Center; nothing was overwritten.</source>
        <translation>该文件在 Context Center 之外被编辑过；没有覆盖任何内容。</translation>
    </message>
    <message>
        <source>The archived fact was not recovered.</source>
        <translation>归档的事实未被恢复。</translation>
    </message>
    <message>
        <source>Something with that name exists already.</source>
        <translation>已存在同名的内容。</translation>
    </message>
    <message>
        <source>It is no longer there.</source>
        <translation>它已不存在。</translation>
    </message>
    <message>
        <source>That workspace folder does not exist.</source>
        <translation>该工作区文件夹不存在。</translation>
    </message>
    <message>
        <source>That name cannot be used.</source>
        <translation>不能使用这个名称。</translation>
    </message>
    <message>
        <source>The request was refused.</source>
        <translation>请求被拒绝。</translation>
    </message>
    <message>
        <source>The memory store cannot be used now.</source>
        <translation>记忆存储当前无法使用。</translation>
    </message>
    <message>
        <source>The write was not approved.</source>
        <translation>这次写入未被批准。</translation>
    </message>
    <message>
        <source>Context Center hit a bug</source>
        <translation>Context Center 遇到了程序错误</translation>
    </message>
    <message>
        <source>Something went wrong inside Context Center. This is a bug.</source>
        <translation>Context Center 内部出错了。这是一个程序错误（bug）。</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
</context>
<context>
    <name>FactChange</name>
    <message>
        <source>Change type</source>
        <translation>更改类型</translation>
    </message>
    <message>
        <source>New type for {ref}:</source>
        <translation>{ref} 的新类型：</translation>
    </message>
    <message>
        <source>New type for the {n} selected facts:</source>
        <translation>所选 {n} 条事实的新类型：</translation>
    </message>
    <message>
        <source>Each fact gets a new revision with the new type (its body, title and scope stay). user and feedback describe the person, project and reference the work.</source>
        <translation>每条事实都会以新类型产生一个新的修订版（正文、标题和范围不变）。用户和反馈描述人，项目和参考描述工作。</translation>
    </message>
    <message>
        <source>Rename fact</source>
        <translation>重命名事实</translation>
    </message>
    <message>
        <source>New name for {ref}:</source>
        <translation>{ref} 的新名称：</translation>
    </message>
    <message>
        <source>The file becomes &lt;name&gt;.md in the same scope; the id, the revisions and the title stay. Agents that refer to the old name find it by its id.</source>
        <translation>文件在同一范围中变为 &lt;name&gt;.md；id、修订版和标题保持不变。引用旧名称的智能体可以通过 id 找到它。</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
</context>
<context>
    <name>FactDetail</name>
    <message>
        <source>Reference</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订版</translation>
    </message>
    <message>
        <source>Created / updated
(local, {offset})</source>
        <translation>创建 / 更新
（本地时间，{offset}）</translation>
    </message>
    <message>
        <source>Stored at</source>
        <translation>存储位置</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>来源信息</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the {what} to the clipboard</source>
        <translation>把{what}复制到剪贴板</translation>
    </message>
    <message>
        <source>Copied {what}</source>
        <translation>已复制{what}</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>No fact selected</source>
        <translation>未选择事实</translation>
    </message>
    <message>
        <source>Select a fact to see its body and where it comes from, or create one with &lt;b&gt;New fact…&lt;/b&gt; (Ctrl+N).</source>
        <translation>选择一条事实以查看其正文和来源，或用 &lt;b&gt;新建事实…&lt;/b&gt;（Ctrl+N）创建一条。</translation>
    </message>
    <message>
        <source>Loading facts…</source>
        <translation>正在加载事实…</translation>
    </message>
    <message>
        <source>Reading the memory stores. The list fills in as soon as they are read; a large home can take a few seconds the first time.</source>
        <translation>正在读取记忆存储。读取完成后列表会立即显示；事实很多时，第一次可能需要几秒钟。</translation>
    </message>
    <message>
        <source>No facts yet</source>
        <translation>还没有事实</translation>
    </message>
    <message>
        <source>No facts yet — press &lt;b&gt;Ctrl+N&lt;/b&gt; to write one, or accept a suggestion in the &lt;b&gt;Suggestions&lt;/b&gt; tab. Facts you or an agent save appear here.</source>
        <translation>还没有事实——按 &lt;b&gt;Ctrl+N&lt;/b&gt; 写一条，或在 &lt;b&gt;建议&lt;/b&gt; 标签页中接受一条建议。你或智能体保存的事实会显示在这里。</translation>
    </message>
    <message>
        <source>type: {type} · scope: {scope}</source>
        <translation>类型：{type} · 范围：{scope}</translation>
    </message>
    <message>
        <source> · revision {revision}</source>
        <translation> · 修订版 {revision}</translation>
    </message>
    <message>
        <source>In UTC: {created} / {updated}</source>
        <translation>UTC 时间：{created} / {updated}</translation>
    </message>
    <message>
        <source>⚠ Overrides {ref} here (same {key}); recall uses this fact.</source>
        <translation>⚠ 在这里覆盖了 {ref}（相同的 {key}）；召回使用这条事实。</translation>
    </message>
    <message>
        <source>⚠ Overridden here by {ref} (same {key}); other workspaces still use this fact.</source>
        <translation>⚠ 在这里被 {ref} 覆盖（相同的 {key}）；其他工作区仍使用这条事实。</translation>
    </message>
</context>
<context>
    <name>FactEditor</name>
    <message>
        <source>who the person is, or what they prefer</source>
        <translation>这个人是谁，或其偏好</translation>
    </message>
    <message>
        <source>how to work, and why</source>
        <translation>如何工作，以及原因</translation>
    </message>
    <message>
        <source>a goal or constraint the code does not show</source>
        <translation>代码中看不出来的目标或约束</translation>
    </message>
    <message>
        <source>a URL, ticket or other outside resource</source>
        <translation>一个 URL、工单或其他外部资源</translation>
    </message>
    <message>
        <source>New fact</source>
        <translation>新建事实</translation>
    </message>
    <message>
        <source>Edit {ref}</source>
        <translation>编辑 {ref}</translation>
    </message>
    <message>
        <source>release-branch (becomes the file name)</source>
        <translation>release-branch（将成为文件名）</translation>
    </message>
    <message>
        <source>one line: when is this useful?</source>
        <translation>一句话：什么时候有用？</translation>
    </message>
    <message>
        <source>project — this workspace only (the safe default)</source>
        <translation>项目——仅本工作区（安全的默认值）</translation>
    </message>
    <message>
        <source>global — every workspace</source>
        <translation>全局——所有工作区</translation>
    </message>
    <message>
        <source>The fact, in Markdown.</source>
        <translation>事实内容，使用 Markdown。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Body (Markdown)</source>
        <translation>正文（Markdown）</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Save (Ctrl+S)</source>
        <translation>保存（Ctrl+S）</translation>
    </message>
    <message>
        <source>Editing revision {revision}. Saving writes revision {next}; if someone else saved first you will see what changed instead.</source>
        <translation>正在编辑修订版 {revision}。保存会写入修订版 {next}；如果有人先保存了，你会看到改了什么。</translation>
    </message>
    <message>
        <source>The name is the file name; it does not change on edit.</source>
        <translation>名称即文件名；编辑时不会改变。</translation>
    </message>
    <message>
        <source>You have unsaved changes to this fact.</source>
        <translation>这条事实有未保存的更改。</translation>
    </message>
</context>
<context>
    <name>GateReasons</name>
    <message>
        <source>This agent does not own the store, so a person decides</source>
        <translation>该智能体不拥有这个存储，因此由人来决定</translation>
    </message>
    <message>
        <source>The store cannot be checked now</source>
        <translation>现在无法检查存储</translation>
    </message>
    <message>
        <source>The agent did not give the fact&apos;s type</source>
        <translation>智能体没有指定事实的类型</translation>
    </message>
    <message>
        <source>Facts of this type need a person&apos;s confirmation</source>
        <translation>这种类型的事实需要人来确认</translation>
    </message>
    <message>
        <source>Global memory needs a person&apos;s confirmation</source>
        <translation>全局记忆需要人来确认</translation>
    </message>
    <message>
        <source>Not a plain new fact</source>
        <translation>不是单纯的新事实</translation>
    </message>
    <message>
        <source>Updates need a person&apos;s confirmation</source>
        <translation>更新需要人来确认</translation>
    </message>
    <message>
        <source>Forgetting a fact needs a person&apos;s confirmation</source>
        <translation>遗忘事实需要人来确认</translation>
    </message>
    <message>
        <source>No description was given</source>
        <translation>没有提供描述</translation>
    </message>
    <message>
        <source>The body is over the size budget</source>
        <translation>正文超出了大小预算</translation>
    </message>
    <message>
        <source>The body may contain sensitive information</source>
        <translation>正文可能包含敏感信息</translation>
    </message>
    <message>
        <source>A fact with this name exists already</source>
        <translation>已存在同名的事实</translation>
    </message>
    <message>
        <source>It may duplicate an existing fact</source>
        <translation>它可能与已有事实重复</translation>
    </message>
    <message>
        <source>the type is implicit; only explicit project/reference facts are low-risk</source>
        <translation>类型是隐含的；只有明确给出的 project/reference 事实才属于低风险</translation>
    </message>
    <message>
        <source>{type} facts need a person&apos;s confirmation; only project/reference facts are low-risk</source>
        <translation>{type}事实需要人来确认；只有 project/reference 事实才属于低风险</translation>
    </message>
    <message>
        <source>the create names an existing fact (id, ref or expected revision): it is an update</source>
        <translation>这次创建指向一条已有事实（ID、引用或预期修订版）：它其实是一次更新</translation>
    </message>
    <message>
        <source>description and body are required for an automatic write</source>
        <translation>自动写入需要描述和正文</translation>
    </message>
    <message>
        <source>the body has {n} characters; the automatic-write budget is {budget}</source>
        <translation>正文有 {n} 个字符；自动写入的预算是 {budget}</translation>
    </message>
    <message>
        <source>the {field} may contain sensitive information: {labels}</source>
        <translation>{field}可能包含敏感信息：{labels}</translation>
    </message>
    <message>
        <source>a fact named &apos;{name}&apos; already exists: {ref}</source>
        <translation>名为“{name}”的事实已存在：{ref}</translation>
    </message>
    <message>
        <source>the title overlaps the title of {ref}</source>
        <translation>标题与 {ref} 的标题重叠</translation>
    </message>
    <message>
        <source>the description overlaps the description of {ref}</source>
        <translation>描述与 {ref} 的描述重叠</translation>
    </message>
    <message>
        <source>the project store cannot be read</source>
        <translation>无法读取项目存储</translation>
    </message>
    <message>
        <source>the project store is unavailable: {error}</source>
        <translation>项目存储不可用：{error}</translation>
    </message>
    <message>
        <source>and {n} more</source>
        <translation>另有 {n} 项</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>body</source>
        <translation>正文</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>History</name>
    <message>
        <source>Who changed what and when in this workspace: every saved revision and every decision on an agent&apos;s write. Times are local.</source>
        <translation>本工作区中谁在何时改了什么：每个已保存的修订版，以及对智能体写入的每项决定。时间为本地时间。</translation>
    </message>
    <message>
        <source>Filter by fact: a ref (project/&lt;name&gt;.md), a name or an id</source>
        <translation>按事实筛选：引用（project/&lt;name&gt;.md）、名称或 id</translation>
    </message>
    <message>
        <source>Show in Memory</source>
        <translation>在记忆中显示</translation>
    </message>
    <message>
        <source>Open the selected fact in the Memory tab (or double-click the row)</source>
        <translation>在“记忆”标签页中打开所选事实（或双击该行）</translation>
    </message>
    <message>
        <source>No changes recorded yet. Saving a fact, and approving or rejecting an agent&apos;s write, each add a row here.</source>
        <translation>尚无更改记录。保存事实、批准或拒绝智能体的写入，都会在这里添加一行。</translation>
    </message>
    <message>
        <source>Nothing recorded for “{text}”.</source>
        <translation>没有关于“{text}”的记录。</translation>
    </message>
    <message>
        <source>{n} change, newest first</source>
        <translation>{n} 项更改，最新的在前</translation>
    </message>
    <message>
        <source>{n} changes, newest first</source>
        <translation>{n} 项更改，最新的在前</translation>
    </message>
    <message>
        <source>{ref} is no longer active (see the Archive tab)</source>
        <translation>{ref} 已不再处于活动状态（见“归档”标签页）</translation>
    </message>
    <message>
        <source>a person</source>
        <translation>某人</translation>
    </message>
    <message>
        <source>{action} · r{revision}</source>
        <translation>{action} · 修订版 {revision}</translation>
    </message>
    <message>
        <source>created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <source>revised</source>
        <translation>已修订</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>已重命名</translation>
    </message>
    <message>
        <source>proposed (queued)</source>
        <translation>已提议（排队中）</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>rejection undone (queued again)</source>
        <translation>已撤销拒绝（重新排队）</translation>
    </message>
    <message>
        <source>approval failed</source>
        <translation>批准失败</translation>
    </message>
    <message>
        <source>written by the gate</source>
        <translation>由闸门写入</translation>
    </message>
    <message>
        <source>refused by the gate</source>
        <translation>被闸门拒绝</translation>
    </message>
    <message>
        <source>directly (window, CLI, import)</source>
        <translation>直接（窗口、CLI、导入）</translation>
    </message>
    <message>
        <source>approval of an agent&apos;s write</source>
        <translation>批准智能体的写入</translation>
    </message>
    <message>
        <source>the approval queue</source>
        <translation>审批队列</translation>
    </message>
    <message>
        <source>the write gate (no approval needed)</source>
        <translation>写入闸门（无需批准）</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
</context>
<context>
    <name>HistoryText</name>
    <message>
        <source>name: {before} → {after}</source>
        <translation>名称：{before} → {after}</translation>
    </message>
    <message>
        <source>type: {before} → {after}</source>
        <translation>类型：{before} → {after}</translation>
    </message>
    <message>
        <source>reason: {text}</source>
        <translation>理由：{text}</translation>
    </message>
    <message>
        <source>error: {code}</source>
        <translation>错误：{code}</translation>
    </message>
    <message>
        <source>requeued from: {id}</source>
        <translation>重新排队自：{id}</translation>
    </message>
    <message>
        <source>requeued as: {id}</source>
        <translation>重新排队为：{id}</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>text</source>
        <translation>正文</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>InstructionChain</name>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>ancestor</source>
        <translation>上级目录</translation>
    </message>
    <message>
        <source>local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>above</source>
        <translation>工作区之上</translation>
    </message>
    <message>
        <source>rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>needs approval</source>
        <translation>需要批准</translation>
    </message>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Document / import</source>
        <translation>文档 / 导入</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>适用于</translation>
    </message>
    <message>
        <source>Precedence</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>The folder a document applies to; for an import, the line that imports it</source>
        <translation>文档适用的文件夹；导入则为导入它的那一行</translation>
    </message>
    <message>
        <source>{label} — {size} bytes on disk</source>
        <translation>{label} — 磁盘上 {size} 字节</translation>
    </message>
    <message>
        <source>line {line} of {source}</source>
        <translation>{source} 的第 {line} 行</translation>
    </message>
    <message>
        <source>Rejected ({code}) — {where}</source>
        <translation>已拒绝（{code}）— {where}</translation>
    </message>
    <message>
        <source>Already loaded as {loaded_as} — {where}</source>
        <translation>已作为 {loaded_as} 加载 — {where}</translation>
    </message>
    <message>
        <source>Already loaded above — {where}</source>
        <translation>已在上方加载 — {where}</translation>
    </message>
    <message>
        <source>No such file; the agent skips it — {where}</source>
        <translation>没有这个文件；智能体会跳过它 — {where}</translation>
    </message>
    <message>
        <source>Outside the working directory: loaded only after you approve — {where}</source>
        <translation>在工作目录之外：只有在你批准后才会加载 — {where}</translation>
    </message>
    <message>
        <source>Imported by {where}</source>
        <translation>由 {where} 导入</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>第 {line} 行</translation>
    </message>
</context>
<context>
    <name>InstructionCompare</name>
    <message>
        <source>loaded</source>
        <translation>已加载</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>cut off</source>
        <translation>被截断</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>未读到</translation>
    </message>
    <message>
        <source>needs approval</source>
        <translation>需要批准</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>{state} at {n} B</source>
        <translation>{state}，截于 {n} B</translation>
    </message>
    <message>
        <source>{name}: {n} file, {chars} characters</source>
        <translation>{name}：{n} 个文件，{chars} 个字符</translation>
    </message>
    <message>
        <source>{name}: {n} files, {chars} characters</source>
        <translation>{name}：{n} 个文件，{chars} 个字符</translation>
    </message>
    <message>
        <source>({used} of {limit} project bytes)</source>
        <translation>（已用项目字节 {used} / {limit}）</translation>
    </message>
    <message>
        <source>Open this pane to compare what each agent loads.</source>
        <translation>打开此面板，比较每个智能体加载了什么。</translation>
    </message>
    <message>
        <source>Exact text of</source>
        <translation>精确文本：</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Cross-agent diagnostics</source>
        <translation>跨智能体诊断</translation>
    </message>
    <message>
        <source>Exact text</source>
        <translation>精确文本</translation>
    </message>
    <message>
        <source>The agents agree: no differences.</source>
        <translation>各智能体一致：没有差异。</translation>
    </message>
    <message>
        <source>Cross-agent diagnostics ({n})</source>
        <translation>跨智能体诊断（{n}）</translation>
    </message>
</context>
<context>
    <name>InstructionsTab</name>
    <message>
        <source>No instruction file applies here yet — add a standing rule above, or write an AGENTS.md or CLAUDE.md in the workspace.</source>
        <translation>这里还没有适用的指令文件——在上方添加一条常驻规则，或在工作区中写一个 AGENTS.md 或 CLAUDE.md。</translation>
    </message>
    <message>
        <source>Whose rules: what Reasonix, Claude Code or Codex loads here</source>
        <translation>谁的规则：Reasonix、Claude Code 或 Codex 在这里加载什么</translation>
    </message>
    <message>
        <source>The directory the agent works in, relative to the workspace</source>
        <translation>智能体工作的目录，相对于工作区</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>A standing rule, e.g. Run the tests before committing</source>
        <translation>一条常驻规则，例如：提交前运行测试</translation>
    </message>
    <message>
        <source>project (AGENTS.md)</source>
        <translation>项目（AGENTS.md）</translation>
    </message>
    <message>
        <source>local (AGENTS.local.md)</source>
        <translation>本地（AGENTS.local.md）</translation>
    </message>
    <message>
        <source>user (home AGENTS.md)</source>
        <translation>用户（主目录中的 AGENTS.md）</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>添加规则</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Resolved chain — broadest first; later entries win</source>
        <translation>解析后的链——范围最广的在前；后面的条目优先</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Prefix preview</source>
        <translation>前缀预览</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Target directory</source>
        <translation>目标目录</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Diagnostics — none</source>
        <translation>诊断——无</translation>
    </message>
    <message>
        <source>Select a document in the chain to view or edit it.</source>
        <translation>在链中选择一个文档以查看或编辑。</translation>
    </message>
    <message>
        <source>Prefix ({n} chars)</source>
        <translation>前缀（{n} 个字符）</translation>
    </message>
    <message>
        <source>{file}, line {line}</source>
        <translation>{file}，第 {line} 行</translation>
    </message>
    <message>
        <source>{code} — {where}: {message}</source>
        <translation>{code} — {where}：{message}</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Saved {file}</source>
        <translation>已保存 {file}</translation>
    </message>
    <message>
        <source>Added the rule to {file}</source>
        <translation>已将规则添加到 {file}</translation>
    </message>
    <message>
        <source>Diagnostics ({n}) — double-click to open the file at that line</source>
        <translation>诊断（{n}）——双击可在对应行打开文件</translation>
    </message>
    <message>
        <source>⚠ A large prefix: {warnings}.</source>
        <translation>⚠ 前缀较大：{warnings}。</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Discard your unsaved changes to {name}?</source>
        <translation>放弃你对 {name} 的未保存更改？</translation>
    </message>
    <message>
        <source>({shown} of {total} shown)</source>
        <translation>（显示 {shown} / {total}）</translation>
    </message>
    <message>
        <source>Prefix: {n} characters</source>
        <translation>前缀：{n} 个字符</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Save the file ({keys})</source>
        <translation>保存文件（{keys}）</translation>
    </message>
    <message>
        <source>Exactly what a session starts with: stable guidance, these instructions and the memory index ({order}). Local paths are replaced by labels.</source>
        <translation>会话开始时的确切内容：稳定的指导、这些指令以及记忆索引（{order}）。本地路径会替换为标签。</translation>
    </message>
    <message>
        <source>What {agent} starts with: its instruction files as it assembles them (labels for local paths). Context Center&apos;s memory reaches it only through its tools.</source>
        <translation>{agent} 开始时的内容：它组装的指令文件（本地路径以标签代替）。Context Center 的记忆只能通过它的工具到达它。</translation>
    </message>
</context>
<context>
    <name>InstructionsUnsaved</name>
    <message>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <source>The instruction file {name} has unsaved changes.</source>
        <translation>指令文件 {name} 有未保存的更改。</translation>
    </message>
    <message>
        <source>Discard them, or go back to the editor to save them?</source>
        <translation>放弃这些更改，还是回到编辑器保存它们？</translation>
    </message>
    <message>
        <source>Discard changes</source>
        <translation>放弃更改</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Activity</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
    <message>
        <source>Home: {home}</source>
        <translation>数据目录：{home}</translation>
    </message>
    <message>
        <source>Workspace: {path}</source>
        <translation>工作区：{path}</translation>
    </message>
    <message>
        <source>1 agent write waiting for your decision</source>
        <translation>1 项智能体写入等待你决定</translation>
    </message>
    <message>
        <source>{n} agent writes waiting for your decision</source>
        <translation>{n} 项智能体写入等待你决定</translation>
    </message>
    <message>
        <source>No agent writes are waiting</source>
        <translation>没有等待中的智能体写入</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>修订</translation>
    </message>
    <message>
        <source>Instruction files are followed at the root only: {error}</source>
        <translation>只跟踪根目录下的指令文件：{error}</translation>
    </message>
</context>
<context>
    <name>MemoryBanners</name>
    <message>
        <source>{project} overrides {global_} (same &lt;b&gt;{key}&lt;/b&gt;). </source>
        <translation>{project} 覆盖了 {global_}（相同的 &lt;b&gt;{key}&lt;/b&gt;）。</translation>
    </message>
    <message>
        <source>…and {n} more, marked ⚠ in the table.</source>
        <translation>……另有 {n} 处，已在表格中用 ⚠ 标出。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n} project-over-global override&lt;/b&gt; — both facts are kept and shown; in this workspace the project one applies.</source>
        <translation>&lt;b&gt;{n} 处项目覆盖全局&lt;/b&gt;——两条事实都会保留并显示；在本工作区中以项目事实为准。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n} project-over-global overrides&lt;/b&gt; — both facts are kept and shown; in this workspace the project one applies.</source>
        <translation>&lt;b&gt;{n} 处项目覆盖全局&lt;/b&gt;——两条事实都会保留并显示；在本工作区中以项目事实为准。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n} fact file could not be read&lt;/b&gt; and is left out of the table and of recall. The file is not changed; fix or remove it and the table follows.</source>
        <translation>&lt;b&gt;{n} 个事实文件无法读取&lt;/b&gt;，已从表格和召回中排除。该文件没有被修改；修复或删除它后，表格会随之更新。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{n} fact files could not be read&lt;/b&gt; and are left out of the table and of recall. The files are not changed; fix or remove them and the table follows.</source>
        <translation>&lt;b&gt;{n} 个事实文件无法读取&lt;/b&gt;，已从表格和召回中排除。这些文件没有被修改；修复或删除它们后，表格会随之更新。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{code}&lt;/b&gt; · &lt;code&gt;{file}&lt;/code&gt; — {message}</source>
        <translation>&lt;b&gt;{code}&lt;/b&gt; · &lt;code&gt;{file}&lt;/code&gt; — {message}</translation>
    </message>
    <message>
        <source>line {line}: </source>
        <translation>第 {line} 行：</translation>
    </message>
    <message>
        <source>Show all {n}</source>
        <translation>显示全部 {n} 项</translation>
    </message>
    <message>
        <source>Resolve sync conflicts…</source>
        <translation>解决同步冲突…</translation>
    </message>
    <message>
        <source>Show fewer</source>
        <translation>收起</translation>
    </message>
    <message>
        <source>{project} and {global_} share the same {key}. In this workspace the project fact applies: recall injects only {project}, and {global_} is left out of the stable guidance. Neither file is changed; other workspaces still see {global_}.</source>
        <translation>{project} 与 {global_} 的{key}相同。在本工作区中以项目事实为准：召回只注入 {project}，{global_} 不会进入稳定指导。两个文件都不会被修改；其他工作区仍会看到 {global_}。</translation>
    </message>
    <message>
        <source>In this workspace each project fact applies: recall injects only it, and the global fact it overrides is left out of the stable guidance. No file is changed; other workspaces still see the global facts.</source>
        <translation>在本工作区，每条项目事实生效：召回只注入它，被它覆盖的全局事实不进入稳定指导。不会修改任何文件；其他工作区仍能看到这些全局事实。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
</context>
<context>
    <name>MemoryBulk</name>
    <message>
        <source>Change &amp;type…</source>
        <translation>更改类型(&amp;T)…</translation>
    </message>
    <message>
        <source>Give the selected facts another type (a new revision each)</source>
        <translation>为所选事实更换类型（每条产生一个新修订版）</translation>
    </message>
    <message>
        <source>Move to &amp;global</source>
        <translation>移到全局(&amp;G)</translation>
    </message>
    <message>
        <source>Promote the selected project facts to global: every workspace sees them (same id and history)</source>
        <translation>把所选项目事实提升为全局：所有工作区都能看到它们（id 和历史不变）</translation>
    </message>
    <message>
        <source>Move to &amp;project</source>
        <translation>移到项目(&amp;P)</translation>
    </message>
    <message>
        <source>Move the selected global facts into this workspace&apos;s project store</source>
        <translation>把所选全局事实移入本工作区的项目存储</translation>
    </message>
    <message>
        <source>Re&amp;name…</source>
        <translation>重命名(&amp;N)…</translation>
    </message>
    <message>
        <source>Give the selected fact another name (its id and history stay)</source>
        <translation>为所选事实换一个名称（id 和历史不变）</translation>
    </message>
    <message>
        <source>Move facts</source>
        <translation>移动事实</translation>
    </message>
    <message>
        <source>Move {ref} to {scope}?</source>
        <translation>把 {ref} 移到{scope}？</translation>
    </message>
    <message>
        <source>Move {n} facts to {scope}?</source>
        <translation>把 {n} 条事实移到{scope}？</translation>
    </message>
    <message>
        <source>Global facts are recalled in every workspace. Each keeps its id and revisions; the project copy is kept in the project archive.</source>
        <translation>全局事实会在所有工作区中被召回。每条事实保留其 id 和修订版；项目中的副本保存在项目归档中。</translation>
    </message>
    <message>
        <source>Project facts are recalled only in this workspace. Each keeps its id and revisions; the global copy is kept in the global archive.</source>
        <translation>项目事实只在本工作区中被召回。每条事实保留其 id 和修订版；全局副本保存在全局归档中。</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <source>Moved {n} fact to {scope}</source>
        <translation>已把 {n} 条事实移到{scope}</translation>
    </message>
    <message>
        <source>Moved {n} facts to {scope}</source>
        <translation>已把 {n} 条事实移到{scope}</translation>
    </message>
    <message>
        <source>Changed {n} fact to type {type}</source>
        <translation>已把 {n} 条事实的类型改为{type}</translation>
    </message>
    <message>
        <source>Changed {n} facts to type {type}</source>
        <translation>已把 {n} 条事实的类型改为{type}</translation>
    </message>
    <message>
        <source>The selected facts are already {scope} facts</source>
        <translation>所选事实已经是{scope}事实</translation>
    </message>
    <message>
        <source>The selected facts already have type {type}</source>
        <translation>所选事实的类型已经是{type}</translation>
    </message>
    <message>
        <source>Renamed {old} to {ref}</source>
        <translation>已将 {old} 重命名为 {ref}</translation>
    </message>
    <message>
        <source> · {n} skipped: {error}</source>
        <translation> · 跳过 {n} 条：{error}</translation>
    </message>
</context>
<context>
    <name>MemoryTab</name>
    <message>
        <source>{ref} — part of a project-over-global pair (see the banner)</source>
        <translation>{ref} — 属于一对项目覆盖全局的事实（见横幅）</translation>
    </message>
    <message>
        <source>Search titles, names, descriptions and bodies…  (Ctrl+F)</source>
        <translation>搜索标题、名称、描述和正文…  （Ctrl+F）</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <source>Both scopes</source>
        <translation>两种范围</translation>
    </message>
    <message>
        <source>Any freshness</source>
        <translation>任意新鲜度</translation>
    </message>
    <message>
        <source>Loading facts…</source>
        <translation>正在加载事实…</translation>
    </message>
    <message>
        <source>New fact…</source>
        <translation>新建事实…</translation>
    </message>
    <message>
        <source>Create a fact in this workspace or globally</source>
        <translation>在本工作区或全局创建一条事实</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Edit the selected fact</source>
        <translation>编辑所选事实</translation>
    </message>
    <message>
        <source>Forget…</source>
        <translation>遗忘…</translation>
    </message>
    <message>
        <source>Move the selected fact to the archive (recoverable)</source>
        <translation>把所选事实移入归档（可恢复）</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>修订历史</translation>
    </message>
    <message>
        <source>Show the revision history of the selected fact</source>
        <translation>显示所选事实的修订历史</translation>
    </message>
    <message>
        <source>{project} project · {global_} global</source>
        <translation>项目 {project} 条 · 全局 {global_} 条</translation>
    </message>
    <message>
        <source> · {n} file left out (see the banner)</source>
        <translation> · {n} 个文件被排除（见横幅）</translation>
    </message>
    <message>
        <source> · {n} files left out (see the banner)</source>
        <translation> · {n} 个文件被排除（见横幅）</translation>
    </message>
    <message>
        <source>{shown} of {total} facts</source>
        <translation>显示 {shown} / {total} 条事实</translation>
    </message>
    <message>
        <source>{total} facts</source>
        <translation>{total} 条事实</translation>
    </message>
    <message>
        <source>Created {ref}</source>
        <translation>已创建 {ref}</translation>
    </message>
    <message>
        <source>Saved {ref} as revision {revision}</source>
        <translation>已将 {ref} 保存为修订版 {revision}</translation>
    </message>
    <message>
        <source>Forget fact</source>
        <translation>遗忘事实</translation>
    </message>
    <message>
        <source>Forget {ref}?</source>
        <translation>遗忘 {ref}？</translation>
    </message>
    <message>
        <source>“{title}” leaves active recall and moves to the archive. You can recover it from the Archive tab as a new revision.</source>
        <translation>“{title}”将退出活动召回并移入归档。你可以在“归档”标签页中把它恢复为新的修订版。</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>遗忘</translation>
    </message>
    <message>
        <source>Forget {n} facts?</source>
        <translation>遗忘 {n} 条事实？</translation>
    </message>
    <message>
        <source>They leave active recall and move to the archive ({refs}). You can recover them from the Archive tab, or press Undo in the status bar right away.</source>
        <translation>它们将退出活动召回并移入归档（{refs}）。你可以在“归档”标签页中恢复它们，或立即点击状态栏中的“撤销”。</translation>
    </message>
    <message>
        <source>Forgot {n} facts (archived). Undo recovers them from the archive as new revisions.</source>
        <translation>已遗忘 {n} 条事实（已归档）。撤销会把它们从归档中恢复为新的修订版。</translation>
    </message>
    <message>
        <source>Recovered {n} fact from the archive</source>
        <translation>已从归档中恢复 {n} 条事实</translation>
    </message>
    <message>
        <source>Recovered {n} facts from the archive</source>
        <translation>已从归档中恢复 {n} 条事实</translation>
    </message>
    <message>
        <source>Recover under a new name</source>
        <translation>以新名称恢复</translation>
    </message>
    <message>
        <source>{ref} is taken by another fact now. Recover the forgotten fact as (a file name in {scope}):</source>
        <translation>{ref} 现在已被另一条事实占用。将被遗忘的事实恢复为（{scope} 中的文件名）：</translation>
    </message>
    <message>
        <source>Recover</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>{ref} was not recovered: {reason}. It stays in the Archive tab.</source>
        <translation>{ref} 未恢复：{reason}。它仍保留在“归档”标签页中。</translation>
    </message>
    <message>
        <source>Forgot {ref} (archived as {archived}). Undo recovers it from the archive as a new revision.</source>
        <translation>已遗忘 {ref}（归档为 {archived}）。撤销会把它从归档中恢复为新的修订版。</translation>
    </message>
    <message>
        <source>Link not opened: {url}</source>
        <translation>未打开链接：{url}</translation>
    </message>
    <message>
        <source>Open link?</source>
        <translation>打开链接？</translation>
    </message>
    <message>
        <source>Open this link in your web browser?</source>
        <translation>在网页浏览器中打开这个链接？</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <source>The fact editor has unsaved changes.</source>
        <translation>事实编辑器中有未保存的更改。</translation>
    </message>
    <message>
        <source>Discard them, or go back to the editor?</source>
        <translation>放弃这些更改，还是回到编辑器？</translation>
    </message>
    <message>
        <source>Discard changes</source>
        <translation>放弃更改</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>The language changes when Context Center starts next.</source>
        <translation>语言将在 Context Center 下次启动时更改。</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Switch &amp;workspace…</source>
        <translation>切换工作区(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Context Center</source>
        <translation>关于 Context Center(&amp;A)</translation>
    </message>
    <message>
        <source>About Context Center</source>
        <translation>关于 Context Center</translation>
    </message>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt; {version}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; {version}</translation>
    </message>
    <message>
        <source>See, edit and govern the context AI coding agents carry: memory facts, standing instructions, recall and the approval of agent writes.

Home: {home}
Qt {qt} · PySide6 {pyside} · Python {python}</source>
        <translation>查看、编辑并管理 AI 编程智能体携带的上下文：记忆事实、常驻指令、召回以及对智能体写入的审批。

数据目录：{home}
Qt {qt} · PySide6 {pyside} · Python {python}</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Every command of the window and its shortcut</source>
        <translation>窗口的所有命令及其快捷键</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab	move between the parts of a tab
Ctrl+S	save in the fact editor, accept in the Suggestions editor, approve the edited copy in the approval dialog
Escape	close a dialog (asks first when text would be lost)</source>
        <translation>Tab / Shift+Tab	在标签页的各部分之间移动
Ctrl+S	在事实编辑器中保存，在建议编辑器中接受，在审批对话框中批准编辑后的副本
Escape	关闭对话框（会丢失文字时先询问）</translation>
    </message>
    <message>
        <source>&amp;Undo the last forget, dismissal or rejection</source>
        <translation>撤销上一次遗忘、忽略或拒绝(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Accept the suggestion</source>
        <translation>接受建议(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Dismiss the suggestion</source>
        <translation>忽略建议(&amp;D)</translation>
    </message>
    <message>
        <source>Re&amp;view the pending write…</source>
        <translation>审阅待审批的写入(&amp;V)…</translation>
    </message>
    <message>
        <source>Re&amp;ject the selected writes…</source>
        <translation>拒绝所选写入(&amp;J)…</translation>
    </message>
    <message>
        <source>Re&amp;cover from the archive</source>
        <translation>从归档中恢复(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save the instruction file</source>
        <translation>保存指令文件(&amp;S)</translation>
    </message>
    <message>
        <source>Re&amp;vert the instruction file</source>
        <translation>还原指令文件(&amp;V)</translation>
    </message>
</context>
<context>
    <name>PrefixPane</name>
    <message>
        <source>guidance</source>
        <translation>稳定指导</translation>
    </message>
    <message>
        <source>instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>index</source>
        <translation>记忆索引</translation>
    </message>
    <message>
        <source>most recalled first, then newest first</source>
        <translation>召回次数最多的在前，其次最新的在前</translation>
    </message>
    <message>
        <source>newest first (no recall counts are kept, so recency decides)</source>
        <translation>最新的在前（未记录召回次数，因此按新旧排序）</translation>
    </message>
</context>
<context>
    <name>RecallText</name>
    <message>
        <source>matched {terms}; {scope} scope</source>
        <translation>匹配了 {terms}；{scope}范围</translation>
    </message>
    <message>
        <source>{term} via {via}</source>
        <translation>{term}（经由 {via}）</translation>
    </message>
    <message>
        <source>+{n} more</source>
        <translation>另 {n} 项</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>matched only {words}: {why}</source>
        <translation>只匹配了 {words}：{why}</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>一个数字</translation>
    </message>
    <message>
        <source>one term alone must be identifier-like or rare in the store (or long, in a message of at most two terms)</source>
        <translation>单独一个词须像标识符，或在本库中少见（或在不超过两个词的消息里足够长）</translation>
    </message>
    <message>
        <source>none of it in the fact&apos;s name, title or description</source>
        <translation>事实的名称、标题和描述里都没有它</translation>
    </message>
    <message>
        <source>matched only words frequent in this store, and the message&apos;s {words} is in no fact</source>
        <translation>只匹配了本库中常见的词，而消息里的 {words} 不在任何事实中</translation>
    </message>
    <message>
        <source>superseded by {ref} (newer, {how})</source>
        <translation>已被 {ref} 取代（更新；{how}）</translation>
    </message>
    <message>
        <source>supersedes link</source>
        <translation>Supersedes 链接</translation>
    </message>
    <message>
        <source>same title</source>
        <translation>标题相同</translation>
    </message>
    <message>
        <source>generic user turn</source>
        <translation>泛泛的用户消息</translation>
    </message>
    <message>
        <source>no searchable terms (only common words)</source>
        <translation>没有可检索的词（只有常用词）</translation>
    </message>
    <message>
        <source>memory store is empty</source>
        <translation>记忆库是空的</translation>
    </message>
    <message>
        <source>no sufficiently distinctive match</source>
        <translation>没有足够有区分度的匹配</translation>
    </message>
    <message>
        <source>score under {0} × the best eligible match&apos;s score (relative cut)</source>
        <translation>得分低于最佳合格匹配得分的 {0} 倍（相对截断）</translation>
    </message>
    <message>
        <source>an equivalent project fact overrides this global fact</source>
        <translation>一条同等的项目事实覆盖了这条全局事实</translation>
    </message>
    <message>
        <source>global user/feedback fact is already in the stable guidance</source>
        <translation>全局的用户/反馈事实已在稳定指导中</translation>
    </message>
    <message>
        <source>a newer fact on the same subject replaces this one</source>
        <translation>同一主题下有更新的事实取代了它</translation>
    </message>
    <message>
        <source>a broad fact matched only on words frequent in this store (score x {0}), then under {1} x the best eligible match&apos;s score</source>
        <translation>宽泛的事实只匹配了本库中常见的词（得分 × {0}），随后低于最佳合格匹配得分的 {1} 倍</translation>
    </message>
    <message>
        <source>matched fewer of the message&apos;s terms than the best fact and scored under {0} x its score</source>
        <translation>匹配到的消息词少于最佳事实，且得分低于其 {0} 倍</translation>
    </message>
    <message>
        <source>matched facts exceeded the recall budget</source>
        <translation>匹配的事实超出了召回预算</translation>
    </message>
    <message>
        <source>did not fit in the character budget even when shortened</source>
        <translation>即使缩短后也放不进字符预算</translation>
    </message>
    <message>
        <source>matched only words frequent in this store, beside a distinctive match or more such facts</source>
        <translation>只匹配了本库中常见的词，而已有一个有区分度的匹配或更多这样的事实</translation>
    </message>
    <message>
        <source>matched only in the fact&apos;s body: no matched term in its name, title or description, no identifier, fewer than two words rare in the store and fewer than three terms</source>
        <translation>只在事实正文中匹配：名称、标题和描述中没有匹配的词，没有标识符，本库中少见的词不到两个，且匹配的词不到三个</translation>
    </message>
</context>
<context>
    <name>RefusalText</name>
    <message>
        <source>revision conflict on {ref}: expected {expected}, found {found}</source>
        <translation>{ref} 的修订版冲突：预期 {expected}，实际 {found}</translation>
    </message>
    <message>
        <source>{ref} changed on disk since you read it (revision {revision}, content differs); read it again before saving</source>
        <translation>你读取 {ref} 之后，它在磁盘上发生了变化（修订版 {revision}，内容不同）；请重新读取后再保存</translation>
    </message>
    <message>
        <source>{ref} was edited by hand after revision {revision} was written (its revision was not bumped); read it again and save with its content hash</source>
        <translation>{ref} 在写入修订版 {revision} 之后被手动编辑过（修订版号没有增加）；请重新读取，并带上它的内容哈希保存</translation>
    </message>
    <message>
        <source>{ref} changed since the forget was queued (content differs)</source>
        <translation>遗忘请求排队之后 {ref} 发生了变化（内容不同）</translation>
    </message>
    <message>
        <source>{file} changed on disk since you opened it; your text was not saved. Copy it, reload the file and apply your change again.</source>
        <translation>你打开 {file} 之后，它在磁盘上发生了变化；你的文本没有保存。请复制它，重新加载文件，再应用一次你的修改。</translation>
    </message>
    <message>
        <source>{ref} already exists; creates never overwrite (choose another name or update it)</source>
        <translation>{ref} 已存在；创建从不覆盖（请换一个名称，或更新它）</translation>
    </message>
    <message>
        <source>{ref} is already used by another fact</source>
        <translation>{ref} 已被另一条事实使用</translation>
    </message>
    <message>
        <source>id {id} is already active in the {scope} store as {ref}; resolve that pair first</source>
        <translation>ID {id} 已作为 {ref} 在{scope}存储中处于活动状态；请先解决这一对</translation>
    </message>
    <message>
        <source>{ref} already exists: rename one of the two facts first (nothing was moved)</source>
        <translation>{ref} 已存在：请先重命名这两条事实中的一条（没有移动任何内容）</translation>
    </message>
    <message>
        <source>{path} already exists; skills are never overwritten</source>
        <translation>{path} 已存在；技能从不覆盖</translation>
    </message>
    <message>
        <source>a skill named &apos;{name}&apos; already exists ({path}); skills are never overwritten: choose another name</source>
        <translation>名为“{name}”的技能已存在（{path}）；技能从不覆盖：请换一个名称</translation>
    </message>
    <message>
        <source>no active fact has id {id}</source>
        <translation>没有 ID 为 {id} 的活动事实</translation>
    </message>
    <message>
        <source>no active fact named &apos;{name}&apos; in the project or global store</source>
        <translation>项目存储和全局存储中都没有名为“{name}”的活动事实</translation>
    </message>
    <message>
        <source>{ref} does not exist</source>
        <translation>{ref} 不存在</translation>
    </message>
    <message>
        <source>{ref} is no longer active</source>
        <translation>{ref} 已不再处于活动状态</translation>
    </message>
    <message>
        <source>{ref} has no saved revision {revision}</source>
        <translation>{ref} 没有已保存的修订版 {revision}</translation>
    </message>
    <message>
        <source>no approval item {id}</source>
        <translation>没有审批条目 {id}</translation>
    </message>
    <message>
        <source>no pending approval item {id}</source>
        <translation>没有待审批条目 {id}</translation>
    </message>
    <message>
        <source>no current suggestion has id &apos;{id}&apos; (scan again to see the current ones)</source>
        <translation>当前没有 ID 为“{id}”的建议（重新扫描以查看当前的建议）</translation>
    </message>
    <message>
        <source>the target folder {label} does not exist</source>
        <translation>目标文件夹 {label} 不存在</translation>
    </message>
    <message>
        <source>cannot recover: {ref} is already active (another fact has that name)</source>
        <translation>无法恢复：{ref} 已处于活动状态（另一条事实使用了这个名称）</translation>
    </message>
    <message>
        <source>cannot recover: id {id} is already active as {ref}</source>
        <translation>无法恢复：ID {id} 已作为 {ref} 处于活动状态</translation>
    </message>
    <message>
        <source>cannot recover {file}: it is a hard link shared with another file (link count {n})</source>
        <translation>无法恢复 {file}：它是与另一个文件共享的硬链接（链接数 {n}）</translation>
    </message>
    <message>
        <source>name &apos;{name}&apos; has no letters or digits to make a file name from</source>
        <translation>名称“{name}”中没有可用来生成文件名的字母或数字</translation>
    </message>
    <message>
        <source>name &apos;{name}&apos; is reserved (&apos;{slug}&apos; cannot be a fact file name)</source>
        <translation>名称“{name}”是保留名称（“{slug}”不能用作事实文件名）</translation>
    </message>
    <message>
        <source>{what} is busy: another process has held its lock for more than {seconds} s; try again</source>
        <translation>{what}正忙：另一个进程持有它的锁已超过 {seconds} 秒；请重试</translation>
    </message>
    <message>
        <source>cannot read {file}: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <source>suggestion {id} was already {decision}</source>
        <translation>建议 {id} 已经{decision}</translation>
    </message>
    <message>
        <source>the note is empty</source>
        <translation>规则内容为空</translation>
    </message>
    <message>
        <source>the note is {n} characters; a standing rule is at most {limit}</source>
        <translation>规则有 {n} 个字符；一条常驻规则最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>an accepted memory needs a body</source>
        <translation>接受的记忆需要正文</translation>
    </message>
    <message>
        <source>an accepted skill needs a description</source>
        <translation>接受的技能需要描述</translation>
    </message>
    <message>
        <source>an accepted skill needs at least one step</source>
        <translation>接受的技能至少需要一个步骤</translation>
    </message>
    <message>
        <source>an accepted skill needs a body</source>
        <translation>接受的技能需要正文</translation>
    </message>
    <message>
        <source>suggestion {id} is not dismissed; there is nothing to undo</source>
        <translation>建议 {id} 没有被忽略；没有可撤销的操作</translation>
    </message>
    <message>
        <source>{path} leads outside the workspace (to {real}); skills are only written inside the workspace: replace the link with a folder, or remove it</source>
        <translation>{path} 指向工作区之外（{real}）；技能只写在工作区内：请把这个链接换成文件夹，或删除它</translation>
    </message>
    <message>
        <source>{ref} cannot be used: {problem}</source>
        <translation>{ref} 无法使用：{problem}</translation>
    </message>
    <message>
        <source>{ref} cannot be read: {error}</source>
        <translation>无法读取 {ref}：{error}</translation>
    </message>
    <message>
        <source>{ref} is already a {scope} fact</source>
        <translation>{ref} 已经是{scope}事实</translation>
    </message>
    <message>
        <source>revision {revision} of {ref} is already the current one</source>
        <translation>{ref} 的修订版 {revision} 已经是当前版本</translation>
    </message>
    <message>
        <source>cannot create the {scope} store: {error}</source>
        <translation>无法创建{scope}存储：{error}</translation>
    </message>
    <message>
        <source>cannot write the {scope} store: {error}</source>
        <translation>无法写入{scope}存储：{error}</translation>
    </message>
    <message>
        <source>cannot take the lock of {what}: {error}</source>
        <translation>无法获取{what}的锁：{error}</translation>
    </message>
    <message>
        <source>the lock file of the suggestion decisions ({file}) ({lock}) is a symbolic link; refusing to follow it</source>
        <translation>建议决定记录（{file}）的锁文件（{lock}）是符号链接；拒绝跟随它</translation>
    </message>
    <message>
        <source>the lock file of {what} ({file}) is a symbolic link; refusing to follow it</source>
        <translation>{what}的锁文件（{file}）是符号链接；拒绝跟随它</translation>
    </message>
    <message>
        <source>the store&apos;s {index} is a symbolic link; refusing to read or replace it (remove the link and the index is rebuilt)</source>
        <translation>存储的 {index} 是符号链接；拒绝读取或替换它（删除这个链接后索引会重建）</translation>
    </message>
    <message>
        <source>the store&apos;s {index} is not a plain file of its own (a folder, a device or a hard link shared with another file); refusing to read or replace it</source>
        <translation>存储的 {index} 不是独立的普通文件（而是文件夹、设备，或与另一个文件共享的硬链接）；拒绝读取或替换它</translation>
    </message>
    <message>
        <source>cannot create the approval queue folder {folder}: {error}</source>
        <translation>无法创建审批队列文件夹 {folder}：{error}</translation>
    </message>
    <message>
        <source>the approval queue folder {folder} is a symbolic link or not a folder; refusing to write there</source>
        <translation>审批队列文件夹 {folder} 是符号链接，或不是文件夹；拒绝写入那里</translation>
    </message>
    <message>
        <source>the approval audit log {file} is a symbolic link; refusing to follow it</source>
        <translation>审批审计日志 {file} 是符号链接；拒绝跟随它</translation>
    </message>
    <message>
        <source>cannot open the approval audit log {file}: {error}</source>
        <translation>无法打开审批审计日志 {file}：{error}</translation>
    </message>
    <message>
        <source>the approval audit log {file} is not a regular file</source>
        <translation>审批审计日志 {file} 不是普通文件</translation>
    </message>
    <message>
        <source>{path} is not a valid decisions file ({problem}); fix or remove it, then try again</source>
        <translation>{path} 不是有效的建议决定文件（{problem}）；请修复或删除它，然后重试</translation>
    </message>
    <message>
        <source>cannot create {path}: {error}</source>
        <translation>无法创建 {path}：{error}</translation>
    </message>
    <message>
        <source>approval item {id} was already approved; approval is one-time</source>
        <translation>审批条目 {id} 已被批准；每个条目只能审批一次</translation>
    </message>
    <message>
        <source>approval item {id} was already rejected; approval is one-time</source>
        <translation>审批条目 {id} 已被拒绝；每个条目只能审批一次</translation>
    </message>
    <message>
        <source>approval item {id} is not the one that was reviewed (content hash differs); show it again before approving</source>
        <translation>审批条目 {id} 已不是你审阅过的那一条（内容哈希不同）；请重新显示后再批准</translation>
    </message>
    <message>
        <source>approval record {id} was altered after it was queued (content hash differs)</source>
        <translation>审批记录 {id} 在排队之后被改动过（内容哈希不同）</translation>
    </message>
    <message>
        <source>approval item {id} cannot be applied: {refusal}. Nothing was written; the item stays pending (reject it, or edit it and approve again).</source>
        <translation>审批条目 {id} 无法应用：{refusal}。没有写入任何内容；该条目仍在等待审批（拒绝它，或编辑后再次批准）。</translation>
    </message>
    <message>
        <source>approval record {file} is damaged: {n} problem(s)</source>
        <translation>审批记录 {file} 已损坏：{n} 处问题</translation>
    </message>
    <message>
        <source>approval record {file} names another id ({id})</source>
        <translation>审批记录 {file} 写的是另一个 ID（{id}）</translation>
    </message>
    <message>
        <source>approval item {id} has no target or base revision</source>
        <translation>审批条目 {id} 没有目标或基准修订版</translation>
    </message>
    <message>
        <source>approval file {file} cannot be read: {problem}</source>
        <translation>无法读取审批文件 {file}：{problem}</translation>
    </message>
    <message>
        <source>the edited fact has no body</source>
        <translation>编辑后的事实没有正文</translation>
    </message>
    <message>
        <source>the edited fact has no name</source>
        <translation>编辑后的事实没有名称</translation>
    </message>
    <message>
        <source>a forget has no content to edit; approve or reject it as it is</source>
        <translation>遗忘请求没有可编辑的内容；请按原样批准或拒绝它</translation>
    </message>
    <message>
        <source>approval item {id} is pending, not rejected</source>
        <translation>审批条目 {id} 仍在等待审批，并未被拒绝</translation>
    </message>
    <message>
        <source>approval item {id} is approved, not rejected</source>
        <translation>审批条目 {id} 已被批准，并未被拒绝</translation>
    </message>
    <message>
        <source>approval item {id} was already put back in the queue</source>
        <translation>审批条目 {id} 已经放回过队列</translation>
    </message>
    <message>
        <source>archived memory not found (this store has no archive)</source>
        <translation>找不到归档的记忆（这个存储没有归档）</translation>
    </message>
    <message>
        <source>archived memory not found: the .archive folder is a symbolic link or not a folder</source>
        <translation>找不到归档的记忆：.archive 文件夹是符号链接，或不是文件夹</translation>
    </message>
    <message>
        <source>archived memory not found: {file} is not a regular file</source>
        <translation>找不到归档的记忆：{file} 不是普通文件</translation>
    </message>
    <message>
        <source>archived memory not found: {path} is not an entry of this store&apos;s archive</source>
        <translation>找不到归档的记忆：{path} 不是这个存储归档中的条目</translation>
    </message>
    <message>
        <source>archived memory not found: {path} is not an entry of this workspace&apos;s archives</source>
        <translation>找不到归档的记忆：{path} 不是这个工作区归档中的条目</translation>
    </message>
    <message>
        <source>archived memory not found: {file}</source>
        <translation>找不到归档的记忆：{file}</translation>
    </message>
    <message>
        <source>archived entry cannot be read: {problem}</source>
        <translation>无法读取归档条目：{problem}</translation>
    </message>
    <message>
        <source>{file} is a conflict copy of a fact that is not active</source>
        <translation>{file} 是一条不再活动的事实的冲突副本</translation>
    </message>
    <message>
        <source>{file} holds no complete git conflict to resolve</source>
        <translation>{file} 中没有可以解决的完整 git 冲突</translation>
    </message>
    <message>
        <source>the {side} side of {file} names another fact ({name})</source>
        <translation>{file} 的 {side} 一侧写的是另一条事实（{name}）</translation>
    </message>
    <message>
        <source>the {side} side of {file} cannot be read as a fact: {problem}</source>
        <translation>{file} 的 {side} 一侧无法作为事实读取：{problem}</translation>
    </message>
    <message>
        <source>{file} cannot be read as a fact: {problem}</source>
        <translation>{file} 无法作为事实读取：{problem}</translation>
    </message>
    <message>
        <source>{file} is not a regular file</source>
        <translation>{file} 不是普通文件</translation>
    </message>
    <message>
        <source>{file} is larger than {n} bytes</source>
        <translation>{file} 大于 {n} 字节</translation>
    </message>
    <message>
        <source>{file} is neither UTF-8 nor GB18030 text</source>
        <translation>{file} 既不是 UTF-8 文本，也不是 GB18030 文本</translation>
    </message>
    <message>
        <source>{file} is neither UTF-8 nor GB18030; not changing it</source>
        <translation>{file} 既不是 UTF-8，也不是 GB18030；不修改它</translation>
    </message>
    <message>
        <source>{file} is a symbolic link leading outside {folder}</source>
        <translation>{file} 是指向 {folder} 之外的符号链接</translation>
    </message>
    <message>
        <source>cannot use {file}: {error}</source>
        <translation>无法使用 {file}：{error}</translation>
    </message>
    <message>
        <source>cannot create {file}: {folder} is not a folder</source>
        <translation>无法创建 {file}：{folder} 不是文件夹</translation>
    </message>
    <message>
        <source>the instruction file kept changing while the rule was being added; try again</source>
        <translation>添加规则时指令文件一直在变化；请重试</translation>
    </message>
    <message>
        <source>the note holds control characters ({controls}); a standing rule is plain text, so nothing was written</source>
        <translation>规则包含控制字符（{controls}）；常驻规则是纯文本，因此没有写入任何内容</translation>
    </message>
    <message>
        <source>the {scope} store</source>
        <translation>{scope}存储</translation>
    </message>
    <message>
        <source>the approval queue</source>
        <translation>审批队列</translation>
    </message>
    <message>
        <source>the suggestion decisions ({file})</source>
        <translation>建议决定记录（{file}）</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>被接受</translation>
    </message>
    <message>
        <source>dismissed</source>
        <translation>被忽略</translation>
    </message>
    <message>
        <source>{ref} is already active (another fact has that name)</source>
        <translation>{ref} 已处于活动状态（另一条事实使用了这个名称）</translation>
    </message>
    <message>
        <source>id {id} is already active as {ref}</source>
        <translation>ID {id} 已作为 {ref} 处于活动状态</translation>
    </message>
</context>
<context>
    <name>RevisionsTab</name>
    <message>
        <source>Pick a fact on the left to see its revisions</source>
        <translation>在左侧选择一条事实以查看其修订历史</translation>
    </message>
    <message>
        <source>Pick a fact on the left: its revisions are listed above, and any two of them are compared here. Restore brings an older revision back as a new one.</source>
        <translation>在左侧选择一条事实：它的修订版会列在上方，任意两个修订版会在这里比较。“恢复”会把较早的修订版作为新修订版带回来。</translation>
    </message>
    <message>
        <source>No facts yet — write one in the Memory tab (Ctrl+N); every save of it becomes a revision here.</source>
        <translation>还没有事实——在“记忆”标签页中写一条（Ctrl+N）；它的每次保存都会成为这里的一个修订版。</translation>
    </message>
    <message>
        <source>(current)</source>
        <translation>（当前）</translation>
    </message>
    <message>
        <source>Find a fact…</source>
        <translation>查找事实…</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排显示</translation>
    </message>
    <message>
        <source>Restore this revision…</source>
        <translation>恢复此修订版…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>with</source>
        <translation>与</translation>
    </message>
    <message>
        <source>revision {n}</source>
        <translation>修订版 {n}</translation>
    </message>
    <message>
        <source>1 revision</source>
        <translation>1 个修订版</translation>
    </message>
    <message>
        <source>{n} revisions</source>
        <translation>{n} 个修订版</translation>
    </message>
    <message>
        <source>Revision {n} is the current one.</source>
        <translation>修订版 {n} 是当前版本。</translation>
    </message>
    <message>
        <source>Restoring copies revision {n} into a new revision {next}; nothing is lost.</source>
        <translation>恢复会把修订版 {n} 复制为新的修订版 {next}；不会丢失任何内容。</translation>
    </message>
    <message>
        <source>Restore revision {n}…</source>
        <translation>恢复修订版 {n}…</translation>
    </message>
    <message>
        <source>Only one revision so far.</source>
        <translation>目前只有一个修订版。</translation>
    </message>
    <message>
        <source>Restore revision</source>
        <translation>恢复修订版</translation>
    </message>
    <message>
        <source>Restore revision {n} of {ref}?</source>
        <translation>恢复 {ref} 的修订版 {n}？</translation>
    </message>
    <message>
        <source>Its title, description, type and body become revision {next}. Revision {current} stays in the history.</source>
        <translation>它的标题、描述、类型和正文将成为修订版 {next}。修订版 {current} 会保留在历史中。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Restored revision {n} of {ref} as revision {new}</source>
        <translation>已将 {ref} 的修订版 {n} 恢复为修订版 {new}</translation>
    </message>
</context>
<context>
    <name>SecretText</name>
    <message>
        <source>secret assigned to a key, token or password name</source>
        <translation>赋给密钥、令牌或密码名的机密值</translation>
    </message>
    <message>
        <source>password or secret stated in a sentence</source>
        <translation>句子中写出的密码或机密</translation>
    </message>
    <message>
        <source>password on a command line</source>
        <translation>命令行中的密码</translation>
    </message>
    <message>
        <source>password in a .pgpass or .netrc line</source>
        <translation>.pgpass 或 .netrc 行中的密码</translation>
    </message>
    <message>
        <source>Authorization header</source>
        <translation>Authorization 请求头</translation>
    </message>
    <message>
        <source>Cookie header</source>
        <translation>Cookie 请求头</translation>
    </message>
    <message>
        <source>bearer token</source>
        <translation>Bearer 令牌</translation>
    </message>
    <message>
        <source>API key (sk-/rk-)</source>
        <translation>API 密钥（sk-/rk-）</translation>
    </message>
    <message>
        <source>GitHub token</source>
        <translation>GitHub 令牌</translation>
    </message>
    <message>
        <source>Slack token</source>
        <translation>Slack 令牌</translation>
    </message>
    <message>
        <source>AWS access key id</source>
        <translation>AWS 访问密钥 ID</translation>
    </message>
    <message>
        <source>AWS secret access key</source>
        <translation>AWS 秘密访问密钥</translation>
    </message>
    <message>
        <source>Azure storage or service bus key</source>
        <translation>Azure 存储或服务总线密钥</translation>
    </message>
    <message>
        <source>GitLab token</source>
        <translation>GitLab 令牌</translation>
    </message>
    <message>
        <source>Google API key</source>
        <translation>Google API 密钥</translation>
    </message>
    <message>
        <source>Google OAuth token</source>
        <translation>Google OAuth 令牌</translation>
    </message>
    <message>
        <source>Stripe secret or restricted key</source>
        <translation>Stripe 私密密钥或受限密钥</translation>
    </message>
    <message>
        <source>npm access token</source>
        <translation>npm 访问令牌</translation>
    </message>
    <message>
        <source>PyPI upload token</source>
        <translation>PyPI 上传令牌</translation>
    </message>
    <message>
        <source>Docker access token</source>
        <translation>Docker 访问令牌</translation>
    </message>
    <message>
        <source>Twilio API key</source>
        <translation>Twilio API 密钥</translation>
    </message>
    <message>
        <source>SendGrid API key</source>
        <translation>SendGrid API 密钥</translation>
    </message>
    <message>
        <source>Discord bot token</source>
        <translation>Discord 机器人令牌</translation>
    </message>
    <message>
        <source>Telegram bot token</source>
        <translation>Telegram 机器人令牌</translation>
    </message>
    <message>
        <source>Mailchimp API key</source>
        <translation>Mailchimp API 密钥</translation>
    </message>
    <message>
        <source>Square OAuth secret</source>
        <translation>Square OAuth 密钥</translation>
    </message>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face 令牌</translation>
    </message>
    <message>
        <source>Shopify access token</source>
        <translation>Shopify 访问令牌</translation>
    </message>
    <message>
        <source>DigitalOcean token</source>
        <translation>DigitalOcean 令牌</translation>
    </message>
    <message>
        <source>Alibaba Cloud or Tencent Cloud access key</source>
        <translation>阿里云或腾讯云访问密钥</translation>
    </message>
    <message>
        <source>HashiCorp Vault token</source>
        <translation>HashiCorp Vault 令牌</translation>
    </message>
    <message>
        <source>user and password, base64-encoded</source>
        <translation>base64 编码的用户名和密码</translation>
    </message>
    <message>
        <source>JSON Web Token</source>
        <translation>JSON Web Token</translation>
    </message>
    <message>
        <source>private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <source>user and password in a URL</source>
        <translation>URL 中的用户名和密码</translation>
    </message>
    <message>
        <source>email address</source>
        <translation>电子邮件地址</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>StaleEdit</name>
    <message>
        <source>{ref} changed while you were editing</source>
        <translation>{ref} 在你编辑期间已被修改</translation>
    </message>
    <message>
        <source>You edited revision {n} of &lt;b&gt;{ref}&lt;/b&gt;, but it is no longer active (it was forgotten or renamed). Your text was not saved.</source>
        <translation>你编辑的是 &lt;b&gt;{ref}&lt;/b&gt; 的修订版 {n}，但它已不再处于活动状态（已被遗忘或重命名）。你的文字没有保存。</translation>
    </message>
    <message>
        <source>You edited revision {n} of &lt;b&gt;{ref}&lt;/b&gt;; meanwhile someone saved revision {current}. Your text was not saved, so their change is not lost.</source>
        <translation>你编辑的是 &lt;b&gt;{ref}&lt;/b&gt; 的修订版 {n}；与此同时有人保存了修订版 {current}。你的文字没有保存，因此对方的更改不会丢失。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{ref}&lt;/b&gt; was changed on disk without a new revision (a hand edit). Your text was not saved, so that change is not lost.</source>
        <translation>&lt;b&gt;{ref}&lt;/b&gt; 在磁盘上被修改，但没有产生新的修订版（手动编辑）。你的文字没有保存，因此那次更改不会丢失。</translation>
    </message>
    <message>
        <source>revision {n} (what you edited)</source>
        <translation>修订版 {n}（你编辑的版本）</translation>
    </message>
    <message>
        <source>revision {n} (now on disk)</source>
        <translation>修订版 {n}（磁盘上的当前版本）</translation>
    </message>
    <message>
        <source>The fact is no longer active.</source>
        <translation>这条事实已不再处于活动状态。</translation>
    </message>
    <message>
        <source>your edit</source>
        <translation>你的编辑</translation>
    </message>
    <message>
        <source>What changed on disk</source>
        <translation>磁盘上改了什么</translation>
    </message>
    <message>
        <source>Your edit</source>
        <translation>你的编辑</translation>
    </message>
    <message>
        <source>Copy my text</source>
        <translation>复制我的文字</translation>
    </message>
    <message>
        <source>Reload and edit again</source>
        <translation>重新加载并再次编辑</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>SuggestionText</name>
    <message>
        <source>explicit remember request</source>
        <translation>明确要求记住</translation>
    </message>
    <message>
        <source>future-facing preference</source>
        <translation>面向以后的偏好</translation>
    </message>
    <message>
        <source>persistent working rule</source>
        <translation>持续的工作规则</translation>
    </message>
    <message>
        <source>repeated workflow preference</source>
        <translation>反复出现的工作流程偏好</translation>
    </message>
    <message>
        <source>default behaviour preference</source>
        <translation>默认行为偏好</translation>
    </message>
    <message>
        <source>negative working preference</source>
        <translation>否定式的工作偏好</translation>
    </message>
    <message>
        <source>stated preference</source>
        <translation>明确表达的偏好</translation>
    </message>
    <message>
        <source>durable rule</source>
        <translation>长期规则</translation>
    </message>
    <message>
        <source>project convention</source>
        <translation>项目约定</translation>
    </message>
    <message>
        <source>the fact {label} (“{title}”)</source>
        <translation>事实 {label}（“{title}”）</translation>
    </message>
    <message>
        <source>the instruction file {label}</source>
        <translation>指令文件 {label}</translation>
    </message>
    <message>
        <source>the candidate {label} above</source>
        <translation>上方的候选 {label}</translation>
    </message>
    <message>
        <source>Left out “{title}”: {origin} already says this.</source>
        <translation>略去了“{title}”：{origin} 已经说明了这一点。</translation>
    </message>
    <message>
        <source>… and {n} more left out because a fact or instruction already says them.</source>
        <translation>……另有 {n} 条因已有事实或指令说明而被略去。</translation>
    </message>
    <message>
        <source>no history log yet (context-center history append writes one)</source>
        <translation>还没有历史日志（context-center history append 会写入一份）</translation>
    </message>
    <message>
        <source>on a network file system ({fstype}); not read</source>
        <translation>位于网络文件系统（{fstype}）上；未读取</translation>
    </message>
    <message>
        <source>no Claude Code transcripts for this workspace</source>
        <translation>本工作区没有 Claude Code 会话记录</translation>
    </message>
    <message>
        <source>no Codex CLI sessions</source>
        <translation>没有 Codex CLI 会话</translation>
    </message>
    <message>
        <source>The workspace &apos;{workspace}&apos; is a remote location. Suggestions read only local session history of a local workspace and never fall back to this machine&apos;s history for it, so nothing was scanned.</source>
        <translation>工作区“{workspace}”是远程位置。建议只读取本地工作区的本地会话历史，绝不会改用本机的历史来代替，因此没有扫描任何内容。</translation>
    </message>
    <message>
        <source>The workspace &apos;{workspace}&apos; looks like a remote location. Suggestions read only local session history of a local workspace, so nothing was scanned.</source>
        <translation>工作区“{workspace}”看起来是远程位置。建议只读取本地工作区的本地会话历史，因此没有扫描任何内容。</translation>
    </message>
    <message>
        <source>The workspace &apos;{workspace}&apos; is not an absolute local path, so nothing was scanned.</source>
        <translation>工作区“{workspace}”不是绝对的本地路径，因此没有扫描任何内容。</translation>
    </message>
    <message>
        <source>The workspace &apos;{workspace}&apos; does not exist on this machine (it may live on a remote host). Suggestions fail closed: nothing was scanned.</source>
        <translation>工作区“{workspace}”在本机上不存在（它可能位于远程主机上）。建议会安全失败：没有扫描任何内容。</translation>
    </message>
    <message>
        <source>The workspace &apos;{workspace}&apos; is on a network file system ({fstype}), so it cannot be confirmed local. Suggestions fail closed: nothing was scanned.</source>
        <translation>工作区“{workspace}”位于网络文件系统（{fstype}）上，无法确认是本地的。建议会安全失败：没有扫描任何内容。</translation>
    </message>
</context>
<context>
    <name>Suggestions</name>
    <message>
        <source>This workspace&apos;s session log</source>
        <translation>本工作区的会话日志</translation>
    </message>
    <message>
        <source>Claude Code transcripts</source>
        <translation>Claude Code 对话记录</translation>
    </message>
    <message>
        <source>Codex CLI sessions</source>
        <translation>Codex CLI 会话</translation>
    </message>
    <message>
        <source>read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>skipped (not confirmed local)</source>
        <translation>已跳过（未确认为本地）</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <source>Skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>{n} steps</source>
        <translation>{n} 个步骤</translation>
    </message>
    <message>
        <source>A memory fact: {kind}</source>
        <translation>一条记忆事实：{kind}</translation>
    </message>
    <message>
        <source>A skill of {n} steps, written to {path}</source>
        <translation>一个 {n} 步的技能，写入 {path}</translation>
    </message>
    <message>
        <source>1 turn</source>
        <translation>1 轮</translation>
    </message>
    <message>
        <source>{n} turns</source>
        <translation>{n} 轮</translation>
    </message>
    <message>
        <source>1 session</source>
        <translation>1 个会话</translation>
    </message>
    <message>
        <source>{n} sessions</source>
        <translation>{n} 个会话</translation>
    </message>
    <message>
        <source>{turns}, {sessions}</source>
        <translation>{turns}，{sessions}</translation>
    </message>
    <message>
        <source>Last said: {when}</source>
        <translation>最后提到：{when}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Files read: {n}</source>
        <translation>已读取 {n} 个文件</translation>
    </message>
    <message>
        <source>{n} malformed line skipped (never fatal)</source>
        <translation>跳过了 {n} 行格式错误的内容（不会导致失败）</translation>
    </message>
    <message>
        <source>{n} malformed lines skipped (never fatal)</source>
        <translation>跳过了 {n} 行格式错误的内容（不会导致失败）</translation>
    </message>
</context>
<context>
    <name>SuggestionsTab</name>
    <message>
        <source>Suggestions from your past sessions</source>
        <translation>来自你过往会话的建议</translation>
    </message>
    <message>
        <source>Scan again</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>Read your recent turns again (nothing is written)</source>
        <translation>再次读取你最近的对话（不写入任何内容）</translation>
    </message>
    <message>
        <source>Context Center reads what you typed in recent sessions of this workspace and proposes rules worth remembering and workflows worth a skill. Scanning never writes anything; nothing is saved until you accept it.</source>
        <translation>Context Center 会读取你在本工作区最近的会话中输入的内容，提出值得记住的规则和值得做成技能的工作流程。扫描从不写入任何内容；在你接受之前不会保存任何东西。</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Save it now, with your edits (Ctrl+S)</source>
        <translation>立即保存，包括你的编辑（Ctrl+S）</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Not wanted: it will not be proposed again</source>
        <translation>不需要：以后不会再提出</translation>
    </message>
    <message>
        <source>Undo edits</source>
        <translation>撤销编辑</translation>
    </message>
    <message>
        <source>Where your turns came from</source>
        <translation>你的对话来自哪里</translation>
    </message>
    <message>
        <source>Scanning has not run yet.</source>
        <translation>尚未扫描。</translation>
    </message>
    <message>
        <source>Scanning your recent sessions for suggestions…</source>
        <translation>正在扫描你最近的会话以寻找建议…</translation>
    </message>
    <message>
        <source>Dismissed; it will not be proposed again</source>
        <translation>已忽略；以后不会再提出</translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>放弃你的编辑？</translation>
    </message>
    <message>
        <source>Sessions scanned: {sessions} · your turns read: {turns} (the {limit} most recent sessions across all sources).</source>
        <translation>已扫描 {sessions} 个会话中你的 {turns} 轮对话（所有来源中最近的 {limit} 个会话）。</translation>
    </message>
    <message>
        <source>{n} malformed line was skipped.</source>
        <translation>跳过了 {n} 行格式错误的内容。</translation>
    </message>
    <message>
        <source>{n} malformed lines were skipped.</source>
        <translation>跳过了 {n} 行格式错误的内容。</translation>
    </message>
    <message>
        <source>Suggestions: {memories} memory, {skills} skill</source>
        <translation>{memories} 条记忆建议和 {skills} 条技能建议</translation>
    </message>
    <message>
        <source>Nothing was read.</source>
        <translation>没有读取任何内容。</translation>
    </message>
    <message>
        <source>Suggestions are off for this workspace (not confirmed local)</source>
        <translation>本工作区的建议已关闭（未确认为本地）</translation>
    </message>
    <message>
        <source>You edited 1 suggestion without accepting it.</source>
        <translation>你编辑了 1 条建议，但尚未接受。</translation>
    </message>
    <message>
        <source>Accept keeps an edited suggestion; discarding drops the edits (the suggestions themselves stay).</source>
        <translation>“接受”会保留编辑过的建议；放弃只会丢弃编辑（建议本身会保留）。</translation>
    </message>
    <message>
        <source>Discard edits</source>
        <translation>放弃编辑</translation>
    </message>
    <message>
        <source>Suggestions are not available here.</source>
        <translation>这里无法使用建议。</translation>
    </message>
    <message>
        <source>No suggestions: this workspace is not confirmed local.</source>
        <translation>没有建议：本工作区未确认为本地。</translation>
    </message>
    <message>
        <source>No suggestions right now.

When you state a lasting preference (“always…”, “以后…”) or ask for the same workflow in several sessions, it shows up here.</source>
        <translation>目前没有建议。

当你表达一个长期偏好（“always…”、“以后…”）或在多个会话中要求同一个工作流程时，它会出现在这里。</translation>
    </message>
    <message>
        <source>Saved {ref}</source>
        <translation>已保存 {ref}</translation>
    </message>
    <message>
        <source>Wrote {ref}</source>
        <translation>已写入 {ref}</translation>
    </message>
    <message>
        <source>You edited {n} suggestions without accepting them.</source>
        <translation>你编辑了 {n} 条建议，但尚未接受。</translation>
    </message>
</context>
<context>
    <name>SyncConflicts</name>
    <message>
        <source>the fact as it is</source>
        <translation>事实的当前内容</translation>
    </message>
    <message>
        <source>the conflict copy</source>
        <translation>冲突副本</translation>
    </message>
    <message>
        <source>this machine&apos;s side (ours)</source>
        <translation>本机这一侧（ours）</translation>
    </message>
    <message>
        <source>the other side (theirs)</source>
        <translation>另一侧（theirs）</translation>
    </message>
    <message>
        <source>conflict copy</source>
        <translation>冲突副本</translation>
    </message>
    <message>
        <source>git conflict markers</source>
        <translation>git 冲突标记</translation>
    </message>
    <message>
        <source>Sync conflicts</source>
        <translation>同步冲突</translation>
    </message>
    <message>
        <source>A sync tool left a second version of these facts. Compare the two sides and keep one: it becomes a new revision of the fact, and the other side goes to the archive (recoverable).</source>
        <translation>同步工具为这些事实留下了第二个版本。比较两侧并保留其中一侧：它会成为该事实的新修订版，另一侧会移入归档（可恢复）。</translation>
    </message>
    <message>
        <source>No sync conflicts: every fact has one version.</source>
        <translation>没有同步冲突：每条事实都只有一个版本。</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>no active fact (the copy&apos;s fact was forgotten)</source>
        <translation>没有活动事实（副本对应的事实已被遗忘）</translation>
    </message>
    <message>
        <source>{ref} ({kind}) — fact: {target}</source>
        <translation>{ref}（{kind}）— 事实：{target}</translation>
    </message>
    <message>
        <source>Keep {side}</source>
        <translation>保留{side}</translation>
    </message>
    <message>
        <source>Keep one side</source>
        <translation>保留一侧</translation>
    </message>
    <message>
        <source>Keep {side}?</source>
        <translation>保留{side}？</translation>
    </message>
    <message>
        <source>It becomes a new revision of {fact}; {other} moves to the archive, where it can be recovered.</source>
        <translation>它会成为 {fact} 的新修订版；{other}会移入归档，可以从那里恢复。</translation>
    </message>
    <message>
        <source>the fact</source>
        <translation>该事实</translation>
    </message>
    <message>
        <source>Kept {side}: {ref} is at revision {n}</source>
        <translation>已保留{side}：{ref} 现在是修订版 {n}</translation>
    </message>
</context>
<context>
    <name>TargetWarning</name>
    <message>
        <source>The target folder {target} does not exist, so no agent can start there and there is no chain to show. Check the path, or pick a folder from the list or with Browse…</source>
        <translation>目标文件夹 {target} 不存在，因此没有智能体能在那里启动，也没有可显示的链。请检查路径，或从列表中选择一个文件夹，或点击“浏览…”。</translation>
    </message>
    <message>
        <source>The target {target} is a file, not a folder: an agent starts in a folder. Choose the folder that holds it.</source>
        <translation>目标 {target} 是一个文件而不是文件夹：智能体是在文件夹中启动的。请选择包含它的文件夹。</translation>
    </message>
</context>
<context>
    <name>Terms</name>
    <message>
        <source>type: {type} · scope: {scope}</source>
        <translation>类型：{type} · 范围：{scope}</translation>
    </message>
    <message>
        <source>scope: {scope}</source>
        <translation>范围：{scope}</translation>
    </message>
    <message>
        <source>user</source>
        <comment>fact type</comment>
        <translation>用户</translation>
    </message>
    <message>
        <source>feedback</source>
        <comment>fact type</comment>
        <translation>反馈</translation>
    </message>
    <message>
        <source>project</source>
        <comment>fact type</comment>
        <translation>项目</translation>
    </message>
    <message>
        <source>reference</source>
        <comment>fact type</comment>
        <translation>参考</translation>
    </message>
    <message>
        <source>project</source>
        <comment>scope</comment>
        <translation>项目</translation>
    </message>
    <message>
        <source>global</source>
        <comment>scope</comment>
        <translation>全局</translation>
    </message>
    <message>
        <source>fresh</source>
        <comment>freshness</comment>
        <translation>新鲜</translation>
    </message>
    <message>
        <source>current</source>
        <comment>freshness</comment>
        <translation>有效</translation>
    </message>
    <message>
        <source>stale</source>
        <comment>freshness</comment>
        <translation>陈旧</translation>
    </message>
    <message>
        <source>interactive</source>
        <comment>controller</comment>
        <translation>交互式</translation>
    </message>
    <message>
        <source>headless</source>
        <comment>controller</comment>
        <translation>无人值守</translation>
    </message>
    <message>
        <source>subagent</source>
        <comment>controller</comment>
        <translation>子智能体</translation>
    </message>
</context>
<context>
    <name>TrayNotifier</name>
    <message>
        <source>Context Center</source>
        <translation>Context Center</translation>
    </message>
    <message>
        <source>1 memory write waits for your approval</source>
        <translation>1 项记忆写入等待你批准</translation>
    </message>
    <message>
        <source>{n} memory writes wait for your approval</source>
        <translation>{n} 项记忆写入等待你批准</translation>
    </message>
    <message>
        <source>Context Center — {n} waiting for approval</source>
        <translation>Context Center — {n} 项等待审批</translation>
    </message>
</context>
<context>
    <name>UndoOffer</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo: {message}</source>
        <translation>撤销：{message}</translation>
    </message>
</context>
<context>
    <name>WorkspacePicker</name>
    <message>
        <source>Open folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Open workspace folder</source>
        <translation>打开工作区文件夹</translation>
    </message>
</context>
</TS>
