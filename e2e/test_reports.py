"""Reports: Zone Status (live), Zones History, Activity, Exceptions, Zone Categories,
report configurations and custom report downloads."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import PRIYA, Console, open_signed_in, shot
from e2e.tracking_data import (
    Reader,
    create_endpoint,
    create_thing,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")

MINUTE_NS = 60_000_000_000
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


def read_at(api: APIRequestContext, reader: Reader, tag: str, when: datetime) -> None:
    post_reads(api, reader, [{"tag": tag, "antenna": 1, "time": iso(when)}])


@pytest.fixture(scope="module")
def tracked(admin_api: APIRequestContext) -> dict[str, Any]:
    """A site with a short-alert zone holding a pallet for 20 minutes and a fresh crate in
    another zone, plus a worker."""
    site = new_site(admin_api, "Reports Depot")
    dock = create_endpoint(admin_api, site, "Dock Reader")
    yard = create_endpoint(admin_api, site, "Yard Reader")
    dock_zone = zone(admin_api, site, "Dock", dock, alert_minutes=5)
    yard_zone = zone(admin_api, site, LONG_NAME, yard, alert_minutes=120)
    pallet, crate, picker = short_tag(), short_tag(), short_tag()
    create_thing(admin_api, site, "Overdue Pallet", tag=pallet)
    create_thing(admin_api, site, "Fresh Crate", tag=crate)
    create_thing(admin_api, site, "Night Picker", tag=picker, thing_class="worker")
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

    page.get_by_role("button", name="Graph").click()
    chart = page.get_by_test_id("zone-chart")
    expect(chart).to_be_visible()
    expect(chart.get_by_text("Dock", exact=True)).to_be_visible()
    expect(page.get_by_test_id("zone-status-tables")).to_have_count(0)
    shot(page, "reports-zone-status-graph")
    page.get_by_role("button", name="Table").click()
    expect(page.get_by_test_id("zone-status-tables")).to_be_visible()


def test_zone_status_polls_only_while_open(page: Page, console: Console, tracked: dict) -> None:
    calls: list[str] = []
    page.on(
        "request",
        lambda r: calls.append(r.url) if "/api/things?" in r.url else None,
    )
    open_signed_in(page, PRIYA, console.demo_password, f"/reports/zones?site={tracked['site']}")
    expect(page.get_by_role("heading", name="Zone Status")).to_be_visible()
    page.wait_for_timeout(5_800)
    assert len(calls) >= 2, calls
    page.get_by_role("link", name="Home").click()
    expect(page.get_by_role("heading", name="Home")).to_be_visible()
    left = len(calls)
    page.wait_for_timeout(5_800)
    assert len(calls) == left, calls


def test_zone_status_on_a_phone(mobile_page: Page, console: Console, tracked: dict) -> None:
    open_signed_in(
        mobile_page, PRIYA, console.demo_password, f"/reports/zones?site={tracked['site']}"
    )
    expect(mobile_page.get_by_role("region", name="Dock", exact=True)).to_be_visible()
    shot(mobile_page, "reports-zone-status-phone")
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390


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
    shot(mobile_page, "reports-zones-history-phone")
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390
