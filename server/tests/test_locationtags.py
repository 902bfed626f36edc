"""Location tags: CRUD, required name and tag, upper-case unique tags, zone of the same site."""

import pytest

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user
from tests.tracking_api import created, make_map, make_zone


def tag_body(site: str, name: str = "Shelf A1", tag: str = "loc-0001", **changes: object) -> dict:
    return {"name": name, "tag": tag, "site": site, **changes}


async def test_create_read_update_delete(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    zone = await make_zone(admin, org.site_ids[0], "Warehouse A")
    floor_plan = await make_map(admin, org.site_ids[0])
    body = tag_body(
        org.site_ids[0],
        " Shelf A1 ",
        " e2801160600002 ",
        zone=zone["_id"],
        map=floor_plan["_id"],
        xycoordinates=[0.25, 0.75],
    )
    row = await created(await admin.post("/api/locationtags", json=body))
    assert row == {
        "_id": row["_id"],
        "name": "Shelf A1",
        "tag": "E2801160600002",
        "zone": zone["_id"],
        "map": floor_plan["_id"],
        "xycoordinates": [0.25, 0.75],
        "site": org.site_ids[0],
    }
    url = f"/api/locationtags/{row['_id']}"
    assert (await admin.get(url)).json() == row
    response = await admin.put(url, json={**row, "zone": "", "tag": "loc-2"})
    assert response.status_code == 200, response.text
    assert response.json()["zone"] is None and response.json()["tag"] == "LOC-2"
    response = await admin.put(url, json={**row, "zone": None})
    assert response.json()["zone"] is None
    assert (await admin.delete(url)).status_code == 204
    assert_error(await admin.get(url), 404)


async def test_defaults(org_factory) -> None:
    org: Org = await org_factory()
    row = await created(
        await org.client("Manager").post("/api/locationtags", json=tag_body(org.site_ids[0]))
    )
    assert row["zone"] is None and row["map"] == "" and row["xycoordinates"] == [0, 0]


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"name": ""}, "name: is required"),
        ({"name": "  "}, "name: is required"),
        ({"tag": ""}, "tag: is required"),
        ({"tag": None}, "tag"),
        ({"zone": "nope"}, "zone: must be a 24-character hex id"),
        ({"xycoordinates": [1]}, "xycoordinates"),
        ({"xycoordinates": [1.5, 0.5]}, "xycoordinates: x and y are fractions"),
        ({"xycoordinates": [0.5, -0.1]}, "from 0 to 1"),
        ({"tag": "x" * 129}, "tag"),
    ],
)
async def test_invalid_location_tags_are_refused(org_factory, changes, text) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    response = await admin.post("/api/locationtags", json={**tag_body(org.site_ids[0]), **changes})
    assert_error(response, 422, message=text)
    assert (await admin.get("/api/locationtags")).json() == []


async def test_missing_fields_and_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    response = await admin.post("/api/locationtags", json={"site": org.site_ids[0]})
    body = assert_error(response, 422)
    assert "name: is required" in body["message"] and "tag: is required" in body["message"]
    response = await admin.post(
        "/api/locationtags", content=b"[", headers={"content-type": "application/json"}
    )
    assert_error(response, 422)
    assert (await admin.get("/api/locationtags")).headers["x-total-count"] == "0"


