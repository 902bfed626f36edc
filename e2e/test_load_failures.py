"""A list the server refuses to load shows the server's reason with Retry, never the empty
state; a photo over the limit says the limit; a new record's form opened by its URL saves
for the selected site."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import Console, create_user, open_signed_in, shot, snackbar, unique
from e2e.test_errors import expect_refusal, field, png, save
from e2e.tracking_data import (
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
)

pytestmark = pytest.mark.usefixtures("patient_expect")


def set_sites(api: APIRequestContext, user_id: str, sites: list[str]) -> None:
    """Change which sites a user may see, through the admin API."""
    user = api.get(f"/api/users/{user_id}").json()
    body = {
        "id": user_id,
        "name": user["name"],
        "username": user["username"],
        "roles": user["roles"],
        "securityCtx": {**user["securityCtx"], "sites": sites},
    }
    response = api.put("/api/users", data=body)
    assert response.ok, response.text()


def go(page: Page, path: str) -> None:
    """Move within the console without reloading it: its list of the user's sites stays."""
    page.evaluate(
        "path => { history.pushState({}, '', path); dispatchEvent(new PopStateEvent('popstate')) }",
        path,
    )


def test_lists_that_fail_to_load_show_the_reason_with_retry(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    api = admin_api
    lost, kept = new_site(api, "E2E Revoked"), new_site(api, "E2E Kept")
    zone = unique("Dock Zone")
    create_zone(api, lost, zone, [])
    user = create_user(api, "Manager", [lost, kept])
    open_signed_in(page, user.email, user.password, f"/home?site={kept}")

    # Each screen first loads its lists after the site is no longer the user's; Home's two
    # cards fail each on its own.
    screens = (
        (f"/zones?site={lost}", 1, "No zones found", zone),
        (f"/reports/exceptions?site={lost}", 1, "No exceptions in this period.", None),
        (f"/events?site={lost}", 1, "No events in this period", None),
        (f"/reports/events?site={lost}", 1, "No activity in this period.", None),
        (f"/home?site={lost}", 2, "No zones to show for this site yet.", zone),
    )
    for path, lists, empty, row in screens:
        set_sites(api, user.id, [kept])
        go(page, path)
        failures = page.get_by_test_id("load-error")
        expect(failures).to_have_count(lists)
        for i in range(lists):
            expect(failures.nth(i)).to_contain_text("Failed to load")
            expect(failures.nth(i)).to_contain_text("Site not found")
        expect(page.get_by_text(empty)).to_have_count(0)
        if path.startswith(("/zones", "/home")):
            shot(page, "load-failure-" + path.split("?")[0].strip("/"))
        # The access back, Retry loads the lists.
        set_sites(api, user.id, [lost, kept])
        # The last first: a card that loads leaves the ones before it where they were.
        for i in reversed(range(lists)):
            failures.nth(i).get_by_role("button", name="Retry").click()
        if row:
            expect(page.get_by_text(row).first).to_be_visible()
        else:
            expect(page.get_by_text(empty)).to_be_visible()
        expect(failures).to_have_count(0)

    # The gallery is the organisation's: a search the server refuses (an uploader id too long).
    go(page, f"/images?uploader={'f' * 25}")
    failure = page.get_by_test_id("load-error")
    expect(failure).to_contain_text("Failed to load images")
    expect(failure).to_contain_text("uploader")
    expect(failure.get_by_role("button", name="Retry")).to_be_visible()
    expect(page.get_by_text("No images match the search")).to_have_count(0)
    expect(page.get_by_text("No images yet")).to_have_count(0)
    shot(page, "load-failure-gallery")


def test_a_photo_over_the_limit_says_the_limit(
    mobile_page: Page, console: Console, tmp_path: Path
) -> None:
    page = mobile_page
    open_signed_in(page, console.admin_email, console.admin_password, "/images")
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and "/api/images" in r.url else None,
    )
    # A real picture with bytes after it: over 25 MiB in all.
    big = tmp_path / "pallet.png"
    big.write_bytes(png() + bytes(25 * 1024 * 1024))
    page.get_by_test_id("upload-input").set_input_files(big)
    expect(snackbar(page)).to_contain_text("Error uploading file: The file is over 25 MiB")
    shot(page, "load-failure-photo-too-large")
    expect_refusal(page, "Error uploading file", "The file is over 25 MiB")
    # Refused before it was sent: the server would say the same after 25 MiB of upload.
    assert sent == []


def test_a_new_record_opened_by_its_url_saves_for_the_selected_site(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Direct")
    signed_in = False
    for path, listing in (
        ("/zones/new", "/api/zones"),
        ("/endpoints/new", "/api/endpoints"),
        ("/maps/new", "/api/maps"),
    ):
        name = unique("Direct")
        # The whole console loads from this URL: the form opens before the sites are known.
        if signed_in:
            page.goto(f"{path}?site={site}")
        else:
            open_signed_in(page, console.admin_email, console.admin_password, f"{path}?site={site}")
            signed_in = True
        field(page, "Name").fill(name)
        save(page)
        # Saved, the form closes.
        expect(page).not_to_have_url(re.compile(r"/new\b"))
        rows = admin_api.get(listing, params={"site": site}).json()
        assert [(r["name"], r["site"]) for r in rows] == [(name, site)], path
