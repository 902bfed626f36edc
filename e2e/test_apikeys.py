"""API keys: create with the validation messages, the token shown once, view, delete."""

import re

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    Console,
    open_list,
    open_row,
    open_signed_in,
    role_id,
    shot,
    site_id,
    snackbar,
    unique,
)

ROTTERDAM = "Rotterdam Distribution Centre"


def pick(page: Page, field: str, option: str) -> None:
    page.get_by_role("combobox", name=field).click()
    page.get_by_role("option", name=option, exact=True).click()
    page.keyboard.press("Escape")


def sites_seen_with(page: Page, token: str) -> tuple[int, list[str]]:
    response = page.request.get("/api/sites", headers={"Authorization": f"Bearer {token}"})
    names = [s["name"] for s in response.json()] if response.ok else []
    return response.status, names


def test_create_an_api_key_with_validation_then_delete_it(page: Page, console: Console) -> None:
    open_list(page, console, "/apikeys", "API Keys")
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add API Key")).to_be_visible()
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)

    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Please fill out all required fields")
    expect(page.get_by_text("You must select at least one item")).to_have_count(2)
    shot(page, "apikey-new-invalid")

    name = unique("Dock door integration")
    page.get_by_role("textbox", name="Name").fill(name)
    page.get_by_role("combobox", name="Roles").click()
    expect(page.get_by_role("option", name="Administrator")).to_be_visible()
    expect(page.get_by_role("option", name="Super Admin")).to_have_count(0)
    page.keyboard.press("Escape")
    pick(page, "Roles", "Viewer")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Please fill out all required fields")
    expect(page.get_by_text("You must select at least one item")).to_have_count(1)
    pick(page, "Sites", ROTTERDAM)
    page.get_by_role("button", name="Save").click()

    dialog = page.get_by_role("dialog", name="API key created")
    expect(dialog).to_contain_text("it is shown only once")
    token = dialog.get_by_test_id("new-token").input_value()
    assert re.fullmatch(r"tt_[A-Za-z0-9_-]{40,}", token), token
    shot(page, "apikey-created")
    check_accessibility(page)
    # The key reads exactly its site.
    assert sites_seen_with(page, token) == (200, [ROTTERDAM])

    dialog.get_by_role("button", name="Done").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    token_field = page.get_by_label("Token")
    expect(token_field).to_have_value(re.compile(r"^tt_.{8}…$"))
    assert token.startswith(token_field.input_value().rstrip("…"))
    expect(page.get_by_role("textbox", name="Name")).not_to_be_editable()
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    shot(page, "apikey-view")

    page.get_by_role("button", name="Delete").click()
    confirm = page.get_by_role("dialog", name="Confirm Delete")
    expect(confirm).to_contain_text(
        "Are you sure you want to delete this API key? This action cannot be undone."
    )
    with page.expect_response(lambda r: r.request.method == "DELETE") as deleted:
        confirm.get_by_role("button", name="I'm Sure").click()
    assert deleted.value.status == 204
    expect(page.get_by_role("heading", name="API Keys")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)
    # Refused at once.
    assert sites_seen_with(page, token)[0] == 401


def test_super_admin_is_never_offered(page: Page, console: Console) -> None:
    open_signed_in(page, console.admin_email, console.admin_password, "/apikeys/new")
    expect(page.get_by_role("heading", name="Add API Key")).to_be_visible()
    page.get_by_role("combobox", name="Roles").click()
    expect(page.get_by_role("option", name="Administrator")).to_be_visible()
    expect(page.get_by_role("option", name="Super Admin")).to_have_count(0)


def make_key(api: APIRequestContext, name: str) -> dict[str, str]:
    response = api.post(
        "/api/apikeys",
        data={
            "name": name,
            "roles": [role_id(api, "Manager")],
            "securityCtx": {"sites": [site_id(api, ROTTERDAM)]},
        },
    )
    assert response.ok, response.text()
    return dict(response.json())


def test_list_shows_keys_and_deletes_from_a_row(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique("ERP export")
    key = make_key(admin_api, name)
    open_list(page, console, "/apikeys", "API Keys", search=name.split()[-1])
    grid = page.get_by_role("grid", name="API Keys")
    for header in ("Name", "Token", "Roles", "Sites", "Created"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    row = grid.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("Manager")
    expect(row).to_contain_text(ROTTERDAM)
    expect(row).not_to_contain_text(key["token"])
    shot(page, "apikeys-list")
    check_accessibility(page)
    row.get_by_test_id("row-delete").click()
    confirm = page.get_by_role("dialog", name="Confirm Delete")
    with page.expect_response(lambda r: r.request.method == "DELETE") as deleted:
        confirm.get_by_role("button", name="I'm Sure").click()
    assert deleted.value.status == 204
    expect(row).to_have_count(0)
    assert sites_seen_with(page, key["token"])[0] == 401


def test_a_failed_delete_shows_status_text_and_body(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique("Yard scanner")
    key = make_key(admin_api, name)
    open_list(page, console, "/apikeys", "API Keys", search=name.split()[-1])
    open_row(page, name, heading=name)
    # Someone else deletes it first.
    assert admin_api.delete(f"/api/apikeys/{key['_id']}").ok
    page.get_by_role("button", name="Delete").click()
    page.get_by_role("dialog", name="Confirm Delete").get_by_role("button", name="I'm Sure").click()
    expect(snackbar(page)).to_contain_text("Not Found: API key not found")


def test_api_keys_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique("Handheld sync")
    make_key(admin_api, name)
    open_list(mobile_page, console, "/apikeys", "API Keys", search=name.split()[-1])
    expect(mobile_page.get_by_role("row").filter(has_text=name)).to_be_visible()
    shot(mobile_page, "apikeys-phone")
    open_row(mobile_page, name, heading=name)
    shot(mobile_page, "apikey-phone")
