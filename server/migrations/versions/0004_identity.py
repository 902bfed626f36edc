"""identity: API keys, single sign-on, audit log, the install secret

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 05:03:56.842024
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("actor_id", sa.String(length=24), nullable=False),
        sa.Column("actor", sa.String(length=300), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target_type", sa.String(length=64), nullable=False),
        sa.Column("target_id", sa.String(length=100), nullable=False),
        sa.Column("target", sa.String(length=300), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column(
            "detail",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index("ix_audit_log_org_id_time", "audit_log", ["org_id", "time"], unique=False)
    op.create_table(
        "install_secrets",
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_install_secrets")),
    )
    # Each installation signs its password reset links with a secret of its own.
    op.execute(
        sa.text("INSERT INTO install_secrets (name, value) VALUES ('signing', :value)").bindparams(
            value=secrets.token_urlsafe(48)
        )
    )
    op.create_table(
        "api_keys",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("token_hint", sa.String(length=16), nullable=False),
        sa.Column(
            "role_ids",
            postgresql.ARRAY(sa.String(length=24)),
            server_default=sa.text("'{}'"),
            nullable=False,
        ),
        sa.Column(
            "site_ids",
            postgresql.ARRAY(sa.String(length=24)),
            server_default=sa.text("'{}'"),
            nullable=False,
        ),
        sa.Column("created_by", sa.String(length=254), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_api_keys_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_keys_token_hash")),
    )
    op.create_index(op.f("ix_api_keys_org_id"), "api_keys", ["org_id"], unique=False)
    op.create_table(
        "sso_logins",
        sa.Column("state_hash", sa.String(length=64), nullable=False),
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("nonce", sa.String(length=100), nullable=False),
        sa.Column("code_verifier", sa.String(length=200), nullable=False),
        sa.Column("redirect_uri", sa.String(length=500), nullable=False),
        sa.Column("referer", sa.String(length=500), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_sso_logins_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("state_hash", name=op.f("pk_sso_logins")),
    )
    op.create_table(
        "sso_settings",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("okta_issuer", sa.String(length=500), nullable=False),
        sa.Column("okta_client_id", sa.String(length=200), nullable=False),
        sa.Column("okta_client_secret", sa.String(length=500), nullable=False),
        sa.Column("entra_tenant", sa.String(length=100), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_sso_settings_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", name=op.f("pk_sso_settings")),
    )


def downgrade() -> None:
    op.drop_table("sso_settings")
    op.drop_table("sso_logins")
    op.drop_index(op.f("ix_api_keys_org_id"), table_name="api_keys")
    op.drop_table("api_keys")
    op.drop_table("install_secrets")
    op.drop_index("ix_audit_log_org_id_time", table_name="audit_log")
    op.drop_table("audit_log")
