"""The shell: site selector, menu by rights, account menu, logout, phone layout."""

import re
from dataclasses import dataclass
from urllib.parse import urlparse

import pytest
from playwright.sync_api import APIRequestContext, Locator, Page, Route, expect

from e2e.conftest import (
    ALL_SITES_ID,
    DEMO_SITES,
    MARCUS,
    PRIYA,
    TOM,
    Console,
    api_sign_in,
    create_user,
    open_signed_in,
    shot,
    site_id,
)


def menu(page: Page) -> Locator:
    return page.get_by_role("navigation", name="Main menu")


def test_site_choice_lives_in_the_url(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    rotterdam = site_id(admin_api, "Rotterdam Distribution Centre")
    # An unknown site falls back to the first choice, which for an administrator is All Sites.
    open_signed_in(page, PRIYA, console.demo_password, "/home?site=no-such-site")
    selector = page.get_by_role("combobox", name="Site")
    expect(selector).to_have_text("All Sites")
    expect(page).to_have_url(re.compile(rf"/home\?site={ALL_SITES_ID}$"))

    selector.click()
    expect(page.get_by_role("option").first).to_have_text("All Sites")
    for name in DEMO_SITES:
        expect(page.get_by_role("option", name=name, exact=True)).to_be_visible()
    page.get_by_role("option", name="Rotterdam Distribution Centre").click()
    expect(page).to_have_url(re.compile(rf"/home\?site={rotterdam}$"))
    expect(page.get_by_role("main").get_by_text("Rotterdam Distribution Centre")).to_be_visible()

    menu(page).get_by_role("link", name="Sites").click()
    expect(page).to_have_url(re.compile(rf"/sites\?site={rotterdam}$"))
    expect(page.get_by_role("heading", name="Sites")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Sites")).to_be_visible()
    expect(selector).to_have_text("Rotterdam Distribution Centre")
    expect(page).to_have_url(re.compile(rf"/sites\?site={rotterdam}$"))


def test_unknown_site_falls_back_to_the_first_site(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    leeds = site_id(admin_api, "Leeds Fulfilment Centre")
    open_signed_in(page, MARCUS, console.demo_password, "/home?site=ffffffffffffffffffffffff")
    expect(page).to_have_url(re.compile(rf"/home\?site={leeds}$"))
    expect(page.get_by_role("combobox", name="Site")).to_have_text("Leeds Fulfilment Centre")
    page.get_by_role("combobox", name="Site").click()
    expect(page.get_by_role("option", name="All Sites")).to_have_count(0)


def test_a_spinner_shows_before_the_console_code_runs(page: Page) -> None:
    """The page itself draws a spinner, so a slow phone shows more than a blank page while
    the console's code arrives; the first screen takes its place."""
    held: list[Route] = []
    released: list[bool] = []

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/assets/[^/]+\.js$"), hold)
    page.goto("/login", wait_until="commit")
    expect(page.get_by_role("progressbar", name="Loading")).to_be_visible()
    assert held, "the console's code was never asked for"
    released.append(True)
    for route in held:
        route.continue_()
    expect(page.get_by_role("button", name="Login")).to_be_visible()
    expect(page.get_by_role("progressbar")).to_have_count(0)


# What the shell asks before its own code is there: who is signed in and what they may do.
SESSION_CALLS = {"/api/users/me", "/api/accessRules"}


def test_the_session_is_asked_for_while_the_shell_code_loads(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    """The calls start as soon as the entry runs, not once the shell's chunk has arrived
    and rendered: with the chunk held back, they (and the page's events) are already asked
    for."""
    held: list[Route] = []
    page.route(re.compile(r"/assets/shell-[^/]+\.js$"), lambda route: held.append(route))
    asked: set[str] = set()
    page.on("request", lambda request: asked.add(urlparse(request.url).path))
    api_sign_in(page.context, PRIYA, console.demo_password)
    rotterdam = site_id(admin_api, "Rotterdam Distribution Centre")
    page.goto(f"/events?site={rotterdam}")
    wanted = SESSION_CALLS | {"/api/events"}
    for _ in range(100):
        if held and asked >= wanted:
            break
        page.wait_for_timeout(100)
    assert held, "the shell's chunk was never asked for"
    assert asked >= wanted, asked
    for route in held:
        route.continue_()
    expect(page.get_by_role("heading", name="Events")).to_be_visible()
    expect(page.get_by_role("combobox", name="Site")).to_have_text("Rotterdam Distribution Centre")


@dataclass(frozen=True)
class MenuCase:
    who: str
    shown: tuple[str, ...]
    hidden: tuple[str, ...]


MENU_CASES = [
    MenuCase(
        "viewer",
        ("Home", "Events", "Assets", "Images", "Activity", "Staff"),
        ("Users", "Sites", "Organizations", "API Keys", "Categories", "Import", "Endpoints"),
    ),
    MenuCase(
        "administrator",
        ("Users", "Sites", "API Keys", "Categories", "Endpoints", "Organization Settings"),
        ("Organizations", "SSO Settings"),
    ),
    MenuCase("super admin", ("Organizations", "Users", "Sites"), ("SSO Settings",)),
]


@pytest.mark.parametrize("case", MENU_CASES, ids=[c.who for c in MENU_CASES])
def test_menu_entries_follow_rights(page: Page, console: Console, case: MenuCase) -> None:
    username, password = {
        "viewer": (TOM, console.demo_password),
        "administrator": (PRIYA, console.demo_password),
        "super admin": (console.admin_email, console.admin_password),
    }[case.who]
    open_signed_in(page, username, password)
    nav = menu(page)
    for label in case.shown:
        expect(nav.get_by_role("link", name=label, exact=True)).to_be_visible()
    for label in case.hidden:
        expect(nav.get_by_role("link", name=label, exact=True)).to_have_count(0)
    shot(page, f"menu-{case.who.replace(' ', '-')}")


def test_menu_waits_for_the_organization_labels(page: Page, console: Console) -> None:
    held: list[Route] = []
    page.route("**/api/orgsettings", lambda route: held.append(route))
    api_sign_in(page.context, MARCUS, console.demo_password)
    with page.expect_response("**/api/accessRules**"), page.expect_request("**/api/orgsettings"):
        page.goto("/home")
    # Rights are known but the labels are not: no menu yet, rather than one renamed later.
    expect(page.get_by_role("progressbar", name="Loading")).to_be_visible()
    expect(menu(page)).to_have_count(0)
    held[0].continue_()
    expect(menu(page).get_by_role("link", name="Assets")).to_be_visible()
    expect(menu(page).get_by_role("link", name="Staff")).to_be_visible()
    expect(menu(page).get_by_role("link", name="Items")).to_have_count(0)


def test_viewer_sees_one_site_and_no_admin_groups(page: Page, console: Console) -> None:
    open_signed_in(page, TOM, console.demo_password)
    expect(page.get_by_test_id("site-name")).to_have_text("Chicago Cross-Dock")
    expect(page.get_by_role("combobox", name="Site")).to_have_count(0)
    for group in ("Admin", "Configuration"):
        expect(menu(page).get_by_role("button", name=group)).to_have_count(0)
    # Typing an admin URL shows no way to change anything.
    page.goto("/users")
    expect(page.get_by_role("heading", name="Users")).to_be_visible()
    expect(page.get_by_test_id("list-add")).to_have_count(0)
    expect(page.get_by_test_id("load-error")).to_contain_text("do not have the create right")
    expect(page.get_by_test_id("empty-state")).to_have_count(0)
    shot(page, "viewer-users-forbidden")


def test_unknown_path_goes_home(page: Page, console: Console) -> None:
    open_signed_in(page, MARCUS, console.demo_password, "/no/such/screen")
    expect(page).to_have_url(re.compile(r"/home\?site=\w+$"))
    expect(page.get_by_role("heading", name="Home")).to_be_visible()


def test_logout_from_the_account_menu(page: Page, admin_api: APIRequestContext) -> None:
    user = create_user(admin_api)
    open_signed_in(page, user.email, user.password)
    page.get_by_test_id("account-menu").click()
    expect(page.get_by_role("menuitem", name="Profile")).to_be_visible()
    shot(page, "account-menu")
    page.get_by_role("menuitem", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    expect(page.get_by_role("button", name="Login")).to_be_visible()
    # The session is gone on the server too: a protected screen asks to sign in.
    page.goto("/sites")
    expect(page).to_have_url(re.compile(r"/login\?referer=%2Fsites$"))


def test_phone_drawer_holds_the_account_menu(
    mobile_page: Page, admin_api: APIRequestContext
) -> None:
    page = mobile_page
    chicago = site_id(admin_api, "Chicago Cross-Dock")
    user = create_user(admin_api, sites=[chicago])
    asked: set[str] = set()
    page.on("request", lambda request: asked.add(urlparse(request.url).path))
    open_signed_in(page, user.email, user.password)
    expect(page.get_by_role("heading", name="Home")).to_be_visible()
    expect(page.get_by_test_id("account-menu")).to_be_hidden()
    expect(menu(page)).to_have_count(0)
    # Only the phone's drawer is there, closed: the desktop one is not drawn out of sight,
    # nor are its calls made (the version shows at the drawer's foot).
    expect(page.get_by_test_id("drawer")).to_have_count(0)
    assert "/api/version" not in asked
    shot(page, "mobile-home")

    page.get_by_role("button", name="Open menu").click()
    drawer = page.get_by_test_id("drawer-mobile")
    expect(drawer.get_by_test_id("app-version")).to_have_text(re.compile(r"^Version \d"))
    expect(drawer.get_by_text(user.name)).to_be_visible()
    expect(drawer.get_by_test_id("site-name")).to_have_text("Chicago Cross-Dock")
    shot(page, "mobile-drawer")
    drawer.get_by_role("button", name="Profile").click()
    expect(page).to_have_url(re.compile(rf"/userme\?site={chicago}$"))
    expect(page.get_by_role("heading", name="Edit Profile")).to_be_visible()
    # Like a menu link, an account entry closes the drawer it was picked from.
    expect(drawer).to_be_hidden()
    shot(page, "mobile-profile")

    page.get_by_role("button", name="Open menu").click()
    drawer.get_by_role("button", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    shot(page, "mobile-login")
