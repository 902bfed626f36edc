"""Sites: list, create with validation, edit, delete, long names, phone width."""

import re

from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    PRIYA,
    Console,
    create_site,
    open_list,
    open_row,
    open_signed_in,
    shot,
    snackbar,
    unique,
)


def open_sites(page: Page, console: Console, search: str = "") -> None:
    open_list(page, console, "/sites", "Sites", search)


def open_site(page: Page, name: str) -> None:
    open_row(page, name, heading=name)


def save(page: Page) -> None:
    page.get_by_role("button", name="Save").click()


def test_sites_list(page: Page, console: Console) -> None:
    open_sites(page, console, "Rotterdam")
    grid = page.get_by_role("grid", name="Sites")
    for header in ("Name", "Description", "Start Date"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    row = grid.get_by_role("row").filter(has_text="Rotterdam Distribution Centre")
    expect(row).to_contain_text("Main European hub")
    expect(row).to_contain_text("2021/03/01")
    expect(page.get_by_text("1 total")).to_be_visible()
    shot(page, "sites-list")
    check_accessibility(page)


def test_create_site_with_validation(page: Page, console: Console) -> None:
    name = unique("Antwerp Port Hub")
    open_sites(page, console)
    page.get_by_test_id("list-add").click()
    expect(page).to_have_url(re.compile(r"/sites/new\?site="))
    expect(page.get_by_role("heading", name="Add Site")).to_be_visible()
    # A new site has no endpoints yet, so that tab is left out.
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Reports"])
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)

    save(page)
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    expect(page.get_by_text("This field is required")).to_be_visible()
    shot(page, "site-new-required")

    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    month = page.get_by_role("group", name="Start Date").get_by_role("spinbutton", name="Month")
    month.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Backspace")
    save(page)
    expect(snackbar(page)).to_contain_text("Start Date in the Basic tab is a required field.")
    month.click()
    page.keyboard.type("03152024")

    page.get_by_role("combobox", name="Timezone").fill("")
    save(page)
    expect(snackbar(page)).to_contain_text("Timezone in the Basic tab is a required field.")
    expect(page.get_by_text("Please select an item.")).to_be_visible()
    page.get_by_role("combobox", name="Timezone").fill("Europe/Brus")
    page.get_by_role("option", name="Europe/Brussels").click()

    page.get_by_role("tab", name="Reports").click()
    emails = page.get_by_role("combobox", name="Emails")
    emails.fill("ops.antwerp@northwind.example.com")
    emails.press("Enter")
    emails.fill("not-an-email")
    emails.press("Enter")
    page.get_by_role("tab", name="Basic").click()
    save(page)
    # The message names the other tab, and that tab opens.
    expect(snackbar(page)).to_contain_text(
        "Emails in the Reports tab: 'not-an-email' is not a valid email address"
    )
    expect(page.get_by_role("tab", name="Reports")).to_have_attribute("aria-selected", "true")
    shot(page, "site-new-reports-invalid")
    chip = page.locator(".MuiChip-root").filter(has_text="not-an-email")
    chip.locator(".MuiChip-deleteIcon").click()
    expect(chip).to_have_count(0)

    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved site"))
    expect(page).to_have_url(re.compile(r"/sites\?site="))
    page.goto(f"/sites?search={name.split()[-1]}")
    expect(page.get_by_role("row").filter(has_text=name)).to_contain_text("2024/03/15")
    open_site(page, name)
    expect(page.get_by_role("combobox", name="Timezone")).to_have_value("Europe/Brussels")
    page.get_by_role("tab", name="Reports").click()
    expect(page.get_by_text("ops.antwerp@northwind.example.com")).to_be_visible()


def test_edit_site(page: Page, console: Console, admin_api: APIRequestContext) -> None:
    name = unique("Gdansk Yard")
    create_site(admin_api, name, "Seasonal overflow")
    key = name.split()[-1]
    open_sites(page, console, key)
    open_site(page, name)
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Reports", "Endpoints"])
    expect(page.get_by_label("Description")).to_have_value("Seasonal overflow")
    shot(page, "site-edit")
    check_accessibility(page)
    page.get_by_label("Description").fill("All-year overflow, 6 doors")
    page.get_by_label("City").fill("Gdansk")
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved site"))
    # Saving returns to the parent route: the list, without the search.
    expect(page).to_have_url(re.compile(r"/sites\?site=\w+$"))
    page.goto(f"/sites?search={key}")
    expect(page.get_by_role("row").filter(has_text=name)).to_contain_text(
        "All-year overflow, 6 doors"
    )
    open_site(page, name)
    page.get_by_role("tab", name="Endpoints").click()
    expect(page.get_by_text("This site has no endpoints yet.")).to_be_visible()
    shot(page, "site-edit-endpoints")


