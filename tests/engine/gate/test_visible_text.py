"""The provider-visible sanitizer: paths, secrets and control characters (``gate.visible``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.gate.visible import (
    LOCAL_HOME,
    LOCAL_WORKSPACE,
    MEMORY_STORE,
    Visibility,
    provider_visible,
    visible_scope,
    visible_text,
)

GHP = "gh" + "p_" + "A1b2C3d4E5" * 3 + "f6G7h8"


@pytest.fixture
def real_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home outside /home, as Path.home() and $HOME report it."""
    home = tmp_path / "srv" / "people" / "erin"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_real_home_outside_home_is_redacted(real_home: Path) -> None:
    text = f"notes in {real_home}/notes.md and {real_home}"
    assert visible_text(text) == f"notes in {LOCAL_HOME}/notes.md and {LOCAL_HOME}"


def test_home_env_and_path_home_both_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_home = tmp_path / "envhome" / "fay"
    monkeypatch.setenv("HOME", str(env_home))
    assert visible_text(f"{env_home}/x") == f"{LOCAL_HOME}/x"
    assert visible_text(f"{Path.home()}/y") == f"{LOCAL_HOME}/y"


def test_the_workspace_the_cc_home_and_the_stores(tmp_path: Path) -> None:
    cc_home = tmp_path / "cc"
    workspace = tmp_path / "work" / "proj"
    store = cc_home / "projects" / "-slug-" / "memory"
    v = Visibility(workspace=workspace, cc_home=cc_home, store_paths=[store])
    text = f"{store}/a.md, {workspace}/src/app.py, {cc_home}/approvals, {workspace}"
    assert v(text) == (
        f"{MEMORY_STORE}/a.md, {LOCAL_WORKSPACE}/src/app.py, {LOCAL_HOME}/approvals, "
        f"{LOCAL_WORKSPACE}"
    )


def test_a_workspace_inside_the_home_is_the_workspace(real_home: Path) -> None:
    workspace = real_home / "code" / "app"
    assert visible_text(f"{workspace}/x", workspace=workspace) == f"{LOCAL_WORKSPACE}/x"


def test_the_workspace_store_slug_is_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "w"
    slug = str(workspace.absolute()).replace("/", "-")
    assert visible_text(f"projects/{slug}/memory", workspace=workspace) == (
        f"projects/{LOCAL_WORKSPACE}/memory"
    )


def test_a_linked_workspace_hides_the_slug_of_its_real_path(tmp_path: Path) -> None:
    real = tmp_path / "real" / "w"
    real.mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    for shown in (real, link):
        slug = str(shown.absolute()).replace("/", "-")
        out = visible_text(f"projects/{slug}/memory", workspace=link)
        assert out == f"projects/{LOCAL_WORKSPACE}/memory"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/home/alice/projects/x", f"{LOCAL_HOME}/projects/x"),
        ("/Users/Bob Smith/Library/x", f"{LOCAL_HOME}/Library/x"),
        ("/root/.ssh/config", f"{LOCAL_HOME}/.ssh/config"),
        ("cd /root", f"cd {LOCAL_HOME}"),
        ("C:\\Users\\ann\\AppData", f"{LOCAL_HOME}\\AppData"),
        ("file=%2Fhome%2Falice%2Fnotes.md", f"file={LOCAL_HOME}%2Fnotes.md"),
        ("file=%2fUsers%2fcarol%2fx", f"file={LOCAL_HOME}%2fx"),
        ("open ~alice/projects/x", f"open {LOCAL_HOME}/projects/x"),
        ("~/notes stays", "~/notes stays"),
        ("/home/alice2 is not /home/alice", f"{LOCAL_HOME} is not {LOCAL_HOME}"),
        # /var/root is root's home on macOS; /usr/root holds no home
        ("/rooted/path and /var/root", f"/rooted/path and {LOCAL_HOME}"),
        ("/usr/root/x and /srv/home", "/usr/root/x and /srv/home"),
        ("/home//alice/x", f"{LOCAL_HOME}/x"),
        ("/var/home/alice/x", f"{LOCAL_HOME}/x"),
        ("/mnt/c/Users/Bob Smith/x", f"{LOCAL_HOME}/x"),
        ("/Volumes/Macintosh HD/Users/alice/x", f"{LOCAL_HOME}/x"),
        ("//wsl.localhost/Ubuntu/home/alice/x", f"{LOCAL_HOME}/x"),
        ("\\\\wsl$\\Ubuntu\\home\\alice\\x", f"{LOCAL_HOME}\\x"),
        ("\\\\server\\Users\\alice\\x", f"{LOCAL_HOME}\\x"),
        ("/mnt/data/x and /var/log/syslog", "/mnt/data/x and /var/log/syslog"),
    ],
)
def test_home_shaped_paths_of_anyone(text: str, expected: str) -> None:
    assert visible_text(text) == expected


