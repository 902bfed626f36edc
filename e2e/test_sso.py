"""Single sign-on: buttons only when configured, and full sign-ins through a real provider."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    DESKTOP,
    FIRST_ORG,
    MOBILE,
    PRIYA,
    SOFIA,
    TOM,
    Console,
    shot,
    sign_in,
    snackbar,
)


def first_org(api: APIRequestContext) -> dict[str, Any]:
    response = api.get("/api/organizations", params={"limit": 1000})
    assert response.ok, response.text()
    return next(o for o in response.json() if o["subdomain"] == FIRST_ORG)


def set_sso_enabled(api: APIRequestContext, okta: bool, entra: bool) -> None:
    org = first_org(api)
    body = {"name": org["name"], "subdomain": org["subdomain"]}
    response = api.put(
        f"/api/organizations/{org['_id']}",
        data={**body, "oktaEnabled": okta, "entraEnabled": entra},
    )
    assert response.ok, response.text()


@pytest.fixture
def org_page(browser: Browser, console: Console) -> Iterator[Page]:
    """A page on the demo organization's subdomain (northwind.localhost)."""
    ctx = browser.new_context(base_url=console.org_url(FIRST_ORG), viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


@pytest.fixture
def sso_off_afterwards(admin_api: APIRequestContext) -> Iterator[None]:
    yield
    set_sso_enabled(admin_api, okta=False, entra=False)
    assert admin_api.put("/api/ssosettings", data={}).ok


def sign_in_at_provider(page: Page, login: str) -> None:
    """The provider's own sign-in form (any password)."""
    page.locator("input[name=login]").fill(login)
    page.locator("input[name=password]").fill("whatever-the-provider-asks")
    page.get_by_role("button", name="Sign-in").click()


def me(page: Page) -> tuple[int, dict[str, Any]]:
    """The signed-in user, asked from the page (Chromium resolves *.localhost, Node does not)."""
    status, body = page.evaluate(
        "() => fetch('/api/users/me').then(async r => [r.status, await r.json()])"
    )
    return int(status), dict(body)


def sso_buttons(page: Page, okta: int, entra: int) -> None:
    page.goto("/login")
    expect(page.get_by_role("heading", name="Sign in to your account")).to_be_visible()
    # The offer is fetched after the page shows.
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("link", name="Login with Okta")).to_have_count(okta)
    expect(page.get_by_role("link", name="Login with Entra")).to_have_count(entra)
    expect(page.get_by_text("OR", exact=True)).to_have_count(1 if okta or entra else 0)


