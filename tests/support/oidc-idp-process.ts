// Starts tests/support/oidc-idp.mjs (a real OpenID provider on loopback) and drives it the way a
// browser would: its development login and consent pages, cookies and redirects, by hand.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface TestIdp {
  issuer: string;
  /** Sets the claims of accounts by login name. */
  setAccounts: (accounts: Record<string, Record<string, unknown>>) => Promise<void>;
  /** The next token answer the provider gives, whatever the request. */
  overrideNextToken: (answer: Record<string, unknown>) => Promise<void>;
  stop: () => Promise<void>;
}

export async function startTestIdp(port: number, redirectUris: string[]): Promise<TestIdp> {
  const script = path.join(process.cwd(), 'tests', 'support', 'oidc-idp.mjs');
  const child: ChildProcess = spawn(process.execPath, [script, String(port), ...redirectUris], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`test IdP did not start: ${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`test IdP exited (${code}): ${output}`)));
  });
  const put = async (control: string, body: unknown) => {
    const answer = await fetch(`${issuer}/__test/${control}`, { method: 'PUT', body: JSON.stringify(body) });
    if (answer.status !== 204) throw new Error(`test IdP control ${control}: ${answer.status}`);
  };
  return {
    issuer,
    setAccounts: (accounts) => put('accounts', accounts),
    overrideNextToken: (answer) => put('token-override', answer),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A browser's cookies at the provider, by name (its cookies have distinct names; paths are ignored). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Logs in at the provider as `login` from `authorizationUrl` (the app's redirect to it), through its
 * login and consent forms, and answers the URL the provider sends the browser back to.
 */
export async function logInAtIdp(authorizationUrl: string, login: string, isBack: (url: URL) => boolean): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      headers: { cookie: jar.header(), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
      redirect: 'manual',
    });
    jar.take(response);
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (isBack(url)) return url;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`test IdP: no form at ${url.pathname} (${response.status}): ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url);
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('test IdP: too many steps');
}

/**
 * A real ID token for the provider's *other* client, with the nonce the app asked for: what an
 * attacker who is also a client of the provider could offer the app.
 */
export async function tokensForOtherClient(issuer: string, login: string, nonce: string): Promise<Record<string, unknown>> {
  const verifier = 'other-client-verifier-0123456789-0123456789-0123456789';
  const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString('base64url');
  const redirectUri = `${issuer}/other-callback`;
  const start = new URL(`${issuer}/auth`);
  start.search = new URLSearchParams({
    client_id: 'other',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state: 'other-state',
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const back = await logInAtIdp(start.href, login, (url) => url.href.startsWith(redirectUri));
  const answer = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: 'other',
      client_secret: 'other-secret',
    }),
  });
  if (!answer.ok) throw new Error(`other client's token: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>;
}
