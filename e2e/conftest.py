"""Browser tests: Playwright drives Debian's Chromium against the real server and console."""

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.database import test_database
from tests.serve import ROOT, serve

ARTIFACTS = ROOT / "e2e" / "artifacts"
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
DESKTOP = {"width": 1366, "height": 860}
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


@pytest.fixture(scope="session")
def console() -> Iterator[Console]:
    if not (ROOT / "web" / "dist" / "index.html").is_file():
        raise RuntimeError("The console is not built: run scripts/install.sh")
    with test_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_ADMIN_EMAIL": ADMIN_EMAIL,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "TAGTRACK_LOGIN_RATE_LIMIT_PER_MINUTE": "1000",
            "TAGTRACK_LOGIN_LOCKOUT_FAILURES": "5",
        }
        with serve(env, "--demo") as served:
            demo_password = served.printed("Demo password")
            assert demo_password, served.text()
            yield Console(served.url, ADMIN_EMAIL, ADMIN_PASSWORD, demo_password)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True
        )
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser, console: Console) -> Iterator[BrowserContext]:
    ctx = browser.new_context(base_url=console.url, viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


def shot(page: Page, name: str) -> Path:
    """Save a screenshot for people to look at; returns its path."""
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sign_in(page: Page, username: str, password: str) -> None:
    page.goto("/login")
    page.get_by_label("Email").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Login").click()
