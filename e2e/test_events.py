"""Events page: live refresh of ingested reads, the row click rule, filters, and polling
when the live stream is unavailable (test_live.py covers the stream itself)."""

import re
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Page, Request, Response, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import PRIYA, Console, open_signed_in, shot
from e2e.page_clock import poll_follows, run_polling_periods
from e2e.tracking_data import (
    Reader,
    create_endpoint,
    create_thing,
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")

# The Events page's rows per page.
DEFAULT_PAGE_SIZE = 25
# One refresh: pushed at once, or by polling every 5 s.
ONE_REFRESH_MS = 6_000
EVENTS_CALL = re.compile(r"/api/events\?")


@dataclass(frozen=True)
class Floor:
    site: str
    door: Reader
    yard: Reader
    thing: dict[str, Any]
    tag: str


@pytest.fixture(scope="module")
def floor(admin_api: APIRequestContext) -> Floor:
    site = new_site(admin_api, "Events Yard")
    door = create_endpoint(admin_api, site, "Dock Door 1")
    yard = create_endpoint(admin_api, site, "Yard Gate")
    create_zone(
        admin_api, site, "Inbound Dock", [{"endpoint": door.id, "direction": "NEAR", "antenna": -1}]
    )
    tag = short_tag()
    thing = create_thing(
        admin_api, site, "Reach Truck 7", tag=tag, serial="RT-7", data={"cFloat0": 48.25}
    )
    return Floor(site, door, yard, thing, tag)


def open_events(page: Page, console: Console, floor: Floor) -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/events?site={floor.site}")
    expect(page.get_by_role("heading", name="Events")).to_be_visible()


def is_events_call(message: Request | Response) -> bool:
    return bool(EVENTS_CALL.search(message.url))


def event_calls(page: Page) -> list[str]:
    calls: list[str] = []

    def seen(request: Request) -> None:
        if is_events_call(request):
            calls.append(request.url)

    page.on("request", seen)
    return calls


def set_visibility(page: Page, *, hidden: bool) -> None:
    """What the browser does when the tab goes to the background or comes back."""
    page.evaluate(
        """hidden => {
            const state = hidden ? 'hidden' : 'visible';
            const define = (name, value) =>
                Object.defineProperty(document, name, { configurable: true, get: () => value });
            define('visibilityState', state);
            define('hidden', hidden);
            document.dispatchEvent(new Event('visibilitychange'));
        }""",
        hidden,
    )


def test_reads_appear_live_and_rows_open_their_thing(
    page: Page, console: Console, admin_api: APIRequestContext, floor: Floor
) -> None:
    open_events(page, console, floor)
    for label in ("Start Date", "End Date"):
        expect(page.get_by_role("group", name=label)).to_be_visible()
    for button in ("Today", "Last 7 Days", "Last 30 Days"):
        expect(page.get_by_role("button", name=button, exact=True)).to_be_visible()
    grid = page.get_by_role("grid", name="Events")
    for header in (
        "Tag",
        "Last Full Event",
        "Last Seen",
        "Repeat Event Count",
        "Direction",
        "Endpoint",
        "Data",
        "Location",
        "Antenna",
        "Zone",
    ):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    calls = event_calls(page)

    unknown = short_tag()
    post_reads(
        admin_api,
        floor.door,
        [
            {"tag": floor.tag.lower(), "antenna": 1, "data": {"cFloat0": 21.5}},
            {"tag": unknown, "antenna": 2},
        ],
    )
    # Reads are processed after they are acknowledged; then one refresh shows them.
    assert wait_for_events(admin_api, floor.site, floor.tag)
    assert wait_for_events(admin_api, floor.site, unknown)
    known_row = grid.get_by_role("row").filter(has_text=floor.tag)
    unknown_row = grid.get_by_role("row").filter(has_text=unknown)
    expect(known_row).to_be_visible(timeout=ONE_REFRESH_MS)
    expect(unknown_row).to_be_visible(timeout=ONE_REFRESH_MS)
    assert calls, "the page refreshed without a reload"
    expect(known_row).to_contain_text("Dock Door 1")
    expect(known_row).to_contain_text("Inbound Dock")
    expect(known_row).to_contain_text("21.5")
    expect(known_row.get_by_test_id("matched")).to_be_visible()
    expect(unknown_row.get_by_test_id("unmatched")).to_have_text("unmatched")
    shot(page, "events-live")
    check_accessibility(page)

    # The unknown placeholder opens nothing.
    unknown_row.get_by_role("gridcell").nth(2).click()
    page.wait_for_timeout(500)
    expect(page).to_have_url(re.compile(r"/events\?site="))

    known_row.get_by_role("gridcell").nth(2).click()
    expect(page).to_have_url(re.compile(rf"/things/{floor.thing['_id']}\?site="))
    expect(page.get_by_role("heading", name="Reach Truck 7")).to_be_visible()
    expect(page.get_by_test_id("state-zone")).to_have_text("Inbound Dock")
    expect(page.get_by_test_id("state-zone-time")).not_to_have_text("N/A")
    check_accessibility(page)
    page.get_by_role("tab", name="Events").click()
    expect(page.get_by_role("grid", name="Thing events").get_by_role("row")).to_have_count(2)
    page.get_by_role("tab", name="Zone History").click()
    history = page.get_by_role("grid", name="Zone History")
    expect(history.get_by_role("row").filter(has_text="Inbound Dock")).to_be_visible()
    page.get_by_role("tab", name="Data").click()
    # The thing shows its sensor's latest value, from the read (it was 48.25 before).
    expect(page.get_by_role("textbox", name="cFloat0")).to_have_value("21.5")
    shot(page, "thing-data-after-reads")


def test_endpoint_filter(
    page: Page, console: Console, admin_api: APIRequestContext, floor: Floor
) -> None:
    yard_tag = short_tag()
    door_tag = short_tag()
    post_reads(admin_api, floor.yard, [{"tag": yard_tag, "antenna": 0}])
    post_reads(admin_api, floor.door, [{"tag": door_tag, "antenna": 0}])
    assert wait_for_events(admin_api, floor.site, yard_tag)
    assert wait_for_events(admin_api, floor.site, door_tag)
    open_events(page, console, floor)
    grid = page.get_by_role("grid", name="Events")
    expect(grid.get_by_role("row").filter(has_text=yard_tag)).to_be_visible()
    endpoints = page.get_by_role("combobox", name="Endpoints")
    endpoints.click()
    page.get_by_role("option", name="Yard Gate").click()
    page.keyboard.press("Escape")
    expect(grid.get_by_role("row").filter(has_text=yard_tag)).to_be_visible()
    expect(grid.get_by_role("row").filter(has_text=door_tag)).to_have_count(0)
    shot(page, "events-filtered")
    page.get_by_role("button", name="Last 7 Days").click()
    expect(grid.get_by_role("row").filter(has_text=yard_tag)).to_be_visible()


def test_without_the_live_stream_the_page_polls_while_visible(
    page: Page, console: Console, floor: Floor
) -> None:
    # The page's timers on a fake clock (installed before it loads), so polling periods
    # pass at once; fetches stay real.
    page.clock.install()
    # The stream refused, as by a proxy that does not pass it: the page falls back to polling.
    page.route(re.compile(r"/api/live\?"), lambda route: route.abort())
    with page.expect_response(is_events_call):
        open_events(page, console, floor)
    expect(page.get_by_role("grid", name="Events")).to_be_visible()
    calls = event_calls(page)
    poll_follows(page, is_events_call)
    assert calls, "polls while visible"

    set_visibility(page, hidden=True)
    calls.clear()
    run_polling_periods(page, 2)
    assert calls == [], "no polling while hidden"

    set_visibility(page, hidden=False)
    poll_follows(page, is_events_call)
    assert calls, "polling resumes when visible again"

    page.get_by_role("navigation", name="Main menu").get_by_role("link", name="Home").click()
    expect(page.get_by_role("heading", name="Home")).to_be_visible()
    calls.clear()
    run_polling_periods(page, 1)
    assert calls == [], "no polling after leaving the page"


def test_events_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, floor: Floor
) -> None:
    unknown = short_tag()
    post_reads(admin_api, floor.door, [{"tag": floor.tag, "antenna": 3}, {"tag": unknown}])
    assert wait_for_events(admin_api, floor.site, unknown)
    open_events(mobile_page, console, floor)
    grid = mobile_page.get_by_role("grid", name="Events")
    expect(
        grid.get_by_role("row").filter(has_text=unknown).get_by_test_id("unmatched")
    ).to_be_visible()
    shot(mobile_page, "events-phone")
    width = mobile_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


