"""organisations, users, roles, sites, settings

Revision ID: 0001
Revises:
Create Date: 2026-11-22 01:55:46.805404
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Trigram matching backs the fuzzy `search2` list parameter.
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
    )
    op.create_index(
        "ix_login_failures_client_time", "login_failures", ["client", "time"], unique=False
    )
    op.create_table(
        "organizations",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("subdomain", sa.String(length=63), nullable=False),
        sa.Column("okta_enabled", sa.Boolean(), nullable=False),
        sa.Column("entra_enabled", sa.Boolean(), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_organizations")),
        sa.UniqueConstraint("subdomain", name=op.f("uq_organizations_subdomain")),
    )
    op.create_table(
        "org_settings",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column(
            "settings",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_org_settings_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", name=op.f("pk_org_settings")),
    )
    op.create_table(
        "roles",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_roles_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_roles")),
        sa.UniqueConstraint("org_id", "name", name=op.f("uq_roles_org_id")),
    )
    op.create_index(op.f("ix_roles_org_id"), "roles", ["org_id"], unique=False)
    op.create_table(
        "sites",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("start_date", sa.DateTime(timezone=True), nullable=False),
        sa.Column("address_line1", sa.String(length=200), nullable=False),
        sa.Column("address_line2", sa.String(length=200), nullable=False),
        sa.Column("city", sa.String(length=100), nullable=False),
        sa.Column("state", sa.String(length=100), nullable=False),
        sa.Column("country", sa.String(length=100), nullable=False),
        sa.Column("zipcode", sa.String(length=20), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("report_daily_time", sa.String(length=5), nullable=False),
        sa.Column(
            "report_emails",
            postgresql.ARRAY(sa.String(length=254)),
            server_default=sa.text("'{}'"),
            nullable=False,
        ),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_sites_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sites")),
        sa.UniqueConstraint("org_id", "name", name=op.f("uq_sites_org_id")),
    )
    op.create_index(op.f("ix_sites_org_id"), "sites", ["org_id"], unique=False)
    op.create_table(
        "users",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("username", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
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
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("failed_logins", sa.Integer(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_users_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_index(op.f("ix_users_org_id"), "users", ["org_id"], unique=False)
    op.create_index(
        "uq_users_username_lower", "users", [sa.literal_column("lower(username)")], unique=True
    )
    op.create_table(
        "access_rules",
        sa.Column("role_id", sa.String(length=24), nullable=False),
        sa.Column("resource", sa.String(length=50), nullable=False),
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("create", sa.Boolean(), nullable=False),
        sa.Column("modify", sa.Boolean(), nullable=False),
        sa.Column("delete", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_access_rules_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["role_id"],
            ["roles.id"],
            name=op.f("fk_access_rules_role_id_roles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("role_id", "resource", name=op.f("pk_access_rules")),
    )
    op.create_index(op.f("ix_access_rules_org_id"), "access_rules", ["org_id"], unique=False)
    op.create_table(
        "site_settings",
        sa.Column("site_id", sa.String(length=24), nullable=False),
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column(
            "settings",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_site_settings_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["site_id"],
            ["sites.id"],
            name=op.f("fk_site_settings_site_id_sites"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("site_id", name=op.f("pk_site_settings")),
    )
    op.create_index(op.f("ix_site_settings_org_id"), "site_settings", ["org_id"], unique=False)
    op.create_table(
        "user_sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=24), nullable=False),
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_user_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_user_sessions")),
    )
    op.create_index(op.f("ix_user_sessions_user_id"), "user_sessions", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_user_sessions_user_id"), table_name="user_sessions")
    op.drop_table("user_sessions")
    op.drop_index(op.f("ix_site_settings_org_id"), table_name="site_settings")
    op.drop_table("site_settings")
    op.drop_index(op.f("ix_access_rules_org_id"), table_name="access_rules")
    op.drop_table("access_rules")
    op.drop_index("uq_users_username_lower", table_name="users")
    op.drop_index(op.f("ix_users_org_id"), table_name="users")
    op.drop_table("users")
    op.drop_index(op.f("ix_sites_org_id"), table_name="sites")
    op.drop_table("sites")
    op.drop_index(op.f("ix_roles_org_id"), table_name="roles")
    op.drop_table("roles")
    op.drop_table("org_settings")
    op.drop_table("organizations")
    op.drop_index("ix_login_failures_client_time", table_name="login_failures")
    op.drop_table("login_failures")
