"""Live updates in the browser: the Events and Zone Status pages hear of new reads from the
server's stream instead of polling, and an idle page then costs next to nothing."""

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, Request, expect

from e2e.conftest import DESKTOP, PRIYA, Console, api_sign_in, shot
from e2e.page_clock import POLL_MS, poll_follows, run_polling_periods
from e2e.tracking_data import (
    Reader,
    create_endpoint,
    create_thing,
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
)

pytestmark = pytest.mark.usefixtures("patient_expect")

LIVE = re.compile(r"/api/live\?")
# Two polling periods: a page that polled would have asked twice.
IDLE_PERIODS = 2
# Long enough to hold one keepalive of the stream (every 25 s, the server's real time)
# and six polls.
TRAFFIC_WINDOW_MS = 30_000
# A pushed change is on screen well within one polling period (5 s) plus processing.
PUSHED_MS = 8_000


@dataclass(frozen=True)
class Yard:
    site: str
    door: Reader
    zone: str


@pytest.fixture(scope="module")
def yard(admin_api: APIRequestContext) -> Yard:
    site = new_site(admin_api, "Live Yard")
    door = create_endpoint(admin_api, site, "Live Door")
    zone = create_zone(
        admin_api, site, "Live Dock", [{"endpoint": door.id, "direction": "NEAR", "antenna": -1}]
    )
    return Yard(site, door, zone)


def requests_to(page: Page, pattern: str) -> list[str]:
    calls: list[str] = []

    def seen(request: Request) -> None:
        if pattern in request.url:
            calls.append(request.url)

    page.on("request", seen)
    return calls


def open_live(page: Page, console: Console, path: str, *, fake_clock: bool = False) -> None:
    """Open a page signed in as the demo Administrator and wait until its stream is open.
    With fake_clock, the page's timers wait for page.clock, so polling periods pass at once."""
    if fake_clock:
        page.clock.install()
    api_sign_in(page.context, PRIYA, console.demo_password)
    with page.expect_response(lambda r: bool(LIVE.search(r.url)), timeout=20_000) as stream:
        page.goto(path)
    assert stream.value.status == 200
    assert stream.value.headers["content-type"].startswith("text/event-stream")
    expect(page.get_by_test_id("top-bar")).to_be_visible()


def settle(page: Page) -> None:
    """Let the first load end (an open stream keeps Playwright's networkidle from coming)."""
    page.wait_for_timeout(2_000)


def idle_without_polls(page: Page, calls: list[str]) -> None:
    """The page's fake clock runs through polling periods; no fetch may follow."""
    settle(page)
    calls.clear()
    run_polling_periods(page, IDLE_PERIODS)
    assert calls == [], f"the page polled while its stream was open: {calls}"


def test_events_page_shows_a_new_read_pushed_by_the_server(
    page: Page, console: Console, admin_api: APIRequestContext, yard: Yard
) -> None:
    calls = requests_to(page, "/api/events?")
    open_live(page, console, f"/events?site={yard.site}", fake_clock=True)
    grid = page.get_by_role("grid", name="Events")
    expect(grid).to_be_visible()
    idle_without_polls(page, calls)

    tag = short_tag()
    posted = time.monotonic()
    post_reads(admin_api, yard.door, [{"tag": tag, "antenna": 1}])
    row = grid.get_by_role("row").filter(has_text=tag)
    expect(row).to_be_visible(timeout=PUSHED_MS)
    print(f"\nEvents: a new read on screen {time.monotonic() - posted:.1f} s after it was posted")
    expect(row).to_contain_text("Live Door")
    expect(row).to_contain_text("Live Dock")
    assert len(calls) >= 1, "the page fetched the events it was told of"
    shot(page, "live-events")


def test_zone_status_shows_a_thing_entering_a_zone(
    page: Page, console: Console, admin_api: APIRequestContext, yard: Yard
) -> None:
    tag = short_tag()
    name = f"Live Pallet {tag[-4:]}"
    create_thing(admin_api, yard.site, name, tag=tag)
    calls = requests_to(page, "/api/things?")
    open_live(page, console, f"/reports/zones?site={yard.site}", fake_clock=True)
    dock = page.get_by_role("region", name="Live Dock", exact=True)
    expect(dock).to_be_visible()
    expect(dock.get_by_role("row").filter(has_text=name)).to_have_count(0)
    idle_without_polls(page, calls)

    posted = time.monotonic()
    post_reads(admin_api, yard.door, [{"tag": tag, "antenna": 0}])
    expect(dock.get_by_role("row").filter(has_text=name)).to_be_visible(timeout=PUSHED_MS)
    print(f"\nZone Status: the thing in its zone {time.monotonic() - posted:.1f} s after the read")
    assert len(calls) >= 1
    shot(page, "live-zone-status")


def test_live_pages_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext, yard: Yard
) -> None:
    tag = short_tag()
    name = f"Live Trolley {tag[-4:]}"
    create_thing(admin_api, yard.site, name, tag=tag)
    open_live(mobile_page, console, f"/reports/zones?site={yard.site}")
    dock = mobile_page.get_by_role("region", name="Live Dock", exact=True)
    expect(dock).to_be_visible()
    post_reads(admin_api, yard.door, [{"tag": tag, "antenna": 2}])
    expect(dock.get_by_role("row").filter(has_text=name)).to_be_visible(timeout=PUSHED_MS)
    shot(mobile_page, "live-zone-status-phone")
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390

    open_live(mobile_page, console, f"/events?site={yard.site}")
    grid = mobile_page.get_by_role("grid", name="Events")
    expect(grid).to_be_visible()
    other = short_tag()
    post_reads(admin_api, yard.door, [{"tag": other, "antenna": 2}])
    expect(grid.get_by_role("row").filter(has_text=other)).to_be_visible(timeout=PUSHED_MS)
    shot(mobile_page, "live-events-phone")
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390