# Adds up, from now on, how far the page's boxes move on their own (not after an input).
WATCH_SHIFTS = """() => {
    window.layoutShift = 0;
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if (!entry.hadRecentInput) window.layoutShift += entry.value;
        }
    }).observe({ type: 'layout-shift' });
}"""


def test_new_events_arrive_on_top_without_moving_the_page(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, floor: Floor
) -> None:
    # A full page, as at a busy site.
    earlier = [short_tag() for _ in range(DEFAULT_PAGE_SIZE)]
    post_reads(admin_api, floor.yard, [{"tag": tag} for tag in earlier])
    assert wait_for_events(admin_api, floor.site, earlier[-1])
    open_events(mobile_page, console, floor)
    rows = mobile_page.get_by_role("grid", name="Events").get_by_role("row")
    expect(rows).to_have_count(DEFAULT_PAGE_SIZE + 1)
    mobile_page.evaluate(WATCH_SHIFTS)
    first_row = rows.nth(1).text_content()
    assert first_row

    newer = short_tag()
    post_reads(admin_api, floor.yard, [{"tag": newer}])
    assert wait_for_events(admin_api, floor.site, newer)
    # The newest event shows on top, the one that was on top below it.
    expect(rows.nth(1)).to_contain_text(newer, timeout=ONE_REFRESH_MS)
    expect(rows.nth(2)).to_have_text(first_row)
    expect(rows).to_have_count(DEFAULT_PAGE_SIZE + 1)
    # Each row kept its place and took the next event: nothing on the page moved.
    assert mobile_page.evaluate("window.layoutShift") == 0
