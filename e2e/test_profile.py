"""Edit Profile: saving one's own record signs out; password rules."""

import re

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import Account, create_user, open_signed_in, shot, sign_in, snackbar


def open_profile(page: Page, user: Account) -> None:
    open_signed_in(page, user.email, user.password)
    page.get_by_test_id("account-menu").click()
    page.get_by_role("menuitem", name="Profile").click()
    expect(page).to_have_url(re.compile(r"/userme"))
    expect(page.get_by_role("heading", name="Edit Profile")).to_be_visible()


def test_saving_the_profile_signs_out(page: Page, admin_api: APIRequestContext) -> None:
    user = create_user(admin_api)
    open_profile(page, user)
    name = page.get_by_role("textbox", name="Name", exact=True)
    expect(name).to_have_value(user.name)
    expect(page.get_by_role("textbox", name="Username")).to_have_value(user.email)
    expect(page.get_by_role("list", name="Roles").get_by_role("listitem")).to_have_text(["Viewer"])
    shot(page, "profile")
    check_accessibility(page)

    name.fill(f"{user.name} Renamed")
    page.get_by_role("button", name="Save").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    expect(snackbar(page)).to_have_text(re.compile("Saved profile"))
    sign_in(page, user.email, user.password)
    expect(page.get_by_test_id("account-menu")).to_contain_text(f"{user.name} Renamed")


def test_profile_password_rules_then_a_new_password(
    page: Page, admin_api: APIRequestContext
) -> None:
    user = create_user(admin_api)
    open_profile(page, user)
    save = page.get_by_role("button", name="Save")
    new_password = page.get_by_label("New Password")
    verify = page.get_by_label("Verify Password")

    new_password.fill("Pallet-Jack-2026!")
    verify.fill("Pallet-Jack-2027!")
    save.click()
    expect(snackbar(page)).to_contain_text("Passwords must match")
    expect(page.get_by_text("Passwords are not the same")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/userme"))
    shot(page, "profile-passwords-differ")

    new_password.fill("short")
    verify.fill("short")
    save.click()
    expect(snackbar(page)).to_contain_text(
        "New Password in the Basic tab: must be at least 8 characters"
    )

    username = page.get_by_role("textbox", name="Username")
    username.fill("not an email")
    save.click()
    expect(snackbar(page)).to_contain_text(
        "Username in the Basic tab: Please enter a valid email address"
    )
    username.fill(user.email)

    new_password.fill("Pallet-Jack-2026!")
    verify.fill("Pallet-Jack-2026!")
    save.click()
    expect(page).to_have_url(re.compile(r"/login$"))
    sign_in(page, user.email, user.password)
    expect(page.get_by_test_id("login-error")).to_have_text("Invalid username or password")
    sign_in(page, user.email, "Pallet-Jack-2026!")
    expect(page).to_have_url(re.compile(r"/items"))
    expect(page.get_by_test_id("top-bar")).to_be_visible()
