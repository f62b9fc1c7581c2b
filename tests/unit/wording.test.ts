// One word for one thing (issue 48): the login screen said "Log in" and "Sign in", and the German
// interface said "Besprechung" and "Meeting" for the same meeting. The catalogues are checked
// whole, so a new text cannot bring the other word back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { locales } from '@/lib/i18n/locales';

type Tree = { [key: string]: unknown };
const catalogue = (locale: string) => JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8')) as Tree;

function texts(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (Array.isArray(node)) return node.flatMap((item, i) => texts(item, `${path}.${i}`));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => texts(v, path ? `${path}.${k}` : k));
  return [];
}

it('English says "log in", never "sign in"', () => {
  const signIn = texts(catalogue('en')).filter(([, text]) => /\bsign(ed|ing)?[ -]in\b/i.test(text));
  expect(signIn).toEqual([]);
});

it.each([...locales])('%s: the login screen names its action one way (the form, the SSO buttons, the home page)', (locale) => {
  const m = catalogue(locale) as { Login: Record<string, string>; PrivateHome: Record<string, string> };
  expect(m.Login.ssoWith).toContain(m.Login.submit);
  expect(m.PrivateHome.signIn).toBe(m.Login.submit);
});

it('German says "Besprechung", never "Meeting"', () => {
  const meeting = texts(catalogue('de')).filter(([, text]) => /Meeting/.test(text));
  expect(meeting).toEqual([]);
});

it("the login page's meeting-card box says what it does in its title", () => {
  for (const locale of locales) {
    const m = catalogue(locale) as { Login: Record<string, string> };
    // The title is an action (the submit's verb), not only the product's name for such accounts.
    expect(m.Login.cardTitle).toContain(m.Login.submit!.split(' ')[0]!);
  }
});
