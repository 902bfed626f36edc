"""Home dashboard: the zone overview chart and the endpoint status table with stale rows."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import PRIYA, Console, open_signed_in, shot
from e2e.tracking_data import (
    create_endpoint,
    create_thing,
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    post_status,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")


@pytest.fixture(scope="module")
def site(admin_api: APIRequestContext) -> str:
    """A site with two zones holding things, a live reader and one silent for two hours."""
    site = new_site(admin_api, "Dashboard Depot")
    live = create_endpoint(admin_api, site, "Receiving Gate")
    stale = create_endpoint(admin_api, site, "Cold Store Gate")
    create_endpoint(admin_api, site, "Spare Reader")
    near = {"direction": "NEAR", "antenna": -1}
    create_zone(admin_api, site, "Receiving", [{"endpoint": live.id, **near}])
    create_zone(admin_api, site, "Cold Store", [{"endpoint": stale.id, **near}])
    create_zone(admin_api, site, "Empty Aisle", [])
    items = [short_tag() for _ in range(3)]
    worker = short_tag()
    for n, tag in enumerate(items):
        create_thing(admin_api, site, f"Crate {n}", tag=tag)
    create_thing(admin_api, site, "Picker", tag=worker, thing_class="worker")
    post_reads(admin_api, live, [{"tag": t, "antenna": 1} for t in (*items[:2], worker)])
    post_reads(admin_api, stale, [{"tag": items[2], "antenna": 1}])
    assert wait_for_events(admin_api, site, items[2])
    assert wait_for_events(admin_api, site, worker)
    post_status(admin_api, live, timedelta(minutes=2), ip="10.0.4.21", version="3.2.1")
    post_status(admin_api, stale, timedelta(hours=2), ip="10.0.4.22", version="3.1.0")
    return site


def test_zone_overview_chart(page: Page, console: Console, site: str) -> None:
    # The chart's animation runs on the page's clock: faked, it can end at once.
    page.clock.install()
    open_signed_in(page, PRIYA, console.demo_password, f"/home?site={site}")
    overview = page.get_by_test_id("zone-overview")
    chart = overview.get_by_test_id("zone-chart")
    expect(chart).to_be_visible()
    for zone in ("Receiving", "Cold Store", "Empty Aisle"):
        expect(chart.get_by_text(zone, exact=True)).to_be_visible()
    for series in ("Total", "Assets", "Staff"):
        expect(chart.get_by_text(series, exact=True)).to_be_visible()
    # Receiving holds 2 items and a worker, Cold Store one item: bars with a length.
    bars = chart.locator(".MuiBarChart-element")
    expect(bars.first).to_be_visible()
    page.clock.run_for(1_000)  # the bars grow into place
    widths = [(bars.nth(i).bounding_box() or {"width": 0})["width"] for i in range(bars.count())]
    # Receiving: total 3, items 2, staff 1; Cold Store: total 1, items 1.
    assert sum(1 for w in widths if w > 1) == 5, widths
    overview.get_by_role("button", name="Refresh zones").click()
    expect(chart).to_be_visible()
    shot(page, "home-dashboard")
    check_accessibility(page)


def test_endpoint_status_marks_stale_readers(page: Page, console: Console, site: str) -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/home?site={site}")
    table = page.get_by_role("grid", name="Endpoint Status")
    headers = table.get_by_role("columnheader")
    expect(headers).to_have_text(["Name", "Last Heartbeat", "IP Address", "Firmware Version"])
    rows = table.get_by_role("row")
    # Oldest first: never, then two hours ago, then now.
    expect(rows.nth(1)).to_contain_text("Spare Reader")
    expect(rows.nth(2)).to_contain_text("Cold Store Gate")
    expect(rows.nth(3)).to_contain_text("Receiving Gate")
    stale = rows.filter(has_text="Cold Store Gate")
    expect(stale).to_have_class(re.compile("endpoint-stale"))
    expect(stale).to_contain_text("(2:00)")
    expect(stale).to_contain_text("10.0.4.22")
    expect(stale).to_contain_text("3.1.0")
    color = stale.evaluate("row => getComputedStyle(row).backgroundColor")
    assert color != "rgba(0, 0, 0, 0)", color
    expect(rows.filter(has_text="Spare Reader")).to_have_class(re.compile("endpoint-stale"))
    live = rows.filter(has_text="Receiving Gate")
    expect(live).to_have_class(re.compile("endpoint-ok"))
    expect(live).to_contain_text("(0:02)")


def test_dashboard_on_a_phone(mobile_page: Page, console: Console, site: str) -> None:
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/home?site={site}")
    chart = mobile_page.get_by_test_id("zone-chart")
    # The chart's own chunk loads after the card: the bars, not its placeholder.
    for zone in ("Receiving", "Cold Store", "Empty Aisle"):
        expect(chart.get_by_text(zone, exact=True)).to_be_visible()
    expect(chart.get_by_role("progressbar")).to_have_count(0)
    expect(mobile_page.get_by_role("grid", name="Endpoint Status")).to_be_visible()
    shot(mobile_page, "home-dashboard-phone")
    width = mobile_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_empty_site(page: Page, console: Console, admin_api: APIRequestContext) -> None:
    empty = new_site(admin_api, "Empty Depot")
    open_signed_in(page, PRIYA, console.demo_password, f"/home?site={empty}")
    expect(page.get_by_text("No zones to show for this site yet.")).to_be_visible()
    expect(page.get_by_text("This site has no endpoints yet.")).to_be_visible()
    shot(page, "home-empty")
