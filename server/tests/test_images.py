"""Images: upload with EXIF and thumbnails, bad files, search, exports, deletion, rights."""

import csv
import io
import re
import zipfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.images.demo import PHOTOS, seed_demo_images
from tagtrack.images.exports import Entry, csv_stream, zip_stream
from tagtrack.images.storage import CHUNK, LocalStorage
from tagtrack.models import Image, ImageCategory, Thing
from tagtrack.models.ids import new_id
from tests.conftest import Org
from tests.database import database_with_org
from tests.helpers import OTHER_ID, assert_error
from tests.photos import (
    CORPUS,
    heic,
    is_blue,
    is_red,
    jpeg,
    mpo,
    pixel,
    png,
    png_bomb,
    size,
)


async def upload(
    client: httpx.AsyncClient,
    data: bytes,
    name: str = "photo.jpg",
    content_type: str = "image/jpeg",
    **fields: Any,
) -> httpx.Response:
    return await client.post("/api/images", files={"file": (name, data, content_type)}, data=fields)


async def uploaded(client: httpx.AsyncClient, data: bytes, **fields: Any) -> dict[str, Any]:
    response = await upload(client, data, **fields)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def ids_of(client: httpx.AsyncClient, **params: Any) -> set[str]:
    response = await client.get("/api/images", params={"limit": 1000, **params})
    assert response.status_code == 200, response.text
    assert response.headers["x-total-count"] == str(len(response.json()))
    return {i["id"] for i in response.json()}


def stored_files(settings: Settings, org: Org) -> list[Path]:
    folder = settings.data_dir.resolve() / "images" / org.id
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


