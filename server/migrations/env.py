"""Alembic environment: synchronous psycopg, one migration run at a time."""

from alembic import context
from sqlalchemy import create_engine, pool, text

from tagtrack.models import Base

# Several server processes may start at once; one migrates, the others wait.
MIGRATION_LOCK = 7_345_001

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=pool.NullPool)
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()
        try:
            context.configure(connection=connection, target_metadata=target_metadata)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
    engine.dispose()


run_migrations_online()
