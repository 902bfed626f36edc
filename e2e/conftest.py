"""Browser tests: Playwright drives Debian's Chromium against the real server and console."""

import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    APIRequestContext,
    Browser,
    BrowserContext,
    Locator,
    Page,
    expect,
    sync_playwright,
)

from e2e.accessibility import CHECKED_ROUTES, console_routes
from tests.database import fresh_database
from tests.mailbox import Mailbox, smtp_server
from tests.oidc_provider import OidcProvider, oidc_provider
from tests.serve import ROOT, free_port, serve

E2E = ROOT / "e2e"
ARTIFACTS = E2E / "artifacts"
# Screens no test ran axe on, when the whole suite ran (see pytest_sessionfinish).
UNCHECKED: list[str] = []
# Tests left out by -k, -m or --deselect: then the run is not the whole suite.
DESELECTED: list[pytest.Item] = []
ADMIN_EMAIL = "admin@northwind.example.com"
ADMIN_PASSWORD = "Tracking-Console-2026!"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ALL_SITES_ID = "0" * 24
DEMO_SITES = ("Chicago Cross-Dock", "Leeds Fulfilment Centre", "Rotterdam Distribution Centre")
PRIYA = "priya.raman@northwind.example.com"
MARCUS = "marcus.webb@northwind.example.com"
SOFIA = "sofia.lindqvist@northwind.example.com"
TOM = "tom.okafor@northwind.example.com"
DESKTOP = {"width": 1366, "height": 860}
# The demo organization (made at first start), by its subdomain.
FIRST_ORG = "northwind"
MOBILE = {"width": 390, "height": 844}


def chromium_path() -> str:
    for candidate in ("/usr/lib/chromium/chromium", shutil.which("chromium") or ""):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise RuntimeError("Chromium is missing: scripts/install.sh --browser installs it")


@dataclass(frozen=True)
class Console:
    url: str
    admin_email: str
    admin_password: str
    demo_password: str
    data_dir: Path
    mailbox: Mailbox
    provider: OidcProvider
    port: int
    # The server's database, for tests that need more rows than the API makes quickly.
    database_url: str = ""

    def mail_to(self, address: str, seconds: float = 20) -> list[str]:
        """Mail the real SMTP server of the tests received for this address, oldest first,
        once some has come (the server's outbox sends it in the background)."""
        deadline = time.monotonic() + seconds
        while not self.mailbox.to(address) and time.monotonic() < deadline:
            time.sleep(0.1)
        return [m.as_string() for m in self.mailbox.to(address)]

    def org_url(self, subdomain: str) -> str:
        """The console on an organization's subdomain (Chromium resolves *.localhost here)."""
        return f"http://{subdomain}.localhost:{self.port}"


@pytest.fixture(scope="session")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    if not (ROOT / "web" / "dist" / "index.html").is_file():
        raise RuntimeError("The console is not built: run scripts/install.sh")
    data_dir = tmp_path_factory.mktemp("console-data")
    port = free_port()
    with fresh_database() as url, smtp_server() as (mailbox, smtp_url), oidc_provider() as idp:
        # This installation's Entra app registration, at the test provider.
        entra_id, entra_secret = idp.register(
            "entra", [f"http://{FIRST_ORG}.localhost:{port}/api/auth/entra/callback"]
        )
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_DATA_DIR": str(data_dir),
            "TAGTRACK_ADMIN_EMAIL": ADMIN_EMAIL,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "TAGTRACK_LOGIN_RATE_LIMIT_PER_MINUTE": "1000",
            "TAGTRACK_LOGIN_LOCKOUT_FAILURES": "5",
            "TAGTRACK_SMTP_URL": smtp_url,
            "TAGTRACK_ENTRA_AUTHORITY": idp.entra_authority,
            "TAGTRACK_ENTRA_CLIENT_ID": entra_id,
            "TAGTRACK_ENTRA_CLIENT_SECRET": entra_secret,
        }
        with serve(env, "--demo", port=port) as served:
            demo_password = served.printed("Demo password")
            assert demo_password, served.text()
            yield Console(
                served.url,
                ADMIN_EMAIL,
                ADMIN_PASSWORD,
                demo_password,
                data_dir,
                mailbox,
                idp,
                port,
                database_url=url,
            )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True
        )
        yield launched
        launched.close()


def module_timezone(request: pytest.FixtureRequest) -> str | None:
    """The browser's timezone a test module asks for with BROWSER_TIMEZONE (else the machine's)."""
    return getattr(request.module, "BROWSER_TIMEZONE", None)


@pytest.fixture
def context(
    browser: Browser, console: Console, request: pytest.FixtureRequest
) -> Iterator[BrowserContext]:
    ctx = browser.new_context(
        base_url=console.url, viewport=DESKTOP, timezone_id=module_timezone(request)
    )
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