@dataclass
class Traffic:
    """What the page sent and received over the network (Chromium's own accounting)."""

    requests: int = 0
    # Per request id: bytes received so far, and the total once the answer is complete.
    received: dict[str, int] = field(default_factory=dict)
    finished: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    urls: list[str] = field(default_factory=list)

    @property
    def bytes(self) -> int:
        received = {**self.received, **self.finished}
        return self.sent + sum(received.values())

    def reset(self) -> None:
        self.requests = self.sent = 0
        self.received.clear()
        self.finished.clear()
        self.urls.clear()


def record_traffic(page: Page) -> Traffic:
    """Counts the page's traffic from now on, the stream's messages and keepalives included
    (Chromium reports only requests that start after it is asked to)."""
    traffic = Traffic()
    cdp = page.context.new_cdp_session(page)

    def sent(event: dict[str, Any]) -> None:
        traffic.requests += 1
        traffic.urls.append(event["request"]["url"])

    def headers(event: dict[str, Any]) -> None:
        traffic.sent += sum(len(k) + len(v) + 4 for k, v in event["headers"].items())

    def data(event: dict[str, Any]) -> None:
        rid = event["requestId"]
        traffic.received[rid] = traffic.received.get(rid, 0) + event["encodedDataLength"]

    def finished(event: dict[str, Any]) -> None:
        traffic.finished[event["requestId"]] = int(event["encodedDataLength"])

    handlers: dict[str, Callable[[dict[str, Any]], None]] = {
        "Network.requestWillBeSent": sent,
        "Network.requestWillBeSentExtraInfo": headers,
        "Network.dataReceived": data,
        "Network.loadingFinished": finished,
    }
    for name, handler in handlers.items():
        cdp.on(name, handler)
    cdp.send("Network.enable")
    return traffic


def idle_traffic(page: Page, traffic: Traffic, *, fake_clock: bool = False) -> Traffic:
    """Everything on the wire while the page sits idle for the window: real time, or with
    fake_clock the page's clock run one polling period at a time, each poll answered before
    the next (as in real time)."""
    settle(page)
    traffic.reset()
    if fake_clock:
        for _ in range(TRAFFIC_WINDOW_MS // POLL_MS):
            poll_follows(page, lambda r: "/api/events?" in r.url, POLL_MS)
    else:
        page.wait_for_timeout(TRAFFIC_WINDOW_MS)
        # On a busy machine the stream may open late, and its first keepalive come after the
        # window: wait for it (a longer window only counts against the stream).
        deadline = time.monotonic() + TRAFFIC_WINDOW_MS / 1000
        while traffic.bytes == 0 and time.monotonic() < deadline:
            page.wait_for_timeout(250)
    return Traffic(
        traffic.requests,
        dict(traffic.received),
        dict(traffic.finished),
        traffic.sent,
        list(traffic.urls),
    )


def test_an_idle_page_costs_far_less_with_the_stream_than_with_polling(
    browser: Browser, console: Console, admin_api: APIRequestContext, yard: Yard
) -> None:
    # Some events to show, as on a real site.
    post_reads(admin_api, yard.door, [{"tag": short_tag(), "antenna": a} for a in range(4)])
    path = f"/events?site={yard.site}"

    streaming = browser.new_context(base_url=console.url, viewport=DESKTOP)
    polling = browser.new_context(base_url=console.url, viewport=DESKTOP)
    # A browser without EventSource: the page falls back to the spec's polling.
    polling.add_init_script("delete window.EventSource;")
    try:
        live_page = streaming.new_page()
        live_traffic = record_traffic(live_page)
        open_live(live_page, console, path)
        expect(live_page.get_by_role("grid", name="Events")).to_be_visible()
        with_stream = idle_traffic(live_page, live_traffic)
        live_page.close()

        poll_page = polling.new_page()
        poll_traffic = record_traffic(poll_page)
        # The stream's window is the server's real time; the polls are the page's timers.
        poll_page.clock.install()
        api_sign_in(polling, PRIYA, console.demo_password)
        poll_page.goto(path)
        expect(poll_page.get_by_role("grid", name="Events")).to_be_visible()
        with_polling = idle_traffic(poll_page, poll_traffic, fake_clock=True)
    finally:
        streaming.close()
        polling.close()

    seconds = TRAFFIC_WINDOW_MS // 1000
    print(
        f"\nIdle Events page over {seconds} s: stream {with_stream.requests} requests, "
        f"{with_stream.bytes} bytes; polling (baseline) {with_polling.requests} requests, "
        f"{with_polling.bytes} bytes"
    )
    assert with_stream.requests == 0, with_stream.urls
    # The stream's keepalive came in the window: the stream was counted.
    assert with_stream.bytes > 0
    assert with_polling.requests >= 5, with_polling.urls
    assert with_stream.bytes * 20 < with_polling.bytes
