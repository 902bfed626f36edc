"""Where image bytes live: one small interface; a folder in the data dir by default.

Keys are made by the server (organisation id / image id / variant) and checked against
that shape, so no user input ever becomes a path.
"""

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Literal, Protocol

import anyio

from tagtrack.core.config import Settings

Variant = Literal["original", "thumb", "mini"]
CHUNK = 64 * 1024
_KEY = re.compile(r"^[0-9a-f]{24}/[0-9a-f]{24}/(original|thumb|mini)$")


def image_key(org_id: str, image_id: str, variant: Variant) -> str:
    key = f"{org_id}/{image_id}/{variant}"
    if not _KEY.fullmatch(key):
        raise ValueError("not a storage key")
    return key


class Storage(Protocol):
    async def put(self, key: str, data: bytes) -> None:
        """Store the bytes under the key, replacing what was there."""

    def read(self, key: str) -> AsyncIterator[bytes]:
        """The stored bytes in chunks; FileNotFoundError when the key holds nothing."""

    async def size(self, key: str) -> int:
        """The stored size in bytes; FileNotFoundError when the key holds nothing."""

    async def delete(self, key: str) -> None:
        """Remove the key; a missing key is not an error."""


class LocalStorage:
    """Files under a root folder, written to a temporary name then renamed into place."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        # fullmatch: "$" alone would let a trailing newline through.
        if not _KEY.fullmatch(key):
            raise ValueError("not a storage key")
        return self.root / key

    async def put(self, key: str, data: bytes) -> None:
        path = self._path(key)

        def write() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
            temporary.write_bytes(data)
            temporary.replace(path)

        await anyio.to_thread.run_sync(write)

    async def read(self, key: str) -> AsyncIterator[bytes]:
        path = self._path(key)
        handle = await anyio.open_file(path, "rb")
        try:
            while chunk := await handle.read(CHUNK):
                yield chunk
        finally:
            await handle.aclose()

    async def size(self, key: str) -> int:
        return (await anyio.Path(self._path(key)).stat()).st_size

    async def delete(self, key: str) -> None:
        path = self._path(key)

        def remove() -> None:
            path.unlink(missing_ok=True)
            for folder in (path.parent, path.parent.parent):
                try:
                    folder.rmdir()
                except OSError:
                    break

        await anyio.to_thread.run_sync(remove)


def storage_from_settings(settings: Settings) -> Storage:
    """The storage named by TAGTRACK_STORAGE_URL; empty means the data dir."""
    url = settings.storage_url
    if not url:
        return LocalStorage(settings.data_dir.resolve() / "images")
    if url.startswith("file://"):
        return LocalStorage(Path(url.removeprefix("file://")))
    raise ValueError(f"Unsupported TAGTRACK_STORAGE_URL '{url}': use a file:// URL or leave empty")
