import re

from pydantic import BaseModel, Field, field_validator

from tagtrack.kit.schemas import ApiModel

_TENANT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$")


class SsoAvailability(BaseModel):
    available: bool = Field(description="Offered on the login page: enabled and configured")
    enabled: bool = Field(
        default=False, description="Enabled for the organization (it may still need settings)"
    )


class SsoSettingsWrite(ApiModel):
    oktaIssuer: str = Field(default="", max_length=500, description="e.g. https://x.okta.com")
    oktaClientId: str = Field(default="", max_length=200)
    oktaClientSecret: str = Field(
        default="", max_length=500, description="Empty keeps the stored secret"
    )
    entraTenant: str = Field(default="", max_length=100, description="Tenant id or domain")

    @field_validator("oktaIssuer")
    @classmethod
    def _issuer(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        local = re.match(r"^http://(127\.0\.0\.1|localhost)(:\d+)?(/|$)", value)
        if value and not (value.startswith("https://") or local):
            raise ValueError("must be an https:// URL")
        return value

    @field_validator("oktaClientId", "oktaClientSecret")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("entraTenant")
    @classmethod
    def _tenant(cls, value: str) -> str:
        value = value.strip()
        if value and not _TENANT.match(value):
            raise ValueError("must be a tenant id or domain (letters, digits, dots, hyphens)")
        return value


class SsoSettingsRead(ApiModel):
    oktaIssuer: str
    oktaClientId: str
    oktaClientSecret: str = Field(description="Always empty: the secret is never sent back")
    oktaClientSecretSet: bool
    entraTenant: str
    oktaEnabled: bool
    entraEnabled: bool
    entraAvailable: bool = Field(description="This installation is registered with Entra")
    oktaRedirectUri: str = Field(description="Register this sign-in redirect URI with Okta")
    entraRedirectUri: str = Field(description="The redirect URI of the Entra app registration")
