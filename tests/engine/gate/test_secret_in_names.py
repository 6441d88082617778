"""A fact's name, file name, id and reference can spell a secret: a slug writes a token's own
separators (``Frob glpat_…`` becomes ``frob-glpat-…``), which the scan's boundary rule does not
see after a ``-``. Every provider-visible place a name or reference goes withholds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.agents.public import ProviderText
from context_center.engine.errors import InvalidName
from context_center.engine.facade import Engine
from context_center.engine.gate.create import checked_name
from context_center.engine.gate.visible import withhold_in_name

GLPAT = "gl" + "pat-" + "tuf0vvlpr6k5lamy1yr5"  # the slug of a 20-character token
SKPROJ = "sk" + "-proj-" + "a1b2c3d4e5f6g7h8i9j0"


@pytest.mark.parametrize(
    "text",
    [
        f"frob-{GLPAT}",
        f"project/deploy-{GLPAT}.md",
        f"deploy-{SKPROJ}",
        f"mem-x_{GLPAT}",
        "project/owl-gh" + "p-a1b2c3d4e5a1b2c3d4e5a1b2c3d4e5f6g7h8.md",  # a slugged ghp_ token
    ],
)
def test_a_token_after_a_separator_is_withheld(text: str) -> None:
    shown = withhold_in_name(text)
    assert GLPAT not in shown and SKPROJ not in shown and "[withheld:" in shown, shown
    assert "a1b2c3d4e5a1b2" not in shown


@pytest.mark.parametrize(
    "text",
    ["project/release-v2-notes.md", "use-uv-add", "mem-0123456789abcdef0123456789abcdef", "a"],
)
def test_ordinary_names_are_unchanged(text: str) -> None:
    assert withhold_in_name(text) == text


def test_a_name_whose_slug_spells_a_token_is_refused() -> None:
    with pytest.raises(InvalidName, match="secret"):
        checked_name("Frob " + GLPAT.replace("-", "_", 1))
    assert checked_name("Frob setup notes") == "frob-setup-notes"


def test_provider_results_withhold_names_and_refs(tmp_path: Path) -> None:
    shown = ProviderText(tmp_path / "home", tmp_path / "ws").result(
        {
            "ref": f"project/frob-{GLPAT}.md",
            "name": f"frob-{GLPAT}",
            "refs": [f"project/frob-{GLPAT}.md", "project/plain.md"],
            "hits": [{"ref": f"global/x-{GLPAT}.md", "id": f"mem-{GLPAT}", "score": 1.0}],
            "revision": 3,
        }
    )
    assert GLPAT not in repr(shown), shown
    assert shown["refs"][1] == "project/plain.md" and shown["revision"] == 3


GOOD = (
    "---\nid: mem-{hex}\nrevision: 1\ncreated_at: 2026-01-01T00:00:00.000Z\n"
    "updated_at: 2026-01-01T00:00:00.000Z\nname: {name}\ntitle: Dingotron token name\n"
    "description: Dingotron setup for the frobnicator\nmetadata:\n  type: project\n"
    "  scope: project\n---\n\nThe Dingotron frobnicator is set up once per machine.\n"
)


def test_a_hand_written_file_named_like_a_token_reaches_no_model(tmp_path: Path) -> None:
    engine = Engine(home=tmp_path / "home", workspace=tmp_path / "ws")
    (tmp_path / "ws").mkdir()
    root = engine.memory.project.root
    root.mkdir(parents=True)
    name = f"frob-{GLPAT}"
    (root / f"{name}.md").write_text(GOOD.format(hex="a" * 32, name=name), encoding="utf-8")
    result = engine.recall("Dingotron frobnicator setup", persist=False)
    assert result.trace.selected, result.trace  # it was recalled
    assert GLPAT not in result.block and "[withheld:" in result.block, result.block
    prefix = engine.prefix().text
    assert "Dingotron" in prefix and GLPAT not in prefix
    listed = engine.agent_list()
    assert listed["facts"] and GLPAT not in repr(listed)


GHP = "gh" + "p_" + "A1b2C3d4E5A1b2C3d4E5A1b2C3d4E5f6G7h8"


@pytest.mark.parametrize(
    "text",
    [
        f"deploy with deploy-{GLPAT} today",
        f"and pre-{SKPROJ}.",
        f"owl_{GHP}",
        f"Contents of workspace/.claude/rules/frob-{GLPAT}.md (project rule)",
    ],
)
def test_a_token_glued_to_a_word_is_withheld_in_any_text(text: str) -> None:
    from context_center.engine.gate.visible import withhold_secrets

    shown = withhold_secrets(text)
    assert GLPAT not in shown and SKPROJ not in shown and GHP not in shown, shown


def test_glued_prefixes_over_a_megabyte_stay_linear() -> None:
    import time

    from context_center.engine.gate.secrets import find_sensitive

    took = []
    for n in (50_000, 500_000):
        text = ("x-sk-" * (n // 5 + 1))[:n]
        start = time.process_time()
        find_sensitive(text)
        took.append(time.process_time() - start)
    assert took[1] < 30 * max(took[0], 0.005), took  # ten times the text, not a hundred