async def test_upload_reads_exif_time_gps_orientation_and_device(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Operator")
    data = jpeg(
        64,
        32,
        orientation=6,
        gps=(51.5074, -0.1278),
        taken=datetime(2024, 5, 6, 7, 8, 9),
        offset="+02:00",
        make="Acme",
        model="Acme Cam 3",
    )
    image = await uploaded(client, data, name="dock.jpg")
    assert image["timestamp"].startswith("2024-05-06T05:08:09")
    assert image["location"]["coordinates"] == pytest.approx([-0.1278, 51.5074], abs=1e-4)
    assert image["exif_data"]["orientation"] == 6
    assert image["exif_data"]["device"] == "Acme Cam 3"
    # The size people see: the photo stands upright, so it is 32 wide and 64 high.
    assert image["cloud_photos"] == [
        {"bytes": len(data), "size": {"X": 32, "Y": 64}, "format": "jpg"}
    ]
    assert image["name"] == "dock.jpg"
    assert image["tags"] == [] and image["categories"] == [] and image["annotation"] == ""

    original = await client.get(f"/api/images/{image['id']}")
    assert original.status_code == 200
    assert original.content == data
    assert original.headers["content-type"] == "image/jpeg"
    assert original.headers["x-content-type-options"] == "nosniff"
    assert original.headers["content-disposition"] == f'inline; filename="{image["id"]}.jpg"'
    download = await client.get(f"/api/images/{image['id']}", params={"download": True})
    assert download.headers["content-disposition"].startswith("attachment;")

    for variant in ("thumb", "mini"):
        response = await client.get(f"/api/images/{image['id']}/{variant}")
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/jpeg"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "filename=" in response.headers["content-disposition"]
        # Upright: the blue top-left quarter of the stored pixels turned to the top right.
        assert size(response.content) == (32, 64)
        assert is_blue(pixel(response.content, 28, 2))
        assert is_red(pixel(response.content, 2, 2))
    meta = await client.get(f"/api/images/{image['id']}/meta")
    assert meta.json() == image


async def test_thumbnails_are_bounded_and_made_once(org_factory, settings: Settings) -> None:
    org: Org = await org_factory()
    image = await uploaded(org.client("Administrator"), jpeg(1600, 1000))
    client = org.client("Viewer")
    thumb = await client.get(f"/api/images/{image['id']}/thumb")
    mini = await client.get(f"/api/images/{image['id']}/mini")
    assert size(thumb.content) == (800, 500)
    assert size(mini.content) == (200, 125)
    names = sorted(p.name for p in stored_files(settings, org))
    assert names == ["mini", "original", "thumb"]


async def test_a_large_photo_keeps_its_size_and_its_thumbnails_stand_upright(
    org_factory,
) -> None:
    # A large JPEG is decoded straight at a fraction of its size for the thumbnails.
    org: Org = await org_factory()
    client = org.client("Operator")
    image = await uploaded(client, jpeg(4000, 3000, orientation=6))
    assert image["cloud_photos"][0]["size"] == {"X": 3000, "Y": 4000}
    thumb = (await client.get(f"/api/images/{image['id']}/thumb")).content
    mini = (await client.get(f"/api/images/{image['id']}/mini")).content
    assert size(thumb) == (600, 800) and size(mini) == (150, 200)
    for picture, width in ((thumb, 600), (mini, 150)):
        assert is_blue(pixel(picture, width - 10, 10)) and is_red(pixel(picture, 10, 10))


async def test_a_phone_jpeg_with_a_second_picture_is_a_jpeg(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    image = await uploaded(client, mpo(60, 40))
    assert image["cloud_photos"][0]["format"] == "jpg"
    assert image["cloud_photos"][0]["size"] == {"X": 60, "Y": 40}
    original = await client.get(f"/api/images/{image['id']}")
    assert original.headers["content-type"] == "image/jpeg"
    thumb = await client.get(f"/api/images/{image['id']}/thumb")
    assert is_red(pixel(thumb.content, 5, 5))


async def test_no_exif_means_upload_time_and_no_location(org_factory) -> None:
    org: Org = await org_factory()
    before = datetime.now(UTC)
    image = await uploaded(
        org.client("Administrator"), png(), name="p.png", content_type="image/png"
    )
    assert datetime.fromisoformat(image["timestamp"]) >= before.replace(microsecond=0)
    assert image["timestamp"] == image["timeCreated"]
    assert image["location"]["coordinates"] == [0, 0]
    assert image["exif_data"] == {"orientation": 1, "device": "", "dateTimeOriginal": None}
    assert image["cloud_photos"][0]["format"] == "png"


async def test_heic_from_a_phone_is_accepted(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    # Named .jpg on purpose: the type comes from the bytes.
    image = await uploaded(client, heic(48, 36), name="IMG_0001.jpg")
    assert image["cloud_photos"][0] == {
        "bytes": image["cloud_photos"][0]["bytes"],
        "size": {"X": 48, "Y": 36},
        "format": "heic",
    }
    original = await client.get(f"/api/images/{image['id']}")
    assert original.headers["content-type"] == "image/heic"
    assert original.headers["content-disposition"].endswith(f'{image["id"]}.heic"')
    thumb = await client.get(f"/api/images/{image['id']}/thumb")
    assert size(thumb.content) == (48, 36) and is_blue(pixel(thumb.content, 5, 5))


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("data", "name", "status", "reason"),
    [
        (b"just some text, not a photo", "notes.jpg", 415, "unsupported type"),
        (b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n", "scan.jpg", 415, "unsupported type"),
        (b"GIF89a" + b"\x00" * 30, "anim.jpg", 415, "unsupported type"),
        (b"", "empty.jpg", 400, "empty file"),
        (png_bomb(), "bomb.png", 400, "too many pixels"),
        (jpeg(300, 200)[:-400], "cut.jpg", 400, "damaged image"),
        # Decoded straight at thumbnail size, a large photo is still read to its last byte.
        (_half(jpeg(4000, 3000)), "cut-large.jpg", 400, "damaged image"),
        (b"\x00" * (25 * 1024 * 1024 + 10), "huge.jpg", 413, "too large"),
    ],
    ids=["text", "pdf", "gif", "empty", "bomb", "truncated", "truncated large", "oversized"],
)
async def test_bad_files_are_refused_and_nothing_is_stored(
    org_factory, settings: Settings, data: bytes, name: str, status: int, reason: str
) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await upload(client, data, name=name)
    assert_error(response, status, reason)
    assert await ids_of(client) == set()
    assert stored_files(settings, org) == []


async def test_a_body_far_over_the_upload_limit_is_refused_before_reading(
    org_factory, settings: Settings
) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await upload(client, b"\xff" * (40 * 1024 * 1024))
    assert_error(response, 413, "too large")
    assert stored_files(settings, org) == []
    # JSON bodies elsewhere keep the 2 MiB limit.
    huge = await client.post(
        "/api/image-categories",
        content=b'{"name": "' + b"x" * (3 * 1024 * 1024) + b'"}',
        headers={"content-type": "application/json"},
    )
    assert_error(huge, 413, "too large")


@dataclass
class Expected:
    """What the corpus notes say about one photo."""

    refused: bool = False
    location: tuple[float, float] | None = None  # (latitude, longitude)
    no_location: bool = False
    orientation: int | None = None
    taken: str = ""  # YYYY-MM-DD
    stored: tuple[int, int] | None = None
    shape: str = ""  # landscape or portrait, as it displays


def corpus_notes() -> dict[str, Expected]:
    """Read the corpus table (SOURCES.md) into expectations per file name."""
    for candidate in (CORPUS / "SOURCES.md", CORPUS.parent / "SOURCES.md"):
        if candidate.is_file():
            text = candidate.read_text()
            break
    else:
        return {}
    notes: dict[str, Expected] = {}
    for line in text.splitlines():
        found = re.match(r"\|\s*`photos/([^`]+)`\s*\|", line)
        if not found:
            continue
        what = line.rstrip(" |").rsplit("|", 1)[-1]
        expected = Expected(refused="runcated" in what)
        gps = re.search(r"GPS (\d+(?:\.\d+)?)([NS]) (\d+(?:\.\d+)?)([EW])", what)
        if gps:
            latitude = float(gps[1]) * (-1 if gps[2] == "S" else 1)
            longitude = float(gps[3]) * (-1 if gps[4] == "W" else 1)
            expected.location = (latitude, longitude)
        expected.no_location = bool(re.search(r"no GPS|no EXIF|but no EXIF", what))
        orientation = re.search(r"[Oo]rientation (\d)", what)
        expected.orientation = int(orientation[1]) if orientation else None
        if re.search(r"no EXIF", what):
            expected.orientation = expected.orientation or 1
        taken = re.search(r"DateTimeOriginal (\d{4}):(\d{2}):(\d{2})", what)
        expected.taken = f"{taken[1]}-{taken[2]}-{taken[3]}" if taken else ""
        dims = re.search(r"(\d{2,5})x(\d{2,5})", what)
        expected.stored = (int(dims[1]), int(dims[2])) if dims else None
        shape = re.search(r"displays as (landscape|portrait)", what)
        name = found[1]
        expected.shape = shape[1] if shape else ""
        if not expected.shape and name.startswith(("landscape", "portrait")):
            expected.shape = name.split("_")[0]
        notes[name] = expected
    return notes


# Defined only where the corpus is: a machine without it has no such test to run.
if CORPUS.is_dir():

    async def test_the_photo_corpus(org_factory, settings: Settings) -> None:
        """Real photos from cameras and phones, when the shared corpus is on this machine;
        what each holds comes from the corpus notes beside it."""
        notes = corpus_notes()
        org: Org = await org_factory()
        client = org.client("Administrator")
        accepted = 0
        for path in sorted(CORPUS.iterdir()):
            if path.suffix.lower() not in (".jpg", ".jpeg", ".png", ".heic", ".heif", ".webp"):
                continue
            expected = notes.get(path.name, Expected())
            response = await upload(client, path.read_bytes(), name=path.name)
            if expected.refused:
                assert response.status_code in (400, 413, 415), (path.name, response.text)
                assert_error(response, response.status_code)
                continue
            assert response.status_code == 201, (path.name, response.text)
            accepted += 1
            image = response.json()
            longitude, latitude = image["location"]["coordinates"]
            if expected.location:
                assert (latitude, longitude) == pytest.approx(expected.location, abs=1e-3), (
                    path.name
                )
            if expected.no_location:
                assert (longitude, latitude) == (0, 0), path.name
            orientation = image["exif_data"]["orientation"]
            if expected.orientation is not None:
                assert orientation == expected.orientation, path.name
            if expected.taken:
                assert image["timestamp"].startswith(expected.taken), path.name
                assert image["exif_data"]["dateTimeOriginal"].startswith(expected.taken), path.name
            if path.suffix.lower() in (".heic", ".heif"):
                assert image["cloud_photos"][0]["format"] == "heic"
            shown = image["cloud_photos"][0]["size"]
            if expected.stored:
                width, height = expected.stored
                turned = orientation in (5, 6, 7, 8)
                assert (shown["X"], shown["Y"]) == ((height, width) if turned else (width, height))
            thumb = (await client.get(f"/api/images/{image['id']}/thumb")).content
            thumb_width, thumb_height = size(thumb)
            # Thumbnails stand upright, the same way round as the photo displays.
            assert (thumb_width >= thumb_height) == (shown["X"] >= shown["Y"]), path.name
            if expected.shape == "landscape":
                assert thumb_width > thumb_height, path.name
            if expected.shape == "portrait":
                assert thumb_height > thumb_width, path.name
        assert accepted >= 1
        assert len(await ids_of(client)) == accepted
        # Refused photos left nothing behind.
        assert len(stored_files(settings, org)) == accepted * 3


async def test_tags_categories_and_comment_are_saved_through_meta(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    category = (await admin.post("/api/image-categories", json={"name": "Damage"})).json()
    image = await uploaded(admin, jpeg(), tags=["dock", " dock ", "pallet"])
    assert image["tags"] == ["dock", "pallet"]
    body = {
        **image,
        "annotation": "Forklift scrape on bay 4",
        "tags": ["bay 4", "forklift"],
        "categories": [{"id": category["id"], "name": "ignored"}],
        "location": {"coordinates": [-1.55, 53.8]},
    }
    response = await org.client("Operator").put(f"/api/images/{image['id']}/meta", json=body)
    assert response.status_code == 200, response.text
    saved = response.json()
    assert saved["annotation"] == "Forklift scrape on bay 4"
    assert saved["tags"] == ["bay 4", "forklift"]
    assert saved["categories"] == [{"id": category["id"], "name": "Damage"}]
    assert saved["location"]["coordinates"] == [-1.55, 53.8]
    assert (await admin.get(f"/api/images/{image['id']}/meta")).json() == saved

    bad = {**body, "categories": [{"id": OTHER_ID}]}
    assert_error(await admin.put(f"/api/images/{image['id']}/meta", json=bad), 400)
    far = {**body, "location": {"coordinates": [200, 0]}}
    assert_error(await admin.put(f"/api/images/{image['id']}/meta", json=far), 422)
    assert (await admin.get(f"/api/images/{image['id']}/meta")).json() == saved


async def test_rights(org_factory) -> None:
    org: Org = await org_factory()
    image = await uploaded(org.client("Operator"), jpeg())
    viewer = org.client("Viewer")
    assert (await viewer.get(f"/api/images/{image['id']}/meta")).status_code == 200
    assert_error(await upload(viewer, jpeg()), 403)
    assert_error(await viewer.put(f"/api/images/{image['id']}/meta", json=image), 403)
    assert_error(await org.client("Operator").delete(f"/api/images/{image['id']}"), 403)
    assert_error(await viewer.delete("/api/images", params={"tags": "x"}), 403)
    assert_error(await viewer.post("/api/images/edit", json={"ids": [image["id"]]}), 403)


async def test_another_organizations_image_is_not_found(org_factory) -> None:
    mine: Org = await org_factory()
    theirs: Org = await org_factory()
    image = await uploaded(theirs.client("Administrator"), jpeg())
    client = mine.client("Super Admin")
    for path in ("", "/thumb", "/mini", "/meta", "/csv", "/zip"):
        assert_error(await client.get(f"/api/images/{image['id']}{path}"), 404)
    assert_error(await client.put(f"/api/images/{image['id']}/meta", json=image), 404)
    assert_error(await client.delete(f"/api/images/{image['id']}"), 404)
    assert_error(await client.post("/api/images/edit", json={"ids": [image["id"]]}), 404)
    assert await ids_of(client) == set()
    assert (await client.get("/api/images//csv")).text.count("\n") == 1
    assert_error(await client.get("/api/images/not-an-id/meta"), 404)
    assert (await theirs.client("Viewer").get(f"/api/images/{image['id']}/meta")).status_code == 200


async def _gallery(org: Org) -> tuple[dict[str, str], dict[str, str]]:
    """Five photos with known tags, categories, uploaders, comments and times."""
    admin = org.client("Administrator")
    operator = org.client("Operator")
    cats = {}
    for name in ("Damage", "Delivery"):
        cats[name] = (await admin.post("/api/image-categories", json={"name": name})).json()["id"]
    ids = {}
    damage, delivery = cats["Damage"], cats["Delivery"]
    specs = [
        ("dent", admin, ["Forklift", "bay-4"], [damage], datetime(2024, 1, 10, 12)),
        ("truck", operator, ["truck"], [delivery], datetime(2024, 2, 10, 12)),
        ("both", admin, ["forklift-2", "truck"], [damage, delivery], datetime(2024, 3, 10, 12)),
        ("bare", operator, [], [], datetime(2024, 4, 10, 12)),
        ("tagonly", admin, ["misc"], [], datetime(2024, 5, 10, 12)),
    ]  # fmt: skip
    for key, client, tags, categories, taken in specs:
        image = await uploaded(client, jpeg(taken=taken), tags=tags, categories=categories)
        ids[key] = image["id"]
    note = {**image, "annotation": "Seal broken on arrival"}
    await admin.put(f"/api/images/{ids['tagonly']}/meta", json=note)
    return ids, cats


async def test_every_search_field_filters(org_factory) -> None:
    org: Org = await org_factory()
    ids, cats = await _gallery(org)
    client = org.client("Viewer")
    me = {u["username"]: u["id"] for u in (await client.get("/api/images/uploaders")).json()}
    operator_id = me[org.usernames["Operator"]]

    def of(*keys: str) -> set[str]:
        return {ids[k] for k in keys}

    assert await ids_of(client) == of("dent", "truck", "both", "bare", "tagonly")
    assert await ids_of(client, tags="truck") == of("truck", "both")
    assert await ids_of(client, tags=["truck", "forklift-2"]) == of("both")
    assert await ids_of(client, tags="forklift") == set()  # exact unless partial
    assert await ids_of(client, tags="forklift", partial=True) == of("dent", "both")
    assert await ids_of(client, categories=cats["Damage"]) == of("dent", "both")
    assert await ids_of(client, categories=[cats["Damage"], cats["Delivery"]]) == of("both")
    assert await ids_of(client, tagsEmpty=True) == of("bare")
    assert await ids_of(client, categoriesEmpty=True) == of("bare", "tagonly")
    assert await ids_of(client, uploader=operator_id) == of("truck", "bare")
    assert await ids_of(client, search="seal BROKEN") == of("tagonly")
    assert await ids_of(client, search="bay-4") == of("dent")
    assert await ids_of(client, search="100%") == set()
    assert await ids_of(
        client, dateStart="2024-02-01T00:00:00Z", dateEnd="2024-04-10T12:00:00Z"
    ) == of("truck", "both", "bare")
    assert await ids_of(client, dateStart="2024-05-01T00:00:00Z") == of("tagonly")
    # 'or': any one condition is enough; the date range still applies.
    assert await ids_of(client, tags="misc", tagsEmpty=True, **{"or": True}) == of(
        "tagonly", "bare"
    )
    assert await ids_of(client, tags="misc", tagsEmpty=True) == set()
    assert await ids_of(
        client,
        tags="truck",
        categories=cats["Damage"],
        dateEnd="2024-02-28T00:00:00Z",
        **{"or": True},
    ) == of("dent", "truck")
    # Paging and sort.
    page = await client.get("/api/images", params={"limit": 2, "page": 1, "sort": "timestamp"})
    assert page.headers["x-total-count"] == "5"
    assert [i["id"] for i in page.json()] == [ids["both"], ids["bare"]]
    assert_error(await client.get("/api/images", params={"sort": "annotation"}), 400)


async def test_neighbours_step_through_the_gallery_order_from_any_image(org_factory) -> None:
    org: Org = await org_factory()
    ids, cats = await _gallery(org)
    client = org.client("Viewer")

    async def walk(**params: Any) -> list[str]:
        """Every image in order, found by stepping from each to the next and back."""
        listed = await client.get("/api/images", params={"limit": 1000, **params})
        order = [i["id"] for i in listed.json()]
        for index, image_id in enumerate(order):
            response = await client.get(f"/api/images/{image_id}/neighbours", params=params)
            assert response.status_code == 200, response.text
            assert response.json() == {
                "previous": order[index - 1] if index > 0 else None,
                "next": order[index + 1] if index + 1 < len(order) else None,
            }
        return order

    everything = await walk()
    assert everything == [
        ids[k] for k in ("tagonly", "bare", "both", "truck", "dent")
    ]  # newest upload first
    assert await walk(sort="timestamp") == [
        ids[k] for k in ("dent", "truck", "both", "bare", "tagonly")
    ]
    assert await walk(sort="-timestamp", categories=cats["Damage"]) == [ids["both"], ids["dent"]]
    assert await walk(tags="truck", tagsEmpty=True, **{"or": True}) == [
        ids[k] for k in ("bare", "both", "truck")
    ]
    # An image outside the search still has its place in the order.
    outside = await client.get(
        f"/api/images/{ids['truck']}/neighbours", params={"categories": cats["Damage"]}
    )
    assert outside.json() == {"previous": ids["both"], "next": ids["dent"]}
    # Equal times: the id breaks the tie, as in the list.
    admin = org.client("Administrator")
    same = datetime(2023, 6, 1, 9)
    for _ in range(3):
        await uploaded(admin, jpeg(taken=same), tags=["same"])
    assert len(await walk(sort="timestamp", tags="same")) == 3
    assert len(await walk(sort="-timestamp")) == 8

    assert_error(
        await client.get(f"/api/images/{ids['dent']}/neighbours", params={"sort": "annotation"}),
        400,
    )
    assert_error(await client.get(f"/api/images/{OTHER_ID}/neighbours"), 404)
    theirs: Org = await org_factory()
    assert_error(await theirs.client("Viewer").get(f"/api/images/{ids['dent']}/neighbours"), 404)


async def test_tag_suggestions_list_the_organizations_tags(org_factory) -> None:
    org: Org = await org_factory()
    await _gallery(org)
    client = org.client("Viewer")

    async def tags(**params: Any) -> list[str]:
        response = await client.get("/api/images/tags", params=params)
        assert response.status_code == 200, response.text
        return list(response.json())

    # Most used first, then by name.
    assert await tags() == ["truck", "bay-4", "Forklift", "forklift-2", "misc"]
    assert await tags(prefix="FORK") == ["Forklift", "forklift-2"]
    assert await tags(prefix=" fork ", limit=1) == ["Forklift"]
    assert await tags(prefix="%") == []
    assert await tags(prefix="ruck") == []
    assert_error(await client.get("/api/images/tags", params={"limit": 0}), 422)
    assert_error(await client.get("/api/images/tags", params={"limit": 101}), 422)
    theirs: Org = await org_factory()
    assert (await theirs.client("Viewer").get("/api/images/tags")).json() == []


async def test_uploader_lookup(org_factory) -> None:
    org: Org = await org_factory()
    image = await uploaded(org.client("Operator"), jpeg())
    client = org.client("Viewer")
    uploaders = (await client.get("/api/images/uploaders")).json()
    assert uploaders == [{"id": image["uploader"], "username": org.usernames["Operator"]}]
    one = await client.get(f"/api/images/uploaders/{image['uploader']}")
    assert one.json() == uploaders[0]
    assert_error(await client.get(f"/api/images/uploaders/{OTHER_ID}"), 404)


def _zip_names(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert archive.testzip() is None
        return {n: archive.read(n) for n in archive.namelist()}


def _csv_rows(response: httpx.Response) -> list[dict[str, str]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    assert response.headers["content-disposition"] == 'attachment; filename="images.csv"'
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


async def test_zip_and_csv_of_a_selection_and_of_a_query(org_factory) -> None:
    org: Org = await org_factory()
    ids, _ = await _gallery(org)
    client = org.client("Viewer")
    originals = {k: (await client.get(f"/api/images/{v}")).content for k, v in ids.items()}

    selection = ",".join([ids["dent"], ids["bare"]])
    response = await client.get(f"/api/images/{selection}/zip")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"] == 'attachment; filename="images.zip"'
    files = _zip_names(response.content)
    assert files == {
        f"{ids['dent']}.jpg": originals["dent"],
        f"{ids['bare']}.jpg": originals["bare"],
    }

    rows = _csv_rows(await client.get(f"/api/images/{selection}/csv"))
    assert {r["id"] for r in rows} == {ids["dent"], ids["bare"]}
    dent = next(r for r in rows if r["id"] == ids["dent"])
    assert dent["tags"] == "Forklift; bay-4"
    assert dent["categories"] == "Damage"
    assert dent["uploader"] == org.usernames["Administrator"]

    # A search: images//zip?{query} and images//csv?{query}.
    response = await client.get("/api/images//zip", params={"tags": "truck"})
    assert response.status_code == 200, response.text
    assert set(_zip_names(response.content)) == {f"{ids['truck']}.jpg", f"{ids['both']}.jpg"}
    rows = _csv_rows(await client.get("/api/images//csv", params={"categoriesEmpty": True}))
    assert {r["id"] for r in rows} == {ids["bare"], ids["tagonly"]}
    everything = _csv_rows(await client.get("/api/images//csv"))
    assert len(everything) == 5

    assert_error(await client.get(f"/api/images/{ids['dent']},{OTHER_ID}/zip"), 404)
    assert_error(await client.get("/api/images/,/csv"), 400)
    many = ",".join(new_id() for _ in range(501))
    assert_error(await client.get(f"/api/images/{many}/zip"), 400, "selection too large")


async def test_csv_cells_cannot_become_formulas(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    image = await uploaded(
        client, jpeg(), tags=['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2", "ok"]
    )
    await client.put(
        f"/api/images/{image['id']}/meta",
        json={**image, "annotation": "=cmd|' /C calc'!A0", "tags": ["=1+1", "plain"]},
    )
    row = _csv_rows(await client.get(f"/api/images/{image['id']}/csv"))[0]
    assert row["annotation"] == "'=cmd|' /C calc'!A0"
    assert row["tags"] == "'=1+1; plain"
    for value in row.values():
        assert not value.startswith(("=", "+", "@")), row


async def test_delete_by_query_deletes_exactly_the_matches(org_factory, settings: Settings) -> None:
    org: Org = await org_factory()
    ids, _ = await _gallery(org)
    admin = org.client("Administrator")
    assert_error(await admin.delete("/api/images"), 400, "empty query")
    response = await admin.delete("/api/images", params={"tags": "truck"})
    assert response.status_code == 200, response.text
    assert response.json() == {"count": 2}
    remaining = await ids_of(admin)
    assert remaining == {ids["dent"], ids["bare"], ids["tagonly"]}
    assert_error(await admin.get(f"/api/images/{ids['truck']}/meta"), 404)
    assert len(stored_files(settings, org)) == 3 * 3

    assert (await admin.delete(f"/api/images/{ids['dent']},{ids['bare']}")).status_code == 204
    assert await ids_of(admin) == {ids["tagonly"]}
    assert len(stored_files(settings, org)) == 3
    assert_error(await admin.delete(f"/api/images/{ids['dent']}"), 404)


async def test_bulk_edit_of_a_selection_and_of_a_query(org_factory) -> None:
    org: Org = await org_factory()
    ids, cats = await _gallery(org)
    client = org.client("Operator")
    body = {
        "ids": [ids["dent"], ids["bare"]],
        "addTags": ["checked"],
        "removeTags": ["Forklift"],
        "addCategories": [cats["Delivery"]],
    }
    response = await client.post("/api/images/edit", json=body)
    assert response.json() == {"count": 2}
    dent = (await client.get(f"/api/images/{ids['dent']}/meta")).json()
    assert dent["tags"] == ["bay-4", "checked"]
    assert [c["name"] for c in dent["categories"]] == ["Damage", "Delivery"]
    response = await client.post(
        "/api/images/edit", params={"tags": "truck"}, json={"removeCategories": [cats["Delivery"]]}
    )
    assert response.json() == {"count": 2}
    assert await ids_of(client, categories=cats["Delivery"]) == {ids["dent"], ids["bare"]}
    assert_error(await client.post("/api/images/edit", json={"addTags": ["x"]}), 400, "empty query")


async def test_upload_to_a_thing_files_it_under_things(
    org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    org: Org = await org_factory()
    async with sessionmaker() as session, session.begin():
        thing = Thing(
            id=new_id(),
            org_id=org.id,
            site_id=org.site_ids[0],
            thing_class="item",
            name="Pallet jack",
        )
        session.add(thing)
    client = org.client("Operator")
    things = next(c for c in (await client.get("/api/categories")).json() if c["name"] == "Things")
    image = await uploaded(client, jpeg(), thing=thing.id)
    assert image["categories"] == [{"id": things["id"], "name": "Things"}]
    async with sessionmaker() as session:
        photo = (
            await session.execute(select(Thing.photo).where(Thing.id == thing.id))
        ).scalar_one()
    assert photo == [image["id"]]
    assert_error(await upload(client, jpeg(), thing=OTHER_ID), 404)

    await org.client("Administrator").delete(f"/api/images/{image['id']}")
    async with sessionmaker() as session:
        photo = (
            await session.execute(select(Thing.photo).where(Thing.id == thing.id))
        ).scalar_one()
        left = (await session.execute(select(Image.id).where(Image.org_id == org.id))).all()
    assert photo == [] and left == []


async def test_categories_crud_and_the_default(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    listed = await admin.get("/api/image-categories")
    assert listed.headers["x-total-count"] == "1"
    assert [c["name"] for c in listed.json()] == ["Things"]

    created = await admin.post("/api/image-categories", json={"name": " Damage "})
    assert created.status_code == 201, created.text
    category = created.json()
    assert category["name"] == "Damage" and len(category["id"]) == 24
    assert_error(
        await admin.post("/api/image-categories", json={"name": "damage"}), 400, "duplicate"
    )
    assert_error(await admin.post("/api/image-categories", json={"name": " "}), 422)
    assert_error(
        await org.client("Operator").post("/api/image-categories", json={"name": "X"}), 403
    )

    body = {"name": "Damage", "description": "Scrapes and dents", "hidden": True}
    updated = await admin.put(f"/api/image-categories/{category['id']}", json=body)
    assert updated.json() == {"id": category["id"], **body}
    assert (await admin.get(f"/api/image-categories/{category['id']}")).json() == updated.json()
    names = [c["name"] for c in (await admin.get("/api/categories")).json()]
    assert names == ["Things"]
    names = [
        c["name"] for c in (await admin.get("/api/categories", params={"hidden": True})).json()
    ]
    assert names == ["Damage", "Things"]
    search = await admin.get("/api/image-categories", params={"search": "scrape"})
    assert [c["name"] for c in search.json()] == ["Damage"]

    usage = f"/api/image-categories/{category['id']}/usage"
    assert (await admin.get(usage)).json() == {"images": 0}
    image = await uploaded(admin, jpeg(), categories=[category["id"]])
    await uploaded(admin, jpeg(), categories=[category["id"]])
    await uploaded(admin, jpeg())
    # The count the delete confirmation names, for anyone who can see the category.
    assert (await org.client("Viewer").get(usage)).json() == {"images": 2}
    assert (await admin.delete(f"/api/image-categories/{category['id']}")).status_code == 204
    assert_error(await admin.get(usage), 404)
    assert (await admin.get(f"/api/images/{image['id']}/meta")).json()["categories"] == []
    assert_error(await admin.get(f"/api/image-categories/{category['id']}"), 404)

    other: Org = await org_factory()
    things_id = listed.json()[0]["id"]
    assert_error(await other.client("Administrator").get(f"/api/image-categories/{things_id}"), 404)
    assert_error(
        await other.client("Administrator").get(f"/api/image-categories/{things_id}/usage"), 404
    )


async def test_zip_and_csv_streams_hand_on_small_chunks() -> None:
    """Memory stays flat: no chunk holds more than one read of a file plus zip headers."""
    payload = bytes(range(256)) * 4096  # 1 MiB per file

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(payload), CHUNK):
            yield payload[start : start + CHUNK]

    async def entries() -> AsyncIterator[Entry]:
        for n in range(20):
            yield f"{n}.jpg", datetime(2024, 1, 2, 3, 4, 5), chunks()

    sizes: list[int] = []
    parts: list[bytes] = []
    async for part in zip_stream(entries()):
        sizes.append(len(part))
        parts.append(part)
    assert max(sizes) <= CHUNK + 1024
    files = _zip_names(b"".join(parts))
    assert len(files) == 20 and all(data == payload for data in files.values())

    async def rows() -> AsyncIterator[list[object]]:
        for n in range(1000):
            yield [f"id{n}", "=SUM(A1)", n]

    lines = [line async for line in csv_stream(rows())]
    assert len(lines) == 1001 and max(len(line) for line in lines) < 200
    assert lines[1] == b"id0,'=SUM(A1),0\r\n"


async def test_demo_photos_are_seeded_once(tmp_path: Path) -> None:
    async with database_with_org("Demo", "demo") as (maker, org):
        storage = LocalStorage(tmp_path / "images")
        assert await seed_demo_images(maker, storage) == len(PHOTOS)
        assert await seed_demo_images(maker, storage) == 0
        async with maker() as session:
            images = (await session.execute(select(Image))).scalars().all()
            names = set((await session.execute(select(ImageCategory.name))).scalars().all())
    assert names == {"Things", "Damage", "Deliveries", "Site Survey"}
    assert len(images) == len(PHOTOS) and all(i.org_id == org.id for i in images)
    assert all(i.latitude != 0 and i.device and i.taken_at for i in images)
    assert len([p for p in (tmp_path / "images").rglob("*") if p.is_file()]) == 3 * len(PHOTOS)


# Pillow notes each damaged EXIF tag it skips; the app silences that, pytest shows it again.
@pytest.mark.filterwarnings("ignore:Tag data larger than file:UserWarning")
async def test_damaged_files_never_break_the_server(org_factory, settings: Settings) -> None:
    """Bytes changed or cut anywhere: a photo, or a clear 4xx; never a server error."""
    org: Org = await org_factory()
    client = org.client("Administrator")
    good = jpeg(120, 80, gps=(10.5, 20.25), taken=datetime(2023, 3, 4, 5, 6, 7), make="Acme")
    variants = [good[:cut] for cut in (2, 20, 200, len(good) // 2)]
    for position in range(2, len(good), max(1, len(good) // 25)):
        damaged = bytearray(good)
        damaged[position] ^= 0xFF
        variants.append(bytes(damaged))
    accepted = 0
    for data in variants:
        response = await upload(client, data)
        assert response.status_code in (201, 400, 415), response.text
        if response.status_code == 201:
            accepted += 1
        else:
            assert set(response.json()) == {"reason", "message"}
    assert len(await ids_of(client)) == accepted
    assert len(stored_files(settings, org)) == accepted * 3