async def test_tags_are_unique_in_the_organization_ignoring_case(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    first = await created(
        await admin.post("/api/locationtags", json=tag_body(org.site_ids[0], tag="LOC-1"))
    )
    response = await admin.post(
        "/api/locationtags", json=tag_body(org.site_ids[1], "Other", tag=" loc-1")
    )
    assert_error(response, 400, "duplicate", "duplicate")
    second = await created(
        await admin.post("/api/locationtags", json=tag_body(org.site_ids[0], tag="LOC-2"))
    )
    url = f"/api/locationtags/{second['_id']}"
    assert_error(await admin.put(url, json={**second, "tag": "Loc-1"}), 400, "duplicate")
    assert (await admin.get(url)).json()["tag"] == "LOC-2"
    # Its own tag is fine, and another organization may use the same tag.
    assert (await admin.put(f"/api/locationtags/{first['_id']}", json=first)).status_code == 200
    other: Org = await org_factory()
    await created(
        await other.client("Administrator").post(
            "/api/locationtags", json=tag_body(other.site_ids[0], tag="LOC-1")
        )
    )


async def test_zone_must_be_of_the_same_site(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    elsewhere = await make_zone(admin, org.site_ids[1], "Elsewhere")
    for zone in (elsewhere["_id"], OTHER_ID):
        response = await admin.post("/api/locationtags", json=tag_body(org.site_ids[0], zone=zone))
        assert_error(response, 400, message="zone: the zone is not a zone of this site")


async def test_list_search_sort_page(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    bay = await make_zone(admin, a, "Bay")
    aisle = await make_zone(admin, a, "Aisle")
    rows = [
        ("Shelf C", "T-3", bay["_id"], a),
        ("Shelf A", "T-1", aisle["_id"], a),
        ("Shelf B", "T-2", None, a),
        ("Gate", "T-9", None, b),
    ]
    for name, tag, zone, site in rows:
        await created(
            await admin.post("/api/locationtags", json=tag_body(site, name, tag, zone=zone))
        )
    names = lambda r: [t["name"] for t in r.json()]  # noqa: E731
    listed = await admin.get("/api/locationtags", params={"site": a, "limit": 3000})
    assert names(listed) == ["Shelf A", "Shelf B", "Shelf C"]
    assert listed.headers["x-total-count"] == "3"
    assert names(await admin.get("/api/locationtags", params={"sort": "-tag"})) == [
        "Gate",
        "Shelf C",
        "Shelf B",
        "Shelf A",
    ]
    by_zone = await admin.get("/api/locationtags", params={"site": a, "sort": "zone"})
    assert names(by_zone)[:2] == ["Shelf A", "Shelf C"]
    assert names(await admin.get("/api/locationtags", params={"search": "t-2"})) == ["Shelf B"]
    assert names(await admin.get("/api/locationtags", params={"search": "bay"})) == ["Shelf C"]
    paged = await admin.get("/api/locationtags", params={"limit": 2, "page": 1})
    assert names(paged) == ["Shelf B", "Shelf C"]


async def test_rights_per_role(org_factory) -> None:
    org: Org = await org_factory()
    site = org.site_ids[0]
    row = await created(
        await org.client("Administrator").post("/api/locationtags", json=tag_body(site))
    )
    url = f"/api/locationtags/{row['_id']}"
    for role in ("Viewer", "Operator"):
        client = org.client(role)
        response = await client.post("/api/locationtags", json=tag_body(site, tag=role))
        assert_error(response, 403)
        assert_error(await client.put(url, json=row), 403)
        assert_error(await client.delete(url), 403)
        assert (await client.get(url)).json() == row
    assert (await org.client("Manager").delete(url)).status_code == 204


async def test_other_organization_and_site_scope(org_factory, app, sessionmaker) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    theirs = await created(
        await other.client("Administrator").post(
            "/api/locationtags", json=tag_body(other.site_ids[0], tag="THEIRS")
        )
    )
    url = f"/api/locationtags/{theirs['_id']}"
    assert_error(await admin.get(url), 404)
    assert_error(await admin.put(url, json={**theirs, "site": org.site_ids[0]}), 404)
    assert_error(await admin.delete(url), 404)
    response = await admin.post("/api/locationtags", json=tag_body(other.site_ids[0]))
    assert_error(response, 404)

    a, b = org.site_ids
    await created(await admin.post("/api/locationtags", json=tag_body(a, "Mine", "M-1")))
    hidden = await created(await admin.post("/api/locationtags", json=tag_body(b, "Hidden", "H-1")))
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [a])
    assert [t["name"] for t in (await client.get("/api/locationtags")).json()] == ["Mine"]
    assert_error(await client.get(f"/api/locationtags/{hidden['_id']}"), 404)
    assert_error(await client.get("/api/locationtags", params={"site": b}), 404)


async def test_deleting_a_zone_leaves_the_tag_without_zone(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    zone = await make_zone(admin, org.site_ids[0])
    row = await created(
        await admin.post("/api/locationtags", json=tag_body(org.site_ids[0], zone=zone["_id"]))
    )
    assert (await admin.delete(f"/api/zones/{zone['_id']}")).status_code == 204
    assert (await admin.get(f"/api/locationtags/{row['_id']}")).json()["zone"] is None