@pytest.mark.parametrize(
    "spelled",
    ["{p}/src", "{p2}/src", "{p3}/src", "{json}\\/src", "{twice}%252Fsrc"],
)
def test_other_spellings_of_an_exact_path(tmp_path: Path, spelled: str) -> None:
    workspace = tmp_path / "w" / "app"
    p = str(workspace)
    text = spelled.format(
        p=p.replace("/w/", "//w/"),
        p2=p.replace("/w/", "/./w/"),
        p3=p.replace("/w/", "/w/./"),
        json=p.replace("/", "\\/"),
        twice=p.replace("/", "%252F"),
    )
    shown = visible_text(f"at {text} now", workspace=workspace)
    assert "app" not in shown and LOCAL_WORKSPACE in shown, shown


def test_url_encoded_exact_paths(tmp_path: Path) -> None:
    workspace = tmp_path / "w" / "app"
    encoded = str(workspace).replace("/", "%2F")
    assert visible_text(f"?path={encoded}%2Fsrc", workspace=workspace) == (
        f"?path={LOCAL_WORKSPACE}%2Fsrc"
    )


def test_a_bare_tilde_user_of_a_known_home(real_home: Path) -> None:
    assert visible_text("ask ~erin first") == f"ask {LOCAL_HOME} first"
    assert visible_text("about ~5 minutes") == "about ~5 minutes"


def test_a_longer_name_is_not_the_path(tmp_path: Path) -> None:
    workspace = tmp_path / "app"
    assert visible_text(f"{workspace}-old/x", workspace=workspace) == f"{workspace}-old/x"


def test_secrets_are_withheld_with_their_label() -> None:
    text = f"token {GHP} and password is hunter2 and mail bob@example.com"
    assert visible_text(text) == (
        "token [withheld: GitHub token] and password is "
        "[withheld: password or secret stated in a sentence] and mail bob@example.com"
    )


def test_overlapping_secrets_become_one_marker() -> None:
    out = visible_text("Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456")
    assert out == "Authorization: [withheld: Authorization header]"


def test_control_characters_are_escaped() -> None:
    assert visible_text("a\x1b[2Jb\u202ec\x07") == "a\\x1b[2Jb\\u202ec\\x07"


def test_the_marker_itself_is_never_withheld_again() -> None:
    once = visible_text(f"key {GHP}")
    assert visible_text(once) == once


def test_scope_sets_the_paths_for_provider_visible(tmp_path: Path) -> None:
    workspace = tmp_path / "scoped"
    with visible_scope(Visibility(workspace=workspace)):
        assert provider_visible(f"{workspace}/x") == f"{LOCAL_WORKSPACE}/x"
    assert provider_visible(f"{workspace}/x") == f"{workspace}/x"


def test_no_argument_is_needed_and_nothing_breaks_on_empty() -> None:
    assert visible_text("") == ""
    assert visible_text("plain text") == "plain text"


