"""principal notices: a NOTIFY whenever who a session or API key is may have changed

Each server process keeps who a session token or API key is for a few seconds. A change of
what that answer is read from (a session ended, a user edited or deactivated, a role or its
rules, an API key, a site or organisation removed, a session's deadline brought forward)
notifies every process at commit, and each forgets what it kept. Only statements that
touched rows notify; new sessions and the idle deadline moving on do not.

Revision ID: 0015_principal_notices
Revises: 0014_outbox_mail_outbox

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015_principal_notices"
down_revision: str | None = "0014_outbox_mail_outbox"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHANNEL = "tagtrack_principals"
# (table, event, transition table the statement's rows are in)
WATCHED = [
    ("users", "UPDATE", "NEW"),
    ("users", "DELETE", "OLD"),
    ("user_sessions", "DELETE", "OLD"),
    ("roles", "UPDATE", "NEW"),
    ("roles", "DELETE", "OLD"),
    ("access_rules", "INSERT", "NEW"),
    ("access_rules", "UPDATE", "NEW"),
    ("access_rules", "DELETE", "OLD"),
    ("api_keys", "UPDATE", "NEW"),
    ("api_keys", "DELETE", "OLD"),
    ("sites", "DELETE", "OLD"),
    ("organizations", "DELETE", "OLD"),
]


def upgrade() -> None:
    # A transition table holds the statement's rows: a statement that touched none is silent.
    op.execute(f"""
        CREATE FUNCTION notify_principals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM touched) THEN
                PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME);
            END IF;
            RETURN NULL;
        END $$
    """)
    # A session's deadline moving on is its use; brought forward (or anything else changed
    # about it), who it is may be no one now.
    op.execute(f"""
        CREATE FUNCTION notify_principals_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM touched n LEFT JOIN was o
                  ON o.token_hash = n.token_hash AND o.user_id = n.user_id
                 AND o.org_id = n.org_id AND o.created_at = n.created_at
                 AND n.expires_at >= o.expires_at
                WHERE o.token_hash IS NULL
            ) THEN
                PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME);
            END IF;
            RETURN NULL;
        END $$
    """)
    op.execute("""
        CREATE TRIGGER principals_user_sessions_update AFTER UPDATE ON user_sessions
        REFERENCING OLD TABLE AS was NEW TABLE AS touched
        FOR EACH STATEMENT EXECUTE FUNCTION notify_principals_sessions()
    """)
    for table, event, rows in WATCHED:
        op.execute(f"""
            CREATE TRIGGER principals_{table}_{event.lower()} AFTER {event} ON {table}
            REFERENCING {rows} TABLE AS touched
            FOR EACH STATEMENT EXECUTE FUNCTION notify_principals()
        """)
    op.execute(f"""
        CREATE FUNCTION notify_principals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('{CHANNEL}', TG_TABLE_NAME);
            RETURN NULL;
        END $$
    """)
    for table in sorted({table for table, _, _ in WATCHED}):
        op.execute(f"""
            CREATE TRIGGER principals_{table}_truncate AFTER TRUNCATE ON {table}
            FOR EACH STATEMENT EXECUTE FUNCTION notify_principals_truncated()
        """)


def downgrade() -> None:
    for table, event, _ in WATCHED:
        op.execute(f"DROP TRIGGER principals_{table}_{event.lower()} ON {table}")
    for table in sorted({table for table, _, _ in WATCHED}):
        op.execute(f"DROP TRIGGER principals_{table}_truncate ON {table}")
    op.execute("DROP TRIGGER principals_user_sessions_update ON user_sessions")
    op.execute("DROP FUNCTION notify_principals_sessions()")
    op.execute("DROP FUNCTION notify_principals_truncated()")
    op.execute("DROP FUNCTION notify_principals()")
