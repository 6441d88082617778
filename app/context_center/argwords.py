"""The command words of an argument vector, before any parser exists: the entry point picks
a warm server by them and ``cli.main`` the modules to import (standard library only)."""

from __future__ import annotations

from collections.abc import Sequence

# Global options that take a value (the word after them is no command word).
GLOBAL_OPTIONS_WITH_VALUE = ("--home", "--workspace", "--language")


def command_words(argv: Sequence[str], count: int = 2) -> list[str]:
    """The first ``count`` words after the global options (``cli.main`` picks the modules
    to import with them)."""
    words: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in GLOBAL_OPTIONS_WITH_VALUE:
            skip = True
        elif word == "--":
            break
        elif not word.startswith("-"):
            words.append(word)
            if len(words) == count:
                break
    return words