def test_sso_settings_then_sign_in_with_okta_and_entra(
    org_page: Page,
    browser: Browser,
    console: Console,
    admin_api: APIRequestContext,
    sso_off_afterwards: None,
) -> None:
    page = org_page
    org_url = console.org_url(FIRST_ORG)
    sso_buttons(page, okta=0, entra=0)

    # A super admin enables both kinds: nothing is offered until they are set up.
    set_sso_enabled(admin_api, okta=True, entra=True)
    sso_buttons(page, okta=0, entra=0)

    # The organization's administrator sets them up on the SSO Settings screen.
    sign_in(page, PRIYA, console.demo_password)
    expect(page.get_by_test_id("top-bar")).to_be_visible()
    page.get_by_role("link", name="SSO Settings").click()
    expect(page.get_by_role("heading", name="SSO Settings")).to_be_visible()
    callback = f"{org_url}/api/auth/okta/callback"
    expect(page.get_by_label("Sign-in redirect URI (register it with Okta)")).to_have_value(
        callback
    )
    client_id, secret = console.provider.register("okta", [callback])
    page.get_by_label("Okta Issuer").fill("http://provider.example.com")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Okta Issuer in the Okta tab: must be an https:// URL")
    page.get_by_label("Okta Issuer").fill(console.provider.okta_issuer)
    page.get_by_label("Okta Client ID").fill(client_id)
    page.get_by_label("Okta Client Secret").fill(secret)
    page.get_by_role("tab", name="Entra").click()
    expect(page.get_by_label("Redirect URI of the Entra app registration")).to_have_value(
        f"{org_url}/api/auth/entra/callback"
    )
    page.get_by_label("Entra Tenant").fill(console.provider.entra_tenant)
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Saved SSO settings")
    page.get_by_role("tab", name="Okta").click()
    # The secret is never sent back.
    expect(page.get_by_label("Okta Client Secret")).to_have_value("")
    expect(page.get_by_text("A secret is stored; leave empty to keep it")).to_be_visible()
    shot(page, "sso-settings")
    check_accessibility(page)
    page.context.clear_cookies()

    sso_buttons(page, okta=1, entra=1)
    shot(page, "login-with-sso")
    check_accessibility(page)

    # Okta: Tom signs in through the provider and lands in the console.
    page.get_by_role("link", name="Login with Okta").click()
    expect(page).to_have_url(re.compile(r"^http://127\.0\.0\.1:\d+/okta/interaction/"))
    shot(page, "sso-provider-sign-in")
    sign_in_at_provider(page, TOM)
    # Back on the organization's address, signed in (the console opens its items screen).
    expect(page.get_by_test_id("top-bar")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"^{re.escape(org_url)}/"))
    expect(page.get_by_role("button", name="Account")).to_contain_text("Tom Okafor")
    assert me(page)[1]["username"] == TOM
    shot(page, "sso-signed-in")

    # Entra, in another browser: Sofia, back to where she was headed.
    other = browser.new_context(base_url=org_url, viewport=DESKTOP)
    try:
        entra_page = other.new_page()
        entra_page.goto("/users")
        expect(entra_page).to_have_url(re.compile(r"/login\?referer="))
        entra_page.wait_for_load_state("networkidle")
        entra_page.get_by_role("link", name="Login with Entra").click()
        expect(entra_page).to_have_url(re.compile(r"/entra/contoso-tenant/v2\.0/interaction/"))
        sign_in_at_provider(entra_page, SOFIA)
        expect(entra_page).to_have_url(re.compile(rf"^{re.escape(org_url)}/users"))
        assert me(entra_page)[1]["username"] == SOFIA
    finally:
        other.close()

    # Every sign-in is in the audit log.
    log = admin_api.get("/api/auditlog", params={"action": "sso.login", "limit": 10}).json()
    assert {e["actor"] for e in log} >= {TOM, SOFIA}


def test_an_unknown_user_returns_to_login_with_the_error(
    org_page: Page, console: Console, admin_api: APIRequestContext, sso_off_afterwards: None
) -> None:
    callback = f"{console.org_url(FIRST_ORG)}/api/auth/okta/callback"
    client_id, secret = console.provider.register("okta", [callback])
    settings = {
        "oktaIssuer": console.provider.okta_issuer,
        "oktaClientId": client_id,
        "oktaClientSecret": secret,
    }
    assert admin_api.put("/api/ssosettings", data=settings).ok
    set_sso_enabled(admin_api, okta=True, entra=False)
    page = org_page
    sso_buttons(page, okta=1, entra=0)
    page.get_by_role("link", name="Login with Okta").click()
    stranger = "nobody@northwind.example.com"
    sign_in_at_provider(page, stranger)
    warning = page.get_by_test_id("sso-error")
    expect(warning).to_have_text(
        f"SSO error: no user of this organization has the username {stranger}"
    )
    expect(page).to_have_url(re.compile(r"/login\?error="))
    shot(page, "sso-error")
    assert me(page)[0] == 401


def test_sso_login_on_a_phone(
    browser: Browser, console: Console, admin_api: APIRequestContext, sso_off_afterwards: None
) -> None:
    assert admin_api.put("/api/ssosettings", data={"entraTenant": "contoso-tenant"}).ok
    set_sso_enabled(admin_api, okta=False, entra=True)
    ctx = browser.new_context(
        base_url=console.org_url(FIRST_ORG), viewport=MOBILE, is_mobile=True, has_touch=True
    )
    try:
        page = ctx.new_page()
        page.goto("/login?error=the+identity+provider+answered%3A+User+said+no")
        expect(page.get_by_test_id("sso-error")).to_contain_text("User said no")
        page.wait_for_load_state("networkidle")
        expect(page.get_by_role("link", name="Login with Entra")).to_be_visible()
        expect(page.get_by_role("link", name="Login with Okta")).to_have_count(0)
        shot(page, "login-sso-phone")
    finally:
        ctx.close()
