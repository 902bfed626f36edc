"""Exceptions: the list with names, one with its things, the XLSX export, and refusals."""

from datetime import datetime, timedelta
from typing import Any

from tagtrack.models import TrackingException
from tagtrack.models.ids import UNKNOWN_THING_ID
from tests.reporting import formats, org_with_floor, values, xlsx
from tests.tracking import Floor, at, epc

NS = 10**9


async def add(floor: Floor, **fields: Any) -> TrackingException:
    row = TrackingException(org_id=floor.org_id, site_id=floor.site_id, **fields)
    async with floor.sessionmaker() as session, session.begin():
        session.add(row)
    return row


async def test_exceptions_list_detail_and_export(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr("tagtrack.exceptions.repository.EXPORT_CHUNK", 2)
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    door = await floor.endpoint("Door")
    quarantine = await floor.zone("Quarantine", gates=[(door, "IN", -1)], duration=5 * 60 * NS)
    drum_tag, box_tag = epc(), epc()
    drum = await floor.thing("Chemical drum", drum_tag)
    box = await floor.thing("=1+2", box_tag)
    await floor.read(door, drum_tag, 0)
    assert (await floor.sweep(420)).exceptions == 1
    shortage = await add(
        floor,
        type="inventoryThingsMissing",
        time=at(3600),
        zone_id=quarantine.id,
        multiple_things=[box.id, UNKNOWN_THING_ID, drum.id],
        message="Shortage of 3",
    )
    await add(floor, type="processException", time=at(-60), message="the endpoint no longer exists")
    viewer = org.client("Viewer")
    period = {
        "site": floor.site_id,
        "after": "2026-03-02T00:00:00Z",
        "before": "2026-03-03T00:00:00Z",
    }

    listed = await viewer.get("/api/exceptions", params=period)
    assert listed.status_code == 200, listed.text
    assert listed.headers["x-total-count"] == "3"
    dwell = listed.json()[1]
    assert dwell == {
        "_id": dwell["_id"],
        "type": "zoneTimeException",
        "time": "2026-03-02T08:05:00Z",
        "site": floor.site_id,
        "thing": drum.id,
        "thingName": "Chemical drum",
        "thingTag": drum_tag,
        "zone": quarantine.id,
        "zoneName": quarantine.name,
        "multipleThings": [],
        "timeDuration": 420 * NS,
        "message": f"Chemical drum in {quarantine.name} > 5 minute(s)",
    }
    assert [e["type"] for e in listed.json()] == [
        "inventoryThingsMissing", "zoneTimeException", "processException",
    ]  # fmt: skip
    oldest = await viewer.get(
        "/api/exceptions", params={**period, "sort": "time", "limit": 1, "page": 1}
    )
    assert [e["type"] for e in oldest.json()] == ["zoneTimeException"]
    assert oldest.headers["x-total-count"] == "3"
    later = await viewer.get("/api/exceptions", params={**period, "after": "2026-03-02T08:30:00Z"})
    assert [e["_id"] for e in later.json()] == [shortage.id]

    detail = await viewer.get(f"/api/exceptions/{shortage.id}")
    assert detail.status_code == 200, detail.text
    never = "0001-01-01T00:00:00Z"
    assert detail.json()["things"] == [
        {"_id": box.id, "name": "=1+2", "tag": box_tag, "zone": "", "zoneName": "",
         "lastEvent": never},
        {"_id": drum.id, "name": "Chemical drum", "tag": drum_tag, "zone": quarantine.id,
         "zoneName": quarantine.name, "lastEvent": "2026-03-02T08:00:00Z"},
    ]  # fmt: skip
    assert (await viewer.get(f"/api/exceptions/{dwell['_id']}")).json()["things"] == []

    book = xlsx(await viewer.get("/api/exceptions/export", params=period), "exceptions.xlsx")
    sheet = book.worksheets[0]
    site = (await viewer.get(f"/api/sites/{floor.site_id}")).json()["name"]
    assert values(sheet) == [
        ("Time (Europe/London)", "Type", "Message", "Name", "Tag", "Zone", "Duration",
         "Things", "Site"),
        # Types in the console's words.
        (datetime(2026, 3, 2, 7, 59), "Processing", "the endpoint no longer exists",
         None, None, None, None, None, site),
        (datetime(2026, 3, 2, 8, 5), "Zone time", dwell["message"], "Chemical drum",
         drum_tag, quarantine.name, timedelta(minutes=7), None, site),
        (datetime(2026, 3, 2, 9, 0), "Missing", "Shortage of 3", None, None,
         quarantine.name, None, "=1+2, Chemical drum", site),
    ]  # fmt: skip
    assert formats(sheet, 3, [1, 7]) == ["yyyy-mm-dd hh:mm:ss", "[h]:mm"]
    assert sheet.cell(row=4, column=8).data_type == "s"
    audit = await org.client("Administrator").get(
        "/api/auditlog", params={"action": "exceptions.exported"}
    )
    assert [e["target"] for e in audit.json()] == ["exceptions.xlsx"]


async def test_exceptions_refuse_strangers_and_bad_input(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    row = await add(floor, type="processException", time=at(0), message="unreadable")
    stranger = (await org_factory()).client("Administrator")
    assert (await stranger.get(f"/api/exceptions/{row.id}")).status_code == 404
    foreign = await stranger.get("/api/exceptions", params={"site": floor.site_id})
    assert (foreign.json(), foreign.headers["x-total-count"]) == ([], "0")
    viewer = org.client("Viewer")
    assert (await viewer.get(f"/api/exceptions/{row.id}")).status_code == 200
    for path, params, status in (
        ("/api/exceptions/not-an-id", {}, 404),
        ("/api/exceptions/ffffffffffffffffffffffff", {}, 404),
        ("/api/exceptions", {"sort": "message"}, 400),
        ("/api/exceptions", {"after": "yesterday"}, 422),
        ("/api/exceptions", {"limit": 0}, 422),
        ("/api/exceptions", {"site": "nope"}, 404),
        ("/api/exceptions/export", {"before": "soon"}, 422),
    ):
        response = await viewer.get(path, params=params)
        assert response.status_code == status, (path, params, response.text)
        assert set(response.json()) == {"reason", "message"}
    assert (await anonymous.get("/api/exceptions")).status_code == 401
    assert (await anonymous.get("/api/exceptions/export")).status_code == 401
