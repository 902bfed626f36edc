"""seal the SSO client secrets; failed sign-ins remember the username typed

Revision ID: 0008
Revises: 0007

"""

import os
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from tagtrack.core.sealing import seal, unseal

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _install_secret() -> str:
    """The secret the server runs with: TAGTRACK_SECRET_KEY, else the one kept in the database."""
    configured = os.environ.get("TAGTRACK_SECRET_KEY", "")
    if configured:
        return configured
    row = op.get_bind().execute(sa.text("SELECT value FROM install_secrets WHERE name = 'signing'"))
    return str(row.scalar_one())


def _rewrite_secrets(change: Callable[[str, str], str]) -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT org_id, okta_client_secret FROM sso_settings WHERE okta_client_secret <> ''"
        )
    ).all()
    if not rows:
        return
    secret = _install_secret()
    for org_id, stored in rows:
        bind.execute(
            sa.text("UPDATE sso_settings SET okta_client_secret = :value WHERE org_id = :org"),
            {"value": change(secret, stored), "org": org_id},
        )


def upgrade() -> None:
    # A sealed secret is longer than the 500 characters a client secret may have.
    op.alter_column(
        "sso_settings",
        "okta_client_secret",
        type_=sa.String(length=2000),
        existing_type=sa.String(length=500),
        existing_nullable=False,
    )
    _rewrite_secrets(seal)
    op.add_column(
        "login_failures",
        sa.Column("username", sa.String(length=254), server_default="", nullable=False),
    )
    op.create_index(
        "ix_login_failures_username_time", "login_failures", ["username", "time"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_login_failures_username_time", table_name="login_failures")
    op.drop_column("login_failures", "username")
    _rewrite_secrets(unseal)
    op.alter_column(
        "sso_settings",
        "okta_client_secret",
        type_=sa.String(length=500),
        existing_type=sa.String(length=2000),
        existing_nullable=False,
    )
