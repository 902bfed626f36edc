"""Maps: CRUD, the floor-plan picture, things placed on a map, rights, organizations."""

import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from sqlalchemy import select

from tagtrack.demo.floorplan import PLAN_NAME, store_demo_floor_plans
from tagtrack.demo.seed import SITES, seed_demo
from tagtrack.images.storage import LocalStorage
from tagtrack.models import Endpoint, LocationTag, Map, Thing
from tests.conftest import Org
from tests.database import database_with_org
from tests.helpers import OTHER_ID, assert_error
from tests.photos import heic, is_blue, is_red, jpeg, pixel, png_bomb, size
from tests.tracking_api import created, make_endpoint, make_map, make_thing, set_state
from tests.waiting import until

SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(1)</script></svg>"
)


def plan_png(width: int = 160, height: int = 100) -> bytes:
    """A small floor plan: white floor, a dark outer wall."""
    image = Image.new("RGB", (width, height), (255, 255, 255))
    for x in range(width):
        for y in (0, height - 1):
            image.putpixel((x, y), (40, 40, 40))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


async def upload(client: httpx.AsyncClient, map_id: str, data: bytes, name: str = "plan.png"):
    return await client.put(f"/api/maps/{map_id}/image", files={"file": (name, data, "image/png")})


async def test_create_read_update_delete_with_a_floor_plan(org_factory) -> None:
    org: Org = await org_factory()
    manager = org.client("Manager")
    site = org.site_ids[0]
    row = await make_map(manager, site, "  Ground Floor  ")
    assert row == {
        "_id": row["_id"],
        "name": "Ground Floor",
        "site": site,
        "topLeft": [0, 1000],
        "botRight": [1000, 0],
        "image": "",
        "imageWidth": 0,
        "imageHeight": 0,
    }
    url = f"/api/maps/{row['_id']}"
    assert_error(await manager.get(f"{url}/image"), 404)

    response = await upload(manager, row["_id"], plan_png(160, 100))
    assert response.status_code == 200, response.text
    with_plan = response.json()
    # Default corners follow the picture's proportions, the longer side 1000 units.
    assert with_plan["topLeft"] == [0, 625] and with_plan["botRight"] == [1000, 0]
    assert (with_plan["imageWidth"], with_plan["imageHeight"]) == (160, 100)
    assert with_plan["image"] == f"/api/maps/{row['_id']}/image?v=1"
    served = await manager.get(f"{url}/image")
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    assert served.content == plan_png(160, 100)

    changed = {**with_plan, "name": "Level 1", "topLeft": [10, 500], "botRight": [810, 0]}
    response = await manager.put(url, json=changed)
    assert response.status_code == 200, response.text
    assert response.json() == changed
    assert (await manager.get(url)).json() == changed

    # A new picture keeps corners that were set by hand; HEIC is turned into JPEG.
    response = await upload(manager, row["_id"], heic(48, 36), "plan.heic")
    assert response.status_code == 200, response.text
    assert response.json()["topLeft"] == [10, 500]
    assert response.json()["image"].endswith("?v=2")
    assert (await manager.get(f"{url}/image")).headers["content-type"] == "image/jpeg"

    assert (await manager.delete(url)).status_code == 204
    assert_error(await manager.get(url), 404)
    assert_error(await manager.get(f"{url}/image"), 404)


