"""A workbook through the Import Assets screen, as a user imports it.

A real `tagtrack serve` (demo data, simulator running) serves the built console to Chromium,
which chooses a workbook of `--rows` rows, maps its columns and a zone, and starts the
import: seconds from the click until the screen counts every row uploaded, and how long the
page's main thread was held meanwhile, read by the page itself (its longest task and the
longest gap between two frames). Baselines, same run: the same number of rows posted by
this process straight to `POST /api/import/rows` as the screen sends them (batches of 500,
two in flight), and the page's own longest task and frame gap while it sat idle before the
click.
"""

import argparse
import asyncio
import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from openpyxl import load_workbook
from playwright.sync_api import Page, expect, sync_playwright

from bench.common import Figure, report
from bench.imports import BATCH, BATCHES_IN_FLIGHT, MAPPING, in_flight, post_batch, sheet
from bench.lighthouse import DIST, chrome_path, demo_console, sign_in
from tagtrack.access.dependencies import SESSION_COOKIE
from tests.spreadsheets import workbook_bytes

# The screen's label of each field bench.imports' sheet maps (FIELD_LABELS in
# web/src/features/imports/importLogic.ts).
FIELD_LABELS = {"name": "Name", "serial": "Serial", "tags": "Tags", "categories": "Categories"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
IDLE_SECONDS = 3.0
# In the page: long tasks and the longest gap between two animation frames, from now on.
WATCH = """() => {
  const seen = { tasks: [], gap: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.tasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  let last = performance.now();
  const frame = (now) => {
    seen.gap = Math.max(seen.gap, now - last);
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.__watch = seen;
}"""
# Read what was seen since the last reading, and start over.
READ = """() => {
  const seen = window.__watch;
  const out = { longest: Math.max(0, ...seen.tasks), count: seen.tasks.length, gap: seen.gap };
  seen.tasks = []; seen.gap = 0;
  return out;
}"""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=50_000, help="rows of the workbook")
    parser.add_argument("--dist", type=Path, default=DIST)
    return parser.parse_args(argv)


def site_with_zone(client: httpx.Client, name: str) -> tuple[str, str]:
    body = {"name": name, "startDate": "2026-01-01T00:00:00Z", "timezone": {"id": "UTC"}}
    site = client.post("/api/sites", json=body)
    site.raise_for_status()
    site_id = site.json()["_id"]
    zone = client.post("/api/zones", json={"name": "Yard", "site": site_id, "gates": []})
    zone.raise_for_status()
    return site_id, zone.json()["_id"]


async def through_the_call(url: str, cookie: str, site: str, zone: str, count: int) -> float:
    """Seconds to post `count` new rows to the batch call, as the screen sends them."""
    target = {"site": site, "zone": zone, "headerAssetFields": MAPPING}
    rows = sheet(count, 0)
    batches = [rows[i : i + BATCH] for i in range(0, count, BATCH)]
    failures: list[str] = []
    async with httpx.AsyncClient(
        base_url=url, cookies={SESSION_COOKIE: cookie}, timeout=120
    ) as client:

        async def one_batch(rows: list[dict[str, str]]) -> None:
            await post_batch(client, target, rows, failures)

        seconds = await in_flight(batches, BATCHES_IN_FLIGHT, one_batch)
    assert not failures, failures[:3]
    return seconds


def pick(page: Page, label: str, option: str) -> None:
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def through_the_screen(
    url: str, cookie: str, site: str, workbook: bytes, count: int
) -> tuple[float, float, dict[str, Any], dict[str, Any]]:
    """Seconds from choosing the file until the screen shows its rows, and from the click to
    every row uploaded; the page's main thread while it sat idle, then during the import."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chrome_path(), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        try:
            context = browser.new_context(base_url=url, viewport={"width": 1366, "height": 900})
            context.add_cookies([{"name": SESSION_COOKIE, "value": cookie, "url": url}])
            page = context.new_page()
            page.goto(f"/import?site={site}")
            expect(page.get_by_test_id("import-file")).to_be_attached()
            chosen = time.perf_counter()
            page.get_by_test_id("import-file").set_input_files(
                {"name": "crates.xlsx", "mimeType": XLSX, "buffer": workbook}
            )
            expect(page.get_by_test_id("import-file-name")).to_have_text(
                f"crates.xlsx: {count} rows", timeout=180_000
            )
            read = time.perf_counter() - chosen
            for mapped in MAPPING:
                pick(page, FIELD_LABELS[mapped["assetField"]], mapped["header"])
            pick(page, "Zone", "Yard")
            page.evaluate(WATCH)
            page.wait_for_timeout(IDLE_SECONDS * 1000)
            idle = page.evaluate(READ)
            started = time.perf_counter()
            page.get_by_test_id("import-start").click()
            expect(page.get_by_test_id("import-count")).to_have_text(
                f"{count} of {count} items uploaded", timeout=600_000
            )
            seconds = time.perf_counter() - started
            busy = page.evaluate(READ)
            expect(page.get_by_test_id("import-failed")).to_have_count(0)
        finally:
            browser.close()
    return read, seconds, idle, busy


def main(args: argparse.Namespace) -> None:
    if not (args.dist / "index.html").is_file():
        print(f"import_screen: no build at {args.dist}; run `cd web && npm run build` first")
        return
    n = args.rows
    headers = [mapped["header"] for mapped in MAPPING]
    workbook = workbook_bytes(headers, [list(row.values()) for row in sheet(n, 0)])
    with demo_console(args.dist) as (served, password):
        cookie, _ = sign_in(served.url, password)
        with httpx.Client(
            base_url=served.url, cookies={SESSION_COOKIE: cookie}, timeout=60
        ) as client:
            screen_site, _ = site_with_zone(client, "Import through the screen")
            call_site, call_zone = site_with_zone(client, "Import through the call")
        called = asyncio.run(through_the_call(served.url, cookie, call_site, call_zone, n))
        read, seconds, idle, busy = through_the_screen(served.url, cookie, screen_site, workbook, n)
    started = time.perf_counter()
    book = load_workbook(io.BytesIO(workbook), read_only=True)
    assert sum(1 for _ in book.active.iter_rows(values_only=True)) == n + 1
    parsed = time.perf_counter() - started
    report(
        "import_screen",
        f"a workbook of {n:,} rows ({len(workbook) / 2**20:.1f} MiB), each row into a zone, "
        f"Chromium at desktop size; {busy['count']} long tasks during the import",
        [
            Figure("workbook chosen until its rows show", read, "s",
                   "openpyxl reading it in this process", parsed),
            Figure(f"{n:,} rows through the screen", seconds, "s",
                   "the same rows posted to the batch call", called, "< 60 s"),
            Figure("  rows/s", n / seconds, "rows/s", "the batch call", n / called),
            Figure("longest task during the import", busy["longest"], "ms",
                   "longest task while idle", idle["longest"]),
            Figure("longest gap between frames", busy["gap"], "ms",
                   "longest gap while idle", idle["gap"]),
        ],
    )  # fmt: skip


if __name__ == "__main__":
    main(parse_args())
