"""Security headers on every answer: data, refusals, errors, the console's files; HSTS only
behind HTTPS."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tagtrack.core.config import Settings
from tagtrack.main import create_app
from tests.conftest import Org, make_client

COMMON = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def assert_secure(response: httpx.Response, csp_part: str) -> None:
    for name, value in COMMON.items():
        assert response.headers.get(name) == value, (name, response.status_code)
    policy = response.headers["content-security-policy"]
    assert csp_part in policy and "frame-ancestors 'none'" in policy, policy


@pytest.fixture
async def console_app(database_url: str, settings: Settings, tmp_path: Path) -> AsyncIterator[Any]:
    """An app serving a small built console, behind a trusted proxy at 10.9.9.9."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>TagTrack</title>")
    (tmp_path / "assets" / "app.js").write_text("console.log('tagtrack')")
    changes = {"web_dist": tmp_path, "trusted_proxies": "10.9.9.9"}
    application = create_app(settings.model_copy(update=changes), database_url=database_url)
    async with application.router.lifespan_context(application):
        yield application


async def test_api_answers_and_refusals_carry_the_headers(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    for response in (
        await admin.get("/api/zones"),
        await anonymous.get("/api/users/me"),
        await admin.get("/api/zones/0123456789abcdef01234567"),
        await admin.get("/api/no-such-route"),
        await admin.post("/api/zones", content=b"{not json"),
        await admin.post("/api/zones", content=b"x" * (3 * 1024 * 1024)),
        await admin.post("/api/zones", json={}, headers={"Sec-Fetch-Site": "cross-site"}),
    ):
        assert response.status_code in (200, 401, 403, 404, 413, 422), response.text
        assert_secure(response, "default-src 'none'")
        assert response.headers["cache-control"] == "no-store"
        assert "strict-transport-security" not in response.headers


async def test_console_files_carry_the_consoles_policy(console_app) -> None:
    async with make_client(console_app) as client:
        for path in ("/", "/items", "/assets/app.js", "/assets/missing.js"):
            response = await client.get(path)
            assert_secure(response, "script-src 'self'")
        docs = await client.get("/api/docs")
        # Scripts from this origin only: Swagger UI is served here, its start script too.
        assert_secure(docs, "script-src 'self';")


async def test_hsts_only_behind_https_from_the_trusted_proxy(console_app) -> None:
    https = {"X-Forwarded-Proto": "https"}
    async with make_client(console_app, "10.9.9.9") as proxy:
        for path in ("/", "/api/version", "/api/users/me"):
            response = await proxy.get(path, headers=https)
            assert response.headers["strict-transport-security"].startswith("max-age=31536000")
        assert "strict-transport-security" not in (await proxy.get("/")).headers
    async with make_client(console_app, "10.1.2.3") as direct:
        response = await direct.get("/", headers=https)
        assert "strict-transport-security" not in response.headers
