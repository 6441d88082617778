"""What the Instructions tab loads off the event loop: the chain, the prefix, the folders that
hold instruction files, and (while the Compare pane is open) the comparison."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from context_center.engine import Comparison, Engine, Prefix, Resolution


@dataclass(frozen=True)
class ChainData:
    resolution: Resolution
    prefix: Prefix
    targets: list[str]  # workspace-relative directories that hold instruction files
    comparison: Comparison | None = None


def load_chain(
    engine: Engine, target: Path, agent: str = "reasonix", compare: bool = False
) -> ChainData:
    resolution = engine.instructions(target, agent=agent)
    view = engine.open() if agent == "reasonix" else None
    prefix = engine.prefix(target, view, resolution=resolution)
    comparison = engine.compare_instructions(target) if compare else None
    return ChainData(resolution, prefix, engine.instruction_folders(), comparison)
