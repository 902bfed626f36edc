"""The OpenID Connect code flow with PKCE, state and nonce (Authlib and joserfc)."""

import base64
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from authlib.common.urls import add_params_to_uri
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from joserfc.jws import JWSRegistry

SCOPE = "openid email profile"
TIMEOUT = httpx.Timeout(10.0)
METADATA_SECONDS = 600
# Clock difference tolerated between this server and the provider.
LEEWAY_SECONDS = 60


class OidcError(Exception):
    """The provider or its answer is not acceptable; the message is shown to the user."""


@dataclass(frozen=True)
class Client:
    issuer: str
    client_id: str
    client_secret: str
    auth_method: str  # client_secret_basic or client_secret_post


_metadata: dict[str, tuple[float, dict[str, Any]]] = {}


async def metadata(issuer: str, issuer_prefix: str | None = None) -> dict[str, Any]:
    """The provider's discovery document (cached for a while).

    Its issuer must be the configured one; for Entra, whose tenant may be named by domain,
    an issuer under the authority ending in /v2.0 (`issuer_prefix`).
    """
    cached = _metadata.get(issuer)
    if cached and cached[0] > time.monotonic():
        return cached[1]
    url = f"{issuer}/.well-known/openid-configuration"
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            response = await http.get(url)
            response.raise_for_status()
            document: dict[str, Any] = response.json()
            found = str(document.get("issuer", ""))
            expected = found == issuer or (
                issuer_prefix is not None
                and found.startswith(issuer_prefix)
                and found.endswith("/v2.0")
            )
            if not expected:
                raise OidcError(f"the provider names another issuer ({found})")
            jwks = await http.get(str(document["jwks_uri"]))
            jwks.raise_for_status()
            document["jwks"] = jwks.json()
    except (httpx.HTTPError, ValueError, KeyError) as exc:
        raise OidcError(f"the identity provider cannot be reached ({type(exc).__name__})") from exc
    _metadata[issuer] = (time.monotonic() + METADATA_SECONDS, document)
    return document


def forget_metadata(issuer: str) -> None:
    _metadata.pop(issuer, None)


def authorization_url(
    client: Client,
    document: dict[str, Any],
    redirect_uri: str,
    state: str,
    nonce: str,
    code_verifier: str,
) -> str:
    """Where the browser goes to sign in: the code flow with an S256 PKCE challenge."""
    return str(
        add_params_to_uri(
            document["authorization_endpoint"],
            [
                ("response_type", "code"),
                ("client_id", client.client_id),
                ("redirect_uri", redirect_uri),
                ("scope", SCOPE),
                ("state", state),
                ("nonce", nonce),
                ("code_challenge", create_s256_code_challenge(code_verifier)),
                ("code_challenge_method", "S256"),
            ],
        )
    )


async def exchange_code(
    client: Client, document: dict[str, Any], redirect_uri: str, code: str, code_verifier: str
) -> dict[str, Any]:
    """Trade the code for tokens at the token endpoint (with the PKCE verifier)."""
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "code_verifier": code_verifier,
    }
    headers = {"Accept": "application/json"}
    if client.auth_method == "client_secret_post":
        form |= {"client_id": client.client_id, "client_secret": client.client_secret}
    else:
        # RFC 6749 2.3.1: both parts form-encoded before the Basic scheme.
        pair = f"{quote(client.client_id, safe='')}:{quote(client.client_secret, safe='')}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            response = await http.post(
                document["token_endpoint"],
                data=form,
                headers=headers,
            )
        body: dict[str, Any] = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        raise OidcError("the identity provider cannot be reached") from exc
    if response.status_code != 200 or "error" in body:
        raise OidcError(f"the provider refused the sign-in ({body.get('error', 'error')})")
    return body


def verify_id_token(
    token: dict[str, Any], document: dict[str, Any], client_id: str, nonce: str
) -> dict[str, Any]:
    """Check the ID token: signature by a published key, issuer, audience, time, nonce."""
    raw = token.get("id_token")
    if not raw:
        raise OidcError("the provider sent no ID token")
    algorithms = document.get("id_token_signing_alg_values_supported") or ["RS256"]
    algorithms = [a for a in algorithms if a != "none"]
    try:
        keys = KeySet.import_key_set(document["jwks"])
        decoded = jwt.decode(
            raw, keys, registry=JWSRegistry(algorithms=algorithms, strict_check_header=False)
        )
    except (JoseError, ValueError, KeyError) as exc:
        raise OidcError(f"the ID token is not genuine ({type(exc).__name__})") from exc
    params: dict[str, Any] = {"nonce": nonce, "client_id": client_id}
    if token.get("access_token"):
        params["access_token"] = token["access_token"]
    claims = CodeIDToken(
        decoded.claims,
        decoded.header,
        {"iss": {"essential": True, "values": [document["issuer"]]}},
        params,
    )
    try:
        claims.validate(leeway=LEEWAY_SECONDS)
    except JoseError as exc:
        description = getattr(exc, "description", None) or str(exc)
        raise OidcError(f"the ID token is not valid ({description})") from exc
    return dict(claims)
