"""A production install: the wheel, installed with its runtime dependencies only (the lock's
versions, no dev group) into a clean virtual environment, serves from outside the source
tree, with its own migrations and the built console."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import psycopg
from alembic.script import ScriptDirectory

from tagtrack.core.db import sync_url
from tagtrack.core.migrate import alembic_config
from tests.database import fresh_database
from tests.serve import ROOT, serve


def uv() -> str:
    found = shutil.which("uv") or str(Path.home() / ".local/bin/uv")
    assert Path(found).is_file(), "uv is missing: scripts/install.sh installs it"
    return found


def run(*args: str, cwd: Path = ROOT) -> str:
    # The clean environment must not see this one (VIRTUAL_ENV would redirect uv).
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_wheel_installs_without_dev_dependencies_and_serves(tmp_path: Path) -> None:
    assert (ROOT / "web/dist/index.html").is_file(), "build the console first (scripts/install.sh)"
    run(uv(), "build", "--wheel", "--out-dir", str(tmp_path / "dist"))
    (wheel,) = (tmp_path / "dist").glob("tagtrack-*.whl")
    constraints = tmp_path / "constraints.txt"
    run(uv(), "export", "--frozen", "--no-dev", "--no-hashes", "--no-emit-project",
        "-o", str(constraints))  # fmt: skip
    venv = tmp_path / "venv"
    run(uv(), "venv", "--quiet", "--python", sys.executable, str(venv))
    python = venv / "bin/python"
    # Compiled as pip (the documented install) compiles by default.
    run(uv(), "pip", "install", "--quiet", "--compile-bytecode", "--python", str(python),
        "-c", str(constraints), str(wheel))  # fmt: skip

    # Installed in the venv, with no dev tools, finding its files inside the package.
    where = run(
        str(python),
        "-c",
        "import importlib.util as u, tagtrack.core.migrate as m, tagtrack.core.config as c; "
        "print(m.MIGRATIONS); print(c.DEFAULT_WEB_DIST); "
        "print([n for n in ('pytest', 'playwright', 'mypy') if u.find_spec(n)])",
        cwd=tmp_path,
    ).split("\n")
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert where[:3] == [str(site / "tagtrack/migrations"), str(site / "tagtrack/web"), "[]"]

    with fresh_database() as url:
        env = {"TAGTRACK_DATABASE_URL": url, "TAGTRACK_DATA_DIR": str(tmp_path / "data")}
        with serve(env, program=venv / "bin/tagtrack", cwd=tmp_path) as served:
            assert httpx.get(f"{served.url}/healthz").status_code == 200
            schema = httpx.get(f"{served.url}/api/openapi.json")
            assert schema.status_code == 200
            assert "/api/ingest/reads" in schema.json()["paths"]
            page = httpx.get(f"{served.url}/things")
            assert page.status_code == 200
            assert page.text == (site / "tagtrack/web/index.html").read_text()
            script = page.text.split('src="', 1)[1].split('"', 1)[0]
            asset = httpx.get(f"{served.url}{script}")
            assert asset.status_code == 200
            assert asset.headers["content-type"].startswith("text/javascript")
        # Every migration of this tree ran from the installed copy.
        head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
        with psycopg.connect(sync_url(url).replace("+psycopg", "")) as db:
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
        assert row == (head,)