def test_delete_site_from_the_form_and_the_list(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = unique("Doomed")
    first, second = f"{tag} Depot A", f"{tag} Depot B"
    create_site(admin_api, first)
    create_site(admin_api, second)
    key = tag.split()[-1]
    open_sites(page, console, key)
    expect(page.get_by_text("2 total")).to_be_visible()

    open_site(page, first)
    page.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this site? This action cannot be undone."
    )
    expect(dialog.get_by_role("button")).to_have_text(["Cancel", "I'm Sure"])
    shot(page, "site-delete-confirm")
    check_accessibility(page)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_role("heading", name=first)).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    dialog.get_by_role("button", name="I'm Sure").click()
    expect(snackbar(page)).to_have_text(re.compile("Deleted site"))
    expect(page).to_have_url(re.compile(r"/sites\?site=\w+$"))
    page.goto(f"/sites?search={key}")
    expect(page.get_by_text("1 total")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=first)).to_have_count(0)

    page.get_by_role("row").filter(has_text=second).get_by_role("button", name="Delete").click()
    expect(dialog).to_contain_text("Are you sure you want to delete this site?")
    dialog.get_by_role("button", name="I'm Sure").click()
    expect(page.get_by_text("0 total")).to_be_visible()
    expect(page.get_by_text("No sites found")).to_be_visible()
    shot(page, "sites-empty-search")


LONG = (
    "Zeebrugge Automotive Terminal and Intermodal Rail Yard - Northern Expansion Phase Two"
    " (Temporary Overflow Storage for Finished Vehicles)"
)


def overflows(locator: Locator) -> bool:
    """Whether the text is cut (ellipsis) rather than wrapped or spilling out."""
    return bool(locator.evaluate("e => e.scrollWidth > e.clientWidth"))


def test_long_site_name_is_cut_with_an_ellipsis(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique(LONG)
    key = name.split()[-1]
    create_site(admin_api, name, "A description long enough to need the room it is given. " * 3)
    open_sites(page, console, key)
    cell = page.get_by_role("gridcell", name=name)
    expect(cell).to_be_visible()
    assert overflows(cell)
    assert cell.bounding_box()["height"] < 60  # one line, not wrapped
    shot(page, "sites-long-name")

    selector = page.get_by_role("combobox", name="Site")
    selector.click()
    option = page.get_by_role("option", name=name)
    expect(option).to_be_visible()
    shot(page, "site-selector-long-name-open")
    assert overflows(option)
    assert page.get_by_role("listbox").bounding_box()["width"] <= 360
    option.click()
    expect(selector).to_have_text(name)
    assert overflows(selector)
    drawer = page.get_by_test_id("drawer").locator(".MuiDrawer-paper")
    assert not overflows(drawer)
    expect(page).to_have_url(re.compile(r"site=\w+"))

    open_site(page, name)
    assert overflows(page.get_by_title(name, exact=True))
    # The title gives way, so Delete and Save stay on its line.
    heading_box = page.get_by_role("heading", name=name).bounding_box()
    save_box = page.get_by_role("button", name="Save").bounding_box()
    assert abs(heading_box["y"] - save_box["y"]) < heading_box["height"]
    shot(page, "site-edit-long-name")


def test_sites_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    page = mobile_page
    name = unique(LONG)
    create_site(admin_api, name, "Hidden on phones")
    open_signed_in(page, PRIYA, console.demo_password, f"/sites?search={name.split()[-1]}")
    expect(page.get_by_role("heading", name="Sites")).to_be_visible()
    expect(page.get_by_role("columnheader", name="Name")).to_be_visible()
    # The description column gives way to the main ones on a phone.
    expect(page.get_by_role("columnheader", name="Description")).to_have_count(0)
    assert not overflows(page.locator("body"))
    row = page.get_by_role("row").filter(has_text=name)
    expect(row.get_by_role("button", name="Delete")).to_be_in_viewport(ratio=1)
    shot(page, "mobile-sites")
    page.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-site-edit")
