"""Run the Alembic migrations: tagtrack/migrations in an installed wheel, server/migrations
in the source tree."""

from pathlib import Path

from alembic import command
from alembic.config import Config

from tagtrack.core.db import sync_url

_PACKAGED = Path(__file__).resolve().parents[1] / "migrations"
MIGRATIONS = _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)