@pytest.mark.parametrize("before", ["\x1b[1m", "\x1b[32m", "\x7f", "\x9b", "\u202e", "\x1bP"])
def test_a_path_right_after_a_control_sequence_is_redacted(real_home: Path, before: str) -> None:
    """Pasted coloured output: the ``m`` ending ``ESC[1m`` is no part of the path after it."""
    text = f"{before}{real_home}/.ssh/id_rsa\x1b[0m and {before}/home/alice/proj"
    shown = visible_text(text)
    assert str(real_home) not in shown and "/home/alice" not in shown
    assert shown.count(LOCAL_HOME) == 2 and "\x1b" not in shown


def test_a_path_after_dot_dot_is_redacted_one_after_a_name_is_not(real_home: Path) -> None:
    encoded = str(real_home).replace("/", "%2F")
    assert visible_text(f"..%2F..{encoded}%2Fsecret") == f"..%2F..{LOCAL_HOME}%2Fsecret"
    assert visible_text(f"../..{real_home}/x") == f"../..{LOCAL_HOME}/x"
    # the home itself (two names or more) is that path even after a host's name
    assert visible_text(f"example.com{real_home}/x") == f"example.com{LOCAL_HOME}/x"


def test_the_cache_folder_is_redacted_wherever_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "elsewhere" / "cc-cache"
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(cache))
    assert visible_text(f"kestrel at {cache}/stores/ab") == f"kestrel at {MEMORY_STORE}/stores/ab"
    with visible_scope(Visibility(workspace=tmp_path / "ws")):
        assert provider_visible(f"see {cache}") == f"see {MEMORY_STORE}"


@pytest.mark.parametrize(
    ("spelled", "expected"),
    [
        ("gcc -I{ws}/include -L{home}/lib", "gcc -I{W}/include -L{H}/lib"),
        ("memory/notes-{ws}.md", "memory/notes-{W}.md"),
        ("file://localhost{ws}/q", "file://localhost{W}/q"),
        ("win C:{bws}\\src", "win C:{W}\\src"),
        ("example.com{ws}/x", "example.com{W}/x"),
        ("gcc -isystem{ws}/inc -iquote{ws}/q", "gcc -isystem{W}/inc -iquote{W}/q"),
        ('{{"msg": "started\\n{ws}/app"}}', '{{"msg": "started\\n{W}/app"}}'),
        ("vscode://file{ws}/x.py:10", "vscode://file{W}/x.py:10"),
        ("/private{ws}/w", "/private{W}/w"),
        ("tar: {rel}/src/main.py and apr-{rel}", "tar: {W}/src/main.py and apr-{W}"),
        ("{ws}x/y and {rel}x", "{ws}x/y and {rel}x"),
    ],
)
def test_an_exact_path_glued_to_anything_or_without_its_first_slash(
    tmp_path: Path, spelled: str, expected: str
) -> None:
    ws, home = tmp_path / "w" / "app", tmp_path / "h" / "ann"
    names = {
        "ws": str(ws),
        "home": str(home),
        "bws": str(ws).replace("/", "\\"),
        "rel": str(ws).lstrip("/"),
    }
    out = visible_text(spelled.format(**names), workspace=ws, home=home)
    assert out == expected.format(W=LOCAL_WORKSPACE, H=LOCAL_HOME, **names)


def test_home_shapes_right_after_a_one_letter_option() -> None:
    assert visible_text("gcc -I/root/include -L/Users/bob/lib") == (
        f"gcc -I{LOCAL_HOME}/include -L{LOCAL_HOME}/lib"
    )


@pytest.mark.parametrize(
    "text",
    [
        "GET /users/123/orders returns the orders",
        'fetch("/users/me")',
        "open /users/new?x=1 in the browser",
        "/Users/Shared/builds",
        "C:\\Users\\Public\\Documents\\setup.log",
        "C:\\Users\\Default\\AppData",
        "/home/linuxbrew/.linuxbrew/bin",
        "/home/$USER/.config and /home/${USER}/x",
        "/mnt/c/Users/Public/x",
    ],
)
def test_routes_shared_folders_and_placeholders_are_no_home(text: str) -> None:
    assert visible_text(text) == text
