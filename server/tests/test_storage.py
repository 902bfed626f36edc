"""Photo storage, the same tests on both backends: the data dir and an S3-compatible object
store (a real SeaweedFS). Upload with thumbnails, downloads, deletion, zip export, and a
stored object gone missing."""

import io
import zipfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import obstore
import pytest
from fastapi import FastAPI
from obstore.store import S3Store

from tagtrack.core.config import Settings
from tagtrack.images.storage import (
    CHUNK,
    LocalStorage,
    ObjectStorage,
    Storage,
    image_key,
    s3_config,
    storage_from_url,
)
from tagtrack.main import create_app
from tagtrack.models.ids import new_id
from tests.conftest import Org
from tests.helpers import assert_error
from tests.objectstore import BUCKET, ObjectStore, seaweedfs
from tests.photos import jpeg, size

PREFIX = "installation/photos"


@pytest.fixture(scope="session")
def object_store() -> Iterator[ObjectStore]:
    with seaweedfs() as store, pytest.MonkeyPatch.context() as patch:
        for name, value in store.environ().items():
            patch.setenv(name, value)
        yield store


@pytest.fixture(scope="module", params=["local", "s3"])
def storage_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "local":
        return f"file://{tmp_path_factory.mktemp('images')}"
    request.getfixturevalue("object_store")
    return f"s3://{BUCKET}/{PREFIX}"


@pytest.fixture(scope="module")
async def app(database_url: str, settings: Settings, storage_url: str) -> AsyncIterator[FastAPI]:
    """The app of the other tests, its photos kept in the backend under test."""
    configured = settings.model_copy(update={"storage_url": storage_url})
    application = create_app(configured, database_url=database_url)
    async with application.router.lifespan_context(application):
        yield application


async def stored_keys(app: FastAPI, org: Org) -> list[str]:
    storage = app.state.storage
    if isinstance(storage, LocalStorage):
        folder = storage.root / org.id
        files = folder.rglob("*") if folder.exists() else []
        return sorted(str(p.relative_to(storage.root)) for p in files if p.is_file())
    assert isinstance(storage, ObjectStorage)
    listed = await obstore.list(storage.store, prefix=org.id).collect_async()
    return sorted(entry["path"] for entry in listed)


