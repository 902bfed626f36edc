"""Items and workers: list with XLSX export, create, edit, and linking of parents and children."""

import io
import re
import uuid

import openpyxl
import pytest
from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    DEMO_SITES,
    PRIYA,
    Console,
    open_signed_in,
    shot,
    site_id,
    snackbar,
)
from e2e.tracking_data import (
    create_endpoint,
    create_thing,
    get_thing,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    set_parents,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")


# The demo organization renames its labels: items are Assets, workers Staff.
ITEMS = "Assets"
WORKERS = "Staff"
SERIAL = "Serial No."


def demo_site(api: APIRequestContext) -> str:
    return site_id(api, DEMO_SITES[0])


def open_items(page: Page, console: Console, site: str, search: str = "") -> None:
    query = f"?site={site}" + (f"&search={search}" if search else "")
    open_signed_in(page, PRIYA, console.demo_password, f"/items{query}")
    expect(page.get_by_role("heading", name=ITEMS)).to_be_visible()


def open_thing(page: Page, console: Console, thing: dict[str, str | dict[str, str]]) -> None:
    open_signed_in(
        page, PRIYA, console.demo_password, f"/items/{thing['_id']}?site={thing['site']}"
    )
    common = thing["common"]
    assert isinstance(common, dict)
    expect(page.get_by_role("heading", name=common["name"])).to_be_visible()


def save(page: Page) -> None:
    page.get_by_role("button", name="Save").click()


def message(page: Page, text: str) -> None:
    expect(snackbar(page)).to_have_text(re.compile(re.escape(text)))
    snackbar(page).get_by_role("button", name="Close").click()
    expect(snackbar(page)).to_have_count(0)


def relations(page: Page) -> Locator:
    return page.get_by_test_id("relations")


def test_items_list_and_xlsx_download(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = demo_site(admin_api)
    batch = uuid.uuid4().hex[:8]
    names = [f"Pallet Jack {batch} {n}" for n in ("A", "B", "C")]
    tags = [short_tag() for _ in names]
    for name, tag, serial in zip(names, tags, ("PJ-100", "PJ-200", "PJ-300"), strict=True):
        create_thing(admin_api, site, name, tag=tag, serial=serial)

    open_items(page, console, site, batch)
    grid = page.get_by_role("grid", name=ITEMS)
    for header in ("Name", SERIAL, "Tag", "Zone", "Last Seen"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    expect(page.get_by_text("3 total")).to_be_visible()
    row = grid.get_by_role("row").filter(has_text=names[1])
    expect(row).to_contain_text("PJ-200")
    expect(row).to_contain_text(tags[1])
    expect(row).to_contain_text("N/A")
    expect(page.get_by_test_id("list-add")).to_be_visible()
    shot(page, "items-list")
    check_accessibility(page)

    with page.expect_download() as info:
        page.get_by_role("button", name="Download XLSX").click()
    download = info.value
    assert download.suggested_filename == "items.xlsx"
    workbook = openpyxl.load_workbook(io.BytesIO(download.path().read_bytes()))
    sheet = workbook.worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("Name", SERIAL), rows[0]
    exported = sorted((r[0], r[1], r[4]) for r in rows[1:])
    assert exported == sorted(zip(names, ("PJ-100", "PJ-200", "PJ-300"), tags, strict=True))


def test_workers_list_has_its_own_class(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = demo_site(admin_api)
    batch = uuid.uuid4().hex[:8]
    create_thing(admin_api, site, f"Forklift Driver {batch}", thing_class="worker")
    create_thing(admin_api, site, f"Forklift {batch}", thing_class="item")
    open_signed_in(page, PRIYA, console.demo_password, f"/workers?site={site}&search={batch}")
    expect(page.get_by_role("heading", name=WORKERS)).to_be_visible()
    expect(page.get_by_text("1 total")).to_be_visible()
    check_accessibility(page)
    page.get_by_role("row").filter(has_text=f"Forklift Driver {batch}").click()
    expect(page).to_have_url(re.compile(r"/workers/[0-9a-f]{24}\?site="))
    expect(page.get_by_role("combobox", name="Class")).to_have_text("Worker")
    expect(page.get_by_role("combobox", name="Class")).to_be_disabled()
    check_accessibility(page)


def test_create_and_edit_item(page: Page, console: Console, admin_api: APIRequestContext) -> None:
    site = demo_site(admin_api)
    name = f"Cage Trolley {uuid.uuid4().hex[:8]}"
    tag = short_tag()
    open_items(page, console, site)
    page.get_by_test_id("list-add").click()
    expect(page).to_have_url(re.compile(r"/items/new\?site="))
    expect(page.get_by_role("heading", name="Add Item")).to_be_visible()
    # A new thing takes its class from the route, and may still change it.
    klass = page.get_by_role("combobox", name="Class")
    expect(klass).to_have_text("Item")
    expect(klass).to_be_enabled()
    # Events, history, data and links come once it exists; Photo says photos come then.
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Photo"])

    save(page)
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    page.get_by_role("textbox", name=SERIAL).fill("CT-0042")
    page.get_by_role("textbox", name="Tag 1").fill(tag.lower())
    tags = page.get_by_role("combobox", name="Tags")
    tags.fill("spare-a")
    tags.press("Enter")
    shot(page, "item-new")
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved item"))
    expect(page).to_have_url(re.compile(r"/items\?site="))

    page.goto(f"/items?site={site}&search={name.split()[-1]}")
    row = page.get_by_role("row").filter(has_text=name)
    # Tags are stored upper case.
    expect(row).to_contain_text(tag)
    row.click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_role("tab")).to_have_text(
        ["Basic", "Events", "Zone History", "Photo", "Data", "Parents/Children"]
    )
    klass = page.get_by_role("combobox", name="Class")
    expect(klass).to_have_text("Item")
    expect(klass).to_be_disabled()
    state = page.get_by_test_id("thing-state")
    expect(state.get_by_test_id("state-tag")).to_have_text(tag)
    expect(state.get_by_test_id("state-zone-time")).to_have_text("N/A")
    expect(page.get_by_text("SPARE-A")).to_be_visible()
    shot(page, "item-edit")
    check_accessibility(page)

    page.get_by_role("textbox", name="Description").fill("Blue cage, left dock")
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved item"))
    page.goto(f"/items?site={site}&search={name.split()[-1]}")
    page.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("textbox", name="Description")).to_have_value("Blue cage, left dock")

    page.get_by_role("tab", name="Data").click()
    expect(page.get_by_role("textbox", name="cFloat0")).to_have_value("")
    page.get_by_role("tab", name="Zone History").click()
    expect(page.get_by_text("No zone visits in this period")).to_be_visible()
    page.get_by_role("tab", name="Events").click()
    expect(page.get_by_text("No events in this period")).to_be_visible()


def test_link_and_unlink_a_child(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = demo_site(admin_api)
    batch = uuid.uuid4().hex[:8]
    parent = create_thing(admin_api, site, f"Roll Container {batch}", tag=short_tag())
    child = create_thing(admin_api, site, f"Tote {batch}", tag=short_tag(), serial="T-1")
    open_thing(page, console, parent)
    page.get_by_role("tab", name="Parents/Children").click()
    box = relations(page)
    expect(box.get_by_role("button", name="Children")).to_have_attribute("aria-pressed", "true")
    expect(box.get_by_text("No children linked")).to_be_visible()

    box.get_by_role("button", name="Add child").click()
    box.get_by_role("textbox", name="Find a child to link").fill(f"Tote {batch}")
    found = box.get_by_test_id("relation-row").filter(has_text=f"Tote {batch}")
    expect(found).to_have_count(1)
    shot(page, "item-link-search")
    found.get_by_role("button", name="Link child").click()
    message(page, "Child Successfully Linked")
    assert get_thing(admin_api, child["_id"])["common"]["parents"] == [parent["_id"]]
    # Linking it again is refused.
    found.get_by_role("button", name="Already linked").click()
    message(page, "Parent already exists")

    box.get_by_role("button", name="Done").click()
    linked = box.get_by_test_id("relation-row").filter(has_text=f"Tote {batch}")
    expect(linked).to_be_visible()
    shot(page, "item-children")

    linked.get_by_role("button", name="Unlink child").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("button")).to_have_text(["Cancel", "Unlink"])
    shot(page, "item-unlink-confirm")
    check_accessibility(page)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(linked).to_be_visible()

    linked.get_by_role("button", name="Unlink child").click()
    page.get_by_role("dialog").get_by_role("button", name="Unlink").click()
    message(page, "Child Successfully Unlinked")
    expect(box.get_by_text("No children linked")).to_be_visible()
    assert get_thing(admin_api, child["_id"])["common"]["parents"] == []

    # Unlinked elsewhere meanwhile: the stale row says so.
    set_parents(admin_api, child["_id"], [parent["_id"]])
    page.reload()
    page.get_by_role("tab", name="Parents/Children").click()
    linked.get_by_role("button", name="Unlink child").click()
    set_parents(admin_api, child["_id"], [])
    page.get_by_role("dialog").get_by_role("button", name="Unlink").click()
    message(page, "Child has already been disconnected")


def test_parents_view_links_and_unlinks(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = demo_site(admin_api)
    batch = uuid.uuid4().hex[:8]
    child = create_thing(admin_api, site, f"Scanner {batch}", tag=short_tag())
    dock = create_thing(admin_api, site, f"Charging Dock {batch}", tag=short_tag())
    shelf = create_thing(admin_api, site, f"Shelf {batch}", tag=short_tag())
    open_thing(page, console, child)
    page.get_by_role("tab", name="Parents/Children").click()
    box = relations(page)
    box.get_by_role("button", name="Parents").click()
    expect(box.get_by_text("No parents linked")).to_be_visible()

    box.get_by_role("button", name="Add parent").click()
    box.get_by_role("textbox", name="Find a parent to link").fill(batch)
    for name in (f"Charging Dock {batch}", f"Shelf {batch}"):
        row = box.get_by_test_id("relation-row").filter(has_text=name)
        row.get_by_role("button", name="Link parent").click()
        message(page, "Parent Successfully Linked")
    assert get_thing(admin_api, child["_id"])["common"]["parents"] == [dock["_id"], shelf["_id"]]
    box.get_by_role("button", name="Done").click()
    rows = box.get_by_test_id("relation-row")
    expect(rows).to_have_count(2)

    rows.filter(has_text="Charging Dock").get_by_role("button", name="Unlink parent").click()
    page.get_by_role("dialog").get_by_role("button", name="Unlink").click()
    message(page, "Parent Successfully Unlinked")
    expect(rows).to_have_count(1)

    # The parent is deleted while the page shows it.
    response = admin_api.delete(f"/api/things/{shelf['_id']}")
    assert response.ok, response.text()
    rows.filter(has_text="Shelf").get_by_role("button", name="Unlink parent").click()
    page.get_by_role("dialog").get_by_role("button", name="Unlink").click()
    expect(snackbar(page)).to_have_text(
        re.compile("Parent no longer exists.|Parent has already been disconnected")
    )


def test_thing_route_and_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = demo_site(admin_api)
    name = f"Very Long Returnable Transport Item Name For Phones {uuid.uuid4().hex[:8]}"
    thing = create_thing(admin_api, site, name, tag=short_tag(), serial="RTI-" + "9" * 20)
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/things/{thing['_id']}?site={site}")
    expect(mobile_page.get_by_role("heading", name=name)).to_be_visible()
    expect(mobile_page.get_by_role("combobox", name="Class")).to_be_disabled()
    shot(mobile_page, "item-edit-phone")
    width = mobile_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    mobile_page.goto(f"/items?site={site}&search={name.split()[-1]}")
    expect(mobile_page.get_by_role("row").filter(has_text="Very Long")).to_be_visible()
    shot(mobile_page, "items-list-phone")
    width = mobile_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_tamper_alarm_shows_and_clears(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "Tamper Bay")
    reader = create_endpoint(admin_api, site, "Seal Check")
    tag = short_tag()
    thing = create_thing(admin_api, site, "Sealed Container", tag=tag)
    post_reads(admin_api, reader, [{"tag": tag, "antenna": 1, "tamper": True}])
    assert wait_for_events(admin_api, site, tag)

    open_items(page, console, site)
    row = page.get_by_role("row").filter(has_text="Sealed Container")
    expect(row).to_contain_text(f"{tag} Alarm")
    row.click()
    state = page.get_by_test_id("thing-state")
    expect(state.get_by_test_id("state-tag")).to_have_text(f"{tag} Alarm")
    # Read but in no zone: the zone time falls back to the endpoint time.
    expect(state.get_by_test_id("state-zone-time")).to_have_text(re.compile(r"^\d\d/\d\d/\d{4} "))
    shot(page, "item-tamper-alarm")
    state.get_by_role("button", name="Clear Alarm").click()
    message(page, "Alarm cleared")
    expect(state.get_by_test_id("state-tag")).to_have_text(tag)
    expect(state.get_by_role("button", name="Clear Alarm")).to_have_count(0)
    assert get_thing(admin_api, thing["_id"])["state"]["alarmTamper"] is False
