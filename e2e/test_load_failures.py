"""A photo over the limit says the limit before it is sent; a new record's form opened by
its URL saves for the selected site."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import Console, open_signed_in, shot, snackbar, unique
from e2e.test_errors import expect_refusal, field, png, save
from e2e.tracking_data import (
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
)

pytestmark = pytest.mark.usefixtures("patient_expect")


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
