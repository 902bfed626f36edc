"""Login page: success, each failure message, SSO parts, referer after a 401."""

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    DESKTOP,
    MARCUS,
    PRIYA,
    Console,
    create_user,
    shot,
    site_id,
)
from tests.database import fresh_database
from tests.serve import serve

INVALID = "Invalid username or password"
LOCKED = "Too many recent failed logins: use Forgot My Password to unlock your account"
RATE_LIMITED = "Too many recent failed logins: wait a minute and try again"


def attempt(page: Page, username: str, password: str) -> None:
    page.get_by_label("Email").fill(username)
    page.get_by_label("Password").fill(password)
    # Waiting for the answer keeps the previous attempt's message from matching.
    with page.expect_response("**/api/auth/login"):
        page.get_by_role("button", name="Login").click()


def login_error(page: Page, text: str) -> None:
    expect(page.get_by_test_id("login-error")).to_have_text(text)
    expect(page).to_have_url(re.compile(r"/login"))


def test_login_page_offers_no_sso_without_providers(page: Page) -> None:
    page.goto("/login")
    expect(page.get_by_role("heading", name="Sign in to your account")).to_be_visible()
    expect(page.get_by_label("Email")).to_be_focused()
    expect(page.get_by_role("link", name="Forgot My Password")).to_be_visible()
    expect(page.get_by_role("button", name="Login with Okta")).to_have_count(0)
    expect(page.get_by_role("button", name="Login with Entra")).to_have_count(0)
    expect(page.get_by_text("OR", exact=True)).to_have_count(0)
    shot(page, "login")
    check_accessibility(page)


def test_enter_submits_and_lands_on_the_shell(page: Page, console: Console) -> None:
    page.goto("/login")
    page.get_by_label("Email").fill(MARCUS)
    page.get_by_label("Password").fill(console.demo_password)
    page.get_by_label("Password").press("Enter")
    # Without a referer, sign-in lands on the items list (named by the demo's labels).
    expect(page).to_have_url(re.compile(r"/items\?site=\w+$"))
    expect(page.get_by_role("heading", name="Assets")).to_be_visible()
    selector = page.get_by_role("combobox", name="Site")
    expect(selector).to_have_text("Leeds Fulfilment Centre")
    selector.click()
    options = page.get_by_role("option")
    expect(options).to_have_text(["Leeds Fulfilment Centre", "Rotterdam Distribution Centre"])
    shot(page, "login-success-site-choices")


def test_wrong_password_and_unknown_user(page: Page, admin_api: APIRequestContext) -> None:
    user = create_user(admin_api)
    page.goto("/login")
    attempt(page, user.email, "not-the-password")
    login_error(page, INVALID)
    shot(page, "login-invalid")
    attempt(page, "nobody.here@northwind.example.com", user.password)
    login_error(page, INVALID)
    # Empty fields are refused without asking the server.
    page.goto("/login")
    page.get_by_role("button", name="Login").click()
    login_error(page, INVALID)


def test_five_failures_lock_the_account(page: Page, admin_api: APIRequestContext) -> None:
    user = create_user(admin_api)
    page.goto("/login")
    for _ in range(4):
        attempt(page, user.email, "wrong-password")
        login_error(page, INVALID)
    attempt(page, user.email, "wrong-password")
    login_error(page, LOCKED)
    # Locked means locked: the right password does not get in either.
    attempt(page, user.email, user.password)
    login_error(page, LOCKED)
    shot(page, "login-locked")


@pytest.fixture(scope="module")
def strict_server(console: Console) -> Iterator[str]:
    """A server allowing 3 failed sign-ins per client a minute (the shared one allows 1000)."""
    with fresh_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_ADMIN_EMAIL": console.admin_email,
            "TAGTRACK_ADMIN_PASSWORD": console.admin_password,
            "TAGTRACK_LOGIN_RATE_LIMIT_PER_MINUTE": "3",
        }
        with serve(env) as served:
            yield served.url


def test_too_many_failures_from_one_client_are_rate_limited(
    browser: Browser, strict_server: str, console: Console
) -> None:
    context = browser.new_context(base_url=strict_server, viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto("/login")
        for n in range(3):
            attempt(page, f"stranger{n}@northwind.example.com", "guess-1234")
            login_error(page, INVALID)
        attempt(page, "stranger3@northwind.example.com", "guess-1234")
        login_error(page, RATE_LIMITED)
        # The limit is per client, so even the right password waits.
        attempt(page, console.admin_email, console.admin_password)
        login_error(page, RATE_LIMITED)
        shot(page, "login-rate-limited")
    finally:
        context.close()


def test_forgot_password_link(page: Page) -> None:
    page.goto("/login")
    page.get_by_role("link", name="Forgot My Password").click()
    expect(page).to_have_url(re.compile(r"/passwordreset/request$"))
    expect(page.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    expect(page.get_by_label("Email")).to_be_visible()
    shot(page, "password-reset-request")
    check_accessibility(page)
    page.get_by_role("link", name="Return to Login").click()
    expect(page).to_have_url(re.compile(r"/login$"))


def test_sso_error_is_shown_and_dismissible(page: Page) -> None:
    page.goto("/login?error=access_denied")
    warning = page.get_by_test_id("sso-error")
    expect(warning).to_have_text("SSO error: access_denied")
    shot(page, "login-sso-error")
    warning.get_by_role("button", name="Close").click()
    expect(warning).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/login$"))


def test_deep_link_returns_there_after_login(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    rotterdam = site_id(admin_api, "Rotterdam Distribution Centre")
    target = f"/users?site={rotterdam}"
    page.goto(target)
    expect(page).to_have_url(re.compile(rf"/login\?referer={re.escape(quote(target, safe=''))}$"))
    attempt(page, PRIYA, console.demo_password)
    expect(page).to_have_url(re.compile(rf"{re.escape(target)}$"))
    expect(page.get_by_role("heading", name="Users")).to_be_visible()
    expect(page.get_by_role("combobox", name="Site")).to_have_text("Rotterdam Distribution Centre")
