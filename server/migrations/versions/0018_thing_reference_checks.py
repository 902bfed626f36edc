"""things' references checked per statement, not by foreign keys

Processing writes the state of thousands of things per batch in one UPDATE, and a thing
that moved changes its zone, endpoint or location tag: the foreign keys checked each such
row with a query per key, about two thirds of that UPDATE's time. The rules now hold per
statement, with migration 0016's check_org_references(): a statement adding or updating
things checks (and locks FOR KEY SHARE) the distinct sites, zones, endpoints and location
tags its rows refer to. Deleting a site deletes its things; deleting a zone, an endpoint or
a location tag empties that reference of its things (as ON DELETE CASCADE / SET NULL did).
A refused row raises foreign_key_violation (SQLSTATE 23503).

Revision ID: 0018_thing_reference_checks
Revises: 0017_pending_reads_org_check

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018_thing_reference_checks"
down_revision: str | None = "0017_pending_reads_org_check"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (parent table, referring column, what deleting the parent does)
REFERENCES = [
    ("sites", "site_id", "CASCADE"),
    ("zones", "zone_id", "SET NULL"),
    ("endpoints", "endpoint_id", "SET NULL"),
    ("location_tags", "location_tag_id", "SET NULL"),
]


def upgrade() -> None:
    op.execute("ALTER TABLE things DROP CONSTRAINT fk_things_org_id_organizations")
    for parent, column, _ in REFERENCES:
        op.execute(f"ALTER TABLE things DROP CONSTRAINT fk_things_{column}_{parent}")
    arguments = ", ".join(f"'{parent}', '{column}'" for parent, column, _ in REFERENCES)
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER things_references_{event.lower()} AFTER {event} ON things "
            "REFERENCING NEW TABLE AS added FOR EACH STATEMENT "
            f"EXECUTE FUNCTION check_org_references({arguments})"
        )
    for parent, column, action in REFERENCES:
        where = f"t.org_id = g.org_id AND t.{column} = g.id"
        if action == "CASCADE":
            statement = f"DELETE FROM things t USING gone g WHERE {where};"
        else:
            statement = f"UPDATE things t SET {column} = NULL FROM gone g WHERE {where};"
        op.execute(f"""
            CREATE FUNCTION remove_things_of_{parent}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                {statement}
                RETURN NULL;
            END $$
        """)
        op.execute(
            f"CREATE TRIGGER {parent}_things_removed AFTER DELETE ON {parent} "
            "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT "
            f"EXECUTE FUNCTION remove_things_of_{parent}()"
        )


def downgrade() -> None:
    for parent, _, _ in REFERENCES:
        op.execute(f"DROP TRIGGER {parent}_things_removed ON {parent}")
        op.execute(f"DROP FUNCTION remove_things_of_{parent}()")
    for event in ("INSERT", "UPDATE"):
        op.execute(f"DROP TRIGGER things_references_{event.lower()} ON things")
    op.execute(
        "ALTER TABLE things ADD CONSTRAINT fk_things_org_id_organizations "
        "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
    )
    for parent, column, action in REFERENCES:
        on_delete = f"SET NULL ({column})" if action == "SET NULL" else "CASCADE"
        op.execute(
            f"ALTER TABLE things ADD CONSTRAINT fk_things_{column}_{parent} "
            f"FOREIGN KEY (org_id, {column}) REFERENCES {parent} (org_id, id) "
            f"ON DELETE {on_delete}"
        )
