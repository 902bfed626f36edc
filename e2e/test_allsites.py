"""All Sites names each record's site (Zones History's visits too); one-site screens ask for
a site; the Zones History cap is said; the gallery says its order; category QR labels carry
the name."""

import re
import uuid
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import psycopg
import pytest
from playwright.sync_api import APIRequestContext, Locator, Page, expect
from sqlalchemy.engine import make_url

from e2e.conftest import (
    ALL_SITES_ID,
    DEMO_SITES,
    DESKTOP,
    MOBILE,
    PRIYA,
    Console,
    create_site,
    open_signed_in,
    shot,
    site_id,
    snackbar,
    unique,
)
from e2e.test_images import api_upload, cards, create_category, open_gallery
from e2e.test_reports import midday_timezone, thing
from e2e.tracking_data import patient_expect  # noqa: F401 (a fixture)

# The machine is shared and these screens load every site's records: wait longer.
pytestmark = pytest.mark.usefixtures("patient_expect")

# Zones History shows today by default: a timezone where it is about noon keeps the
# visits of the last minutes on today, however close to midnight the run is.
BROWSER_TIMEZONE = midday_timezone()


def menu(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Main menu")


def rows_named(page: Page, name: str) -> Locator:
    """Rows with a cell of exactly this text (other tests add records with longer names)."""
    return page.get_by_role("row").filter(has=page.get_by_role("gridcell", name=name, exact=True))


def expect_one_row_per_site(page: Page, name: str) -> None:
    """Each demo site has a record of this name: every row says which site it is of."""
    rows = rows_named(page, name)
    expect(rows).to_have_count(len(DEMO_SITES))
    for site in DEMO_SITES:
        expect(rows.filter(has_text=site)).to_have_count(1)


def test_all_sites_lists_name_the_site_of_each_record(
    page: Page, mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/reportconfigs?site={ALL_SITES_ID}")
    expect(page.get_by_role("combobox", name="Site")).to_have_text("All Sites")
    expect(page.get_by_role("heading", name="Report Configuration")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Site")).to_be_visible()
    expect_one_row_per_site(page, "Equipment by zone")
    shot(page, "allsites-reportconfigs")

    # The Custom Reports menu: each entry names its site on a second line.
    custom = menu(page).get_by_role("list", name="Custom Reports")
    entries = custom.get_by_role("link").filter(has_text="Equipment by zone")
    expect(entries).to_have_count(len(DEMO_SITES))
    for site in DEMO_SITES:
        expect(entries.filter(has_text=site)).to_have_count(1)

    menu(page).get_by_role("link", name="Maps", exact=True).click()
    expect(page.get_by_role("heading", name="Maps")).to_be_visible()
    expect_one_row_per_site(page, "Ground Floor")
    shot(page, "allsites-maps")

    page.goto(f"/locationtags?site={ALL_SITES_ID}&search=Aisle 1 Shelf A")
    expect(page.get_by_role("heading", name="Location Tags")).to_be_visible()
    expect_one_row_per_site(page, "Aisle 1 Shelf A")

    page.goto(f"/reports/zones?site={ALL_SITES_ID}")
    expect(page.get_by_test_id("zone-status-card").first).to_be_visible(timeout=30_000)
    receiving = page.get_by_test_id("zone-status-card").filter(
        has=page.get_by_role("heading", name="Receiving", exact=True)
    )
    expect(receiving).to_have_count(len(DEMO_SITES))
    for site in DEMO_SITES:
        expect(receiving.filter(has_text=site)).to_have_count(1)
    # A long page of every site's zones: its full-page picture takes a while.
    page.set_default_timeout(30_000)
    shot(page, "allsites-zone-status")

    # On a phone the Site column stays: it is what tells the rows apart.
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/reportconfigs?site={ALL_SITES_ID}")
    expect_one_row_per_site(mobile_page, "Equipment by zone")
    shot(mobile_page, "allsites-reportconfigs-mobile")

    # One site chosen: its records need no Site column.
    page.goto(f"/maps?site={site_id(admin_api, DEMO_SITES[1])}")
    expect(page.get_by_role("heading", name="Maps")).to_be_visible()
    expect(rows_named(page, "Ground Floor")).to_have_count(1)
    expect(page.get_by_role("columnheader", name="Site")).to_have_count(0)


def test_zone_categories_asks_for_a_site_in_all_sites(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/zonecategories?site={ALL_SITES_ID}"
    )
    expect(page.get_by_role("heading", name="Zone Categories")).to_be_visible()
    expect(page.get_by_text("Choose a site in the menu to run this report.")).to_be_visible()
    expect(page.get_by_role("button", name="Run Report")).to_be_disabled()
    expect(page.get_by_role("button", name="Download XLS")).to_be_disabled()
    # No red error: nothing was asked of the server for the pseudo-site.
    page.wait_for_timeout(500)
    expect(snackbar(page)).to_have_count(0)
    expect(page.get_by_text("All Sites is not a site")).to_have_count(0)
    shot(page, "allsites-zone-categories")

    # Import Assets says the same in the same way.
    page.goto(f"/import?site={ALL_SITES_ID}")
    expect(page.get_by_text("Choose a site in the menu to import assets into.")).to_be_visible()

    # A real site runs the report.
    leeds = site_id(admin_api, DEMO_SITES[1])
    page.goto(f"/reports/zonecategories?site={leeds}")
    run = page.get_by_role("button", name="Run Report")
    expect(run).to_be_enabled()
    run.click()
    expect(page.get_by_test_id("zone-category-tables")).to_be_visible()


def plain_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def add_visits(
    console: Console, site: str, item: str, zone: str, start: datetime, count: int
) -> None:
    """`count` visits of 50 ms, 100 ms apart from `start`, written straight to the table."""
    with psycopg.connect(plain_url(console.database_url), autocommit=True) as db:
        db.execute(
            "INSERT INTO zone_durations (org_id, id, site_id, thing_id, zone_id, time_start, "
            "time_end, time_duration) "
            "SELECT s.org_id, %(ids)s || lpad(to_hex(i), 12, '0'), s.id, %(thing)s, %(zone)s, "
            "%(start)s::timestamptz + i * interval '100 ms', "
            "%(start)s::timestamptz + i * interval '100 ms' + interval '50 ms', 50000000 "
            "FROM sites s, generate_series(1, %(count)s) AS i WHERE s.id = %(site)s",
            {
                "site": site,
                "thing": item,
                "zone": zone,
                "start": start,
                "count": count,
                # Ids of their own: the table may hold visits written the same way.
                "ids": uuid.uuid4().hex[:12],
            },
        )
        # As autovacuum would after rows arrive: without statistics the planner takes
        # many fresh rows for a handful and joins them one by one.
        db.execute("ANALYZE zone_durations")


def test_zones_history_names_the_site_of_each_visit(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    """Two sites with a zone of the same name: All Sites says which site each visit was in."""
    zone_name = unique("Dock")
    sites = [create_site(admin_api, unique("History")) for _ in range(2)]
    names = [admin_api.get(f"/api/sites/{s}").json()["name"] for s in sites]
    for site in sites:
        zone = admin_api.post(
            "/api/zones", data={"name": zone_name, "site": site, "duration": 0, "gates": []}
        )
        assert zone.ok, zone.text()
        item = thing(admin_api, site, "Forklift", f"HIS{uuid.uuid4().hex[:10].upper()}", [])
        # Newer than the demo's live visits, so the first page of the list shows them.
        soon = datetime.now(UTC) + timedelta(minutes=5)
        add_visits(console, site, item, zone.json()["_id"], soon, 1)
    open_signed_in(
        page, PRIYA, console.demo_password, f"/reports/zonedurations?site={ALL_SITES_ID}"
    )
    for width in ("desktop", "phone"):
        expect(page.get_by_role("columnheader", name="Site")).to_be_visible(timeout=30_000)
        rows = rows_named(page, zone_name)
        expect(rows).to_have_count(2)
        for name in names:
            expect(rows.filter(has_text=name)).to_have_count(1)
        shot(page, f"allsites-zones-history-{width}")
        # The same list at a phone's width: the Site column stays with the name.
        page.set_viewport_size(MOBILE)
    page.set_viewport_size(DESKTOP)
    # The graph: each of the same-named zones' bars names its site under the zone.
    page.get_by_role("button", name="Graph").click()
    chart = page.get_by_test_id("zone-durations-chart")
    for name in names:
        expect(
            chart.locator("text").filter(has_text=zone_name).filter(has_text=name)
        ).to_have_count(1)
    shot(page, "allsites-zones-history-graph")
    page.set_viewport_size(MOBILE)
    # A phone's narrower axis shortens the names.
    expect(chart.locator("text").filter(has_text=zone_name[:11])).to_have_count(2)
    shot(page, "allsites-zones-history-graph-phone")
    page.set_viewport_size(DESKTOP)

    # One site chosen: its visits need no Site column.
    page.goto(f"/reports/zonedurations?site={sites[0]}")
    expect(rows_named(page, zone_name)).to_have_count(1)
    expect(page.get_by_role("columnheader", name="Site")).to_have_count(0)


def test_zones_history_says_when_its_list_is_capped(
    page: Page, mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = create_site(admin_api, unique("Capped"))
    zone = admin_api.post(
        "/api/zones", data={"name": "Receiving", "site": site, "duration": 0, "gates": []}
    )
    assert zone.ok, zone.text()
    item = thing(admin_api, site, "Pallet jack", f"CAP{uuid.uuid4().hex[:10].upper()}", [])
    # More visits than reports fetch (10,000, spec section 9): one INSERT, not 10,042 reads.
    add_visits(
        console, site, item, zone.json()["_id"], datetime.now(UTC) - timedelta(minutes=20), 10042
    )
    notice = (
        "Showing the newest 10,000 of 10,042 zone visits: choose a shorter period to see the rest."
    )
    for view in (page, mobile_page):
        open_signed_in(view, PRIYA, console.demo_password, f"/reports/zonedurations?site={site}")
        # 10,000 visits with their names make a large answer: on a shared machine it
        # takes a while.
        expect(view.get_by_test_id("capped-notice")).to_have_text(notice, timeout=120_000)
    # The table pages through the 10,000 it has.
    expect(page.get_by_text(re.compile(r"of 10,000$"))).to_be_visible()
    shot(page, "zones-history-capped")
    shot(mobile_page, "zones-history-capped-mobile")

    # The graph counts every visit: no cap to speak of there.
    page.get_by_role("button", name="Graph").click()
    expect(page.get_by_test_id("zone-durations-chart")).to_be_visible()
    expect(page.get_by_test_id("capped-notice")).to_have_count(0)


def test_gallery_is_ordered_by_the_date_it_shows(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"order{uuid.uuid4().hex[:6]}"
    taken = [datetime(2025, 5, 20, 9, 0), datetime(2021, 1, 10, 9, 0), datetime(2023, 3, 15, 9, 0)]
    # Uploaded first but taken last, so upload order and the date shown disagree.
    recent, old, middle = (api_upload(admin_api, tag, taken=when)["id"] for when in taken)
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(3)
    assert [cards(page).nth(i).get_attribute("data-id") for i in range(3)] == [
        recent,
        middle,
        old,
    ]
    dates = cards(page).get_by_test_id("image-date")
    # A time without an offset is UTC; the card shows it in the browser's zone, which this
    # module sets to where it is midday now: up to twelve hours from UTC, another day.
    shown = [
        when.replace(tzinfo=UTC).astimezone(ZoneInfo(BROWSER_TIMEZONE)).strftime("^%m/%d/%Y")
        for when in (taken[0], taken[2], taken[1])
    ]
    expect(dates).to_have_text([re.compile(day) for day in shown])
    expect(page.get_by_test_id("gallery-order")).to_have_text(
        "Newest first by the date shown: when the photo was taken, else when it was uploaded."
    )
    shot(page, "images-gallery-order")
    # The image edit's arrows follow the same order.
    cards(page).first.get_by_role("button", name=re.compile("^Open image")).click()
    expect(page).to_have_url(re.compile(rf"/images/{recent}\?"))
    page.get_by_role("button", name="Next image").click()
    expect(page).to_have_url(re.compile(rf"/images/{middle}\?"))


def test_printed_category_qr_label_carries_the_name(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique("Fire extinguishers")
    category = create_category(admin_api, name)
    open_signed_in(page, PRIYA, console.demo_password, f"/categories/{category}")
    page.get_by_role("tab", name="QR Code").click()
    expect(page.get_by_test_id("qr-label")).to_have_text(name)
    expect(page.get_by_test_id("qr-value")).to_have_text(f"cat:{category}")
    # Print without the dialog: the page as printed, with only the label's area shown.
    page.evaluate("window.print = () => {}")
    page.get_by_role("button", name="Print").click()
    page.emulate_media(media="print")
    expect(page.get_by_test_id("qr-label")).to_be_visible()
    expect(page.get_by_test_id("qr-code")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).not_to_be_visible()
    label = page.get_by_test_id("qr-label").bounding_box()
    code = page.get_by_test_id("qr-code").bounding_box()
    assert label and code and label["y"] > code["y"] + code["height"] - 1
    shot(page, "category-qr-print")
