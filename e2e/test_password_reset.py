"""Forgot My Password from the login page to a new password, through the link mailed to a
real SMTP server."""

import re
from email import message_from_string
from email.policy import default

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import Console, create_user, shot, sign_in, snackbar


def _reset_path(console: Console, address: str) -> str:
    mails = console.mail_to(address)
    assert mails, f"no mail to {address}"
    body = message_from_string(mails[-1], policy=default).get_content()  # type: ignore[attr-defined]
    found = re.search(r"https?://[^/\s]+(/passwordreset/form\?token=\S+)", body)
    assert found, body
    return found.group(1)


def _refused_link(page: Page, password: str) -> None:
    page.get_by_label("New Password").fill(password)
    page.get_by_label("Verify Password").fill(password)
    page.get_by_role("button", name="Reset Password").click()
    expect(
        page.get_by_text("Your password reset token is invalid, please contact support.")
    ).to_be_visible()


def test_forgot_password_mails_a_link_that_sets_a_new_password(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    account = create_user(admin_api)
    page.goto("/login")
    page.get_by_role("link", name="Forgot My Password").click()
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_role("button", name="Send Reset Link").click()
    expect(page.get_by_text("Please enter a valid email address").first).to_be_visible()

    # An address of a valid form yet longer than any address can be: the server's reason.
    too_long = "a" * 250 + "@example.org"
    page.get_by_label("Email").fill(too_long)
    page.get_by_role("button", name="Send Reset Link").click()
    expect(snackbar(page)).to_contain_text("Error: email: String should have at most 254")
    shot(page, "password-reset-request-refused")
    snackbar(page).get_by_role("button", name="Close").click()

    page.get_by_label("Email").fill(account.email)
    page.get_by_label("Email").press("Enter")
    expect(page.get_by_text("If the email address matches an active account")).to_be_visible()
    shot(page, "password-reset-confirm")
    check_accessibility(page)

    link = _reset_path(console, account.email)
    page.goto(link)
    expect(page.get_by_text(account.email)).to_be_visible()
    page.get_by_role("button", name="Reset Password").click()
    expect(snackbar(page)).to_have_text(re.compile("Please enter a valid password"))
    page.get_by_label("New Password").fill("short")
    page.get_by_label("Verify Password").fill("short")
    page.get_by_role("button", name="Reset Password").click()
    expect(snackbar(page)).to_contain_text("Password too weak")
    # Long enough, yet guessable: the server's strength check refuses it.
    page.get_by_label("New Password").fill("password1")
    page.get_by_label("Verify Password").fill("password1")
    page.get_by_role("button", name="Reset Password").click()
    expect(snackbar(page)).to_contain_text("Password must be stronger.")
    page.get_by_label("New Password").fill("Tag-Reader-Lantern-58")
    page.get_by_label("Verify Password").fill("Tag-Reader-Lantern-59")
    expect(page.get_by_text("Passwords are not the same")).to_be_visible()
    page.get_by_label("Verify Password").fill("Tag-Reader-Lantern-58")
    shot(page, "password-reset-form")
    check_accessibility(page)
    page.get_by_role("button", name="Reset Password").click()
    expect(page).to_have_url(re.compile(r"/login"))

    # The link is used up: a second use is refused.
    page.goto(link)
    _refused_link(page, "Tag-Reader-Lantern-60")
    shot(page, "password-reset-used-link")

    sign_in(page, account.email, account.password)
    expect(page.get_by_text("Invalid username or password")).to_be_visible()
    sign_in(page, account.email, "Tag-Reader-Lantern-58")
    expect(page).to_have_url(re.compile(r"/items"))
    expect(page.get_by_test_id("top-bar")).to_be_visible()


def test_a_used_or_forged_link_is_refused(page: Page, console: Console) -> None:
    page.goto("/passwordreset/form?token=eyJ1c2VybmFtZSI6Im5vYm9keUBleGFtcGxlLmNvbSJ9.forged")
    expect(page.get_by_text("nobody@example.com")).to_be_visible()
    _refused_link(page, "Tag-Reader-Lantern-58")
