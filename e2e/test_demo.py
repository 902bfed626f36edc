"""Demo mode is alive from the first minute: simulated readers move things on every screen."""

import time

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import DEMO_SITES, PRIYA, Console, open_signed_in, shot, site_id


def test_demo_events_flow_and_the_dashboard_moves(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = site_id(admin_api, DEMO_SITES[0])
    open_signed_in(page, PRIYA, console.demo_password, f"/events?site={site}")
    expect(page.get_by_role("heading", name="Events")).to_be_visible()
    rows = page.get_by_role("row")
    expect(rows.nth(1)).to_be_visible(timeout=30_000)
    counted = admin_api.get("/api/events", params={"site": site, "limit": 1})
    first_total = int(counted.headers["x-total-count"])
    assert first_total > 0
    # The simulator keeps reading: the Events page refreshes itself with new reads.
    deadline = time.monotonic() + 30
    total = first_total
    while total <= first_total and time.monotonic() < deadline:
        page.wait_for_timeout(250)
        later = admin_api.get("/api/events", params={"site": site, "limit": 1})
        total = int(later.headers["x-total-count"])
    assert total > first_total
    shot(page, "demo-events")

    page.goto(f"/home?site={site}")
    chart = page.get_by_test_id("zone-chart")
    bars = chart.locator(".MuiBarChart-element")
    expect(bars.first).to_be_visible(timeout=20_000)
    widths = [(bars.nth(i).bounding_box() or {"width": 0})["width"] for i in range(bars.count())]
    assert any(width > 1 for width in widths), widths
    table = page.get_by_role("grid", name="Endpoint Status")
    expect(table.get_by_role("row").nth(1)).to_be_visible()
    # One simulated reader plays unplugged and shows red.
    expect(table.locator(".endpoint-stale").first).to_be_visible()
    shot(page, "demo-home")
