"""Polling on the page's fake clock: install it with page.clock.install() before the page
first loads, and its timers (polls, clock ticks) fire when a test runs the clock instead of
after real seconds. Fetches they start stay real, so each run waits for them in real time."""

from collections.abc import Callable

from playwright.sync_api import Page, Response

# The console polls every 5 s while its live stream is unavailable.
POLL_MS = 5_000
# Real time for a fetch a timer started to be sent and answered.
SETTLE_MS = 500


def poll_follows(page: Page, is_call: Callable[[Response], bool], ms: int = POLL_MS + 500) -> None:
    """Runs the page's clock for `ms`: a matching call must follow; returns once it is answered."""
    with page.expect_response(is_call) as polled:
        page.clock.run_for(ms)
    polled.value.finished()


def run_polling_periods(page: Page, periods: int) -> None:
    """Runs the page's clock one polling period at a time, with real time before and after
    each for a fetch to be sent and answered: a fetch still in flight would absorb the next
    poll, so a window run at once could hide one."""
    page.wait_for_timeout(SETTLE_MS)
    for _ in range(periods):
        page.clock.run_for(POLL_MS)
        page.wait_for_timeout(SETTLE_MS)
