"""A list that fails to load says why and offers Retry, never an empty state beside it; a
photo over the limit says the limit before it is sent; a new record's form opened by its URL
saves for the selected site."""

import re
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import APIRequestContext, Page, Route, expect

from e2e.conftest import Console, open_signed_in, shot, snackbar, unique
from e2e.test_errors import expect_refusal, field, gone_message, png, save
from e2e.test_refusals import upload_image
from e2e.tracking_data import (
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
)

pytestmark = pytest.mark.usefixtures("patient_expect")


def refuse_first_load(page: Page, path: str, marker: str, param: str, value: str) -> None:
    """The screen's first request to /api/`path` with `marker` in its query reaches the real
    server with `param` set to a value it refuses; every later request goes unchanged."""
    refused: list[str] = []

    def handle(route: Route) -> None:
        if refused:
            route.continue_()
            return
        url = urlsplit(route.request.url)
        query = dict(parse_qsl(url.query)) | {param: value}
        refused.append(url._replace(query=urlencode(query)).geturl())
        route.continue_(url=refused[0])

    page.route(re.compile(rf"/api/{path}\?.*{re.escape(marker)}"), handle)


def expect_load_failure(page: Page, name: str, reason: str, empty: str, picture: str = "") -> None:
    """The failure with the server's reason and no empty state; Retry loads the list."""
    failure = page.get_by_test_id("load-error")
    expect(failure).to_contain_text(f"Failed to load {name}: {reason}")
    expect(page.get_by_text(empty)).to_have_count(0)
    shot(page, picture or f"load-failure-{name}")
    failure.get_by_role("button", name="Retry").click()
    expect(failure).to_have_count(0)


def test_a_list_that_fails_to_load_says_why_and_retries(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Load Failure")
    open_signed_in(page, console.admin_email, console.admin_password, f"/home?site={site}")
    for path, name, empty in (
        ("/reports/exceptions", "exceptions", "No exceptions in this period."),
        ("/zones", "zones", "No zones found"),
    ):
        # A page size the server refuses, and its own reason for that.
        reason = admin_api.get(f"/api/{name}", params={"site": site, "limit": "0"})
        assert reason.status == 422, reason.text()
        refuse_first_load(page, name, f"site={site}", "limit", "0")
        page.goto(f"{path}?site={site}")
        expect_load_failure(page, name, reason.json()["message"], empty)
        # Asked again, the server answers: the site has none, and the list says so.
        expect(page.get_by_text(empty)).to_be_visible()
        page.unroute_all()

    # The gallery: an uploader id the server refuses; Retry shows the image.
    tag = f"retry{uuid.uuid4().hex[:6]}"
    upload_image(admin_api, tag)
    uploader = "u" * 25
    reason = admin_api.get("/api/images", params={"tags": tag, "uploader": uploader})
    assert reason.status == 422, reason.text()
    refuse_first_load(page, "images", f"tags={tag}", "uploader", uploader)
    page.goto(f"/images?site={site}&tags={tag}")
    expect_load_failure(page, "images", reason.json()["message"], "No images")
    expect(page.get_by_test_id("image-card")).to_have_count(1)


def test_refusals_at_phone_width(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    """A few screens of the refusal walk on a phone: the message fits and can be closed."""
    page, api = mobile_page, admin_api
    site = new_site(api, "E2E Phone Refusals")
    zone = create_zone(api, site, unique("Zone"), [])
    open_signed_in(page, console.admin_email, console.admin_password, f"/zones/{zone}?site={site}")
    expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
    message = gone_message(api, f"/api/zones/{zone}")
    save(page)
    expect(snackbar(page)).to_contain_text(f"Save failed: {message}")
    shot(page, "refusals-zone-save-phone")
    expect_refusal(page, "Save failed", message)

    # The image edit page: a tag over the limit, saved from its details drawer.
    tag = f"phone{uuid.uuid4().hex[:6]}"
    image = upload_image(api, tag)
    page.goto(f"/images/{image}?site={site}")
    page.get_by_role("button", name="Details").click()
    tags = page.get_by_label("Tags", exact=True)
    tags.fill("T" * 250)
    tags.press("Enter")
    save(page)
    expect(snackbar(page)).to_contain_text("Failed to save: tags.1: String should have at most")
    shot(page, "refusals-image-save-phone")
    expect_refusal(page, "Failed to save", "String should have at most")

    # A report's list that fails to load.
    reason = api.get("/api/exceptions", params={"site": site, "limit": "0"})
    refuse_first_load(page, "exceptions", f"site={site}", "limit", "0")
    page.goto(f"/reports/exceptions?site={site}")
    expect_load_failure(
        page,
        "exceptions",
        reason.json()["message"],
        "No exceptions in this period.",
        "load-failure-exceptions-phone",
    )
    expect(page.get_by_text("No exceptions in this period.")).to_be_visible()


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
