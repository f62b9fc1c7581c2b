import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { accountFrameNamespaces, frameNamespaces, meetingFrameNamespaces, pageNamespaces, type PageMessagesName } from '@/lib/i18n/client-namespaces';
import { clientNamespaces } from '../support/client-namespaces';

// Issue 17 goal 4: a page's client provider carries its frame's namespaces and its own, not the
// whole catalogue. A client component that asks for a namespace its page does not provide would
// show keys instead of text: every page is checked here, dialogs loaded on demand included.
const root = path.resolve(__dirname, '..', '..');
const shellDir = path.join(root, 'app', '[locale]', '(shell)');
const accountDir = path.join(root, 'app', '[locale]', '(account)');

function pagesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return pagesUnder(full);
    return name === 'page.tsx' || name === 'load.tsx' ? [full] : [];
  });
}

/** The PageMessages names a page's source uses, or a module of its folder it renders through (../load). */
function pageMessagesOf(file: string): PageMessagesName[] {
  const source = readFileSync(file, 'utf8');
  const local = [...source.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1]!) + '.tsx');
  return [source, ...local.filter((f) => statSync(f, { throwIfNoEntry: false })).map((f) => readFileSync(f, 'utf8'))].flatMap((text) =>
    [...text.matchAll(/<PageMessages page="(\w+)"/g)].map((m) => m[1] as PageMessagesName),
  );
}

const missing = (needed: Set<string>, provided: readonly string[]) => [...needed].filter((ns) => !provided.includes(ns)).sort();

describe('client messages per page', () => {
  it('the app frame provides what the frame itself asks for (sidebar, modals)', () => {
    expect(missing(clientNamespaces('components/shell/ShellFrame.tsx'), frameNamespaces)).toEqual([]);
  });

  it('the meeting frame provides what the meeting and its modals ask for', () => {
    const needed = new Set([...clientNamespaces('app/[locale]/now/layout.tsx'), ...clientNamespaces('app/[locale]/now/[id]/page.tsx')]);
    expect(missing(needed, meetingFrameNamespaces)).toEqual([]);
  });

  for (const file of pagesUnder(shellDir)) {
    const name = path.relative(root, file);
    it(`${name}: frame + its PageMessages cover its client components`, () => {
      const provided = [...frameNamespaces, ...pageMessagesOf(file).flatMap((page) => pageNamespaces[page])];
      expect(missing(clientNamespaces(name), provided)).toEqual([]);
    });
  }

  it("the account pages' frame provides what its sidebar, drawer and modals ask for", () => {
    expect(missing(clientNamespaces('components/account/AccountFrame.tsx'), accountFrameNamespaces)).toEqual([]);
  });

  for (const file of pagesUnder(accountDir)) {
    const name = path.relative(root, file);
    it(`${name}: the account frame + its PageMessages cover its client components`, () => {
      const provided = [...accountFrameNamespaces, ...pageMessagesOf(file).flatMap((page) => pageNamespaces[page])];
      expect(missing(clientNamespaces(name), provided)).toEqual([]);
    });
  }

  it('the frame leaves out the server-only namespaces (public pages, mail)', () => {
    for (const ns of ['Meta', 'Public', 'Home', 'Faq', 'Mail', 'SupportMail']) expect(frameNamespaces).not.toContain(ns);
  });
});
