"""The container files agree with the program: compose.yaml sets only variables that the
README documents and Settings reads, names only services and volumes it defines, and the
image runs `tagtrack serve` as an unprivileged user. (test_wheel_install.py builds and runs
what the image's build stage builds: the console, the wheel, its runtime dependencies.)"""

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from tagtrack.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return loaded


def documented_variables() -> set[str]:
    """The names in the README's configuration table (`HOST`, `PORT` share a row)."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return {
        f"TAGTRACK_{name}" for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[1])
    }


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """Each stage's instructions as (keyword, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    stages: list[list[tuple[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keyword, _, arguments = line.strip().partition(" ")
        if keyword.upper() == "FROM":
            stages.append([])
        stages[-1].append((keyword.upper(), arguments.strip()))
    return stages


def test_compose_sets_only_documented_settings_and_names_its_own_services() -> None:
    config = compose()
    services: dict[str, Any] = config["services"]
    assert {"tagtrack", "postgres", "mosquitto", "seaweedfs"} <= set(services)
    app = services["tagtrack"]
    environment: dict[str, str] = app["environment"]
    image_env = dict(
        re.findall(
            r"(TAGTRACK_\w+)=(\S+)", " ".join(a for k, a in dockerfile_stages()[-1] if k == "ENV")
        )
    )
    ours = {name for name in [*environment, *image_env] if name.startswith("TAGTRACK_")}
    assert len(ours) >= 10
    accepted = {f"TAGTRACK_{name.upper()}" for name in Settings.model_fields}
    assert sorted(ours - accepted) == [], "variables Settings does not read"
    assert sorted(ours - documented_variables()) == [], "variables the README does not document"

    # Every service the application depends on or connects to is defined here.
    assert set(app["depends_on"]) <= set(services)
    urls = [environment["TAGTRACK_DATABASE_URL"], environment["TAGTRACK_MQTT_URL"]]
    urls.append(environment["AWS_ENDPOINT_URL_S3"])
    hosts = {re.sub(r"^\w+://([^@/]*@)?([\w-]+).*", r"\2", url) for url in urls}
    assert hosts == {"postgres", "mosquitto", "seaweedfs"}
    assert environment["TAGTRACK_STORAGE_URL"].startswith("s3://")
    assert services["mosquitto"]["image"].startswith("eclipse-mosquitto:")
    # Named volumes are declared; bound files exist in the repository.
    for service in services.values():
        assert service.get("build", ".") == "." and ("image" in service)
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("./"):
                assert (ROOT / source).is_file(), source
            else:
                assert source in config["volumes"], source
    # The database credentials the application uses are the ones PostgreSQL is given.
    db = services["postgres"]["environment"]
    assert f"//{db['POSTGRES_USER']}:" in environment["TAGTRACK_DATABASE_URL"]
    assert environment["TAGTRACK_DATABASE_URL"].endswith(f"/{db['POSTGRES_DB']}")

    docker = shutil.which("docker")
    usable = docker and subprocess.run([docker, "info"], capture_output=True).returncode == 0
    if usable:  # also let Docker itself read the file, where a daemon runs
        env = {"POSTGRES_PASSWORD": "x", "S3_SECRET_KEY": "y", "PATH": "/usr/bin:/bin"}
        checked = subprocess.run(
            [str(docker), "compose", "config", "--quiet"], cwd=ROOT, env=env, capture_output=True
        )
        assert checked.returncode == 0, checked.stderr


def test_image_builds_the_console_then_runs_tagtrack_serve_unprivileged() -> None:
    stages = dockerfile_stages()
    assert len(stages) == 3
    console, build, final = stages
    assert console[0][1].startswith("node:") and console[0][1].endswith(" AS console")
    assert ("RUN", "npm run build") in console
    assert ("COPY", "--from=console /src/web/dist web/dist") in build
    assert any(k == "RUN" and "uv build --wheel" in a and "--no-dev" in a for k, a in build)
    assert final[0][1].startswith("python:") and "slim" in final[0][1]
    # The same Python in the stage that makes the venv and the one that runs it.
    assert final[0][1] == build[0][1].removesuffix(" AS build")
    instructions = dict(final)
    assert instructions["USER"] not in ("root", "0")
    command = json.loads(instructions["ENTRYPOINT"]) + json.loads(instructions["CMD"])
    assert command == ["tagtrack", "serve"]
    assert "TAGTRACK_HOST=0.0.0.0" in instructions["ENV"]
    # What the image copies from the repository is there.
    for keyword, arguments in [*console, *build]:
        if keyword == "COPY" and not arguments.startswith("--from"):
            for source in arguments.split()[:-1]:
                assert (ROOT / source).exists(), source
