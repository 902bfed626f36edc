"""The daily jobs of a site at its daily time on its own clock: the inventory cycle and the
report mail, once each however many schedulers run."""

import asyncio
import io
import json
from datetime import UTC, date, datetime, time, timedelta
from email.utils import parsedate_to_datetime
from html import escape
from typing import Any
from zoneinfo import ZoneInfo

from openpyxl import load_workbook
from sqlalchemy import select

from tagtrack.core.config import Settings
from tagtrack.demo.seed import seed_demo
from tagtrack.kit.xlsx import XLSX_MEDIA_TYPE
from tagtrack.models import DailyRun, ReportConfig, Site, TrackingException
from tagtrack.reports.daily import DailyJobs, daily_time_on
from tests.database import database_with_org
from tests.mailbox import deliver, smtp_server
from tests.reporting import formats, laid_out, org_with_floor, seconds, values
from tests.tracking import Floor, epc
from tests.tracking_api import created, set_state


def utc(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


async def runs(floor: Floor) -> list[tuple[str, date, datetime]]:
    async with floor.sessionmaker() as session:
        stmt = select(DailyRun).where(DailyRun.site_id == floor.site_id)
        rows = await session.scalars(stmt.order_by(DailyRun.day, DailyRun.kind))
        return [(r.kind, r.day, r.time) for r in rows]


async def test_inventory_cycle_on_the_site_clock_across_a_dst_change(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor = await org_with_floor(
        org_factory,
        sessionmaker,
        settings,
        anonymous,
        timezone="America/New_York",
        report_daily_time="06:00",
    )
    dock, shelf = await floor.endpoint("Dock"), await floor.endpoint("Shelf")
    aisle = await floor.zone("Aisle", gates=[(dock, "IN", -1)])
    bay = await floor.zone("Bay", gates=[(shelf, "IN", -1)])
    tags = {name: epc() for name in "ABCD"}
    things = {name: await floor.thing(f"Thing {name}", tag) for name, tag in tags.items()}
    jobs = DailyJobs(sessionmaker, settings)

    async def read(endpoint: Any, name: str, moment: datetime) -> None:
        await floor.read(endpoint, tags[name], seconds(moment))

    await read(dock, "A", utc(3, 7, 10))
    await read(dock, "B", utc(3, 7, 10, 5))
    await read(shelf, "D", utc(3, 7, 10, 10))
    # 06:00 on 7 March in New York (EST) is 11:00 UTC.
    await jobs.run_due(utc(3, 7, 10, 59), org.id)
    assert await runs(floor) == []
    await jobs.run_due(utc(3, 7, 11), org.id)
    assert [kind for kind, _, _ in await runs(floor)] == ["inventory", "mail"]
    assert await floor.exceptions() == []

    await read(dock, "A", utc(3, 7, 20))
    await read(dock, "C", utc(3, 7, 21))
    await read(dock, "D", utc(3, 7, 22))
    # Clocks went forward on 8 March: 06:00 EDT is 10:00 UTC.
    await jobs.run_due(utc(3, 8, 9, 59), org.id)
    assert len(await runs(floor)) == 2
    await jobs.run_due(utc(3, 8, 10), org.id)
    await jobs.run_due(utc(3, 8, 10, 1), org.id)
    assert await runs(floor) == [
        ("inventory", date(2026, 3, 7), utc(3, 7, 11)),
        ("mail", date(2026, 3, 7), utc(3, 7, 11)),
        ("inventory", date(2026, 3, 8), utc(3, 8, 10)),
        ("mail", date(2026, 3, 8), utc(3, 8, 10)),
    ]
    cycle = utc(3, 8, 10)
    found = sorted(
        (e.type, e.zone_id, e.multiple_things, e.message, e.time, e.thing_id)
        for e in await floor.exceptions()
    )
    assert found == sorted(
        [
            ("inventoryThingsMissing", aisle.id, [things["B"].id], "Shortage of 1", cycle, None),
            ("inventoryThingsMissing", bay.id, [things["D"].id], "Shortage of 1", cycle, None),
            ("inventoryThingsUnexpected", aisle.id, [things["C"].id], "Overage of 1", cycle, None),
            ("inventoryThingsElsewhere", aisle.id, [things["D"].id], "1 expected in another zone",
             cycle, None),
        ]
    )  # fmt: skip

    listed = await org.client("Viewer").get(
        "/api/exceptions", params={"site": floor.site_id, "sort": "type"}
    )
    assert listed.headers["x-total-count"] == "4"
    elsewhere = listed.json()[0]
    assert (elsewhere["type"], elsewhere["zoneName"], elsewhere["thing"]) == (
        "inventoryThingsElsewhere",
        aisle.name,
        "",
    )
    detail = (await org.client("Viewer").get(f"/api/exceptions/{elsewhere['_id']}")).json()
    assert detail["things"] == [
        {"_id": things["D"].id, "name": "Thing D", "tag": tags["D"], "zone": aisle.id,
         "zoneName": aisle.name, "lastEvent": "2026-03-07T22:00:00Z"},
    ]  # fmt: skip
    assert detail["multipleThings"] == [things["D"].id]


async def mail_site(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> tuple[Any, Floor, Any]:
    org, floor = await org_with_floor(
        org_factory,
        sessionmaker,
        settings,
        anonymous,
        timezone="Europe/Paris",
        report_daily_time="07:30",
        report_emails=["ops@example.com", "boss@example.com"],
    )
    dock = await floor.endpoint("Dock")
    receiving = await floor.zone("Receiving", gates=[(dock, "IN", -1)])
    tag = epc()
    jack = await floor.thing("Pallet jack", tag)
    await set_state(sessionmaker, jack.id, categories=["Tools"])
    await floor.read(dock, tag, seconds(utc(3, 2, 8)))  # 09:00 in Paris
    await floor.read(dock, tag, seconds(utc(3, 3, 7)))  # after the mail's period
    manager = org.client("Manager")
    base = {"format": "excel", "site": floor.site_id}
    for body in (
        {"name": "Seen in receiving", "type": "reportTypeSeen", "email": True,
         "zones": [receiving.id], "headings": ["Name", "Tag", "Zone", "First Seen", "Events"]},
        {"name": "Categories", "type": "reportTypeCategories", "email": True},
        {"name": "Seen as data", "type": "reportTypeSeen", "email": True, "format": "json",
         "zones": [receiving.id], "headings": ["Name", "First Seen"]},
        {"name": "Not mailed", "type": "reportTypeNotSeen", "email": False},
    ):  # fmt: skip
        await created(await manager.post("/api/reportconfigs", json={**base, **body}))
    return org, floor, (receiving, tag)


async def test_daily_mail_carries_the_emailed_reports(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor, (receiving, tag) = await mail_site(org_factory, sessionmaker, settings, anonymous)
    for moment in (utc(3, 2, 6, 30), utc(3, 3, 6, 30)):  # the first in the period, not the last
        async with sessionmaker() as session, session.begin():
            session.add(
                TrackingException(
                    org_id=org.id,
                    site_id=floor.site_id,
                    type="processException",
                    time=moment,
                    message="unreadable",
                )
            )
    with smtp_server() as (mailbox, url):
        jobs = DailyJobs(sessionmaker, Settings(smtp_url=url, data_dir=settings.data_dir))
        # 07:30 in Paris (CET) on 3 March is 06:30 UTC.
        await jobs.run_due(utc(3, 3, 6, 29), org.id)
        assert mailbox.to("ops@example.com") == []
        await jobs.run_due(utc(3, 3, 6, 30), org.id)
        await jobs.run_due(utc(3, 3, 9), org.id)
        await deliver(sessionmaker, url, settings, org.id)
    [mail] = mailbox.to("ops@example.com")
    assert "boss@example.com" in str(mail["To"])
    site_name = (await org.client("Viewer").get(f"/api/sites/{floor.site_id}")).json()["name"]
    assert str(mail["Subject"]) == f"TagTrack daily report: {site_name}, 2026-03-03"
    # Dated when sent, on the site's clock (now: the run's own hour).
    sent = parsedate_to_datetime(str(mail["Date"]))
    assert abs(sent - datetime.now(UTC)) < timedelta(minutes=5)
    assert sent.utcoffset() == ZoneInfo("Europe/Paris").utcoffset(sent.replace(tzinfo=None))
    # The text and HTML summaries side by side, then the attachments.
    assert mail.get_content_type() == "multipart/mixed"
    [summary_part, *files] = mail.get_payload()
    assert summary_part.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in summary_part.get_payload()] == [
        "text/plain",
        "text/html",
    ]
    parts = [p for p in mail.walk() if p.get_filename()]
    assert parts == files
    assert [(p.get_filename(), p.get_content_type()) for p in parts] == [
        ("Categories.xlsx", XLSX_MEDIA_TYPE),
        ("Seen as data.json", "application/json"),
        ("Seen in receiving.xlsx", XLSX_MEDIA_TYPE),
    ]
    assert json.loads(parts[1].get_payload(decode=True))["rows"] == [
        {"Name": "Pallet jack", "First Seen": "2026-03-02T09:00:00"}
    ]
    books = [laid_out(load_workbook(io.BytesIO(p.get_payload(decode=True)))) for p in parts[::2]]
    assert values(books[0].worksheets[0]) == [
        ("Zone", "Category", "Count"),
        (receiving.name, "Tools", 1),
    ]
    seen, summary = books[1].worksheets
    assert values(seen) == [
        ("Name", "Tag", "Zone", "First Seen (Europe/Paris)", "Events"),
        ("Pallet jack", tag, receiving.name, datetime(2026, 3, 2, 9, 0), 1),
    ]
    assert formats(seen, 2, [4]) == ["yyyy-mm-dd hh:mm:ss"]
    assert values(summary)[3:6] == [
        ("Time Zone", "Europe/Paris"),
        ("From", datetime(2026, 3, 2, 7, 30)),
        ("To", datetime(2026, 3, 3, 7, 30)),
    ]
    # Exception types in the console's words, times named by their zone.
    text, html = (p.get_payload(decode=True).decode() for p in summary_part.get_payload())
    assert text.splitlines() == [
        f"The daily report of {site_name} for 2026-03-03",
        "From 2026-03-02 07:30 to 2026-03-03 07:30 (times in Europe/Paris).",
        "",
        "Exceptions: 1",
        "- Processing: 1",
        "",
        "Attached:",
        "- Categories.xlsx",
        "- Seen as data.json",
        "- Seen in receiving.xlsx",
    ]
    for words in (
        f"<h2>The daily report of {escape(site_name)} for 2026-03-03</h2>",
        "From 2026-03-02 07:30 to 2026-03-03 07:30 (times in Europe/Paris).",
        "<td>Processing</td><td align='right'>1</td>",
        "<li>Seen as data.json</li>",
    ):
        assert words in html, (words, html)


async def test_two_schedulers_send_the_daily_mail_once(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor, _ = await mail_site(org_factory, sessionmaker, settings, anonymous)
    with smtp_server() as (mailbox, url):
        mail_settings = Settings(smtp_url=url, data_dir=settings.data_dir)
        first, second = (
            DailyJobs(sessionmaker, mail_settings),
            DailyJobs(sessionmaker, mail_settings),
        )
        await asyncio.gather(
            first.run_due(utc(3, 3, 6, 30), org.id), second.run_due(utc(3, 3, 6, 30), org.id)
        )
        await deliver(sessionmaker, url, settings, org.id)
    assert len(mailbox.to("ops@example.com")) == 1
    assert [kind for kind, _, _ in await runs(floor)] == ["inventory", "mail"]


async def test_a_report_mail_waits_in_the_outbox_while_the_mail_server_is_away(
    org_factory: Any, sessionmaker: Any, settings: Any, anonymous: Any
) -> None:
    org, floor, _ = await mail_site(org_factory, sessionmaker, settings, anonymous)
    with smtp_server() as (_, url):
        unreachable = url.rsplit(":", 1)[0] + ":1"
    await DailyJobs(sessionmaker, settings).run_due(utc(3, 3, 6, 30), org.id)
    assert await deliver(sessionmaker, unreachable, settings, org.id) == 0
    # The job is done once: its mail, attachments and all, waits in the outbox.
    assert [kind for kind, _, _ in await runs(floor)] == ["inventory", "mail"]
    with smtp_server() as (mailbox, url):
        await DailyJobs(sessionmaker, settings).run_due(utc(3, 3, 7), org.id)
        # The retry is due after the first wait.
        assert await deliver(sessionmaker, url, settings, org.id) == 0
        assert await deliver(sessionmaker, url, settings, org.id, timedelta(minutes=5)) == 1
    [mail] = mailbox.to("ops@example.com")
    assert [p.get_filename() for p in mail.walk() if p.get_filename()] == [
        "Categories.xlsx",
        "Seen as data.json",
        "Seen in receiving.xlsx",
    ]


async def test_demo_sites_mail_a_daily_report(tmp_path: Any) -> None:
    async with database_with_org("Demo", "demo") as (maker, _):
        assert await seed_demo(maker, "Demo-Password-123") is not None
        async with maker() as session:
            sites = (await session.execute(select(Site))).scalars().all()
            configs = (await session.execute(select(ReportConfig))).scalars().all()
        with smtp_server() as (mailbox, smtp):
            jobs = DailyJobs(maker, Settings(smtp_url=smtp, data_dir=tmp_path))
            # 18:00 UTC is past every demo site's daily time on the same local day, from
            # Amsterdam to Chicago; an hour of the test run's own would not be.
            tomorrow = datetime.now(tz=UTC).date() + timedelta(days=1)
            await jobs.run_due(datetime.combine(tomorrow, time(18), tzinfo=UTC))
            await deliver(maker, smtp, Settings(data_dir=tmp_path))
    assert len(sites) == 3 and all(s.report_daily_time and s.report_emails for s in sites)
    for site in sites:
        mine = [c for c in configs if c.site_id == site.id]
        assert len(mine) == 3 and sum(c.email for c in mine) == 1
        [mail] = mailbox.to(site.report_emails[0])
        assert [p.get_filename() for p in mail.walk() if p.get_filename()] == [
            "Vehicles on the move.xlsx"
        ]
        [text] = [p for p in mail.walk() if p.get_content_type() == "text/plain"]
        assert f"(times in {site.timezone})" in text.get_payload(decode=True).decode()


def test_daily_times_skipped_or_repeated_by_a_clock_change() -> None:
    new_york = "America/New_York"
    assert daily_time_on(date(2026, 3, 7), "02:30", new_york) == utc(3, 7, 7, 30)
    # 02:30 does not exist on 8 March: it falls at 03:30 EDT, the same instant as 02:30 EST.
    assert daily_time_on(date(2026, 3, 8), "02:30", new_york) == utc(3, 8, 7, 30)
    assert daily_time_on(date(2026, 3, 9), "02:30", new_york) == utc(3, 9, 6, 30)
    # 01:30 happens twice on 1 November: the first one (EDT) counts.
    assert daily_time_on(date(2026, 11, 1), "01:30", new_york) == utc(11, 1, 5, 30)
    assert daily_time_on(date(2026, 11, 2), "01:30", new_york) == utc(11, 2, 6, 30)
