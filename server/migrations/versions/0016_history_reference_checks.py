"""history references checked per statement: events and zone durations lose their foreign keys

A foreign key checks each new row on its own: one query per row and per key, four for a
visit. Processing writes thousands of events and visits per batch with COPY, and those
checks were most of its COPY time. The same rules now hold per statement:

- a statement adding history rows checks the distinct (org_id, key) pairs it added, and
  locks those parents FOR KEY SHARE, as a foreign key does, until the transaction ends;
- an update that changes a history row's reference checks that row;
- deleting a site removes its events and visits, a thing or a zone its visits, and an
  endpoint leaves its events with no endpoint (as ON DELETE CASCADE / SET NULL did).

A refused row raises foreign_key_violation (SQLSTATE 23503), as the foreign key did. An
organization's deletion reaches its history through its sites.

Revision ID: 0016_history_reference_checks
Revises: 0015_principal_notices

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0016_history_reference_checks"
down_revision: str | None = "0015_principal_notices"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# table -> (parent table, referring column, what deleting the parent does)
REFERENCES = {
    "events": [("sites", "site_id", "CASCADE"), ("endpoints", "endpoint_id", "SET NULL")],
    "zone_durations": [
        ("sites", "site_id", "CASCADE"),
        ("things", "thing_id", "CASCADE"),
        ("zones", "zone_id", "CASCADE"),
    ],
}
PARENTS = sorted({parent for references in REFERENCES.values() for parent, _, _ in references})


def upgrade() -> None:
    for table in REFERENCES:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT fk_{table}_org_id_organizations")
        for parent, column, _ in REFERENCES[table]:
            op.execute(f"ALTER TABLE {table} DROP CONSTRAINT fk_{table}_{column}_{parent}")

    # The error a foreign key gives, with the same SQLSTATE.
    op.execute("""
        CREATE FUNCTION refuse_reference(child text, parent text, key text, org text, id text)
        RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            RAISE foreign_key_violation USING
                MESSAGE = format(
                    'insert or update on table "%s" violates its reference to "%s"',
                    child, parent),
                DETAIL = format(
                    'Key (org_id, %s)=(%s, %s) is not present in table "%s".',
                    key, org, id, parent);
        END $$
    """)
    # For any table with org_id. Arguments: pairs of (parent table, referring column); `added`
    # is the statement's rows.
    op.execute("""
        CREATE FUNCTION check_org_references() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            parent text;
            key text;
            wanted bigint;
            held bigint;
            org text;
            missing text;
        BEGIN
            FOR n IN 0 .. TG_NARGS - 1 BY 2 LOOP
                parent := TG_ARGV[n];
                key := TG_ARGV[n + 1];
                EXECUTE format(
                    'WITH refs AS (SELECT DISTINCT org_id, %1$I AS id FROM added'
                    '              WHERE %1$I IS NOT NULL),'
                    '     held AS (SELECT 1 FROM %2$I p JOIN refs r'
                    '              ON p.org_id = r.org_id AND p.id = r.id FOR KEY SHARE OF p)'
                    ' SELECT (SELECT count(*) FROM refs), (SELECT count(*) FROM held)',
                    key, parent) INTO wanted, held;
                IF held < wanted THEN
                    EXECUTE format(
                        'SELECT a.org_id, a.%1$I FROM added a WHERE a.%1$I IS NOT NULL'
                        ' AND NOT EXISTS (SELECT 1 FROM %2$I p'
                        '                 WHERE p.org_id = a.org_id AND p.id = a.%1$I)'
                        ' LIMIT 1',
                        key, parent) INTO org, missing;
                    PERFORM refuse_reference(TG_TABLE_NAME, parent, key, org, missing);
                END IF;
            END LOOP;
            RETURN NULL;
        END $$
    """)
    # An update that changes a reference: that row alone (the trigger's WHEN picks them).
    op.execute("""
        CREATE FUNCTION check_org_row_references() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            parent text;
            key text;
            wanted text;
            held integer;
        BEGIN
            FOR n IN 0 .. TG_NARGS - 1 BY 2 LOOP
                parent := TG_ARGV[n];
                key := TG_ARGV[n + 1];
                wanted := to_jsonb(NEW) ->> key;
                CONTINUE WHEN wanted IS NULL;
                EXECUTE format(
                    'SELECT 1 FROM %I WHERE org_id = $1 AND id = $2 FOR KEY SHARE', parent
                ) INTO held USING NEW.org_id, wanted;
                IF held IS NULL THEN
                    PERFORM refuse_reference(TG_TABLE_NAME, parent, key, NEW.org_id, wanted);
                END IF;
            END LOOP;
            RETURN NULL;
        END $$
    """)
    for table, references in REFERENCES.items():
        arguments = ", ".join(f"'{parent}', '{column}'" for parent, column, _ in references)
        op.execute(
            f"CREATE TRIGGER {table}_references_added AFTER INSERT ON {table} "
            "REFERENCING NEW TABLE AS added FOR EACH STATEMENT "
            f"EXECUTE FUNCTION check_org_references({arguments})"
        )
        # Processing's updates change no reference, and a reference set to null needs none.
        changed = " OR ".join(
            ["OLD.org_id IS DISTINCT FROM NEW.org_id"]
            + [
                f"(NEW.{column} IS NOT NULL AND NEW.{column} IS DISTINCT FROM OLD.{column})"
                for _, column, _ in references
            ]
        )
        op.execute(
            f"CREATE TRIGGER {table}_references_changed AFTER UPDATE ON {table} "
            f"FOR EACH ROW WHEN ({changed}) "
            f"EXECUTE FUNCTION check_org_row_references({arguments})"
        )

    for parent in PARENTS:
        statements = []
        for table, references in REFERENCES.items():
            for referred, column, action in references:
                if referred != parent:
                    continue
                where = f"h.org_id = g.org_id AND h.{column} = g.id"
                if action == "CASCADE":
                    statements.append(f"DELETE FROM {table} h USING gone g WHERE {where};")
                else:
                    statements.append(
                        f"UPDATE {table} h SET {column} = NULL FROM gone g WHERE {where};"
                    )
        body = "\n                ".join(statements)
        op.execute(f"""
            CREATE FUNCTION remove_history_of_{parent}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                {body}
                RETURN NULL;
            END $$
        """)
        op.execute(
            f"CREATE TRIGGER {parent}_history_removed AFTER DELETE ON {parent} "
            "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT "
            f"EXECUTE FUNCTION remove_history_of_{parent}()"
        )


def downgrade() -> None:
    for parent in PARENTS:
        op.execute(f"DROP TRIGGER {parent}_history_removed ON {parent}")
        op.execute(f"DROP FUNCTION remove_history_of_{parent}()")
    for table, references in REFERENCES.items():
        op.execute(f"DROP TRIGGER {table}_references_added ON {table}")
        op.execute(f"DROP TRIGGER {table}_references_changed ON {table}")
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_org_id_organizations "
            "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
        )
        for parent, column, action in references:
            on_delete = f"SET NULL ({column})" if action == "SET NULL" else "CASCADE"
            op.execute(
                f"ALTER TABLE {table} ADD CONSTRAINT fk_{table}_{column}_{parent} "
                f"FOREIGN KEY (org_id, {column}) REFERENCES {parent} (org_id, id) "
                f"ON DELETE {on_delete}"
            )
    op.execute("DROP FUNCTION check_org_references()")
    op.execute("DROP FUNCTION check_org_row_references()")
    op.execute("DROP FUNCTION refuse_reference(text, text, text, text, text)")
