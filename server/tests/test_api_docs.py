"""The interactive API docs work offline: the page loads Swagger UI and its start script from
this server only, under a policy that allows no other origin and no inline script."""

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tagtrack.core.config import Settings
from tagtrack.main import create_app
from tests.conftest import make_client

DIST = Path(__file__).resolve().parents[2] / "web" / "dist"
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


@pytest.fixture
async def built_app(database_url: str, settings: Settings) -> AsyncIterator[Any]:
    assert (DIST / "swagger-ui").is_dir(), "build the console first (cd web && npm run build)"
    application = create_app(settings.model_copy(update={"web_dist": DIST}), database_url)
    async with application.router.lifespan_context(application):
        yield application


async def test_docs_load_every_asset_from_this_server(built_app) -> None:
    async with make_client(built_app) as client:
        page = await client.get("/api/docs")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        policy = page.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "http" not in policy, policy
        assert "<script>" not in page.text  # no inline script: the policy would block it
        urls = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert len(urls) == 4, urls  # icon, stylesheet, Swagger UI, start script
        for url in urls:
            assert url.startswith("/") and not url.startswith("//"), url
            asset = await client.get(url)
            assert asset.status_code == 200, url
            assert asset.headers["content-type"].startswith(TYPES[Path(url).suffix]), url
            assert asset.content, url
        init = await client.get("/api/docs/init.js")
        assert '"/api/openapi.json"' in init.text
        bundle = await client.get("/api/docs/ui/swagger-ui-bundle.js")
        assert b"SwaggerUIBundle" in bundle.content
