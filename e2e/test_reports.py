"""Reports: Zone Status (live), Zones History, Activity, Exceptions, Zone Categories,
report configurations and custom report downloads."""

import io
import json
import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from playwright.sync_api import (
    APIRequestContext,
    Browser,
    Download,
    Page,
    Request,
    Response,
    expect,
)

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    DESKTOP,
    PRIYA,
    Console,
    create_site,
    create_user,
    open_signed_in,
    shot,
    snackbar,
    unique,
)
from e2e.page_clock import poll_follows, run_polling_periods
from e2e.tracking_data import (
    Reader,
    create_endpoint,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")

MINUTE_NS = 60_000_000_000


def midday_timezone() -> str:
    """A timezone where it is about noon now: the fixture's reads of the last hour fall on
    today for the browser and the site, however close to midnight the run is."""
    offset = (12 - datetime.now(UTC).hour + 12) % 24 - 12
    # Etc/GMT names count the other way: Etc/GMT-3 is three hours ahead of UTC.
    return f"Etc/GMT{-offset:+d}" if offset else "UTC"


BROWSER_TIMEZONE = midday_timezone()


def site_now() -> datetime:
    return datetime.now(ZoneInfo(BROWSER_TIMEZONE))


LONG_NAME = "Returns and Quarantine Holding Area Behind the Loading Docks North Wing"


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat().replace("+00:00", "Z")


def zone(
    api: APIRequestContext, site: str, name: str, reader: Reader, alert_minutes: int = 0
) -> str:
    response = api.post(
        "/api/zones",
        data={
            "name": name,
            "site": site,
            "duration": alert_minutes * MINUTE_NS,
            "gates": [{"endpoint": reader.id, "direction": "NEAR", "antenna": -1}],
        },
    )
    assert response.ok, response.text()
    return str(response.json()["_id"])


def thing(
    api: APIRequestContext, site: str, name: str, tag: str, categories: list[str], cls: str = "item"
) -> str:
    # Tag 2, not tag 1: the demo's reader simulator moves things by their tag 1, and these
    # things must stay where the test put them.
    response = api.post(
        "/api/things",
        data={
            "site": site,
            "common": {"name": name, "class": cls, "tag2": tag, "categories": categories},
        },
    )
    assert response.ok, response.text()
    return str(response.json()["_id"])


def wait_for_exception(api: APIRequestContext, site: str, timeout: float = 40.0) -> dict[str, Any]:
    """Dwell checks run in the background: wait for the zone time exception."""
    deadline = time.monotonic() + timeout
    while True:
        response = api.get("/api/exceptions", params={"site": site})
        assert response.ok, response.text()
        found = [e for e in response.json() if e["type"] == "zoneTimeException"]
        if found:
            return dict(found[0])
        assert time.monotonic() < deadline, "no zone time exception"
        time.sleep(0.5)


def workbook_rows(download: Download) -> list[tuple[Any, ...]]:
    workbook = openpyxl.load_workbook(io.BytesIO(download.path().read_bytes()))
    return list(workbook.worksheets[0].iter_rows(values_only=True))


def phone_shot(page: Page, name: str) -> None:
    """A screenshot at phone width; nothing may stick out sideways."""
    shot(page, name)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def set_tab_visible(page: Page, visible: bool) -> None:
    """Plays the browser hiding or showing the tab (as when switching tabs)."""
    page.evaluate(
        """visible => {
            const state = { configurable: true };
            Object.defineProperty(document, 'visibilityState', {
                ...state, value: visible ? 'visible' : 'hidden',
            });
            Object.defineProperty(document, 'hidden', { ...state, value: !visible });
            document.dispatchEvent(new Event('visibilitychange'));
        }""",
        visible,
    )


def read_at(api: APIRequestContext, reader: Reader, tag: str, when: datetime) -> None:
    post_reads(api, reader, [{"tag": tag, "antenna": 1, "time": iso(when)}])


@pytest.fixture(scope="module")
def tracked(admin_api: APIRequestContext) -> dict[str, Any]:
    """A site with a short-alert zone holding a pallet for 20 minutes and a fresh crate in
    another zone, plus a worker."""
    site = new_site(admin_api, "Reports Depot", timezone=BROWSER_TIMEZONE)
    dock = create_endpoint(admin_api, site, "Dock Reader")
    yard = create_endpoint(admin_api, site, "Yard Reader")
    dock_zone = zone(admin_api, site, "Dock", dock, alert_minutes=5)
    yard_zone = zone(admin_api, site, LONG_NAME, yard, alert_minutes=120)
    pallet, crate, picker = short_tag(), short_tag(), short_tag()
    thing(admin_api, site, "Overdue Pallet", pallet, ["Pallets"])
    thing(admin_api, site, "Fresh Crate", crate, ["Crates", "Perishables"])
    thing(admin_api, site, "Night Picker", picker, ["Crates"], cls="worker")
    now = datetime.now(UTC)
    read_at(admin_api, yard, pallet, now - timedelta(minutes=50))
    read_at(admin_api, dock, pallet, now - timedelta(minutes=20))
    read_at(admin_api, yard, crate, now - timedelta(minutes=1))
    read_at(admin_api, yard, picker, now - timedelta(minutes=2))
    for tag in (pallet, crate, picker):
        assert wait_for_events(admin_api, site, tag)
    return {"site": site, "dock": dock_zone, "yard": yard_zone, "pallet": pallet}


def test_zone_status_tables_red_row_and_graph(page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/reports/zones?site={tracked['site']}")
    expect(page.get_by_role("heading", name="Zone Status")).to_be_visible()
    dock = page.get_by_role("region", name="Dock", exact=True)
    expect(dock.get_by_text("Alert after 5 min")).to_be_visible()
    overdue = dock.get_by_role("row").filter(has_text="Overdue Pallet")
    expect(overdue).to_have_class(re.compile("zone-overtime"))
    color = overdue.evaluate("row => getComputedStyle(row).backgroundColor")
    assert color != "rgba(0, 0, 0, 0)", color
    expect(overdue).to_contain_text(re.compile(r"0:(19|20|21):\d\d"))
    yard = page.get_by_role("region", name=LONG_NAME)
    fresh = yard.get_by_role("row").filter(has_text="Fresh Crate")
    expect(fresh).to_have_class(re.compile("zone-ok"))
    expect(yard.get_by_role("row").filter(has_text="Night Picker")).to_contain_text("Staff")
    # The clock ticks every second: the time in the zone moves on without a reload.
    before = fresh.get_by_role("gridcell").last.inner_text()
    expect(fresh.get_by_role("gridcell").last).not_to_have_text(before, timeout=4_000)
    shot(page, "reports-zone-status")
    check_accessibility(page)
    # The download has the tables' rows, a typed time of entry and time in the zone.
    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    assert info.value.suggested_filename == "zonestatus.xlsx"
    rows = workbook_rows(info.value)
    assert (rows[0][0], rows[0][-1]) == ("Zone", "Time in Zone"), rows[0]
    by_name = {row[1]: row for row in rows[1:]}
    assert by_name["Overdue Pallet"][0] == "Dock", rows
    assert isinstance(by_name["Overdue Pallet"][-2], datetime), rows
    assert timedelta(minutes=19) < by_name["Overdue Pallet"][-1] < timedelta(hours=1), rows
    assert by_name["Night Picker"][:3] == (LONG_NAME, "Night Picker", "Staff"), rows

    page.get_by_role("button", name="Graph").click()
    chart = page.get_by_test_id("zone-chart")
    expect(chart).to_be_visible()
    expect(chart.get_by_text("Dock", exact=True)).to_be_visible()
    expect(page.get_by_test_id("zone-status-tables")).to_have_count(0)
    shot(page, "reports-zone-status-graph")
    page.get_by_role("button", name="Table").click()
    expect(page.get_by_test_id("zone-status-tables")).to_be_visible()


def is_things_call(message: Request | Response) -> bool:
    return "/api/things?" in message.url


def test_zone_status_without_the_live_stream_polls_only_while_open(
    page: Page, console: Console, tracked: dict
) -> None:
    # The page's timers on a fake clock (installed before it loads), so polling periods
    # and clock ticks pass at once; fetches stay real.
    page.clock.install()
    # The stream refused: the page falls back to polling (test_live.py covers the stream).
    page.route(re.compile(r"/api/live\?"), lambda route: route.abort())
    calls: list[str] = []
    page.on("request", lambda r: calls.append(r.url) if is_things_call(r) else None)
    with page.expect_response(is_things_call):
        open_signed_in(page, PRIYA, console.demo_password, f"/reports/zones?site={tracked['site']}")
    expect(page.get_by_role("heading", name="Zone Status")).to_be_visible()
    expect(page.get_by_role("region", name="Dock", exact=True)).to_be_visible()
    assert calls, "the first load"
    # One polling period after the first load.
    first = len(calls)
    poll_follows(page, is_things_call)
    assert len(calls) > first, calls
    # A hidden tab neither polls nor ticks.
    set_tab_visible(page, False)
    hidden_at = len(calls)
    clock = page.get_by_role("heading", name="Zone Status").locator("xpath=following-sibling::*")
    frozen = clock.inner_text()
    run_polling_periods(page, 1)
    assert len(calls) == hidden_at, calls
    assert clock.inner_text() == frozen
    set_tab_visible(page, True)
    expect(clock).not_to_have_text(frozen)
    poll_follows(page, is_things_call)
    assert len(calls) > hidden_at, calls
    page.get_by_role("link", name="Home").click()
    expect(page.get_by_role("heading", name="Home")).to_be_visible()
    left = len(calls)
    run_polling_periods(page, 1)
    assert len(calls) == left, calls


def test_zone_status_on_a_phone(mobile_page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/zones?site={tracked['site']}"
    )
    expect(mobile_page.get_by_role("region", name="Dock", exact=True)).to_be_visible()
    phone_shot(mobile_page, "reports-zone-status-phone")


def test_zones_history_table_and_graph(page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/zonedurations?site={tracked['site']}"
    )
    expect(page.get_by_role("heading", name="Zones History")).to_be_visible()
    grid = page.get_by_role("grid", name="Zones History")
    pallet_visits = grid.get_by_role("row").filter(has_text="Overdue Pallet")
    expect(pallet_visits).to_have_count(2)
    # The pallet spent 30 minutes in the yard before it went to the dock.
    expect(pallet_visits.filter(has_text=LONG_NAME[:20])).to_contain_text("0:30:00")
    page.get_by_role("button", name="Refresh").click()
    expect(pallet_visits).to_have_count(2)
    shot(page, "reports-zones-history")
    check_accessibility(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    assert info.value.suggested_filename == "zoneshistory.xlsx"
    rows = workbook_rows(info.value)
    assert (rows[0][1], rows[0][-1]) == ("Zone", "Duration"), rows[0]
    pallet_rows = [row for row in rows[1:] if row[0] == "Overdue Pallet"]
    # Newest first: the dock visit goes on, the yard one took 30 minutes.
    assert [row[1] for row in pallet_rows] == ["Dock", LONG_NAME], rows
    assert (pallet_rows[0][3], pallet_rows[1][4]) == (None, timedelta(minutes=30)), rows
    page.get_by_role("button", name="Graph").click()
    chart = page.get_by_test_id("zone-durations-chart")
    expect(chart.get_by_text("Dock", exact=True)).to_be_visible()
    shot(page, "reports-zones-history-graph")
    page.get_by_role("button", name="Table").click()
    expect(grid).to_be_visible()


def test_zones_history_on_a_phone(mobile_page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/zonedurations?site={tracked['site']}"
    )
    expect(mobile_page.get_by_role("grid", name="Zones History")).to_be_visible()
    phone_shot(mobile_page, "reports-zones-history-phone")


def test_activity_ranges_expand_and_download(page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/reports/events?site={tracked['site']}")
    expect(page.get_by_role("heading", name="Activity")).to_be_visible()
    table = page.get_by_role("table", name="Activity")
    things = table.get_by_test_id("activity-thing")
    expect(things).to_have_count(3)
    pallet = things.filter(has_text="Overdue Pallet")
    expect(pallet).to_contain_text("Assets")
    expect(pallet).to_contain_text("1 day")
    # The first pallet read was 50 minutes ago, the last 20 minutes ago: 0:30 on site.
    expect(pallet).to_contain_text("0:30")
    days = table.get_by_test_id("activity-day")
    expect(days).to_have_count(0)
    page.get_by_role("button", name="Expand All").click()
    expect(days).to_have_count(3)
    shot(page, "reports-activity")
    check_accessibility(page)
    page.get_by_role("button", name="Collapse All").click()
    expect(days).to_have_count(0)
    pallet.click()
    expect(days).to_have_count(1)

    # The dates stop at today; the shortcuts set the period and the report follows.
    start = page.get_by_role("group", name="Start Date")
    today = site_now().strftime("%m/%d/%Y")
    page.get_by_role("button", name="Last 7 Days").click()
    week_ago = (site_now() - timedelta(days=6)).strftime("%m/%d/%Y")
    expect(start).to_contain_text(week_ago)
    expect(things).to_have_count(3)
    page.get_by_role("button", name="Last 30 Days").click()
    month_ago = (site_now() - timedelta(days=29)).strftime("%m/%d/%Y")
    expect(start).to_contain_text(month_ago)
    page.get_by_role("button", name="Today").click()
    expect(start).to_contain_text(today)

    # Page sizes 4, 8, 12 and All.
    page.get_by_role("combobox", name="Things per page:").click()
    expect(page.get_by_role("option")).to_have_text(["4", "8", "12", "All"])
    page.get_by_role("option", name="All").click()
    expect(things).to_have_count(3)

    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    assert info.value.suggested_filename == "activity.xlsx"
    rows = workbook_rows(info.value)
    assert rows[0][:4] == ("Name", "Tag", "Class", "Day"), rows[0]
    names = sorted(str(r[0]) for r in rows[1:])
    assert names == ["Fresh Crate", "Night Picker", "Overdue Pallet"], rows

    # Only today or earlier: the calendar stops at today and a typed future year is refused.
    end = page.get_by_role("group", name="End Date")
    end.get_by_role("button", name=re.compile("Choose date")).click()
    tomorrow = site_now() + timedelta(days=1)
    calendar = page.get_by_role("dialog")
    if tomorrow.month == site_now().month:
        day = calendar.get_by_role("gridcell", name=str(tomorrow.day), exact=True)
        expect(day).to_be_disabled()
    else:
        expect(calendar.get_by_role("button", name="Next month")).to_be_disabled()
    page.keyboard.press("Escape")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/eventsbything" in r.url else None)
    next_year = str(site_now().year + 1)
    end.get_by_role("spinbutton", name="Year").click()
    page.keyboard.type(next_year)
    page.wait_for_timeout(1_000)
    expect(end.get_by_role("spinbutton", name="Year")).to_have_text(str(site_now().year))
    assert not [url for url in asked if f"before={next_year}" in url], asked
    expect(things).to_have_count(3)


def test_activity_on_a_phone_and_empty(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    empty = new_site(admin_api, "Quiet Depot", timezone=BROWSER_TIMEZONE)
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/reports/events?site={empty}")
    expect(mobile_page.get_by_text("No activity in this period.")).to_be_visible()
    phone_shot(mobile_page, "reports-activity-empty-phone")


def test_activity_phone_rows(mobile_page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/events?site={tracked['site']}"
    )
    mobile_page.get_by_role("button", name="Expand All").click()
    expect(mobile_page.get_by_test_id("activity-day")).to_have_count(3)
    phone_shot(mobile_page, "reports-activity-phone")


def test_exceptions_list_detail_and_download(
    page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    exception = wait_for_exception(admin_api, tracked["site"])
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/exceptions?site={tracked['site']}"
    )
    expect(page.get_by_role("heading", name="Exceptions")).to_be_visible()
    grid = page.get_by_role("grid", name="Exceptions")
    row = grid.get_by_role("row").filter(has_text="Overdue Pallet")
    expect(row).to_contain_text("> 5 minute(s)")
    expect(row).to_contain_text("Zone time")
    expect(row).to_contain_text("Dock")
    page.get_by_role("button", name="Today").click()
    expect(row).to_be_visible()
    shot(page, "reports-exceptions")
    check_accessibility(page)

    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    assert info.value.suggested_filename == "exceptions.xlsx"
    rows = workbook_rows(info.value)
    assert "Type" in rows[0], rows[0]
    assert any("Overdue Pallet" in map(str, r) for r in rows[1:]), rows

    row.click()
    expect(page).to_have_url(re.compile(f"/exceptions/{exception['_id']}"))
    facts = page.get_by_test_id("exception-facts")
    expect(facts).to_contain_text("Dock")
    expect(facts.get_by_role("link", name="Overdue Pallet")).to_be_visible()
    expect(page.get_by_test_id("exception-message")).to_have_text("> 5 minute(s)")
    # The events of the visit: the pallet's read at the dock.
    events = page.get_by_role("grid", name="Events")
    expect(events.get_by_role("row").filter(has_text=tracked["pallet"])).to_have_count(1)
    shot(page, "reports-exception-detail")
    check_accessibility(page)


def test_exceptions_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    exception = wait_for_exception(admin_api, tracked["site"])
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/exceptions?site={tracked['site']}"
    )
    expect(mobile_page.get_by_role("grid", name="Exceptions")).to_be_visible()
    phone_shot(mobile_page, "reports-exceptions-phone")
    mobile_page.goto(f"/exceptions/{exception['_id']}?site={tracked['site']}")
    expect(mobile_page.get_by_test_id("exception-message")).to_be_visible()
    phone_shot(mobile_page, "reports-exception-detail-phone")


def test_zone_categories_run_and_download(page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/zonecategories?site={tracked['site']}"
    )
    expect(page.get_by_role("heading", name="Zone Categories")).to_be_visible()
    expect(page.get_by_text("Choose categories and zones, then Run Report.")).to_be_visible()
    categories = page.get_by_role("combobox", name="Categories")
    categories.click()
    expect(page.get_by_role("option")).to_have_text(["Crates", "Pallets", "Perishables"])
    page.get_by_role("option", name="Crates").click()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Run Report").click()
    yard = page.get_by_role("region", name=LONG_NAME)
    expect(yard.get_by_role("row").filter(has_text="Crates")).to_contain_text("2")
    dock = page.get_by_role("region", name="Dock", exact=True)
    expect(dock.get_by_text("No things of these categories")).to_be_visible()

    zones = page.get_by_role("combobox", name="Zones")
    zones.click()
    page.get_by_role("option", name="Dock", exact=True).click()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Run Report").click()
    expect(page.get_by_test_id("zone-category-tables").get_by_role("region")).to_have_count(1)
    page.get_by_role("button", name="All Zones").click()
    page.get_by_role("button", name="Run Report").click()
    expect(page.get_by_test_id("zone-category-tables").get_by_role("region")).to_have_count(2)
    shot(page, "reports-zone-categories")
    check_accessibility(page)

    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLS").click()
    assert info.value.suggested_filename == "report.xlsx"
    rows = workbook_rows(info.value)
    assert rows[0][:3] == ("Zone", "Category", "Count"), rows[0]
    assert (LONG_NAME, "Crates", 2) in [r[:3] for r in rows[1:]], rows


def test_zone_categories_on_a_phone(mobile_page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/zonecategories?site={tracked['site']}"
    )
    mobile_page.get_by_role("button", name="Run Report").click()
    expect(mobile_page.get_by_test_id("zone-category-tables")).to_be_visible()
    phone_shot(mobile_page, "reports-zone-categories-phone")


def test_report_configuration_and_custom_report_download(
    page: Page, console: Console, tracked: dict
) -> None:
    name = unique("Dock Dwell Weekly")
    open_signed_in(page, PRIYA, console.demo_password, f"/reportconfigs?site={tracked['site']}")
    expect(page.get_by_role("heading", name="Report Configuration")).to_be_visible()
    expect(page.get_by_text("No report configurations found")).to_be_visible()
    shot(page, "reports-configs-empty")
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Report Configuration")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Name").fill(name)
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Type in the Basic tab is a required field.")
    page.get_by_role("combobox", name="Type").click()
    page.get_by_role("option", name="Things seen in the zones during the period").click()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Format in the Basic tab is a required field.")
    page.get_by_role("combobox", name="Format").click()
    page.get_by_role("option", name="Excel (.xlsx)").click()
    page.get_by_role("combobox", name="Zones").click()
    page.get_by_role("option", name="Dock", exact=True).click()
    page.keyboard.press("Escape")
    # Columns of the chosen type, in the order picked.
    page.get_by_role("combobox", name="Columns").click()
    page.get_by_role("option", name="Tag", exact=True).click()
    page.get_by_role("option", name="Name", exact=True).click()
    page.keyboard.press("Escape")
    page.get_by_label("Email with the daily report").check()
    shot(page, "reports-config-edit")
    check_accessibility(page)
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Saved report configuration")

    grid = page.get_by_role("grid", name="Report Configuration")
    row = grid.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("Things seen in the zones during the period")
    expect(row).to_contain_text("Dock")
    expect(row.get_by_role("checkbox")).to_be_checked()
    shot(page, "reports-configs")
    check_accessibility(page)

    # The new configuration is a Custom Report of the site.
    custom = page.get_by_role("list", name="Custom Reports")
    custom.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_test_id("report-type")).to_have_text(
        "Things seen in the zones during the period"
    )
    expect(page.get_by_test_id("report-zones")).to_have_text("Dock")
    page.get_by_role("button", name="Today").click()
    shot(page, "reports-custom-run")
    check_accessibility(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Download Report (.XLSX)").click()
    assert info.value.suggested_filename == f"{name}.xlsx"
    rows = workbook_rows(info.value)
    assert rows[0] == ("Tag", "Name"), rows[0]
    assert any(r[1] == "Overdue Pallet" for r in rows[1:]), rows


def test_report_run_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    response = admin_api.post(
        "/api/reportconfigs",
        data={
            "name": unique("Yard Not Seen " + "Overnight " * 6),
            "type": "reportTypeNotSeen",
            "format": "excel",
            "site": tracked["site"],
            "zones": [tracked["yard"], tracked["dock"]],
        },
    )
    assert response.ok, response.text()
    config = response.json()
    open_signed_in(
        mobile_page,
        PRIYA,
        console.demo_password,
        f"/reports/{config['_id']}?site={tracked['site']}",
    )
    expect(mobile_page.get_by_test_id("report-zones")).to_contain_text("Dock")
    phone_shot(mobile_page, "reports-custom-run-phone")


def test_reports_follow_the_site_and_show_empty_states(
    page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    quiet = unique("Quiet Yard")
    create_site(admin_api, quiet)
    open_signed_in(page, PRIYA, console.demo_password, f"/reports/events?site={tracked['site']}")
    expect(page.get_by_test_id("activity-thing")).to_have_count(3)
    page.get_by_role("combobox", name="Site").click()
    page.get_by_role("option", name=quiet, exact=True).click()
    # The report reloads for the new site.
    expect(page.get_by_text("No activity in this period.")).to_be_visible()
    expect(page.get_by_test_id("activity-thing")).to_have_count(0)

    page.get_by_role("link", name="Zone Status").click()
    expect(page.get_by_text("This site has no zones yet.")).to_be_visible()
    shot(page, "reports-zone-status-empty")
    page.get_by_role("link", name="Exceptions").click()
    expect(page.get_by_text("No exceptions in this period.")).to_be_visible()
    shot(page, "reports-exceptions-empty")
    page.get_by_role("link", name="Zones History").click()
    expect(page.get_by_text("No zone visits in this period.")).to_be_visible()
    page.get_by_role("link", name="Zone Categories").click()
    page.get_by_role("button", name="Run Report").click()
    expect(page.get_by_text("This site has no zones yet.")).to_be_visible()
    shot(page, "reports-zone-categories-empty")
    # No configuration: no Custom Reports group in the menu.
    expect(page.get_by_role("list", name="Custom Reports")).to_have_count(0)


def test_hidden_workers_stay_out_of_reports(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "Staffless Depot", timezone=BROWSER_TIMEZONE)
    reader = create_endpoint(admin_api, site, "Gate Reader")
    zone(admin_api, site, "Gate", reader, alert_minutes=30)
    crate, picker = short_tag(), short_tag()
    thing(admin_api, site, "Bulk Crate", crate, [])
    thing(admin_api, site, "Gate Picker", picker, [], cls="worker")
    post_reads(admin_api, reader, [{"tag": t, "antenna": 1} for t in (crate, picker)])
    assert wait_for_events(admin_api, site, picker)
    response = admin_api.put(
        f"/api/sites/{site}/settings", data={"hideWorkers": True, "itemNameLabel": "Asset Name"}
    )
    assert response.ok, response.text()

    open_signed_in(page, PRIYA, console.demo_password, f"/reports/zones?site={site}")
    gate = page.get_by_role("region", name="Gate", exact=True)
    expect(gate.get_by_role("row").filter(has_text="Bulk Crate")).to_be_visible()
    expect(gate.get_by_role("columnheader", name="Asset Name")).to_be_visible()
    expect(gate.get_by_text("Gate Picker")).to_have_count(0)
    expect(gate.get_by_role("columnheader", name="Type")).to_have_count(0)
    page.get_by_role("link", name="Activity").click()
    expect(page.get_by_test_id("activity-thing")).to_have_count(1)
    expect(page.get_by_test_id("activity-thing")).to_contain_text("Bulk Crate")


def test_viewer_reads_configurations_without_changing_them(
    page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    name = unique("Viewer Visible")
    response = admin_api.post(
        "/api/reportconfigs",
        data={
            "name": name,
            "type": "reportTypeCategories",
            "format": "json",
            "site": tracked["site"],
        },
    )
    assert response.ok, response.text()
    viewer = create_user(admin_api, "Viewer", [tracked["site"]])
    open_signed_in(page, viewer.email, viewer.password, f"/reportconfigs?site={tracked['site']}")
    menu = page.get_by_role("navigation", name="Main menu")
    expect(menu.get_by_role("link", name="Report Configuration")).to_have_count(0)
    expect(
        page.get_by_role("list", name="Custom Reports").get_by_role("link", name=name)
    ).to_be_visible()
    grid = page.get_by_role("grid", name="Report Configuration")
    expect(grid.get_by_role("row").filter(has_text=name)).to_contain_text("All")
    expect(page.get_by_test_id("list-add")).to_have_count(0)
    expect(page.get_by_test_id("row-delete")).to_have_count(0)
    grid.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)


def test_report_configurations_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    name = unique("Quarantine Dwell " + "Long Name " * 5)
    response = admin_api.post(
        "/api/reportconfigs",
        data={
            "name": name,
            "type": "reportTypeSeen",
            "format": "excel",
            "email": True,
            "site": tracked["site"],
            "zones": [tracked["yard"]],
            "categories": ["Crates"],
        },
    )
    assert response.ok, response.text()
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reportconfigs?site={tracked['site']}"
    )
    row = mobile_page.get_by_role("row").filter(has_text=name[:16])
    expect(row).to_be_visible()
    phone_shot(mobile_page, "reports-configs-phone")
    row.click()
    expect(mobile_page.get_by_role("button", name=LONG_NAME)).to_be_visible()
    expect(mobile_page.get_by_role("button", name="Crates")).to_be_visible()
    phone_shot(mobile_page, "reports-config-edit-phone")


def far_timezone() -> str:
    """A browser clock on another day than the site's, as far from a change of day as any.

    The site's clock was about noon when the module loaded, but not necessarily now: a fixed
    13 hours away lands on the site's own day once its clock is past one."""
    now = datetime.now(UTC)
    site_day = now.astimezone(ZoneInfo(BROWSER_TIMEZONE)).date()

    def hours_from_midnight(offset: int) -> float:
        local = now + timedelta(hours=offset)
        hours = local.hour + local.minute / 60
        return min(hours, 24 - hours)

    # Etc/GMT zones run from 12 hours behind UTC to 14 ahead: some are on another day.
    others = [o for o in range(-12, 15) if (now + timedelta(hours=o)).date() != site_day]
    offset = max(others, key=hours_from_midnight)
    return f"Etc/GMT{-offset:+d}"


def site_clock(when: str) -> str:
    """A server time as the Activity screen shows it on the site's clock."""
    moment = datetime.fromisoformat(when.replace("Z", "+00:00")).astimezone(
        ZoneInfo(BROWSER_TIMEZONE)
    )
    return moment.strftime("%I:%M:%S ") + moment.strftime("%p").lower()


def test_a_browser_on_another_clock_sees_the_sites_times_and_its_zone(
    browser: Browser, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    far = browser.new_context(base_url=console.url, viewport=DESKTOP, timezone_id=far_timezone())
    far.set_default_timeout(10_000)
    page = far.new_page()
    assert page.evaluate("new Date().getDate()") != site_now().day
    site = tracked["site"]
    activity = admin_api.get(
        "/api/eventsbything",
        params={
            "site": site,
            "after": iso(site_now().replace(hour=0, minute=0, second=0, microsecond=0)),
            "before": iso(datetime.now(UTC) + timedelta(minutes=1)),
        },
    ).json()
    [pallet] = [t for t in activity if t["thingName"] == "Overdue Pallet"]
    [day] = pallet["days"]

    # Activity: today is the site's today, its times on the site's clock, the zone named.
    open_signed_in(page, PRIYA, console.demo_password, f"/reports/events?site={site}")
    expect(page.get_by_test_id("site-clock")).to_contain_text(f"times in {BROWSER_TIMEZONE}")
    expect(page.get_by_role("group", name="Start Date")).to_contain_text(
        site_now().strftime("%m/%d/%Y")
    )
    things = page.get_by_test_id("activity-thing")
    expect(things).to_have_count(3)
    things.filter(has_text="Overdue Pallet").click()
    row = page.get_by_test_id("activity-day")
    expect(row).to_contain_text(site_now().strftime("%Y/%m/%d"))
    expect(row).to_contain_text(site_clock(day["firstSeen"]))
    expect(row).to_contain_text(site_clock(day["lastSeen"]))
    shot(page, "reports-activity-site-clock")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    workbook = openpyxl.load_workbook(io.BytesIO(info.value.path().read_bytes()))
    sheet = workbook.worksheets[0]
    header = [c.value for c in sheet[1]]
    assert header[4:6] == [f"First Seen ({BROWSER_TIMEZONE})", f"Last Seen ({BROWSER_TIMEZONE})"]
    [cells] = [r for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] == "Overdue Pallet"]
    assert cells[4].strftime("%I:%M:%S %p").lower() == site_clock(day["firstSeen"])
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == f"A1:I{sheet.max_row}"
    assert sheet.column_dimensions["E"].width >= len("2026-01-31 23:59:59")

    # Exceptions: the site's clock too, in the list and its workbook; types in words.
    exception = wait_for_exception(admin_api, site)
    page.goto(f"/reports/exceptions?site={site}")
    expect(page.get_by_test_id("site-clock")).to_contain_text(f"times in {BROWSER_TIMEZONE}")
    moment = datetime.fromisoformat(exception["time"].replace("Z", "+00:00"))
    shown = moment.astimezone(ZoneInfo(BROWSER_TIMEZONE))
    text = shown.strftime("%Y/%m/%d %I:%M:%S ") + shown.strftime("%p").lower()
    expect(
        page.get_by_role("grid", name="Exceptions").get_by_role("row").filter(has_text=text)
    ).to_contain_text("Zone time")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    rows = workbook_rows(info.value)
    assert rows[0][:2] == (f"Time ({BROWSER_TIMEZONE})", "Type"), rows[0]
    assert (shown.replace(tzinfo=None, microsecond=0), "Zone time") in [
        (r[0].replace(microsecond=0), r[1]) for r in rows[1:]
    ], rows
    far.close()


def test_a_report_of_format_json_downloads_json(
    page: Page, console: Console, admin_api: APIRequestContext, tracked: dict
) -> None:
    name = unique("Dock JSON")
    response = admin_api.post(
        "/api/reportconfigs",
        data={
            "name": name,
            "type": "reportTypeSeen",
            "format": "json",
            "site": tracked["site"],
            "zones": [tracked["dock"]],
            "headings": ["Name", "First Seen"],
        },
    )
    assert response.ok, response.text()
    config = response.json()
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/{config['_id']}?site={tracked['site']}"
    )
    expect(page.get_by_test_id("site-clock")).to_have_text(BROWSER_TIMEZONE)
    shot(page, "reports-custom-run-json")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download Report (.JSON)").click()
    assert info.value.suggested_filename == f"{name}.json"
    report = json.loads(info.value.path().read_text())
    assert report["columns"] == ["Name", "First Seen"]
    assert [r["Name"] for r in report["rows"]] == ["Overdue Pallet"]
    assert report["summary"]["Time Zone"] == BROWSER_TIMEZONE
