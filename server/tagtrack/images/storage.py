"""Where image bytes live: one small interface; a folder in the data dir by default, or an
S3-compatible object store when TAGTRACK_STORAGE_URL is s3://bucket/prefix.

Keys are made by the server (organization id / image id / variant) and checked against
that shape, so no user input ever becomes a path or an object name.
"""

import os
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import anyio
import obstore
from obstore.store import S3Store

from tagtrack.core.config import Settings

if TYPE_CHECKING:
    from obstore.store import S3Config  # a type only, not importable at run time

# "plan" is a map's floor-plan picture, stored under the map's id.
Variant = Literal["original", "thumb", "mini", "plan"]
CHUNK = 64 * 1024
# Exports read whole originals one after another: larger pieces, fewer trips through a thread.
EXPORT_CHUNK = 1024 * 1024
_KEY = re.compile(r"^[0-9a-f]{24}/[0-9a-f]{24}/(original|thumb|mini|plan)$")


def image_key(org_id: str, image_id: str, variant: Variant) -> str:
    key = f"{org_id}/{image_id}/{variant}"
    if not _KEY.fullmatch(key):
        raise ValueError("not a storage key")
    return key


# Checkable, so a service asking for a Storage is given the application's.
@runtime_checkable
class Storage(Protocol):
    async def put(self, key: str, data: bytes) -> None:
        """Store the bytes under the key, replacing what was there."""

    def read(self, key: str, chunk: int = CHUNK) -> AsyncIterator[bytes]:
        """The stored bytes in pieces of at most `chunk` bytes; FileNotFoundError when the key
        holds nothing."""

    async def size(self, key: str) -> int:
        """The stored size in bytes; FileNotFoundError when the key holds nothing."""

    async def delete(self, key: str) -> None:
        """Remove the key; a missing key is not an error."""


def _checked(key: str) -> str:
    # fullmatch: "$" alone would let a trailing newline through.
    if not _KEY.fullmatch(key):
        raise ValueError("not a storage key")
    return key


class LocalStorage:
    """Files under a root folder, written to a temporary name then renamed into place."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / _checked(key)

    async def put(self, key: str, data: bytes) -> None:
        path = self._path(key)

        def write() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
            temporary.write_bytes(data)
            temporary.replace(path)

        await anyio.to_thread.run_sync(write)

    async def read(self, key: str, chunk: int = CHUNK) -> AsyncIterator[bytes]:
        path = self._path(key)
        handle = await anyio.open_file(path, "rb")
        try:
            while piece := await handle.read(chunk):
                yield piece
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


class ObjectStorage:
    """Objects in an S3-compatible bucket under a prefix. Every process of an installation
    shares it; reads stream from the store through the server in chunks."""

    def __init__(self, store: S3Store) -> None:
        self.store = store

    async def put(self, key: str, data: bytes) -> None:
        await obstore.put_async(self.store, _checked(key), data)

    async def read(self, key: str, chunk: int = CHUNK) -> AsyncIterator[bytes]:
        # A missing object raises FileNotFoundError here, as a missing file does.
        result = await obstore.get_async(self.store, _checked(key))
        async for received in result.stream(min_chunk_size=chunk):
            # The network hands over blocks of any size; pass them on in `chunk` pieces.
            view = memoryview(received)
            for start in range(0, len(view), chunk):
                yield bytes(view[start : start + chunk])

    async def size(self, key: str) -> int:
        return (await obstore.head_async(self.store, _checked(key)))["size"]

    async def delete(self, key: str) -> None:
        # S3 deletes of a missing object succeed.
        await obstore.delete_async(self.store, _checked(key))


def s3_config(environ: Mapping[str, str]) -> "S3Config":
    """Endpoint, region and credentials from the usual AWS variables (the newer names first)."""
    config: S3Config = {}
    endpoint = environ.get("AWS_ENDPOINT_URL_S3") or environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        config["endpoint"] = endpoint
    region = environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION")
    if region:
        config["region"] = region
    for name, option in (
        ("AWS_ACCESS_KEY_ID", "access_key_id"),
        ("AWS_SECRET_ACCESS_KEY", "secret_access_key"),
        ("AWS_SESSION_TOKEN", "token"),
    ):
        if environ.get(name):
            config[option] = environ[name]  # type: ignore[literal-required]
    return config


def storage_from_url(url: str, data_dir: Path, environ: Mapping[str, str]) -> Storage:
    if not url:
        return LocalStorage(data_dir.resolve() / "images")
    if url.startswith("file://"):
        return LocalStorage(Path(url.removeprefix("file://")))
    if url.startswith("s3://"):
        bucket, _, prefix = url.removeprefix("s3://").partition("/")
        if not bucket:
            raise ValueError(f"TAGTRACK_STORAGE_URL '{url}' names no bucket")
        config = s3_config(environ)
        # A plain-HTTP endpoint is a store on the local network or a test server.
        plain = config.get("endpoint", "").startswith("http://")
        store = S3Store(
            bucket,
            prefix=prefix.strip("/") or None,
            config=config,
            client_options={"allow_http": plain},
        )
        return ObjectStorage(store)
    raise ValueError(
        f"Unsupported TAGTRACK_STORAGE_URL '{url}': use s3://bucket/prefix, a file:// URL "
        "or leave empty"
    )


def storage_from_settings(settings: Settings) -> Storage:
    """The storage named by TAGTRACK_STORAGE_URL; empty means the data dir."""
    return storage_from_url(settings.storage_url, settings.data_dir, os.environ)
