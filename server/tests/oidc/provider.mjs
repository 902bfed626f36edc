// A real OpenID Connect provider (oidc-provider) for the single sign-on tests.
//
// One HTTP server hosts two issuers:
//   http://127.0.0.1:PORT/okta                     an Okta-like authorization server
//   http://127.0.0.1:PORT/entra/TENANT/v2.0        an Entra-like tenant (authority .../entra)
// Clients register themselves (OpenID Connect Dynamic Client Registration, POST {issuer}/reg).
// Sign-in uses the provider's own login form: any login is accepted and becomes the account's
// email. A login of 'unverified:someone@example.com' has email_verified false.
// A client registered with "tamper": "expired" gets ID tokens that expired an hour ago, and
// with "tamper": "forged" ID tokens signed by a key the provider does not publish.
//
// Usage: node provider.mjs [--port N] [--entra-tenant T]; prints {"port": N} once listening.
import http from 'node:http';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
}

const port = Number(option('port', '0'));
const entraTenant = option('entra-tenant', 'contoso-tenant');
const KID = 'tagtrack-test-key';

const signing = await generateKeyPair('RS256', { extractable: true });
const impostor = await generateKeyPair('RS256', { extractable: true });
const publishedKey = { ...(await exportJWK(signing.privateKey)), kid: KID, alg: 'RS256', use: 'sig' };

function claimsFor(kind, accountId) {
  const unverified = accountId.startsWith('unverified:');
  const email = unverified ? accountId.slice('unverified:'.length) : accountId;
  const name = email.split('@')[0];
  if (kind === 'entra') {
    // Entra names the user by preferred_username (the tenant's sign-in name) and tid.
    return { sub: accountId, preferred_username: email, name, tid: entraTenant };
  }
  return { sub: accountId, email, email_verified: !unverified, name };
}

async function tamper(idToken, mode) {
  const payload = decodeJwt(idToken);
  const header = decodeProtectedHeader(idToken);
  const now = Math.floor(Date.now() / 1000);
  let key = signing.privateKey;
  if (mode === 'expired') {
    payload.iat = now - 7200;
    payload.exp = now - 3600;
  } else if (mode === 'forged') {
    key = impostor.privateKey;
  }
  return new SignJWT(payload).setProtectedHeader({ alg: header.alg, kid: header.kid }).sign(key);
}

function makeProvider(issuer, kind) {
  const provider = new Provider(issuer, {
    jwks: { keys: [publishedKey] },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
    },
    extraClientMetadata: { properties: ['tamper'] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username', 'tid'],
    },
    // Like Okta and Entra, put the requested claims in the ID token itself.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['tagtrack-test-cookie-key'] },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => claimsFor(kind, id) }),
    // First-party clients: no consent screen.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified', 'name', 'preferred_username', 'tid']);
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    const mode = ctx.oidc?.client?.tamper;
    if (ctx.path === '/token' && ctx.status === 200 && ctx.body?.id_token && mode) {
      ctx.body = { ...ctx.body, id_token: await tamper(ctx.body.id_token, mode) };
    }
  });
  return provider;
}

const server = http.createServer();
const address = () => `http://127.0.0.1:${server.address().port}`;

server.listen(port, '127.0.0.1', () => {
  const mounts = [
    ['/okta', makeProvider(`${address()}/okta`, 'okta')],
    [`/entra/${entraTenant}/v2.0`, makeProvider(`${address()}/entra/${entraTenant}/v2.0`, 'entra')],
  ].map(([prefix, provider]) => [prefix, provider.callback()]);
  server.on('request', (req, res) => {
    for (const [prefix, handle] of mounts) {
      if (req.url === prefix || req.url.startsWith(`${prefix}/`) || req.url.startsWith(`${prefix}?`)) {
        req.originalUrl = req.url;
        req.url = req.url.slice(prefix.length) || '/';
        handle(req, res);
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no issuer here');
  });
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
