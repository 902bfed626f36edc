"""The first README command's path: serve with demo data on the embedded PostgreSQL."""

import os
import signal
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.serve import serve


@contextmanager
def _login(url: str, username: str, password: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=url, timeout=10) as client:
        response = client.post("/api/auth/login", json={"username": username, "password": password})
        assert response.status_code == 200, response.text
        yield client


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A data folder other users can reach, as a clone's ./data is. Run as root, the embedded
    PostgreSQL runs as a user of its own, whose pg_ctl must reach the folder to stop the
    server cleanly; pytest's tmp_path is private to root, where the stop fell back to a kill
    that could leave postmaster.pid behind."""
    with tempfile.TemporaryDirectory(prefix="tagtrack-serve-") as folder:
        os.chmod(folder, 0o755)
        yield Path(folder) / "data"


def test_serve_demo_on_embedded_postgres_and_restart(data_dir: Path) -> None:
    env = {"TAGTRACK_DATABASE_URL": "", "TAGTRACK_DATA_DIR": str(data_dir)}
    with serve(env, "--demo") as first:
        username = first.printed("Username")
        password = first.printed("Password")
        assert username and password, first.text()
        with _login(first.url, username, password) as client:
            sites = client.get("/api/sites")
            assert sites.status_code == 200
            names = [s["name"] for s in sites.json()]
            assert "Rotterdam Distribution Centre" in names
            assert sites.headers["x-total-count"] == str(len(names))
            assert client.get("/api/users").headers["x-total-count"] == "5"
    assert (data_dir / "pg" / "PG_VERSION").is_file()

    # A second start reuses ./data: nothing is created or printed twice. A service
    # manager stops it with SIGTERM, which must stop the embedded PostgreSQL too.
    with serve(env, "--demo", stop_signal=signal.SIGTERM) as second:
        assert "super admin created" not in second.text()
        assert "Demo data created" not in second.text()
        with _login(second.url, username, password) as client:
            assert client.get("/api/sites").headers["x-total-count"] == str(len(names))
            assert client.get("/api/users").headers["x-total-count"] == "5"
    assert second.process.returncode == 0, second.text()
    assert not (data_dir / "pg" / "postmaster.pid").exists()
