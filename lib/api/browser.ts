// How the browser calls the API (SPEC point 7): cookies included, JSON bodies; a GET gives the
// parsed JSON or, on an error status or network failure, an empty list; a POST gives the answer
// as it came. An authentication_error answer logs the user out (handled by onAuthError).

export interface ApiAnswer {
  status?: string;
  errorCode?: string;
  message?: string;
  [key: string]: unknown;
}

let onAuthError: (() => void) | undefined;

/** Set by the app shell: what to do when the server says the session is gone. */
export function setAuthErrorHandler(handler: (() => void) | undefined) {
  onAuthError = handler;
}

function checkAuth(answer: unknown) {
  if ((answer as ApiAnswer | null)?.errorCode === 'authentication_error') onAuthError?.();
}

export async function apiGet<T = unknown>(path: string): Promise<T | []> {
  try {
    const response = await fetch(path, { credentials: 'include', headers: { accept: 'application/json' } });
    const data: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      checkAuth(data);
      return [];
    }
    return data as T;
  } catch {
    return [];
  }
}

async function send(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = ((await response.json().catch(() => null)) ?? { status: response.ok ? 'ok' : 'error' }) as ApiAnswer;
    checkAuth(data);
    return data;
  } catch {
    return { status: 'error', errorCode: 'error_contact_us' };
  }
}

export const apiPost = (path: string, body?: unknown) => send('POST', path, body);
export const apiDelete = (path: string, body?: unknown) => send('DELETE', path, body);
