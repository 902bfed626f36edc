"""All tables; import from here so metadata is complete."""

from tagtrack.models.apikey import ApiKey
from tagtrack.models.audit import AuditEntry, InstallSecret
from tagtrack.models.base import Base
from tagtrack.models.org import Organization, OrgSettings
from tagtrack.models.password_reset import PasswordReset
from tagtrack.models.role import AccessRule, Role
from tagtrack.models.site import Site, SiteSettings
from tagtrack.models.sso import SsoLogin, SsoSettings
from tagtrack.models.user import LoginFailure, User, UserSession

__all__ = [
    "AccessRule",
    "ApiKey",
    "AuditEntry",
    "Base",
    "InstallSecret",
    "LoginFailure",
    "OrgSettings",
    "Organization",
    "PasswordReset",
    "Role",
    "Site",
    "SiteSettings",
    "SsoLogin",
    "SsoSettings",
    "User",
    "UserSession",
]
