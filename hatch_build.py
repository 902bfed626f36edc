"""Puts the migrations and the built console into the wheel as tagtrack/migrations and
tagtrack/web, so an installed TagTrack finds them inside its package. Editable installs
(uv sync, make run) are left alone: they read server/migrations and web/dist in place."""

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PARTS = {"server/migrations": "tagtrack/migrations", "web/dist": "tagtrack/web"}


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        if not (root / "web/dist/index.html").is_file():
            raise RuntimeError(
                "web/dist/index.html is missing: build the console first (cd web && npm run build)"
            )
        for source, target in PARTS.items():
            for path in sorted((root / source).rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    relative = path.relative_to(root / source).as_posix()
                    build_data["force_include"][str(path)] = f"{target}/{relative}"
