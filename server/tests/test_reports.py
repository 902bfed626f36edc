"""Report configurations, configured report runs, the ad hoc categories report and the
Activity report, fed with reads at set times and checked cell by cell."""

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import text

from tagtrack.models.ids import UNKNOWN_THING_ID
from tagtrack.processing.service import nanoseconds
from tests.conftest import Org
from tests.reporting import formats, org_with_floor, seconds, values, xlsx, z
from tests.tracking import T0, Floor, epc
from tests.tracking_api import created, set_state

DAY_START = datetime(2026, 3, 2, tzinfo=UTC)
DAY_END = DAY_START + timedelta(days=1)
PERIOD = {"after": z(DAY_START), "before": z(DAY_END)}
DATES = "yyyy-mm-dd hh:mm:ss"


def clock(offset: float) -> datetime:
    """T0 + offset on the site's clock (London: UTC in March), as openpyxl reads it."""
    return (T0 + timedelta(seconds=offset)).replace(tzinfo=None)


class Shop:
    """Two zones on the first site; three things and an unknown tag read at set times."""

    async def build(self, org: Org, floor: Floor) -> "Shop":
        self.org, self.floor = org, floor
        self.dock = await floor.endpoint("Dock")
        self.shelf = await floor.endpoint("Shelf")
        self.receiving = await floor.zone("Receiving", gates=[(self.dock, "IN", -1)])
        self.storage = await floor.zone("Storage", gates=[(self.shelf, "IN", -1)])
        self.tags = {name: epc() for name in ("jack", "cart", "drill", "unknown")}
        self.jack = await floor.thing("Pallet jack", self.tags["jack"])
        self.cart = await floor.thing("Cart", self.tags["cart"])
        self.drill = await floor.thing("Drill", self.tags["drill"])
        for thing, categories in (
            (self.jack, ["Tools", "Heavy"]),
            (self.cart, ["Carts"]),
            (self.drill, ["Tools"]),
        ):
            await set_state(floor.sessionmaker, thing.id, categories=categories)
        await floor.read(self.dock, self.tags["drill"], -86400)
        await floor.read(self.dock, self.tags["unknown"], -86300)
        await floor.read(self.dock, self.tags["jack"], 0)
        await floor.read(self.dock, self.tags["unknown"], 100)
        await floor.read(self.dock, self.tags["jack"], 600)
        await floor.read(self.dock, self.tags["cart"], 1200)
        await floor.read(self.shelf, self.tags["jack"], 3600)
        [unknown, _] = await floor.events(self.tags["unknown"])
        assert (unknown.thing_id, unknown.zone_id) == (UNKNOWN_THING_ID, self.receiving.id)
        return self

    @property
    def site(self) -> str:
        return self.floor.site_id

    def manager(self) -> httpx.AsyncClient:
        return self.org.client("Manager")

    async def config(self, name: str, type: str, **fields: Any) -> dict[str, Any]:
        body = {"name": name, "type": type, "format": "excel", "site": self.site, **fields}
        return await created(await self.manager().post("/api/reportconfigs", json=body))

    async def site_name(self) -> str:
        response = await self.manager().get(f"/api/sites/{self.site}")
        return str(response.json()["name"])


async def shop(org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any) -> Shop:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    return await Shop().build(org, floor)


async def test_seen_report_rows_headings_and_summary(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any, monkeypatch: Any
) -> None:
    # Rows are fetched and written a chunk at a time: one row per chunk here.
    monkeypatch.setattr("tagtrack.reports.repository.CHUNK", 1)
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    headings = ["Name", "Tag", "Zone", "First Seen", "Last Seen", "Events"]
    config = await s.config(
        "Seen today",
        "reportTypeSeen",
        zones=[s.receiving.id, s.storage.id],
        headings=headings,
    )
    book = xlsx(
        await s.org.client("Viewer").get(f"/api/reports/{config['_id']}", params=PERIOD),
        "Seen today.xlsx",
    )
    table, summary = book.worksheets
    assert values(table) == [
        ("Name", "Tag", "Zone", "First Seen (Europe/London)", "Last Seen (Europe/London)",
         "Events"),
        ("Cart", s.tags["cart"], s.receiving.name, clock(1200), clock(1200), 1),
        ("Pallet jack", s.tags["jack"], s.receiving.name, clock(0), clock(600), 2),
        ("Pallet jack", s.tags["jack"], s.storage.name, clock(3600), clock(3600), 1),
    ]  # fmt: skip
    assert formats(table, 2, [4, 5]) == [DATES, DATES]
    assert values(summary) == [
        ("Report", "Seen today"),
        ("Type", "Things seen in the zones during the period"),
        ("Site", await s.site_name()),
        ("Time Zone", "Europe/London"),
        ("From", DAY_START.replace(tzinfo=None)),
        ("To", DAY_END.replace(tzinfo=None)),
        ("Zones", f"{s.receiving.name}, {s.storage.name}"),
        ("Categories", "All categories"),
        ("Rows", 3),
        ("Things", 2),
    ]


