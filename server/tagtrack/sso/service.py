"""Single sign-on with Okta and Entra: settings, availability, redirect and callback.

The organization is the one the request's subdomain names. The callback signs in the user of
that organization whose username is the email the provider vouches for: Okta's `email` with
`email_verified`; Entra's `email` when verified (`email_verified` or `xms_edov`), else its
`preferred_username`, the tenant's own sign-in name.
"""

import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal
from urllib.parse import urlencode, urlparse

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.audit.service import Actor
from tagtrack.auth.service import AuthService, SignedInSession
from tagtrack.core.config import Settings
from tagtrack.core.errors import NotFound
from tagtrack.core.sealing import seal, unseal
from tagtrack.core.security import new_token, token_hash
from tagtrack.kit.schemas import is_email
from tagtrack.models import Organization, SsoLogin, SsoSettings
from tagtrack.models.base import utcnow
from tagtrack.organizations.host import HostOrganizations
from tagtrack.organizations.repository import OrganizationRepository
from tagtrack.sso import oidc
from tagtrack.sso.repository import SsoRepository
from tagtrack.sso.schemas import SsoAvailability, SsoSettingsRead, SsoSettingsWrite
from tagtrack.users.repository import UserRepository

Kind = Literal["okta", "entra"]
LABELS = {"okta": "Okta", "entra": "Entra"}
LOGIN_LIFETIME = timedelta(minutes=10)
AFTER_LOGIN = "/items"


