"""organisation in every key: primary keys (org_id, id), org_id in unique keys and foreign keys

A database sharded by organisation (Citus, distribution column org_id) allows a primary or
unique key only when it holds org_id, and a foreign key between sharded tables only when
both sides name org_id. So the tenant tables' primary keys become (org_id, id), unique keys
gain org_id, and each foreign key between tenant tables becomes (org_id, x_id) ->
x (org_id, id) with its ON DELETE kept (SET NULL sets only the id column: PostgreSQL 15).
ingest_batches and password_resets gain org_id, filled from their endpoint and user.

What a request names before its organisation is known (a reader's key or endpoint id, an
API token, a username) moves to the global table org_keys, whose primary key keeps each
unique across organisations; the tenant tables keep them unique within one.

Left as they are: events and zone_durations (they are being partitioned by time; their
single-column foreign keys are dropped and made again unchanged, on the UNIQUE (id) kept
for them on sites, endpoints, things and zones); the sign-in state found by a secret token
(user_sessions, password_resets, sso_logins), global tables keyed by the token.

Revision ID: 0010_org_keys
Revises: 0009

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010_org_keys"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# table: (old primary key, new primary key)
PRIMARY_KEYS = {
    "roles": ("id", "org_id, id"),
    "access_rules": ("role_id, resource", "org_id, role_id, resource"),
    "sites": ("id", "org_id, id"),
    "site_settings": ("site_id", "org_id, site_id"),
    "users": ("id", "org_id, id"),
    "api_keys": ("id", "org_id, id"),
    "audit_log": ("id", "org_id, id"),
    "endpoints": ("id", "org_id, id"),
    "endpoint_statuses": ("id", "org_id, id"),
    "zones": ("id", "org_id, id"),
    "zone_gates": ("id", "org_id, id"),
    "location_tags": ("id", "org_id, id"),
    "things": ("id", "org_id, id"),
    "exceptions": ("id", "org_id, id"),
    "pending_reads": ("id", "org_id, id"),
    "raw_payloads": ("id", "org_id, id"),
    "ingest_batches": ("endpoint_id, batch_id", "org_id, endpoint_id, batch_id"),
    "image_categories": ("id", "org_id, id"),
    "images": ("id", "org_id, id"),
    "report_configs": ("id", "org_id, id"),
    "daily_runs": ("id", "org_id, id"),
    "maps": ("id", "org_id, id"),
}

# events and zone_durations still refer to these by id alone.
KEPT_UNIQUE_ID = ("sites", "endpoints", "things", "zones")

# (table, column, referred table, on delete): each becomes (org_id, column).
TENANT_FOREIGN_KEYS = (
    ("access_rules", "role_id", "roles", "CASCADE"),
    ("site_settings", "site_id", "sites", "CASCADE"),
    ("user_sessions", "user_id", "users", "CASCADE"),
    ("password_resets", "user_id", "users", "CASCADE"),
    ("images", "uploader_id", "users", "SET NULL"),
    ("endpoints", "site_id", "sites", "CASCADE"),
    ("endpoint_statuses", "endpoint_id", "endpoints", "CASCADE"),
    ("ingest_batches", "endpoint_id", "endpoints", "CASCADE"),
    ("zones", "site_id", "sites", "CASCADE"),
    ("zone_gates", "zone_id", "zones", "CASCADE"),
    ("zone_gates", "endpoint_id", "endpoints", "CASCADE"),
    ("location_tags", "site_id", "sites", "CASCADE"),
    ("location_tags", "zone_id", "zones", "SET NULL"),
    ("things", "site_id", "sites", "CASCADE"),
    ("things", "zone_id", "zones", "SET NULL"),
    ("things", "endpoint_id", "endpoints", "SET NULL"),
    ("things", "location_tag_id", "location_tags", "SET NULL"),
    ("thing_tags", "thing_id", "things", "CASCADE"),
    ("exceptions", "site_id", "sites", "CASCADE"),
    ("report_configs", "site_id", "sites", "CASCADE"),
    ("daily_runs", "site_id", "sites", "CASCADE"),
    ("maps", "site_id", "sites", "CASCADE"),
)

# The partitioned tables' foreign keys, made again exactly as they were.
UNTOUCHED_FOREIGN_KEYS = (
    ("events", "site_id", "sites", "CASCADE"),
    ("events", "endpoint_id", "endpoints", "SET NULL"),
    ("zone_durations", "site_id", "sites", "CASCADE"),
    ("zone_durations", "thing_id", "things", "CASCADE"),
    ("zone_durations", "zone_id", "zones", "CASCADE"),
)

# name: (table, old columns, new columns)
UNIQUE_KEYS = {
    "zones": ("uq_zones_site_id", "uq_zones_org_id", "site_id, name"),
    "report_configs": ("uq_report_configs_site_id", "uq_report_configs_org_id", "site_id, name"),
    "daily_runs": ("uq_daily_runs_site_id", "uq_daily_runs_org_id", "site_id, kind, day"),
}

# Credentials unique across organisations; org_keys now keeps them so.
CREDENTIAL_KEYS = {
    "endpoints": ("uq_endpoints_key", "uq_endpoints_org_id_key", "key"),
    "api_keys": ("uq_api_keys_token_hash", "uq_api_keys_org_id", "token_hash"),
}

# org_keys rows: (kind, key expression, table); tagtrack/models/org_key.py keeps them after.
ORG_KEYS = (
    ("reader_key", "key", "endpoints"),
    ("endpoint", "id", "endpoints"),
    ("api_token", "token_hash", "api_keys"),
    ("username", "lower(username)", "users"),
)

# Indexes on org_id alone (or org_id, id) that the new primary keys make redundant.
REDUNDANT_INDEXES = {
    "ix_roles_org_id": ("roles", "org_id"),
    "ix_access_rules_org_id": ("access_rules", "org_id"),
    "ix_sites_org_id": ("sites", "org_id"),
    "ix_site_settings_org_id": ("site_settings", "org_id"),
    "ix_users_org_id": ("users", "org_id"),
    "ix_api_keys_org_id": ("api_keys", "org_id"),
    "ix_endpoints_org_id": ("endpoints", "org_id"),
    "ix_zones_org_id": ("zones", "org_id"),
    "ix_location_tags_org_id": ("location_tags", "org_id"),
    "ix_things_org_id": ("things", "org_id"),
    "ix_pending_reads_org_id": ("pending_reads", "org_id, id"),
    "ix_image_categories_org_id": ("image_categories", "org_id"),
    "ix_report_configs_org_id": ("report_configs", "org_id"),
    "ix_daily_runs_org_id": ("daily_runs", "org_id"),
    "ix_maps_org_id": ("maps", "org_id"),
}

# Tables given org_id, filled from their parent: (table, parent, parent key column).
NEW_ORG_COLUMNS = (
    ("ingest_batches", "endpoints", "endpoint_id"),
    ("password_resets", "users", "user_id"),
)


def _fk_name(table: str, column: str, referred: str) -> str:
    return f"fk_{table}_{column}_{referred}"


def upgrade() -> None:
    for table, parent, column in NEW_ORG_COLUMNS:
        op.execute(f"ALTER TABLE {table} ADD COLUMN org_id varchar(24)")
        op.execute(
            f"UPDATE {table} AS t SET org_id = p.org_id FROM {parent} AS p WHERE p.id = t.{column}"
        )
        op.execute(f"ALTER TABLE {table} ALTER COLUMN org_id SET NOT NULL")
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_org_id_organizations "
            "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
        )

    # Foreign keys hang on the primary keys about to change: drop them first.
    for table, column, referred, _ in TENANT_FOREIGN_KEYS + UNTOUCHED_FOREIGN_KEYS:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_fk_name(table, column, referred)}")

    for table in KEPT_UNIQUE_ID:
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT uq_{table}_id UNIQUE (id)")
    for table, (_, new) in PRIMARY_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT pk_{table}, "
            f"ADD CONSTRAINT pk_{table} PRIMARY KEY ({new})"
        )
    for table, (old_name, new_name, columns) in UNIQUE_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {old_name}, "
            f"ADD CONSTRAINT {new_name} UNIQUE (org_id, {columns})"
        )
    op.execute("DROP INDEX uq_exceptions_visit")
    op.execute(
        "CREATE UNIQUE INDEX uq_exceptions_visit ON exceptions (org_id, zone_duration_id) "
        "WHERE zone_duration_id IS NOT NULL"
    )

    for table, column, referred, on_delete in TENANT_FOREIGN_KEYS:
        action = f"SET NULL ({column})" if on_delete == "SET NULL" else on_delete
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column, referred)} "
            f"FOREIGN KEY (org_id, {column}) REFERENCES {referred} (org_id, id) "
            f"ON DELETE {action}"
        )
    for table, column, referred, on_delete in UNTOUCHED_FOREIGN_KEYS:
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column, referred)} "
            f"FOREIGN KEY ({column}) REFERENCES {referred} (id) ON DELETE {on_delete}"
        )

    for name in REDUNDANT_INDEXES:
        op.execute(f"DROP INDEX {name}")

    # What a request names before its organisation is known: global, unique across them.
    op.execute(
        "CREATE TABLE org_keys (kind varchar(16) NOT NULL, key varchar(254) NOT NULL,"
        " org_id varchar(24) NOT NULL, target_id varchar(24) NOT NULL,"
        " CONSTRAINT pk_org_keys PRIMARY KEY (kind, key),"
        " CONSTRAINT fk_org_keys_org_id_organizations FOREIGN KEY (org_id)"
        " REFERENCES organizations (id) ON DELETE CASCADE)"
    )
    op.execute("CREATE INDEX ix_org_keys_org_id ON org_keys (org_id)")
    for kind, key, table in ORG_KEYS:
        op.execute(
            f"INSERT INTO org_keys (kind, key, org_id, target_id)"
            f" SELECT '{kind}', {key}, org_id, id FROM {table}"
        )
    for table, (old_name, new_name, columns) in CREDENTIAL_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {old_name}, "
            f"ADD CONSTRAINT {new_name} UNIQUE (org_id, {columns})"
        )
    op.execute("DROP INDEX uq_users_username_lower")
    op.execute("CREATE UNIQUE INDEX uq_users_org_id_username ON users (org_id, lower(username))")


def downgrade() -> None:
    op.execute("DROP INDEX uq_users_org_id_username")
    op.execute("CREATE UNIQUE INDEX uq_users_username_lower ON users (lower(username))")
    for table, (old_name, new_name, columns) in CREDENTIAL_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {new_name}, "
            f"ADD CONSTRAINT {old_name} UNIQUE ({columns})"
        )
    op.execute("DROP TABLE org_keys")

    for name, (table, columns) in REDUNDANT_INDEXES.items():
        op.execute(f"CREATE INDEX {name} ON {table} ({columns})")

    for table, column, referred, _ in TENANT_FOREIGN_KEYS + UNTOUCHED_FOREIGN_KEYS:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_fk_name(table, column, referred)}")

    op.execute("DROP INDEX uq_exceptions_visit")
    op.execute(
        "CREATE UNIQUE INDEX uq_exceptions_visit ON exceptions (zone_duration_id) "
        "WHERE zone_duration_id IS NOT NULL"
    )
    for table, (old_name, new_name, columns) in UNIQUE_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT {new_name}, "
            f"ADD CONSTRAINT {old_name} UNIQUE ({columns})"
        )
    for table, (old, _) in PRIMARY_KEYS.items():
        op.execute(
            f"ALTER TABLE {table} DROP CONSTRAINT pk_{table}, "
            f"ADD CONSTRAINT pk_{table} PRIMARY KEY ({old})"
        )
    for table in KEPT_UNIQUE_ID:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT uq_{table}_id")

    for table, column, referred, on_delete in TENANT_FOREIGN_KEYS + UNTOUCHED_FOREIGN_KEYS:
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {_fk_name(table, column, referred)} "
            f"FOREIGN KEY ({column}) REFERENCES {referred} (id) ON DELETE {on_delete}"
        )

    for table, _, _ in NEW_ORG_COLUMNS:
        op.execute(f"ALTER TABLE {table} DROP COLUMN org_id")