async def test_seen_report_keeps_the_chosen_categories(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    config = await s.config(
        "Carts", "reportTypeSeen", categories=["Carts"], headings=["Name", "Categories"]
    )
    book = xlsx(await s.manager().get(f"/api/reports/{config['_id']}", params=PERIOD), "Carts.xlsx")
    assert values(book.worksheets[0]) == [("Name", "Categories"), ("Cart", "Carts")]


async def test_a_report_of_format_json_is_json(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    headings = ["Name", "Zone", "First Seen", "Events"]
    config = await s.config(
        "Seen as data", "reportTypeSeen", format="json", zones=[s.storage.id], headings=headings
    )
    response = await s.manager().get(f"/api/reports/{config['_id']}", params=PERIOD)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert 'filename="Seen as data.json"' in response.headers["content-disposition"]
    assert response.json() == {
        "title": "Seen as data",
        "columns": headings,
        # Times on the site's clock, which the summary names.
        "rows": [
            {"Name": "Pallet jack", "Zone": s.storage.name,
             "First Seen": clock(3600).isoformat(), "Events": 1},
        ],
        "summary": {
            "Report": "Seen as data",
            "Type": "Things seen in the zones during the period",
            "Site": await s.site_name(),
            "Time Zone": "Europe/London",
            "From": "2026-03-02T00:00:00",
            "To": "2026-03-03T00:00:00",
            "Zones": s.storage.name,
            "Categories": "All categories",
            "Rows": 1,
            "Things": 1,
        },
    }  # fmt: skip


async def test_not_seen_report_lists_things_last_seen_before_the_period(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    config = await s.config("Missing", "reportTypeNotSeen", zones=[s.receiving.id])
    book = xlsx(
        await s.manager().get(f"/api/reports/{config['_id']}", params=PERIOD), "Missing.xlsx"
    )
    table, summary = book.worksheets
    # The unknown tag, also last read before the period, is left out.
    assert values(table) == [
        ("Name", "Serial", "Tag", "Class", "Categories", "Zone", "Last Seen (Europe/London)",
         "Current Zone"),
        ("Drill", None, s.tags["drill"], "item", "Tools", s.receiving.name,
         datetime(2026, 3, 1, 8, 0), s.receiving.name),
    ]  # fmt: skip
    assert values(summary)[-2:] == [("Rows", 1), ("Things", 1)]


async def test_categories_report_counts_things_now_in_each_zone(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    config = await s.config("By category", "reportTypeCategories", email=True)
    book = xlsx(
        await s.manager().get(f"/api/reports/{config['_id']}", params=PERIOD),
        "By category.xlsx",
    )
    table, summary = book.worksheets
    assert values(table) == [
        ("Zone", "Category", "Count"),
        (s.receiving.name, "Carts", 1),
        (s.receiving.name, "Tools", 1),
        (s.storage.name, "Heavy", 1),
        (s.storage.name, "Tools", 1),
    ]
    assert values(summary)[-2:] == [("Rows", 4), ("Total", 4)]


async def test_adhoc_categories_report_as_json_and_as_excel(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    s = await shop(org_factory, sessionmaker, settings, anonymous)
    body = {"type": "reportTypeCategories", "site": s.site, "categories": ["Tools"], "zones": []}
    viewer = s.org.client("Viewer")
    response = await viewer.post("/api/reports/adhoc", json={**body, "format": "json"})
    assert response.status_code == 200, response.text
    assert response.json() == {
        "site": s.site,
        "zones": [
            {"zone": s.receiving.id, "zoneName": s.receiving.name, "total": 1,
             "categories": [{"category": "Tools", "count": 1}]},
            {"zone": s.storage.id, "zoneName": s.storage.name, "total": 1,
             "categories": [{"category": "Tools", "count": 1}]},
        ],
        "total": 2,
    }  # fmt: skip
    only_storage = {**body, "zones": [s.storage.id], "categories": [], "format": "excel"}
    book = xlsx(await viewer.post("/api/reports/adhoc", json=only_storage), "report.xlsx")
    assert values(book.worksheets[0]) == [
        ("Zone", "Category", "Count"),
        (s.storage.name, "Heavy", 1),
        (s.storage.name, "Tools", 1),
    ]
    entries = await s.org.client("Administrator").get(
        "/api/auditlog", params={"action": "reports.exported"}
    )
    assert any(e["target"] == "report.xlsx" for e in entries.json()), entries.text


async def test_text_that_looks_like_a_formula_stays_text(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    gate = await floor.endpoint("Gate")
    yard = await floor.zone("Yard", gates=[(gate, "IN", -1)])
    tag = epc()
    await floor.thing('=HYPERLINK("http://evil.example","x")', tag)
    await floor.read(gate, tag, 60)
    body = {
        "name": "+Yard",
        "type": "reportTypeSeen",
        "format": "excel",
        "site": floor.site_id,
        "zones": [yard.id],
        "headings": ["Name", "Tag"],
    }
    config = await created(await org.client("Manager").post("/api/reportconfigs", json=body))
    book = xlsx(
        await org.client("Manager").get(f"/api/reports/{config['_id']}", params=PERIOD),
        "Yard.xlsx",
    )
    table, summary = book.worksheets
    cell = table.cell(row=2, column=1)
    assert (cell.value, cell.data_type) == ('=HYPERLINK("http://evil.example","x")', "s")
    assert (summary.cell(row=1, column=2).value, summary.cell(row=1, column=2).data_type) == (
        "+Yard",
        "s",
    )


async def test_report_configs_crud_rights_and_lookups(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    zone = await floor.zone("Dock")
    manager, viewer = org.client("Manager"), org.client("Viewer")
    body = {
        "name": "Weekly seen",
        "type": "reportTypeSeen",
        "format": "excel",
        "email": True,
        "zones": [zone.id],
        "categories": ["Tools"],
        "headings": ["Tag", "Name"],
        "site": floor.site_id,
    }
    assert (await viewer.post("/api/reportconfigs", json=body)).status_code == 403
    assert (await org.client("Operator").post("/api/reportconfigs", json=body)).status_code == 403
    first = await created(await manager.post("/api/reportconfigs", json=body))
    assert first == {**body, "_id": first["_id"], "zoneNames": [zone.name]}
    await created(
        await manager.post(
            "/api/reportconfigs", json={**body, "name": "Alpha", "type": "reportTypeCategories",
                                        "headings": [], "email": False}
        )
    )  # fmt: skip
    other_site = {**body, "name": "Other", "site": org.site_ids[1], "zones": []}
    await created(await manager.post("/api/reportconfigs", json=other_site))

    listed = await viewer.get("/api/reportconfigs", params={"site": floor.site_id})
    assert [c["name"] for c in listed.json()] == ["Alpha", "Weekly seen"]
    assert listed.headers["x-total-count"] == "2"
    assert (await viewer.get(f"/api/reportconfigs/{first['_id']}")).json() == first

    changed = {**body, "_id": first["_id"], "name": "Daily seen", "email": False}
    updated = await manager.put(f"/api/reportconfigs/{first['_id']}", json=changed)
    assert updated.status_code == 200, updated.text
    assert (updated.json()["name"], updated.json()["email"]) == ("Daily seen", False)
    assert (await viewer.delete(f"/api/reportconfigs/{first['_id']}")).status_code == 403
    assert (await manager.delete(f"/api/reportconfigs/{first['_id']}")).status_code == 204
    assert (await viewer.get(f"/api/reportconfigs/{first['_id']}")).status_code == 404

    types = (await viewer.get("/api/reporttypes")).json()
    assert [t["id"] for t in types] == [
        "reportTypeSeen",
        "reportTypeNotSeen",
        "reportTypeCategories",
    ]
    assert types[2]["headings"] == ["Zone", "Category", "Count"]
    assert [f["id"] for f in (await viewer.get("/api/reportformat")).json()] == ["excel", "json"]


async def test_report_configs_refuse_bad_input_and_other_organizations(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    other = await org_factory()
    zone = await floor.zone("Dock")
    manager = org.client("Manager")
    body = {"name": "Seen", "type": "reportTypeSeen", "format": "excel", "site": floor.site_id}
    config = await created(await manager.post("/api/reportconfigs", json=body))
    cases: list[tuple[Any, int, str]] = [
        ({**body, "name": " "}, 422, "name"),
        ({k: v for k, v in body.items() if k != "type"}, 422, "type"),
        ({**body, "format": "pdf"}, 422, "format"),
        ({**body, "type": "reportTypeEverything"}, 422, "type"),
        ({**body, "zones": ["nope"]}, 422, "zones"),
        ({**body, "name": "B", "site": org.site_ids[1], "zones": [zone.id]}, 400, "zones.0"),
        ({**body, "name": "C", "headings": ["Count"]}, 400, "headings.0"),
        ({**body, "name": "D", "headings": ["Name", "Name"]}, 400, "headings"),
        ({**body, "site": other.site_ids[0]}, 404, "Site not found"),
        (body, 400, "duplicate"),
    ]
    for payload, status, words in cases:
        response = await manager.post("/api/reportconfigs", json=payload)
        assert response.status_code == status, (payload, response.text)
        assert words in response.json()["message"], response.text
    malformed = await manager.post(
        "/api/reportconfigs", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert malformed.status_code == 422
    stranger = other.client("Administrator")
    for call in (
        stranger.get(f"/api/reportconfigs/{config['_id']}"),
        stranger.put(
            f"/api/reportconfigs/{config['_id']}", json={**body, "site": other.site_ids[0]}
        ),
        stranger.delete(f"/api/reportconfigs/{config['_id']}"),
        stranger.get(f"/api/reports/{config['_id']}", params=PERIOD),
    ):
        assert (await call).status_code == 404
    foreign = await stranger.get("/api/reportconfigs", params={"site": floor.site_id})
    assert (foreign.json(), foreign.headers["x-total-count"]) == ([], "0")
    adhoc = {"type": "reportTypeCategories", "format": "json", "site": floor.site_id}
    assert (await stranger.post("/api/reports/adhoc", json=adhoc)).status_code == 404
    assert (
        await manager.post("/api/reports/adhoc", json={**adhoc, "type": "reportTypeSeen"})
    ).status_code == 422
    run = f"/api/reports/{config['_id']}"
    assert (await manager.get(run, params={"after": PERIOD["after"]})).status_code == 422
    backwards = {"after": PERIOD["before"], "before": PERIOD["after"]}
    assert (await manager.get(run, params=backwards)).status_code == 400
    assert (
        await manager.get(run, params={**PERIOD, "before": "2028-01-01T00:00:00Z"})
    ).status_code == 400
    assert (await manager.get("/api/reportconfigs", params={"sort": "secret"})).status_code == 400
    assert (await manager.get("/api/reportconfigs")).headers["x-total-count"] == "1"
    assert (await anonymous.get("/api/reportconfigs")).status_code == 401


async def test_activity_groups_reads_by_thing_and_site_day(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(
        org_factory, sessionmaker, settings, anonymous, timezone="America/New_York"
    )
    door = await floor.endpoint("Door")
    jack_tag, cart_tag, unknown = epc(), epc(), epc()
    jack = await floor.thing("Pallet jack", jack_tag)
    cart = await floor.thing("Cart", cart_tag, "worker")

    def utc(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
        return datetime(2026, 3, day, hour, minute, second, tzinfo=UTC)

    for tag, moment in (
        (jack_tag, utc(2, 13)),  # 08:00 on the site's clock, 2 March
        (jack_tag, utc(2, 21, 30)),
        (jack_tag, utc(3, 4, 30)),  # 23:30 on 2 March
        (jack_tag, utc(3, 14)),  # 09:00, 3 March
        (jack_tag, utc(3, 14, 0, 30)),  # folded into the one before
        (jack_tag, utc(3, 18)),
        (cart_tag, utc(3, 15)),
        (unknown, utc(3, 15)),
        (jack_tag, utc(4, 6)),  # 01:00, 4 March: after the period
    ):
        await floor.read(door, tag, seconds(moment))
    period = {"after": z(utc(2, 5)), "before": z(utc(4, 5)), "site": floor.site_id}
    hour = 3600 * 10**9
    response = await org.client("Viewer").get("/api/eventsbything", params=period)
    assert response.status_code == 200, response.text
    assert response.json() == [
        {"thing": cart.id, "thingName": "Cart", "thingTag": cart_tag, "thingClass": "worker",
         "site": floor.site_id, "timeDuration": 0, "events": 1, "reads": 1,
         "days": [{"day": "2026-03-03", "firstSeen": "2026-03-03T15:00:00Z",
                   "lastSeen": "2026-03-03T15:00:00Z", "timeDuration": 0, "events": 1,
                   "reads": 1}]},
        {"thing": jack.id, "thingName": "Pallet jack", "thingTag": jack_tag,
         "thingClass": "item", "site": floor.site_id, "timeDuration": 39 * hour // 2,
         "events": 5, "reads": 6,
         "days": [
             {"day": "2026-03-02", "firstSeen": "2026-03-02T13:00:00Z",
              "lastSeen": "2026-03-03T04:30:00Z", "timeDuration": 31 * hour // 2, "events": 3,
              "reads": 3},
             {"day": "2026-03-03", "firstSeen": "2026-03-03T14:00:00Z",
              "lastSeen": "2026-03-03T18:00:00Z", "timeDuration": 4 * hour, "events": 2,
              "reads": 3},
         ]},
    ]  # fmt: skip
    book = xlsx(
        await org.client("Viewer").get("/api/eventsbything/export", params=period),
        "activity.xlsx",
    )
    sheet = book.worksheets[0]
    assert values(sheet) == [
        ("Name", "Tag", "Class", "Day", "First Seen (America/New_York)",
         "Last Seen (America/New_York)", "Hours", "Events", "Reads"),
        ("Cart", cart_tag, "worker", datetime(2026, 3, 3), datetime(2026, 3, 3, 10),
         datetime(2026, 3, 3, 10), timedelta(0), 1, 1),
        ("Pallet jack", jack_tag, "item", datetime(2026, 3, 2), datetime(2026, 3, 2, 8),
         datetime(2026, 3, 2, 23, 30), timedelta(hours=15.5), 3, 3),
        ("Pallet jack", jack_tag, "item", datetime(2026, 3, 3), datetime(2026, 3, 3, 9),
         datetime(2026, 3, 3, 13), timedelta(hours=4), 2, 3),
    ]  # fmt: skip
    assert formats(sheet, 3, [4, 5, 7]) == ["yyyy-mm-dd", DATES, "[h]:mm"]
    assert nanoseconds(timedelta(hours=15.5)) == 31 * hour // 2
    # All sites, on two clocks: each row on its site's, named in a column of its own.
    everywhere = xlsx(
        await org.client("Viewer").get("/api/eventsbything/export", params={**period, "site": ""}),
        "activity.xlsx",
    ).worksheets[0]
    assert values(everywhere)[0] == (
        "Name", "Tag", "Class", "Day", "First Seen (site time)", "Last Seen (site time)",
        "Hours", "Events", "Reads", "Time Zone",
    )  # fmt: skip
    assert values(everywhere)[1:] == [(*row, "America/New_York") for row in values(sheet)[1:]]
    stranger = (await org_factory()).client("Viewer")
    # Another organization's site shows nothing of it.
    assert (await stranger.get("/api/eventsbything", params=period)).json() == []
    bad = {**period, "after": "yesterday"}
    assert (await org.client("Viewer").get("/api/eventsbything", params=bad)).status_code == 422


async def test_zone_durations_and_their_totals_per_zone(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    a_door, b_door = await floor.endpoint("A door"), await floor.endpoint("B door")
    alpha = await floor.zone("Alpha", gates=[(a_door, "IN", -1)])
    beta = await floor.zone("Beta", gates=[(b_door, "IN", -1)])
    jack_tag, cart_tag = epc(), epc()
    await floor.thing("Pallet jack", jack_tag)
    await floor.thing("Cart", cart_tag)
    await floor.read(a_door, jack_tag, 0)
    await floor.read(a_door, cart_tag, 300)
    await floor.read(b_door, jack_tag, 600)
    period = {"site": floor.site_id, "after": z(T0), "before": z(T0 + timedelta(seconds=1200))}
    viewer = org.client("Viewer")
    visits = await viewer.get("/api/zonedurations", params={**period, "limit": 10000})
    assert visits.headers["x-total-count"] == "3"
    assert [(v["thingName"], v["zoneName"]) for v in visits.json()] == [
        ("Pallet jack", beta.name),
        ("Cart", alpha.name),
        ("Pallet jack", alpha.name),
    ]
    totals = await viewer.get("/api/zonedurations/totals", params=period)
    assert totals.json() == [
        {"zone": alpha.id, "zoneName": alpha.name, "visits": 2, "things": 2,
         "timeDuration": 1500 * 10**9},
        {"zone": beta.id, "zoneName": beta.name, "visits": 1, "things": 1,
         "timeDuration": 600 * 10**9},
    ]  # fmt: skip
    stranger = (await org_factory()).client("Viewer")
    foreign = await stranger.get("/api/zonedurations/totals", params=period)
    assert foreign.json() == []

    # The export: the table's columns, newest first, an open visit's time so far.
    asked = datetime.now(UTC)
    book = xlsx(await viewer.get("/api/zonedurations/export", params=period), "zoneshistory.xlsx")
    sheet = book.worksheets[0]
    rows = values(sheet)
    assert rows[0] == (
        "Name", "Zone", "Start (Europe/London)", "End (Europe/London)", "Duration",
    )  # fmt: skip
    assert [row[:4] for row in rows[1:]] == [
        ("Pallet jack", beta.name, clock(600), None),
        ("Cart", alpha.name, clock(300), None),
        ("Pallet jack", alpha.name, clock(0), clock(600)),
    ]
    assert rows[3][4] == timedelta(minutes=10)
    for row, start in ((rows[1], 600), (rows[2], 300)):
        so_far = asked - (T0 + timedelta(seconds=start))
        assert abs(row[4] - so_far) < timedelta(minutes=5), row
    assert formats(sheet, 4, [3, 4, 5]) == [DATES, DATES, "[h]:mm"]
    # All Sites: each row names its site, as the screen does.
    everywhere = xlsx(
        await viewer.get("/api/zonedurations/export", params={**period, "site": ""}),
        "zoneshistory.xlsx",
    ).worksheets[0]
    site = (await viewer.get(f"/api/sites/{floor.site_id}")).json()["name"]
    assert values(everywhere)[0][:3] == ("Name", "Site", "Zone")
    assert [row[:3] for row in values(everywhere)[1:]] == [
        ("Pallet jack", site, beta.name),
        ("Cart", site, alpha.name),
        ("Pallet jack", site, alpha.name),
    ]
    # Another organization's site: nothing of it, as in the list.
    foreign_book = xlsx(
        await stranger.get("/api/zonedurations/export", params=period), "zoneshistory.xlsx"
    )
    assert values(foreign_book.worksheets[0])[1:] == []
    assert (await anonymous.get("/api/zonedurations/export")).status_code == 401
    audit = await org.client("Administrator").get(
        "/api/auditlog", params={"action": "zonedurations.exported"}
    )
    assert [e["target"] for e in audit.json()] == ["zoneshistory.xlsx"] * 2


async def test_zone_status_export_lists_what_is_in_each_zone_now(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    a_door, b_door = await floor.endpoint("A door"), await floor.endpoint("B door")
    alpha = await floor.zone("Alpha", gates=[(a_door, "IN", -1)])
    beta = await floor.zone("Beta", gates=[(b_door, "IN", -1)])
    jack_tag, cart_tag, drill_tag = epc(), epc(), epc()
    await floor.thing("Pallet jack", jack_tag)
    await floor.thing("Cart", cart_tag, "worker")
    await floor.thing("Drill", drill_tag)
    for door, tag, offset in (
        (a_door, jack_tag, 0),
        (a_door, drill_tag, 100),
        (a_door, cart_tag, 300),
        (a_door, epc(), 400),  # the unknown thing is never listed
        (b_door, jack_tag, 600),
    ):
        await floor.read(door, tag, offset)
    viewer = org.client("Viewer")
    asked = datetime.now(UTC)
    params = {"site": floor.site_id}
    sheet = xlsx(
        await viewer.get("/api/zonestatus/export", params=params), "zonestatus.xlsx"
    ).worksheets[0]
    rows = values(sheet)
    assert rows[0] == ("Zone", "Name", "Type", "Entered (Europe/London)", "Time in Zone")
    # By zone, longest there first; the Type in the site's words.
    assert [row[:4] for row in rows[1:]] == [
        (alpha.name, "Drill", "Items", clock(100)),
        (alpha.name, "Cart", "Workers", clock(300)),
        (beta.name, "Pallet jack", "Items", clock(600)),
    ]
    for row, entered in zip(rows[1:], (100, 300, 600), strict=True):
        so_far = asked - (T0 + timedelta(seconds=entered))
        assert abs(row[4] - so_far) < timedelta(minutes=5), row
    assert formats(sheet, 2, [4, 5]) == [DATES, "[h]:mm"]

    # Renamed labels and hidden workers, as the screen shows them; All Sites names the site.
    labels = {"itemLabel": "Assets", "itemNameLabel": "Asset", "hideWorkers": True}
    saved = await org.client("Administrator").post("/api/orgsettings", json=labels)
    assert saved.status_code == 200, saved.text
    everywhere = xlsx(
        await viewer.get("/api/zonestatus/export", params={"site": ""}), "zonestatus.xlsx"
    ).worksheets[0]
    site = (await viewer.get(f"/api/sites/{floor.site_id}")).json()["name"]
    assert values(everywhere)[0] == (
        "Site", "Zone", "Asset", "Entered (Europe/London)", "Time in Zone",
    )  # fmt: skip
    assert [row[:4] for row in values(everywhere)[1:]] == [
        (site, alpha.name, "Drill", clock(100)),
        (site, beta.name, "Pallet jack", clock(600)),
    ]

    stranger = (await org_factory()).client("Viewer")
    # Another organization's site: nothing of it.
    foreign_book = xlsx(
        await stranger.get("/api/zonestatus/export", params=params), "zonestatus.xlsx"
    )
    assert values(foreign_book.worksheets[0])[1:] == []
    assert (await anonymous.get("/api/zonestatus/export")).status_code == 401
    assert (await viewer.get("/api/zonestatus/export", params={"site": "nope"})).status_code == 404


async def test_zone_visits_past_the_fetch_limit_keep_their_true_total(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    """Reports fetch at most 10,000 visits (spec section 9); x-total-count tells how many
    there are, so the console can say the list is capped."""
    org, floor = await org_with_floor(org_factory, sessionmaker, settings, anonymous)
    dock = await floor.zone("Dock")
    jack = await floor.thing("Pallet jack", epc())
    async with sessionmaker() as session, session.begin():
        # 10,042 one-second visits, one a second from T0: quick as one INSERT.
        await session.execute(
            text(
                "INSERT INTO zone_durations (org_id, id, site_id, thing_id, zone_id, "
                "time_start, time_end, time_duration) "
                "SELECT :org, lpad(to_hex(i), 24, '0'), :site, :thing, :zone, "
                "CAST(:t0 AS timestamptz) + i * interval '1 second', "
                "CAST(:t0 AS timestamptz) + (i + 1) * interval '1 second', 1000000000 "
                "FROM generate_series(1, 10042) AS i"
            ),
            {"org": org.id, "site": floor.site_id, "thing": jack.id, "zone": dock.id, "t0": T0},
        )
    period = {"site": floor.site_id, "after": z(T0), "before": z(T0 + timedelta(hours=4))}
    visits = await org.client("Viewer").get("/api/zonedurations", params={**period, "limit": 10000})
    assert visits.status_code == 200
    assert visits.headers["x-total-count"] == "10042"
    rows = visits.json()
    assert len(rows) == 10000
    # Newest first: the capped list keeps the most recent visits.
    assert rows[0]["timeStart"] == z(T0 + timedelta(seconds=10042))
    too_many = await org.client("Viewer").get(
        "/api/zonedurations", params={**period, "limit": 10001}
    )
    assert too_many.status_code == 422
