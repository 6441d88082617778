"""Agent profiles: what Reasonix, Claude Code and Codex each load for one target directory."""
