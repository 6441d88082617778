"""Entry script for the PyInstaller bundle: the `context-center` console script.

PyInstaller needs a script file, not an entry point; this is the file form of
`context-center = "context_center.cli:main"` from pyproject.toml. It lives
outside the package so that PyInstaller does not put app/context_center/ itself
on the import path.
"""

from context_center.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
