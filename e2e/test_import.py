"""Import Assets: wrong files refused, headers mapped and saved, the zone rule, a full import
with its row statuses (a duplicate and an error among them), phone width."""

import uuid
from typing import Any

from playwright.sync_api import APIRequestContext, Page, Route, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import PRIYA, Console, open_signed_in, shot, snackbar
from e2e.tracking_data import create_thing, create_zone, new_site
from tests.spreadsheets import workbook_bytes

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HEADERS = ["Asset Name", "Serial No", "RFID", "Group", "Purchased"]
ROWS = 30


def workbook(rows: list[list[Any]]) -> bytes:
    return workbook_bytes(HEADERS, rows)


def choose_file(page: Page, name: str, data: bytes, mime: str = XLSX) -> None:
    page.get_by_test_id("import-file").set_input_files(
        {"name": name, "mimeType": mime, "buffer": data}
    )


def pick(page: Page, label: str, option: str) -> None:
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


def with_settings(api: APIRequestContext, site: str, **import_settings: Any) -> None:
    url = f"/api/sites/{site}/settings"
    settings = api.get(url).json()
    settings["importSettings"].update(import_settings)
    response = api.put(url, data=settings)
    assert response.ok, response.text()


def statuses(page: Page, status: str) -> int:
    return page.locator(f'[data-testid="row-status"][data-status="{status}"]').count()


