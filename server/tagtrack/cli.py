"""The `tagtrack` command: serve, process, migrate, createsuperuser, seed-demo, simulate,
import, openapi."""

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from tagtrack.core.config import Settings, get_settings
from tagtrack.core.db import create_engine, create_sessionmaker, resolve_database_url
from tagtrack.core.logging import configure_logging
from tagtrack.core.migrate import upgrade

app = typer.Typer(help="TagTrack server", no_args_is_help=True)


@app.callback()
def _logging() -> None:
    configure_logging(get_settings().log_json)


@contextlib.contextmanager
def _metrics_directory() -> Iterator[None]:
    """A directory of this run's own where the server and its processing child write their
    metrics, so that /metrics adds up both (prometheus_client reads the variable when it is
    first imported: this comes before). Removed when the server stops."""
    if "prometheus_client" in sys.modules:  # too late: this process's own metrics only
        yield
        return
    folder = tempfile.mkdtemp(prefix="tagtrack-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    try:
        yield
    finally:
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
        shutil.rmtree(folder, ignore_errors=True)


def _database(settings: Settings) -> str:
    url = resolve_database_url(settings.database_url, settings.data_dir)
    upgrade(url)
    return url


def _banner(lines: list[str]) -> None:
    width = max(len(line) for line in lines) + 4
    typer.echo("=" * width)
    for line in lines:
        typer.echo(f"  {line}")
    typer.echo("=" * width, err=False)


async def _first_start(url: str, settings: Settings, demo: bool) -> None:
    from tagtrack.bootstrap import ensure_first_start
    from tagtrack.demo.floorplan import store_demo_floor_plans
    from tagtrack.demo.seed import SITES, seed_demo
    from tagtrack.images.demo import seed_demo_images
    from tagtrack.images.storage import storage_from_settings

    engine = create_engine(url)
    maker = create_sessionmaker(engine)
    try:
        first = await ensure_first_start(maker, settings)
        if first is not None:
            lines = ["TagTrack first start: super admin created", f"Username: {first.username}"]
            if first.generated:
                lines.append(f"Password: {first.password}   (shown once; change it in Profile)")
            _banner(lines)
        if demo:
            seeded = await seed_demo(maker)
            storage = storage_from_settings(settings)
            await seed_demo_images(maker, storage)
            await store_demo_floor_plans(maker, storage, [site["name"] for site in SITES])
            if seeded is not None:
                _banner(
                    [
                        "Demo data created. Demo users (one password for all):",
                        *seeded.usernames,
                        f"Demo password: {seeded.password}   (shown once)",
                    ]
                )
    finally:
        await engine.dispose()


@app.command()
def serve(
    demo: Annotated[bool, typer.Option(help="Seed demo data on first start")] = False,
    host: Annotated[str | None, typer.Option(help="Listen address")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default TAGTRACK_PORT or 8000)")] = None,
) -> None:
    """Migrate, create the first organization if needed, and serve API and console."""
    with _metrics_directory():
        _serve(demo, host, port)


def _serve(demo: bool, host: str | None, port: int | None) -> None:
    from tagtrack.core.workers import supervise, worker_count
    from tagtrack.ingest.service import Admission

    settings = get_settings().model_copy(
        update={
            "demo": demo or get_settings().demo,
            "host": host or get_settings().host,
            "port": port or get_settings().port,
        }
    )
    url = _database(settings)
    asyncio.run(_first_start(url, settings, settings.demo))
    # Until the supervisor takes the signals over: exiting through Python (not the default
    # handler) lets the embedded PostgreSQL be stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    admission = Admission(pool_size=settings.database_pool_size)
    code = asyncio.run(supervise(settings, url, worker_count(settings), admission))
    if code:
        sys.exit(code)


async def _ensure_partitions(url: str) -> list[str]:
    from tagtrack.core.partitions import ensure_partitions
    from tagtrack.models.base import utcnow

    engine = create_engine(url)
    try:
        return await ensure_partitions(create_sessionmaker(engine), utcnow())
    finally:
        await engine.dispose()


@app.command()
def process() -> None:
    """Process acknowledged reads and run the sweeps, without serving HTTP (a worker)."""
    from tagtrack.processing.process import foreground

    settings = get_settings()
    url = _database(settings)
    asyncio.run(foreground(url, settings))


@app.command()
def migrate() -> None:
    """Bring the database schema up to date, with history partitions for the coming months."""
    url = _database(get_settings())
    for name in asyncio.run(_ensure_partitions(url)):
        typer.echo(f"Created partition {name}")
    typer.echo("Database is up to date")


@app.command()
def createsuperuser(
    email: Annotated[str, typer.Option(prompt=True, help="Username (an email)")],
    name: Annotated[str, typer.Option(prompt=True)],
    password: Annotated[str, typer.Option(prompt=True, hide_input=True)],
) -> None:
    """Add a super admin to the first organization."""
    from sqlalchemy import select

    from tagtrack.bootstrap import create_super_admin, ensure_first_start
    from tagtrack.models import Organization
    from tagtrack.users.repository import UserRepository

    settings = get_settings()
    url = _database(settings)

    async def run() -> None:
        engine = create_engine(url)
        maker = create_sessionmaker(engine)
        try:
            await ensure_first_start(
                maker,
                settings.model_copy(update={"admin_email": email, "admin_password": password}),
            )
            async with maker() as session, session.begin():
                org_id = (
                    await session.execute(
                        select(Organization.id).order_by(Organization.time_created).limit(1)
                    )
                ).scalar_one()
                if not await UserRepository(session).username_taken(email):
                    await create_super_admin(session, org_id, name, email, password)
        finally:
            await engine.dispose()

    try:
        asyncio.run(run())
    except ValueError as problem:
        raise typer.BadParameter(str(problem)) from problem
    typer.echo(f"Super admin {email} is ready")


@app.command()
def simulate(
    url: Annotated[str, typer.Option(help="The TagTrack server to feed")] = "",
    interval: Annotated[float, typer.Option(help="Seconds between rounds of reads")] = 2.0,
    rounds: Annotated[int | None, typer.Option(help="Stop after this many rounds")] = None,
) -> None:
    """Feed a server's ingest API with simulated readers of the sites in its database."""
    from tagtrack.demo.simulator import Simulator

    settings = get_settings()
    database = _database(settings)
    target = url or f"http://127.0.0.1:{settings.port}"

    async def run() -> None:
        engine = create_engine(database)
        try:
            simulator = Simulator(create_sessionmaker(engine), target)
            await simulator.run(interval=interval, ticks=rounds)
            typer.echo(f"Sent {simulator.sent} reads to {target}")
        finally:
            await engine.dispose()

    asyncio.run(run())


@app.command("seed-demo")
def seed_demo_command() -> None:
    """Add the demo sites and users (once)."""
    settings = get_settings()
    url = _database(settings)
    asyncio.run(_first_start(url, settings, demo=True))


@app.command("import")
def import_assets(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="The .xlsx workbook")],
    site: Annotated[str, typer.Option(help="The site's id or name")],
    zone: Annotated[str, typer.Option(help="Put the items in this zone (id or name)")] = "",
    mapping: Annotated[
        list[str] | None,
        typer.Option(
            "--map",
            help="HEADER=FIELD (repeatable). Default: the site's saved mapping, else the "
            "headers named like the fields name, description, serial, tags, tags1, tags2, "
            "categories, labels",
        ),
    ] = None,
) -> None:
    """Import a workbook's rows as items of a site, as Import Assets does (duplicates are
    filled in); rows are read as a stream, so any size works."""
    from rich.console import Console
    from rich.progress import Progress

    from tagtrack.imports.batch import ImportFailed, import_workbook

    settings = get_settings()
    url = _database(settings)

    async def run() -> None:
        engine = create_engine(url)
        try:
            # Progress and failed rows on stderr; the summary alone on stdout.
            with Progress(console=Console(stderr=True), transient=True) as progress:
                task = progress.add_task("Importing", total=None)
                outcome = await import_workbook(
                    create_sessionmaker(engine),
                    settings,
                    file,
                    site=site,
                    zone=zone,
                    mapping_options=mapping or [],
                    started=lambda total: progress.update(task, total=total),
                    advanced=lambda rows: progress.advance(task, rows),
                    failed=lambda error: progress.console.print(
                        error, markup=False, soft_wrap=True
                    ),
                )
        finally:
            await engine.dispose()
        for name in dict.fromkeys(outcome.created_categories):
            typer.echo(f"Created new category: {name}")
        typer.echo(
            f"{outcome.uploaded} of {outcome.total} items uploaded "
            f"({outcome.duplicates} duplicates filled in, {outcome.errors} errors)"
        )
        if outcome.errors:
            raise typer.Exit(1)

    try:
        asyncio.run(run())
    except ImportFailed as problem:
        typer.echo(f"Error: {problem}", err=True)
        raise typer.Exit(2) from problem


@app.command()
def openapi(output: Annotated[Path, typer.Argument(help="Where to write the schema")]) -> None:
    """Write the OpenAPI schema (the console's client is generated from it)."""
    from tagtrack.main import create_app

    schema = create_app(Settings(web_dist=Path("/nonexistent"))).openapi()
    output.write_text(json.dumps(schema, indent=2, sort_keys=False) + "\n")


if __name__ == "__main__":
    app()
