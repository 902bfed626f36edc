"""All tables; import from here so metadata is complete."""

from tagtrack.models.base import Base
from tagtrack.models.org import Organization, OrgSettings
from tagtrack.models.password_reset import PasswordReset
from tagtrack.models.role import AccessRule, Role
from tagtrack.models.site import Site, SiteSettings
from tagtrack.models.user import LoginFailure, User, UserSession

__all__ = [
    "AccessRule",
    "Base",
    "LoginFailure",
    "OrgSettings",
    "Organization",
    "PasswordReset",
    "Role",
    "Site",
    "SiteSettings",
    "User",
    "UserSession",
]
