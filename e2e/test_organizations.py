"""Organizations, for super admins: list, add with validation, edit."""

import re
import uuid

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import Console, open_signed_in, shot, snackbar


def open_organizations(page: Page, console: Console, search: str = "") -> None:
    path = f"/organizations?search={search}" if search else "/organizations"
    open_signed_in(page, console.admin_email, console.admin_password, path)
    expect(page.get_by_role("heading", name="Organizations")).to_be_visible()


def test_organizations_list(page: Page, console: Console) -> None:
    open_organizations(page, console, "Northwind")
    grid = page.get_by_role("grid", name="Organizations")
    for header in ("Name", "Subdomain"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    expect(grid.get_by_role("row").filter(has_text="Northwind Logistics")).to_contain_text(
        "northwind"
    )
    shot(page, "organizations-list")
    check_accessibility(page)


def test_add_organization_with_validation(page: Page, console: Console) -> None:
    tag = uuid.uuid4().hex[:8]
    open_organizations(page, console)
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Organization")).to_be_visible()
    save = page.get_by_role("button", name="Save")
    save.click()
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Name", exact=True).fill(f"Harbour Freight {tag}")
    subdomain = page.get_by_role("textbox", name="Subdomain")
    subdomain.fill("Harbour Freight!")
    save.click()
    expect(snackbar(page)).to_contain_text(
        "Subdomain in the Basic tab: use lowercase letters, digits and hyphens only"
    )
    shot(page, "organization-new-invalid")
    subdomain.fill(f"harbour-{tag}")
    page.get_by_label("Okta Enabled").check()
    save.click()
    expect(snackbar(page)).to_have_text(re.compile("Saved organization"))
    page.goto(f"/organizations?search={tag}")
    expect(page.get_by_role("row").filter(has_text=f"Harbour Freight {tag}")).to_contain_text(
        f"harbour-{tag}"
    )


def test_edit_organization(page: Page, console: Console, admin_api: APIRequestContext) -> None:
    tag = uuid.uuid4().hex[:8]
    response = admin_api.post(
        "/api/organizations", data={"name": f"Baltic Cold Chain {tag}", "subdomain": f"bcc-{tag}"}
    )
    assert response.ok, response.text()
    open_organizations(page, console, tag)
    page.get_by_role("row").filter(has_text=f"Baltic Cold Chain {tag}").click()
    expect(page.get_by_role("heading", name=f"Baltic Cold Chain {tag}")).to_be_visible()
    expect(page.get_by_role("textbox", name="Subdomain")).to_have_value(f"bcc-{tag}")
    expect(page.get_by_label("Entra Enabled")).not_to_be_checked()
    shot(page, "organization-edit")
    check_accessibility(page)
    page.get_by_role("textbox", name="Name", exact=True).fill(f"Baltic Cold Chain AB {tag}")
    page.get_by_label("Entra Enabled").check()
    retention = page.get_by_role("spinbutton", name="History Retention (days)")
    expect(retention).to_have_value("0")
    retention.fill("20")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text(
        "History Retention (days) in the Basic tab: must be 0 (keep forever) or 30 to 3650 days"
    )
    retention.fill("400")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_have_text(re.compile("Saved organization"))
    expect(page).to_have_url(re.compile(r"/organizations\?site=\w+$"))
    page.goto(f"/organizations?search={tag}")
    expect(page.get_by_role("row").filter(has_text=f"Baltic Cold Chain AB {tag}")).to_be_visible()
    org = response.json()
    saved = admin_api.get(f"/api/organizations/{org['_id']}").json()
    assert saved["entraEnabled"] is True
    assert saved["historyRetentionDays"] == 400
    assert saved["name"] == f"Baltic Cold Chain AB {tag}"