class SsoFailed(Exception):
    """A sign-in that cannot go on; the message goes to the login page as `error`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class SsoStart:
    url: str
    state: str


@dataclass(frozen=True)
class SsoDone:
    session: SignedInSession
    path: str


def callback_uri(public_url: str, request_scheme: str, host: str, kind: str) -> str:
    """The redirect URI on the host the browser used (the organization's subdomain)."""
    scheme = urlparse(public_url).scheme or request_scheme
    return f"{scheme}://{host}/api/auth/{kind}/callback"


def login_error_path(message: str) -> str:
    """The login page with the message it shows as 'SSO error: ...'."""
    return "/login?" + urlencode({"error": message})


def safe_path(referer: str) -> str:
    """A path on this site to return to after signing in, or empty."""
    referer = referer.strip()
    if not referer.startswith("/") or referer.startswith("//") or "\\" in referer:
        return ""
    return "" if "login" in referer else referer[:500]


def verified_email(kind: str, claims: dict[str, Any]) -> str | None:
    email = claims.get("email")
    vouched = claims.get("email_verified") is True or (
        kind == "entra" and claims.get("xms_edov") is True
    )
    candidate = email if isinstance(email, str) and vouched else None
    if candidate is None and kind == "entra":
        name = claims.get("preferred_username")
        candidate = name if isinstance(name, str) else None
    return candidate.strip() if candidate and is_email(candidate) else None


class SsoService:
    def __init__(
        self,
        repository: SsoRepository,
        orgs: OrganizationRepository,
        users: UserRepository,
        auth: AuthService,
        audit: AuditRepository,
        settings: Settings,
    ) -> None:
        self.repository = repository
        self.orgs = orgs
        self.users = users
        self.auth = auth
        self.audit = audit
        self.settings = settings

    # Configuration

    def _entra_issuer(self, tenant: str) -> str:
        return f"{self.settings.entra_authority.rstrip('/')}/{tenant}/v2.0"

    def _client(self, kind: str, sso: SsoSettings | None) -> oidc.Client | None:
        """The provider client when this kind is fully configured, else None."""
        if sso is None:
            return None
        if kind == "okta":
            if not (sso.okta_issuer and sso.okta_client_id and sso.okta_client_secret):
                return None
            secret = unseal(self.settings.secret_key, sso.okta_client_secret)
            if not secret:
                return None
            return oidc.Client(sso.okta_issuer, sso.okta_client_id, secret, "client_secret_basic")
        if not (
            sso.entra_tenant and self.settings.entra_client_id and self.settings.entra_client_secret
        ):
            return None
        return oidc.Client(
            self._entra_issuer(sso.entra_tenant),
            self.settings.entra_client_id,
            self.settings.entra_client_secret,
            "client_secret_post",
        )

    async def _metadata(self, kind: str, client: oidc.Client) -> dict[str, Any]:
        prefix = f"{self.settings.entra_authority.rstrip('/')}/" if kind == "entra" else None
        return await oidc.metadata(client.issuer, prefix)

    @staticmethod
    def _enabled(kind: str, org: Organization) -> bool:
        return org.okta_enabled if kind == "okta" else org.entra_enabled

    async def availability(self, kind: Kind, host: str, org_id: str | None) -> SsoAvailability:
        if org_id is not None:
            org = await self.orgs.get(org_id)
        else:
            org = await HostOrganizations(self.orgs).for_host(host)
        if org is None:
            return SsoAvailability(available=False, enabled=False)
        enabled = self._enabled(kind, org)
        configured = self._client(kind, await self.repository.settings(org.id)) is not None
        return SsoAvailability(available=enabled and configured, enabled=enabled)

    # The flow

    async def begin(self, kind: Kind, host: str, redirect_uri: str, referer: str) -> SsoStart:
        org = await HostOrganizations(self.orgs).for_host(host)
        if org is None:
            raise SsoFailed("no organization uses this address")
        client = self._client(kind, await self.repository.settings(org.id))
        if client is None or not self._enabled(kind, org):
            raise SsoFailed(f"{LABELS[kind]} sign-in is not set up for this organization")
        try:
            document = await self._metadata(kind, client)
        except oidc.OidcError as exc:
            raise SsoFailed(str(exc)) from exc
        now = utcnow()
        state, nonce, verifier = new_token(), new_token(), secrets.token_urlsafe(64)
        await self.repository.prune_logins(now)
        await self.repository.add_login(
            SsoLogin(
                state_hash=token_hash(state),
                org_id=org.id,
                kind=kind,
                nonce=nonce,
                code_verifier=verifier,
                redirect_uri=redirect_uri,
                referer=safe_path(referer),
                expires_at=now + LOGIN_LIFETIME,
            )
        )
        url = oidc.authorization_url(client, document, redirect_uri, state, nonce, verifier)
        return SsoStart(url, state)

    async def finish(
        self,
        kind: Kind,
        host: str,
        client_ip: str,
        *,
        state: str,
        browser_state: str,
        code: str,
        error: str,
        error_description: str,
    ) -> SsoDone:
        """Check the callback and sign the user in; SsoFailed says why not (and is audited)."""
        host_org = await HostOrganizations(self.orgs).for_host(host)
        org_id = host_org.id if host_org else ""
        try:
            login = await self._take_login(kind, state, browser_state, error, error_description)
            org = await self.orgs.get(login.org_id)
            if org is None or host_org is None or host_org.id != org.id:
                raise SsoFailed("the sign-in came back to another organization's address")
            done = await self._sign_in(kind, org, login, code, client_ip)
        except SsoFailed as failed:
            who = Actor(org_id=org_id, client=client_ip)
            detail = {"kind": kind, "reason": failed.message}
            await self.audit.record(who, "sso.login.failed", "user", detail=detail)
            raise
        return done

    async def _take_login(
        self, kind: str, state: str, browser_state: str, error: str, error_description: str
    ) -> SsoLogin:
        same = hmac.compare_digest(state.encode(), browser_state.encode())
        if not state or not same:
            raise SsoFailed("the sign-in could not be verified (state mismatch); please try again")
        login = await self.repository.take_login(token_hash(state), utcnow())
        if login is None or login.kind != kind:
            raise SsoFailed("the sign-in expired or was already used; please try again")
        if error:
            raise SsoFailed(f"the identity provider answered: {error_description or error}")
        return login

    async def _sign_in(
        self, kind: Kind, org: Organization, login: SsoLogin, code: str, client_ip: str
    ) -> SsoDone:
        client = self._client(kind, await self.repository.settings(org.id))
        if client is None or not self._enabled(kind, org):
            raise SsoFailed(f"{LABELS[kind]} sign-in is not set up for this organization")
        if not code:
            raise SsoFailed("the identity provider sent no authorization code")
        try:
            document = await self._metadata(kind, client)
            tokens = await oidc.exchange_code(
                client, document, login.redirect_uri, code, login.code_verifier
            )
            try:
                claims = oidc.verify_id_token(tokens, document, client.client_id, login.nonce)
            except oidc.OidcError:
                # The provider may have rolled its keys: look them up once more.
                oidc.forget_metadata(client.issuer)
                document = await self._metadata(kind, client)
                claims = oidc.verify_id_token(tokens, document, client.client_id, login.nonce)
        except oidc.OidcError as exc:
            raise SsoFailed(str(exc)) from exc
        email = verified_email(kind, claims)
        if email is None:
            raise SsoFailed("the identity provider did not vouch for an email address")
        user = await self.users.by_username(email)
        if user is None or user.org_id != org.id or not user.active:
            raise SsoFailed(f"no user of this organization has the username {email}")
        signed_in = await self.auth.start_session(user)
        who = Actor(org_id=org.id, actor_id=user.id, actor=user.username, client=client_ip)
        await self.audit.record(who, "sso.login", "user", user.id, user.username, {"kind": kind})
        return SsoDone(signed_in, login.referer or AFTER_LOGIN)

    # Settings

    def _read(
        self, org: Organization, sso: SsoSettings | None, scheme: str, host: str
    ) -> SsoSettingsRead:
        public = self.settings.public_url
        return SsoSettingsRead(
            oktaIssuer=sso.okta_issuer if sso else "",
            oktaClientId=sso.okta_client_id if sso else "",
            oktaClientSecret="",
            oktaClientSecretSet=bool(sso and sso.okta_client_secret),
            entraTenant=sso.entra_tenant if sso else "",
            oktaEnabled=org.okta_enabled,
            entraEnabled=org.entra_enabled,
            entraAvailable=bool(
                self.settings.entra_client_id and self.settings.entra_client_secret
            ),
            oktaRedirectUri=callback_uri(public, scheme, host, "okta"),
            entraRedirectUri=callback_uri(public, scheme, host, "entra"),
        )

    async def _org(self, principal: Principal) -> Organization:
        org = await self.orgs.get(principal.org_id)
        if org is None:  # deleted while the caller was signed in
            raise NotFound("Organization not found")
        return org

    async def read(self, principal: Principal, scheme: str, host: str) -> SsoSettingsRead:
        org = await self._org(principal)
        return self._read(org, await self.repository.settings(org.id), scheme, host)

    async def save(
        self, principal: Principal, body: SsoSettingsWrite, scheme: str, host: str
    ) -> SsoSettingsRead:
        org = await self._org(principal)
        sso = await self.repository.settings(org.id)
        if sso is None:
            sso = await self.repository.add(SsoSettings(org_id=org.id))
        if sso.okta_issuer and sso.okta_issuer != body.oktaIssuer:
            oidc.forget_metadata(sso.okta_issuer)
        sso.okta_issuer = body.oktaIssuer
        sso.okta_client_id = body.oktaClientId
        if body.oktaClientSecret:
            sso.okta_client_secret = seal(self.settings.secret_key, body.oktaClientSecret)
        if not body.oktaIssuer and not body.oktaClientId:
            # Okta removed: its secret goes too.
            sso.okta_client_secret = ""
        sso.entra_tenant = body.entraTenant
        await self.repository.flush()
        detail = {
            "oktaIssuer": body.oktaIssuer,
            "oktaClientId": body.oktaClientId,
            "entraTenant": body.entraTenant,
            "oktaClientCredentialReplaced": bool(body.oktaClientSecret),
        }
        await self.audit.record(
            principal, "ssosettings.updated", "ssosettings", org.id, org.name, detail
        )
        return self._read(org, sso, scheme, host)