def test_full_import_with_mapping_statuses_and_zone_rule(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Import Site")
    zone = create_zone(admin_api, site, "Goods In", [])
    with_settings(admin_api, site, requireZone=True)
    batch = uuid.uuid4().hex[:8].upper()
    duplicate_tag = f"E2E{batch}0005"
    existing = create_thing(admin_api, site, "Pallet wrapper", tag=duplicate_tag)
    rows: list[list[Any]] = [
        [f"Scanner {i}", f"SN-{i:04d}", f"E2E{batch}{i:04d}", "Handhelds", "2024-03-01"]
        for i in range(ROWS)
    ]
    rows[5][0] = "Pallet wrapper (spreadsheet)"
    rows[7][0] = "An asset name far too long " * 20
    data = workbook(rows)

    open_signed_in(page, PRIYA, console.demo_password, f"/import?site={site}")
    expect(page.get_by_role("heading", name="Import Assets")).to_be_visible()
    expect(page.get_by_text("Choose an Excel file (.xlsx) to preview its rows.")).to_be_visible()

    # Only .xlsx: the chooser refuses another name, the server another content.
    choose_file(page, "assets.csv", b"Asset Name,RFID\nA,B\n", "text/csv")
    expect(page.get_by_test_id("import-file-problem")).to_contain_text(
        "Only Excel workbooks (.xlsx) can be imported"
    )
    choose_file(page, "renamed.xlsx", b"Asset Name,RFID\nA,B\n", "text/csv")
    expect(page.get_by_test_id("import-file-problem")).to_contain_text("not an Excel workbook")
    expect(snackbar(page)).to_contain_text("Failed to read renamed.xlsx")

    choose_file(page, "scanners.xlsx", data)
    expect(page.get_by_test_id("import-file-name")).to_have_text("scanners.xlsx: 30 rows")
    expect(page.get_by_test_id("import-file-problem")).to_have_count(0)
    grid = page.get_by_test_id("import-preview")
    expect(grid.get_by_role("columnheader", name="Asset Name")).to_be_visible()
    expect(grid.get_by_role("row")).to_have_count(26)  # 25 rows a page and the header
    expect(grid.get_by_text("1\u201325 of 30")).to_be_visible()
    expect(grid.get_by_role("gridcell", name="2024-03-01").first).to_be_visible()

    page.get_by_test_id("import-start").click()
    expect(snackbar(page)).to_contain_text("Please map headers to asset fields.")
    pick(page, "Name", "Asset Name")
    pick(page, "Serial", "Serial No")
    pick(page, "Tags", "RFID")
    pick(page, "Categories", "Group")
    # A header already mapped is not offered to another field.
    page.get_by_role("combobox", name="Description").click()
    expect(page.get_by_role("option", name="Asset Name", exact=True)).to_have_count(0)
    expect(page.get_by_role("option", name="Purchased", exact=True)).to_be_visible()
    page.keyboard.press("Escape")
    page.get_by_test_id("save-mapping").click()
    expect(snackbar(page)).to_contain_text("Header mapping saved")

    expect(page.get_by_text("Please select a zone.", exact=True)).to_be_visible()
    page.get_by_test_id("import-start").click()
    expect(snackbar(page)).to_contain_text("Please select a zone to import assets to.")

    pick(page, "Zone", "Goods In")
    expect(page.get_by_text("Please select a zone.", exact=True)).to_have_count(0)
    sent: list[tuple[str, Any]] = []
    page.on(
        "request",
        lambda r: sent.append((r.url, r.post_data_json)) if "/api/import/row" in r.url else None,
    )
    page.get_by_test_id("import-start").click()
    expect(page.get_by_test_id("import-count")).to_have_text(
        "29 of 30 items uploaded", timeout=60_000
    )
    # One batch of every row, then the duplicate again to fill in its item.
    assert [(url.rsplit("/", 1)[1], len(body["rows"]), body["updateDuplicate"])
            for url, body in sent] == [("rows", 30, False), ("rows", 1, True)]  # fmt: skip
    assert sent[1][1]["rows"][0]["cells"]["Asset Name"] == "Pallet wrapper (spreadsheet)"
    expect(page.get_by_test_id("import-failed")).to_have_text("1 failed")
    expect(page.get_by_role("heading", name="Import Assets")).to_be_visible()
    assert statuses(page, "complete") == 23
    assert statuses(page, "complete duplicate") == 1
    assert statuses(page, "error") == 1
    page.locator('[data-status="complete duplicate"]').hover()
    expect(page.get_by_role("tooltip")).to_have_text(
        "Duplicate tag detected, inserted missing information."
    )
    page.locator('[data-status="error"]').hover()
    error_tip = page.get_by_role("tooltip").filter(has_text="Error: ")
    expect(error_tip).to_have_text("Error: name: String should have at most 300 characters")
    shot(page, "import-desktop")
    check_accessibility(page)

    # The rows are items of the site, in the zone, with the new category.
    item = admin_api.get(f"/api/things/tag/E2E{batch}0012").json()
    assert item["common"]["name"] == "Scanner 12" and item["common"]["serial"] == "SN-0012"
    assert item["common"]["categories"] == ["Handhelds"]
    assert item["state"]["zone"] == zone and item["site"] == site
    kept = admin_api.get(f"/api/things/{existing['_id']}").json()
    assert kept["common"]["name"] == "Pallet wrapper" and kept["common"]["serial"] == "SN-0005"

    # The next visit offers the saved mapping again.
    page.goto(f"/import?site={site}")
    choose_file(page, "scanners.xlsx", data)
    expect(page.get_by_role("combobox", name="Name", exact=True)).to_have_text("Asset Name")
    expect(page.get_by_role("combobox", name="Tags", exact=True)).to_have_text("RFID")
    expect(page.get_by_role("combobox", name="Labels", exact=True)).to_have_text("Not imported")


def test_import_at_phone_width(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Import Phone")
    rows: list[list[Any]] = [
        [f"Tablet {i}", f"T-{i}", "", "Tablets", "2025-01-02"] for i in range(12)
    ]
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/import?site={site}")
    expect(mobile_page.get_by_role("heading", name="Import Assets")).to_be_visible()
    shot(mobile_page, "import-phone-empty")
    choose_file(mobile_page, "tablets.xlsx", workbook(rows))
    expect(mobile_page.get_by_test_id("import-file-name")).to_have_text("tablets.xlsx: 12 rows")
    pick(mobile_page, "Name", "Asset Name")
    mobile_page.get_by_test_id("import-start").click()
    expect(mobile_page.get_by_test_id("import-count")).to_have_text(
        "12 of 12 items uploaded", timeout=60_000
    )
    width = mobile_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    shot(mobile_page, "import-phone")


def test_header_row_named_headers_and_failed_rows(
    page: Page, mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Import Header Row")
    batch = uuid.uuid4().hex[:8].upper()
    # A title above the headers, as registers often have; one row has no name, one a
    # serial longer than the server keeps.
    rows: list[list[Any]] = [["Name", "Serial", "Tags", "Description"]]
    rows += [[f"Drill {i}", f"D-{i}", f"H{batch}{i:03d}", "Cordless"] for i in range(6)]
    rows[4][0] = ""
    rows[2][1] = "S" * 201
    data = workbook_bytes(["Workshop register, March"], rows)

    open_signed_in(page, PRIYA, console.demo_password, f"/import?site={site}")
    choose_file(page, "register.xlsx", data)
    expect(page.get_by_test_id("import-file-name")).to_have_text("register.xlsx: 7 rows")
    header_row = page.get_by_role("combobox", name="Header Row")
    # The current headers as the preview names them: empty cells get their column's name.
    expect(header_row).to_have_text("Row 1: Workshop register, March, Column B, Column C, Column D")
    header_row.click()
    page.get_by_role("option", name="Row 2: Name, Serial, Tags, Description").click()
    expect(page.get_by_test_id("import-file-name")).to_have_text("register.xlsx: 6 rows")
    expect(header_row).to_have_text("Row 2: Name, Serial, Tags, Description")
    # Headers named like the fields are mapped without asking.
    for field in ("Name", "Serial", "Tags", "Description"):
        expect(page.get_by_role("combobox", name=field, exact=True)).to_have_text(field)
    expect(page.get_by_role("combobox", name="Labels", exact=True)).to_have_text("Not imported")
    shot(page, "import-header-row")

    page.get_by_test_id("import-start").click()
    expect(page.get_by_test_id("import-count")).to_have_text(
        "4 of 6 items uploaded", timeout=60_000
    )
    expect(page.get_by_test_id("import-failed")).to_have_text("2 failed")
    grid = page.get_by_test_id("import-preview")
    expect(grid.get_by_role("row")).to_have_count(7)
    page.get_by_role("button", name="Show Failed Rows").click()
    expect(grid.get_by_role("row")).to_have_count(3)
    # Each failed row beside the server's reason, by its sheet row.
    for number, reason in (
        ("4", "serial: String should have at most 200 characters"),
        ("6", "The row has no name: every item needs one"),
    ):
        failed = grid.get_by_role("row").filter(
            has=page.get_by_role("gridcell", name=number, exact=True)
        )
        expect(failed).to_contain_text(reason)
        expect(failed.locator('[data-status="error"]')).to_have_count(1)
    shot(page, "import-failed-rows")
    page.get_by_role("button", name="Show All Rows").click()
    expect(grid.get_by_role("row")).to_have_count(7)
    item = admin_api.get(f"/api/things/tag/H{batch}004").json()
    assert item["common"]["name"] == "Drill 4" and item["common"]["serial"] == "D-4"
    assert item["common"]["description"] == "Cordless"
    for refused in ("001", "003"):
        assert admin_api.get(f"/api/things/tag/H{batch}{refused}").status == 404

    # On a phone, the header row choice fits.
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/import?site={site}")
    choose_file(mobile_page, "register.xlsx", data)
    expect(mobile_page.get_by_role("combobox", name="Header Row")).to_be_visible()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(mobile_page, "import-header-row-phone")


def test_a_sheet_of_thousands_of_rows_shows_each_row_status(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Import Large")
    zone = create_zone(admin_api, site, "Yard", [])
    batch = uuid.uuid4().hex[:8].upper()
    count = 3_000
    rows: list[list[Any]] = [
        [f"Crate {i}", f"C-{i:05d}", f"L{batch}{i:05d}", "Crates", ""] for i in range(count)
    ]
    existing = create_thing(admin_api, site, "Crate on file", tag=f"L{batch}00002")
    rows[10][0] = "A crate name far too long " * 20
    rows[1_700][0] = ""
    rows[2_999][2] = rows[2_998][2]  # the same tag twice in the sheet
    open_signed_in(page, PRIYA, console.demo_password, f"/import?site={site}")
    choose_file(page, "crates.xlsx", workbook(rows))
    expect(page.get_by_test_id("import-file-name")).to_have_text("crates.xlsx: 3000 rows")
    pick(page, "Name", "Asset Name")
    pick(page, "Serial", "Serial No")
    pick(page, "Tags", "RFID")
    pick(page, "Zone", "Yard")
    grid = page.get_by_test_id("import-preview")
    grid.get_by_role("combobox", name="Rows per page").click()
    page.get_by_role("option", name="100", exact=True).click()

    # The first two batches and the first duplicate sent again are held, to see the
    # statuses rows have while they wait for the server.
    held: list[Route] = []
    held_again: list[Route] = []
    sent: list[tuple[int, bool]] = []

    def hold(route: Route) -> None:
        body = route.request.post_data_json
        sent.append((len(body["rows"]), body["updateDuplicate"]))
        if body["updateDuplicate"] and not held_again:
            held_again.append(route)
        elif not body["updateDuplicate"] and len(held) < 2:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/import/rows", hold)
    page.get_by_test_id("import-start").click()
    expect(grid.locator('[data-status="uploading"]')).to_have_count(100)
    expect(page.get_by_test_id("import-count")).to_have_text("0 of 3000 items uploaded")
    next_page = grid.get_by_role("button", name="Go to next page")
    for _ in range(10):
        next_page.click()
    expect(grid.get_by_text("1,001\u20131,100 of 3,000")).to_be_visible()
    expect(grid.locator('[data-status="waiting"]')).to_have_count(100)
    for _ in range(10):
        grid.get_by_role("button", name="Go to previous page").click()
    expect(grid.get_by_text("1\u2013100 of 3,000")).to_be_visible()
    for route in held:
        route.continue_()
    expect(grid.locator('[data-status="duplicate detected"]')).to_have_count(1)
    held_again[0].continue_()

    expect(page.get_by_test_id("import-count")).to_have_text(
        "2998 of 3000 items uploaded", timeout=120_000
    )
    expect(page.get_by_test_id("import-failed")).to_have_text("2 failed")
    # Batches of 500, then each batch's duplicates again to fill in their items.
    assert sorted(sent) == [(1, True), (1, True), *[(500, False)] * 6], sent
    expect(grid.locator('[data-status="complete"]')).to_have_count(98)
    expect(grid.locator('[data-status="complete duplicate"]')).to_have_count(1)
    expect(grid.locator('[data-status="error"]')).to_have_attribute(
        "aria-label", "Error: name: String should have at most 300 characters"
    )
    page.get_by_role("button", name="Show Failed Rows").click()
    expect(grid.get_by_role("row")).to_have_count(3)
    expect(grid).to_contain_text("The row has no name: every item needs one")
    shot(page, "import-large-failed-rows")

    item = admin_api.get(f"/api/things/tag/L{batch}02500").json()
    assert item["common"]["name"] == "Crate 2500" and item["state"]["zone"] == zone
    kept = admin_api.get(f"/api/things/{existing['_id']}").json()
    assert kept["common"]["name"] == "Crate on file" and kept["common"]["serial"] == "C-00002"
    assert admin_api.get(f"/api/things/tag/L{batch}01700").status == 404
    twice = admin_api.get(f"/api/things/tag/L{batch}02998").json()
    assert twice["common"]["name"] == "Crate 2998"
