// A real OpenID provider on loopback for the sign-in tests (issue 35, item 3): oidc-provider, a
// certified implementation, with its development login and consent pages (any login name signs in
// as the account of that id; the password is not checked). Started by the tests themselves:
//
//   node tests/support/oidc-idp.mjs <port> <redirect URI of the app>…
//
// It prints "ready <issuer>" once it answers. Two test-only controls, on this process alone:
//   PUT /__test/accounts          {"<login>": {email, email_verified, given_name, …}}: the claims
//   PUT /__test/token-override    {…token response}: the next /token answer, instead of the real one
// Clients: "enclave" (the app; secret "enclave-secret") and "other" (another app at the same
// provider; secret "other-secret", redirect URI <issuer>/other-callback).
import http from 'node:http';
import Provider from 'oidc-provider';

const [port, ...redirectUris] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const accounts = new Map();
let tokenOverride = null;

const provider = new Provider(issuer, {
  clients: [
    { client_id: 'enclave', client_secret: 'enclave-secret', redirect_uris: redirectUris, token_endpoint_auth_method: 'client_secret_post' },
    { client_id: 'other', client_secret: 'other-secret', redirect_uris: [`${issuer}/other-callback`], token_endpoint_auth_method: 'client_secret_post' },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name', 'locale'] },
  pkce: { required: () => true },
  cookies: { keys: ['test-idp-cookie-key-not-secret'] },
  async findAccount(_ctx, id) {
    const claims = accounts.get(id) ?? { email: `${id}@example.test`, email_verified: true };
    return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
});

async function readJson(request) {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text || 'null');
}

const handle = provider.callback();
const server = http.createServer(async (request, response) => {
  if (request.url === '/__test/accounts' && request.method === 'PUT') {
    for (const [id, claims] of Object.entries(await readJson(request))) accounts.set(id, claims);
    return response.writeHead(204).end();
  }
  if (request.url === '/__test/token-override' && request.method === 'PUT') {
    tokenOverride = await readJson(request);
    return response.writeHead(204).end();
  }
  if (request.url === '/token' && request.method === 'POST' && tokenOverride) {
    const body = JSON.stringify(tokenOverride);
    tokenOverride = null;
    return response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
  }
  handle(request, response);
});
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${issuer}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