async def upload(client: httpx.AsyncClient, data: bytes, **fields: Any) -> dict[str, Any]:
    response = await client.post(
        "/api/images", files={"file": ("photo.jpg", data, "image/jpeg")}, data=fields
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def zip_files(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


async def test_upload_keeps_the_original_and_both_thumbnails(app: FastAPI, org_factory) -> None:
    org: Org = await org_factory()
    original = jpeg(1600, 1000)
    image = await upload(org.client("Administrator"), original)
    viewer = org.client("Viewer")
    response = await viewer.get(f"/api/images/{image['id']}")
    assert response.status_code == 200
    assert response.content == original
    assert response.headers["content-length"] == str(len(original))
    download = await viewer.get(f"/api/images/{image['id']}", params={"download": True})
    assert download.content == original
    assert size((await viewer.get(f"/api/images/{image['id']}/thumb")).content) == (800, 500)
    assert size((await viewer.get(f"/api/images/{image['id']}/mini")).content) == (200, 125)
    assert await stored_keys(app, org) == [
        f"{org.id}/{image['id']}/{variant}" for variant in ("mini", "original", "thumb")
    ]


async def test_delete_and_delete_by_query_remove_the_stored_files(
    app: FastAPI, org_factory
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    trucks = [await upload(admin, jpeg(), tags=["truck"]) for _ in range(2)]
    kept = await upload(admin, jpeg(), tags=["forklift"])
    gone = await upload(admin, jpeg())
    assert len(await stored_keys(app, org)) == 4 * 3

    response = await admin.delete("/api/images", params={"tags": "truck"})
    assert response.json() == {"count": 2}
    keys = await stored_keys(app, org)
    assert len(keys) == 2 * 3
    assert not any(truck["id"] in key for truck in trucks for key in keys)

    assert (await admin.delete(f"/api/images/{gone['id']}")).status_code == 204
    assert await stored_keys(app, org) == [
        f"{org.id}/{kept['id']}/{variant}" for variant in ("mini", "original", "thumb")
    ]


async def test_zip_export_streams_the_originals(app: FastAPI, org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    originals = {}
    for width in (400, 1200, 2000):
        data = jpeg(width, width // 2)
        originals[f"{(await upload(admin, data))['id']}.jpg"] = data
    async with admin.stream("GET", "/api/images//zip") as response:
        assert response.status_code == 200
        assert "content-length" not in response.headers
        parts = [part async for part in response.aiter_raw()]
    assert zip_files(b"".join(parts)) == originals


async def test_reads_come_in_bounded_chunks(app: FastAPI) -> None:
    """A large object is handed on a chunk at a time, never held whole."""
    storage: Storage = app.state.storage
    key = image_key(new_id(), new_id(), "original")
    payload = bytes(range(256)) * 4096 * 3  # 3 MiB
    await storage.put(key, payload)
    try:
        assert await storage.size(key) == len(payload)
        chunks = [chunk async for chunk in storage.read(key)]
        assert b"".join(chunks) == payload
        assert max(len(chunk) for chunk in chunks) <= CHUNK
    finally:
        await storage.delete(key)


async def test_a_missing_stored_file_is_a_clear_404(app: FastAPI, org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    lost = await upload(admin, jpeg(300, 200))
    whole = await upload(admin, jpeg(200, 300))
    storage: Storage = app.state.storage
    await storage.delete(image_key(org.id, lost["id"], "original"))

    assert_error(await admin.get(f"/api/images/{lost['id']}"), 404, message="missing")
    assert (await admin.get(f"/api/images/{lost['id']}/thumb")).status_code == 200
    exported = await admin.get(f"/api/images/{lost['id']},{whole['id']}/zip")
    assert set(zip_files(exported.content)) == {f"{whole['id']}.jpg"}

    key = image_key(org.id, lost["id"], "original")
    with pytest.raises(FileNotFoundError):
        await storage.size(key)
    with pytest.raises(FileNotFoundError):
        _ = [chunk async for chunk in storage.read(key)]
    await storage.delete(key)  # deleting what is gone is no error
    # Deleting the image itself still works and clears what remains.
    assert (await admin.delete(f"/api/images/{lost['id']}")).status_code == 204
    assert len(await stored_keys(app, org)) == 3


async def test_objects_live_under_the_prefix(
    object_store: ObjectStore, storage_url: str, app: FastAPI, org_factory
) -> None:
    org: Org = await org_factory()
    image = await upload(org.client("Administrator"), jpeg())
    if storage_url.startswith("file://"):
        root = Path(storage_url.removeprefix("file://"))
        assert (root / org.id / image["id"] / "original").is_file()
        return
    whole_bucket = S3Store(
        BUCKET, config=s3_config(object_store.environ()), client_options={"allow_http": True}
    )
    listed = await obstore.list(whole_bucket, prefix=f"{PREFIX}/{org.id}").collect_async()
    assert sorted(entry["path"] for entry in listed) == [
        f"{PREFIX}/{org.id}/{image['id']}/{variant}" for variant in ("mini", "original", "thumb")
    ]


def test_the_storage_url_and_the_aws_variables(tmp_path: Path) -> None:
    assert isinstance(storage_from_url("", tmp_path, {}), LocalStorage)
    store = storage_from_url("s3://photos/tagtrack/", tmp_path, {"AWS_REGION": "eu-west-1"})
    assert isinstance(store, ObjectStorage) and store.store.prefix == "tagtrack"
    config = s3_config(
        {
            "AWS_ENDPOINT_URL": "https://generic.example.com",
            "AWS_ENDPOINT_URL_S3": "https://s3.example.com",
            "AWS_DEFAULT_REGION": "eu-central-1",
            "AWS_ACCESS_KEY_ID": "key",
            "AWS_SECRET_ACCESS_KEY": "secret",
        }
    )
    assert config == {
        "endpoint": "https://s3.example.com",
        "region": "eu-central-1",
        "access_key_id": "key",
        "secret_access_key": "secret",
    }
    with pytest.raises(ValueError, match="no bucket"):
        storage_from_url("s3://", tmp_path, {})
    with pytest.raises(ValueError, match="Unsupported"):
        storage_from_url("gs://photos", tmp_path, {})