def rotated_png(width: int, height: int, orientation: int) -> bytes:
    """A red plan with a blue top-left quarter, as stored, with an EXIF orientation."""
    image = Image.new("RGB", (width, height), (200, 30, 30))
    image.paste((20, 20, 220), (0, 0, width // 2, height // 2))
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, "PNG", exif=exif)
    return out.getvalue()


async def test_heic_and_rotated_plans_are_stored_upright_in_a_type_browsers_read(
    org_factory,
) -> None:
    org: Org = await org_factory()
    manager = org.client("Manager")
    row = await make_map(manager, org.site_ids[0])
    url = f"/api/maps/{row['_id']}"

    # Stored 64x32 and to be turned a quarter clockwise (orientation 6): shown 32x64, the
    # blue quarter at the top right.
    response = await upload(manager, row["_id"], jpeg(64, 32, orientation=6), "plan.jpg")
    assert response.status_code == 200, response.text
    assert (response.json()["imageWidth"], response.json()["imageHeight"]) == (32, 64)
    served = await manager.get(f"{url}/image")
    assert served.headers["content-type"] == "image/jpeg"
    assert size(served.content) == (32, 64)
    assert is_blue(pixel(served.content, 28, 4)) and is_red(pixel(served.content, 4, 4))
    with Image.open(io.BytesIO(served.content)) as stored:
        # Upright pixels and no orientation left for a browser to apply a second time.
        assert stored.getexif().get(0x0112, 1) == 1

    # A lossless picture stays lossless: turned a quarter anticlockwise (8), as PNG.
    response = await upload(manager, row["_id"], rotated_png(64, 32, 8), "plan.png")
    assert response.status_code == 200, response.text
    assert (response.json()["imageWidth"], response.json()["imageHeight"]) == (32, 64)
    served = await manager.get(f"{url}/image")
    assert served.headers["content-type"] == "image/png"
    assert size(served.content) == (32, 64)
    assert is_blue(pixel(served.content, 4, 60)) and is_red(pixel(served.content, 28, 4))

    response = await upload(manager, row["_id"], heic(48, 36), "plan.heic")
    assert response.status_code == 200, response.text
    assert (response.json()["imageWidth"], response.json()["imageHeight"]) == (48, 36)
    served = await manager.get(f"{url}/image")
    assert served.headers["content-type"] == "image/jpeg"
    assert size(served.content) == (48, 36)
    assert is_blue(pixel(served.content, 24, 18))


async def test_a_new_map_takes_a_floor_plan_larger_than_a_json_body(org_factory) -> None:
    org: Org = await org_factory()
    manager = org.client("Manager")
    # Noise does not compress: a plan of about 3 MiB, over the 2 MiB limit of JSON bodies.
    noise = Image.effect_noise((1400, 1000), 90).convert("RGB")
    out = io.BytesIO()
    noise.save(out, "PNG", compress_level=0)
    assert len(out.getvalue()) > 3 * 1024 * 1024
    body = {"name": "Mezzanine", "site": org.site_ids[0]}
    response = await create_with_plan(manager, body, out.getvalue())
    assert response.status_code == 201, response.text
    assert (response.json()["imageWidth"], response.json()["imageHeight"]) == (1400, 1000)


async def test_bad_pictures_are_refused_and_change_nothing(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    row = await make_map(admin, org.site_ids[0])
    await upload(admin, row["_id"], jpeg(40, 40))
    before = (await admin.get(f"/api/maps/{row['_id']}")).json()
    polyglot = jpeg(20, 20)[:200] + SVG
    upright, turned = jpeg(400, 300), jpeg(400, 300, orientation=6)
    for data, status in (
        (SVG, 415),
        (b"%PDF-1.4 not a picture", 415),
        (polyglot, 415),
        (png_bomb(), 400),
        (b"", 400),
        # Cut short: refused whether its bytes would be kept or it would be turned upright.
        (upright[: len(upright) // 2], 400),
        (turned[: len(turned) // 2], 400),
    ):
        response = await upload(admin, row["_id"], data, "plan.svg")
        body = assert_error(response, status)
        assert body["message"]
        if data in (upright[: len(upright) // 2], turned[: len(turned) // 2]):
            assert body["reason"] == "damaged image"
    assert (await admin.get(f"/api/maps/{row['_id']}")).json() == before
    served = await admin.get(f"/api/maps/{row['_id']}/image")
    assert served.headers["content-type"] == "image/jpeg"
    response = await admin.put(f"/api/maps/{row['_id']}/image", content=b"not multipart")
    assert_error(response, 422)


async def test_invalid_maps_are_refused(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    for body, status, text in (
        ({"name": " ", "site": site}, 422, "name: is required"),
        ({"name": "A", "site": "nope"}, 422, "site"),
        ({"name": "A", "site": site, "topLeft": [1]}, 422, "topLeft"),
        ({"name": "A", "site": site, "topLeft": [0, 0], "botRight": [0, 5]}, 400, "differ"),
    ):
        assert_error(await admin.post("/api/maps", json=body), status, message=text)
    await make_map(admin, site, "Ground")
    response = await admin.post("/api/maps", json={"name": "Ground", "site": site})
    assert_error(response, 400, "duplicate")
    # The same name in another site is fine.
    await make_map(admin, org.site_ids[1], "Ground")
    assert (await admin.get("/api/maps", params={"site": site})).headers["x-total-count"] == "1"


async def create_with_plan(
    client: httpx.AsyncClient, body: dict[str, Any], data: bytes, name: str = "plan.png"
) -> httpx.Response:
    return await client.post(
        "/api/maps/withplan",
        data={"map": json.dumps(body)},
        files={"file": (name, data, "image/png")},
    )


async def test_a_map_and_its_floor_plan_are_created_together_or_not_at_all(org_factory) -> None:
    org: Org = await org_factory()
    manager = org.client("Manager")
    site = org.site_ids[0]
    response = await create_with_plan(manager, {"name": "Dock", "site": site}, plan_png(160, 100))
    assert response.status_code == 201, response.text
    row = response.json()
    assert row["name"] == "Dock" and row["image"] == f"/api/maps/{row['_id']}/image?v=1"
    assert row["topLeft"] == [0, 625] and (row["imageWidth"], row["imageHeight"]) == (160, 100)
    assert (await manager.get(f"/api/maps/{row['_id']}/image")).content == plan_png(160, 100)

    # A refused picture or a refused map leaves nothing behind, and a retry then succeeds.
    for body, data, status, text in (
        ({"name": "Yard", "site": site}, b"%PDF-1.4 not a picture", 415, "JPEG"),
        ({"name": "Yard", "site": site}, b"", 400, ""),
        ({"name": "Dock", "site": site}, plan_png(), 400, "duplicate"),
        ({"name": " ", "site": site}, plan_png(), 422, "name: is required"),
    ):
        assert_error(await create_with_plan(manager, body, data), status, message=text)
    names = [m["name"] for m in (await manager.get("/api/maps", params={"site": site})).json()]
    assert names == ["Dock"]
    response = await create_with_plan(manager, {"name": "Yard", "site": site}, plan_png())
    assert response.status_code == 201, response.text
    assert_error(
        await create_with_plan(org.client("Operator"), {"name": "X", "site": site}, plan_png()), 403
    )
    response = await manager.post(
        "/api/maps/withplan", data={"map": "{not json"}, files={"file": ("p.png", plan_png())}
    )
    assert_error(response, 422, message="map")


async def test_list_search_sort_and_site_filter(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    for name, site in (("Mezzanine", a), ("Ground", a), ("Yard", b)):
        await make_map(admin, site, name)
    names = lambda r: [m["name"] for m in r.json()]  # noqa: E731
    assert names(await admin.get("/api/maps", params={"site": a})) == ["Ground", "Mezzanine"]
    assert names(await admin.get("/api/maps", params={"sort": "-name"})) == [
        "Yard",
        "Mezzanine",
        "Ground",
    ]
    assert names(await admin.get("/api/maps", params={"search": "mezz"})) == ["Mezzanine"]


async def plan_keys(sessionmaker, map_ids: list[str]) -> list[str]:
    """The maps' floor plan keys, in the order of the ids."""
    async with sessionmaker() as session:
        rows = await session.execute(select(Map.id, Map.image_key).where(Map.id.in_(map_ids)))
        keys: dict[str, str] = {map_id: key for map_id, key in rows}
    return [keys[map_id] for map_id in map_ids]


async def stored(storage, key: str) -> bool:
    try:
        await storage.size(key)
    except FileNotFoundError:
        return False
    return True


async def gone(storage, key: str) -> bool:
    return not await stored(storage, key)


async def test_floor_plan_files_go_with_their_map_and_with_their_site(
    org_factory, app, sessionmaker
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    storage = app.state.storage
    first = await make_map(admin, org.site_ids[0], "Plan")
    second = await make_map(admin, org.site_ids[1], "Plan")
    other = await make_map(admin, org.site_ids[1], "Annex")
    for row in (first, second, other):
        assert (await upload(admin, row["_id"], plan_png())).status_code == 200
    keys = await plan_keys(sessionmaker, [first["_id"], second["_id"], other["_id"]])
    assert len(keys) == 3 and all([await stored(storage, key) for key in keys])

    # Files go after the answer, once the deletion is committed.
    assert (await admin.delete(f"/api/maps/{other['_id']}")).status_code == 204
    await until(lambda: gone(storage, keys[2]), seconds=10)
    assert (await admin.delete(f"/api/sites/{org.site_ids[1]}")).status_code == 204
    await until(lambda: gone(storage, keys[1]), seconds=10)
    # The other site's floor plan stays.
    assert await stored(storage, keys[0])
    assert (await admin.get(f"/api/maps/{first['_id']}/image")).status_code == 200


async def test_rights_and_other_organizations(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    site = org.site_ids[0]
    row = await make_map(org.client("Manager"), site)
    url = f"/api/maps/{row['_id']}"
    for role in ("Viewer", "Operator"):
        client = org.client(role)
        assert_error(await client.post("/api/maps", json={"name": role, "site": site}), 403)
        assert_error(await client.put(url, json=row), 403)
        assert_error(await upload(client, row["_id"], plan_png()), 403)
        assert_error(await client.delete(url), 403)
        assert (await client.get(url)).json() == row
        assert (await client.get(f"{url}/things")).json() == []

    stranger = other.client("Administrator")
    for response in (
        await stranger.get(url),
        await stranger.get(f"{url}/image"),
        await stranger.get(f"{url}/things"),
        await stranger.put(url, json={**row, "site": other.site_ids[0]}),
        await upload(stranger, row["_id"], plan_png()),
        await stranger.delete(url),
    ):
        assert_error(response, 404)
    assert (await stranger.get("/api/maps")).json() == []
    assert_error(await stranger.post("/api/maps", json={"name": "X", "site": site}), 404)
    assert (await org.client("Viewer").get(url)).json() == row


async def test_readers_and_location_tags_only_name_maps_of_their_site(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    mine = await make_map(admin, a)
    elsewhere = await make_map(admin, b)
    theirs = await make_map(other.client("Administrator"), other.site_ids[0])
    for map_id in (elsewhere["_id"], theirs["_id"], OTHER_ID):
        response = await admin.post(
            "/api/endpoints", json={"name": "Door", "site": a, "map": map_id}
        )
        assert_error(response, 400, message="map: the map is not a map of this site")
        response = await admin.post(
            "/api/endpoints",
            json={"name": "Door", "site": a, "antennas": [{"map": map_id}]},
        )
        assert_error(response, 400, message="antennas.0.map")
        response = await admin.post(
            "/api/locationtags", json={"name": "Shelf", "tag": "L-1", "site": a, "map": map_id}
        )
        assert_error(response, 400, message="map: the map is not a map of this site")
    reader = await make_endpoint(
        admin,
        a,
        map=mine["_id"],
        xycoordinates=[0.5, 0.5],
        antennas=[{"map": mine["_id"], "xycoordinates": [0.2, 0.3]}],
    )
    shelf = await created(
        await admin.post(
            "/api/locationtags",
            json={"name": "Shelf", "tag": "L-1", "site": a, "map": mine["_id"]},
        )
    )
    # Deleting the map takes them off it.
    assert (await admin.delete(f"/api/maps/{mine['_id']}")).status_code == 204
    reader = (await admin.get(f"/api/endpoints/{reader['_id']}")).json()
    assert reader["map"] == "" and reader["antennas"][0]["map"] == ""
    assert (await admin.get(f"/api/locationtags/{shelf['_id']}")).json()["map"] == ""


async def test_things_on_a_map(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    ground = await make_map(admin, site, "Ground")
    upstairs = await make_map(admin, site, "Upstairs")
    seen = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    placed = [
        ("Pallet Jack PJ-001", "item", "E28011600001", ground["_id"], [0.25, 0.5]),
        ("Aisha Novak", "worker", "E20034120001", ground["_id"], [0.75, 0.1]),
        ("Forklift FL-001", "item", "E28011600002", upstairs["_id"], [0.5, 0.5]),
        ("Roll Cage RC-001", "item", "E28011600003", ground["_id"], [0, 0]),
    ]
    for name, cls, tag, map_id, xy in placed:
        thing = await make_thing(admin, site, name, cls, tag1=tag)
        await set_state(sessionmaker, thing["_id"], map_id=map_id, xy=xy, last_event=seen)
    await make_thing(admin, site, "Never Read", tag1="E28011600009")

    response = await org.client("Viewer").get(f"/api/maps/{ground['_id']}/things")
    assert response.status_code == 200, response.text
    assert response.json() == [
        {
            "_id": response.json()[0]["_id"],
            "name": "Aisha Novak",
            "class": "worker",
            "tag": "E20034120001",
            "xycoordinates": [0.75, 0.1],
            "lastEvent": "2026-03-02T08:00:00Z",
        },
        {
            "_id": response.json()[1]["_id"],
            "name": "Pallet Jack PJ-001",
            "class": "item",
            "tag": "E28011600001",
            "xycoordinates": [0.25, 0.5],
            "lastEvent": "2026-03-02T08:00:00Z",
        },
    ]
    searched = await admin.get(f"/api/maps/{ground['_id']}/things", params={"search": "pj-0"})
    assert [t["name"] for t in searched.json()] == ["Pallet Jack PJ-001"]
    by_tag = await admin.get(f"/api/maps/{ground['_id']}/things", params={"search": "20034"})
    assert [t["name"] for t in by_tag.json()] == ["Aisha Novak"]
    upstairs_things = await admin.get(f"/api/maps/{upstairs['_id']}/things")
    assert [t["name"] for t in upstairs_things.json()] == ["Forklift FL-001"]


async def test_demo_sites_get_a_floor_plan_with_readers_tags_and_things(tmp_path: Path) -> None:
    site_names = [site["name"] for site in SITES]
    storage = LocalStorage(tmp_path / "images")
    async with database_with_org("Demo", "demo") as (maker, _):
        assert await seed_demo(maker, "Demo-Password-123!") is not None
        assert await store_demo_floor_plans(maker, storage, site_names) == len(SITES)
        assert await store_demo_floor_plans(maker, storage, site_names) == 0
        async with maker() as session:
            plans = (await session.execute(select(Map))).scalars().all()
            endpoints = (await session.execute(select(Endpoint))).scalars().all()
            shelves = (await session.execute(select(LocationTag))).scalars().all()
            things = (await session.execute(select(Thing))).scalars().all()
    assert len(plans) == len(SITES) and {p.name for p in plans} == {PLAN_NAME}
    plan_of_site = {p.site_id: p.id for p in plans}
    for plan in plans:
        data = b"".join([chunk async for chunk in storage.read(plan.image_key)])
        with Image.open(io.BytesIO(data)) as picture:
            assert (picture.format, picture.size) == ("PNG", (plan.image_width, plan.image_height))
    inside = lambda xy: len(xy) == 2 and all(0 < v < 1 for v in xy)  # noqa: E731
    for endpoint in endpoints:
        assert endpoint.map_id == plan_of_site[endpoint.site_id] and inside(endpoint.xy)
        for antenna in endpoint.antennas:
            assert antenna["map"] == endpoint.map_id and inside(antenna["xycoordinates"])
    assert all(s.map_id == plan_of_site[s.site_id] and inside(s.xy) for s in shelves)
    placed = [t for t in things if t.map_id]
    assert len(things) / 2 < len(placed) < len(things)
    assert all(t.map_id == plan_of_site[t.site_id] and inside(t.xy) for t in placed)