def shot(page: Page, name: str) -> Path:
    """Save a screenshot for people to look at; returns its path."""
    path = ARTIFACTS / f"{name}.png"
    # Finite transitions (drawer slide, menu fade) end first; spinners loop forever.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.effect?.getTiming().iterations === Infinity)"
    )
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_in(page: Page, username: str, password: str) -> None:
    page.goto("/login")
    page.get_by_label("Email").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Login").click()


@dataclass(frozen=True)
class Account:
    email: str
    password: str
    name: str
    id: str = ""


def unique(prefix: str) -> str:
    """A name no other test uses: the tests share one database."""
    return f"{prefix} {uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def admin_api(browser: Browser, console: Console) -> Iterator[APIRequestContext]:
    """The API, signed in as the super admin, for setting up data."""
    ctx = browser.new_context(base_url=console.url)
    response = ctx.request.post(
        "/api/auth/login",
        data={"username": console.admin_email, "password": console.admin_password},
    )
    assert response.ok, response.text()
    yield ctx.request
    ctx.close()


def role_id(api: APIRequestContext, name: str) -> str:
    response = api.get("/api/roles")
    assert response.ok, response.text()
    return next(r["id"] for r in response.json() if r["name"] == name)


def site_id(api: APIRequestContext, name: str) -> str:
    response = api.get("/api/sites", params={"limit": 1000})
    assert response.ok, response.text()
    return str(next(s["_id"] for s in response.json() if s["name"] == name))


def create_user(
    api: APIRequestContext, role: str = "Viewer", sites: list[str] | None = None
) -> Account:
    """A throwaway user, so sign-in failures and logouts never touch the demo users."""
    tag = uuid.uuid4().hex[:8]
    # Another domain, so searching the demo users for 'northwind' finds only them.
    account = Account(f"e2e.{tag}@harbourline.example.org", f"Rfid-Gate-{tag}-Dock!", f"E2E {tag}")
    response = api.post(
        "/api/users",
        data={
            "name": account.name,
            "username": account.email,
            "roles": [role_id(api, role)],
            "securityCtx": {"sites": sites or [], "companies": []},
            "password": account.password,
        },
    )
    assert response.ok, response.text()
    return Account(account.email, account.password, account.name, response.json()["id"])


def create_site(
    api: APIRequestContext, name: str, description: str = "", timezone: str = "Europe/Amsterdam"
) -> str:
    response = api.post(
        "/api/sites",
        data={
            "name": name,
            "description": description,
            "startDate": "2024-01-15T00:00:00Z",
            "timezone": {"id": timezone},
        },
    )
    assert response.ok, response.text()
    return str(response.json()["_id"])


# One session per account for the whole run: hashing a password costs most of a second.
# So a test that signs out or changes its account uses a throwaway user of its own.
_sessions: dict[tuple[str, str], list[Any]] = {}


def api_sign_in(context: BrowserContext, username: str, password: str) -> None:
    """Sign in without the form (the form has its own tests); the cookie lands in context."""
    cookies = _sessions.get((username, password))
    if cookies is None:
        response = context.request.post(
            "/api/auth/login", data={"username": username, "password": password}
        )
        assert response.ok, response.text()
        _sessions[(username, password)] = cookies = list(context.cookies())
    else:
        context.add_cookies(cookies)


def open_signed_in(page: Page, username: str, password: str, path: str = "/home") -> None:
    api_sign_in(page.context, username, password)
    page.goto(path)
    expect(page.get_by_test_id("top-bar")).to_be_visible()


def open_list(page: Page, console: Console, path: str, heading: str, search: str = "") -> None:
    """Open a list screen as the demo Administrator, optionally searched."""
    open_signed_in(
        page, PRIYA, console.demo_password, f"{path}?search={search}" if search else path
    )
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def open_row(page: Page, text: str, heading: str) -> None:
    page.get_by_role("row").filter(has_text=text).click()
    # The list stays on screen until the form's code has loaded.
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def snackbar(page: Page) -> Locator:
    return page.get_by_test_id("snackbar")


@pytest.fixture
def mobile_page(
    browser: Browser, console: Console, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A phone-sized page: the drawer is temporary and holds the account menu."""
    ctx = browser.new_context(
        base_url=console.url,
        viewport=MOBILE,
        is_mobile=True,
        has_touch=True,
        timezone_id=module_timezone(request),
    )
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


def pytest_deselected(items: list[pytest.Item]) -> None:
    DESELECTED.extend(items)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With every browser test run, every screen of the console's router had an axe check."""
    files = {Path(str(item.fspath)) for item in getattr(session, "items", [])}
    ran = not session.config.option.collectonly
    if not ran or DESELECTED or files != set(E2E.glob("test_*.py")):
        return
    UNCHECKED.extend(sorted(console_routes() - CHECKED_ROUTES))
    if UNCHECKED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if UNCHECKED:
        terminalreporter.write_sep("=", "screens with no accessibility check", red=True)
        for route in UNCHECKED:
            terminalreporter.write_line(route)
