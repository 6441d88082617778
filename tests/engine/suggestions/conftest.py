"""Fixtures for the suggestions tests (the helpers live in sugg_env.py)."""

from sugg_env import empty_env, env

__all__ = ["empty_env", "env"]
