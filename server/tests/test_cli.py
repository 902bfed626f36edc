"""The `tagtrack` command against a fresh database."""

import os
import subprocess
import sys
from pathlib import Path

import httpx

from tagtrack.core.config import Settings
from tagtrack.main import create_app
from tests.database import fresh_database

TAGTRACK = Path(sys.executable).parent / "tagtrack"


def _run(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TAGTRACK_DATABASE_URL": url, "TAGTRACK_LOG_JSON": "false"}
    return subprocess.run(
        [str(TAGTRACK), *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )


async def test_migrate_then_createsuperuser_signs_in(tmp_path: Path) -> None:
    with fresh_database() as url:
        migrated = _run(url, "migrate")
        assert migrated.returncode == 0, migrated.stderr
        assert "Database is up to date" in migrated.stdout

        weak = _run(
            url,
            "createsuperuser",
            "--email",
            "ops@example.com",
            "--name",
            "Ops",
            "--password",
            "short",
        )
        assert weak.returncode != 0
        assert "Password must be at least 8 characters" in weak.stderr + weak.stdout

        made = _run(
            url,
            "createsuperuser",
            "--email",
            "ops@example.com",
            "--name",
            "Ops Lead",
            "--password",
            "Quiet-Meadow-Compass-19",
        )
        assert made.returncode == 0, made.stderr
        assert "Super admin ops@example.com is ready" in made.stdout

        app = create_app(Settings(data_dir=tmp_path, log_json=False), database_url=url)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                login = {"username": "ops@example.com", "password": "Quiet-Meadow-Compass-19"}
                response = await client.post("/api/auth/login", json=login)
                assert response.status_code == 200, response.text
                assert response.json()["superAdmin"] is True
                orgs = await client.get("/api/organizations")
                assert orgs.headers["x-total-count"] == "1"
            await app.state.engine.dispose()
