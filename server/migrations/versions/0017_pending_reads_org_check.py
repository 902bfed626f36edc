"""pending reads' organization checked per statement, not by a foreign key

Ingest writes every accepted batch into pending_reads with COPY, and the foreign key to
organizations checked each read on its own: about two thirds of the COPY's time. A
statement now checks (and locks FOR KEY SHARE, as the foreign key did) the organizations
of the rows it adds or changes, and deleting an organization deletes its pending reads, as
ON DELETE CASCADE did. A refused row raises foreign_key_violation (SQLSTATE 23503).

Revision ID: 0017_pending_reads_org_check
Revises: 0016_history_reference_checks

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017_pending_reads_org_check"
down_revision: str | None = "0016_history_reference_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE pending_reads DROP CONSTRAINT fk_pending_reads_org_id_organizations")
    op.execute("""
        CREATE FUNCTION check_pending_reads_organization() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            wanted_count bigint;
            held_count bigint;
            missing text;
        BEGIN
            WITH refs AS (SELECT DISTINCT org_id FROM added),
                 held AS (SELECT 1 FROM organizations o JOIN refs r ON o.id = r.org_id
                          FOR KEY SHARE OF o)
            SELECT (SELECT count(*) FROM refs), (SELECT count(*) FROM held)
            INTO wanted_count, held_count;
            IF held_count < wanted_count THEN
                SELECT a.org_id INTO missing FROM added a
                WHERE NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = a.org_id) LIMIT 1;
                RAISE foreign_key_violation USING
                    MESSAGE = 'insert or update on table "pending_reads" violates its '
                              'reference to "organizations"',
                    DETAIL = format(
                        'Key (org_id)=(%s) is not present in table "organizations".', missing);
            END IF;
            RETURN NULL;
        END $$
    """)
    # Inserts and updates alike (the queue's rows are never updated today).
    for event in ("INSERT", "UPDATE"):
        op.execute(
            f"CREATE TRIGGER pending_reads_organization_{event.lower()} AFTER {event} "
            "ON pending_reads REFERENCING NEW TABLE AS added FOR EACH STATEMENT "
            "EXECUTE FUNCTION check_pending_reads_organization()"
        )
    op.execute("""
        CREATE FUNCTION remove_pending_reads_of_organizations() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM pending_reads p USING gone g WHERE p.org_id = g.id;
            RETURN NULL;
        END $$
    """)
    op.execute(
        "CREATE TRIGGER organizations_pending_reads_removed AFTER DELETE ON organizations "
        "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT "
        "EXECUTE FUNCTION remove_pending_reads_of_organizations()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER organizations_pending_reads_removed ON organizations")
    op.execute("DROP FUNCTION remove_pending_reads_of_organizations()")
    for event in ("INSERT", "UPDATE"):
        op.execute(f"DROP TRIGGER pending_reads_organization_{event.lower()} ON pending_reads")
    op.execute("DROP FUNCTION check_pending_reads_organization()")
    op.execute(
        "ALTER TABLE pending_reads ADD CONSTRAINT fk_pending_reads_org_id_organizations "
        "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
    )
