"""Start the real OpenID Connect provider of server/tests/oidc (node, oidc-provider)."""

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

FOLDER = Path(__file__).resolve().parent / "oidc"
ENTRA_TENANT = "contoso-tenant"


@dataclass(frozen=True)
class OidcProvider:
    url: str
    entra_tenant: str

    @property
    def okta_issuer(self) -> str:
        return f"{self.url}/okta"

    @property
    def entra_authority(self) -> str:
        return f"{self.url}/entra"

    def issuer(self, kind: str) -> str:
        return self.okta_issuer if kind == "okta" else f"{self.url}/entra/{self.entra_tenant}/v2.0"

    def register(
        self, kind: str, redirect_uris: list[str], tamper: str | None = None
    ) -> tuple[str, str]:
        """Register a client (Dynamic Client Registration); return its id and secret."""
        body: dict[str, object] = {
            "redirect_uris": redirect_uris,
            "token_endpoint_auth_method": (
                "client_secret_post" if kind == "entra" else "client_secret_basic"
            ),
        }
        if tamper:
            body["tamper"] = tamper
        response = httpx.post(f"{self.issuer(kind)}/reg", json=body, timeout=10)
        assert response.status_code == 201, response.text
        client = response.json()
        return str(client["client_id"]), str(client["client_secret"])


def node() -> str:
    found = shutil.which("node")
    if not found:
        raise RuntimeError("node is needed for the OpenID provider of the SSO tests")
    if not (FOLDER / "node_modules" / "oidc-provider").is_dir():
        raise RuntimeError("run 'npm ci' in server/tests/oidc (scripts/test.sh does)")
    return found


@contextmanager
def oidc_provider(entra_tenant: str = ENTRA_TENANT) -> Iterator[OidcProvider]:
    with tempfile.TemporaryFile(mode="w+") as log:
        process = subprocess.Popen(
            [node(), "provider.mjs", "--port", "0", "--entra-tenant", entra_tenant],
            cwd=FOLDER,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line:
                log.seek(0)
                raise RuntimeError(f"the OpenID provider did not start:\n{log.read()}")
            port = json.loads(line)["port"]
            yield OidcProvider(f"http://127.0.0.1:{port}", entra_tenant)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
