/**
 * @jest-environment jsdom
 */
import { crossesPolicy, pagePolicyKind } from '@/lib/security/page-policy';
import { pagePolicy } from '@/lib/security/csp';
import { policyLinkGuard } from '@/lib/navigation/policy-links';
import { loadedAsDocument } from '@/lib/navigation/router';

// Issue 48: a document keeps the Content-Security-Policy it was loaded with, so a move between
// pages whose policies differ must load a whole document ("Start meeting now" ran the meeting
// under the dashboard's policy: no WebAssembly for the noise filter, no SFU).
describe('which pages have a policy of their own', () => {
  it('knows the meeting page and the billing screen, with or without locale prefix', () => {
    expect(pagePolicyKind('/now/AbCd123')).toBe('meeting');
    expect(pagePolicyKind('/de/now/AbCd123/')).toBe('meeting');
    expect(pagePolicyKind('/zh-tw/settings')).toBe('billing');
    expect(pagePolicyKind('/settings')).toBe('billing');
    for (const path of ['/', '/de', '/now', '/now/a/b', '/settings/x', '/calendar', '/fr/admin']) expect(pagePolicyKind(path)).toBe('standard');
  });

  it('says a move crosses policies exactly when the two pages are policed differently', () => {
    expect(crossesPolicy('/', '/now/abc')).toBe(true);
    expect(crossesPolicy('/now/abc', '/')).toBe(true);
    expect(crossesPolicy('/de/admin', '/de/settings')).toBe(true);
    expect(crossesPolicy('/settings', '/now/abc')).toBe(true);
    expect(crossesPolicy('/', '/calendar')).toBe(false);
    expect(crossesPolicy('/settings', '/de/settings')).toBe(false);
    expect(crossesPolicy('/now/abc', '/de/now/abc')).toBe(false);
  });

  it('matches what the proxy gives: only the meeting compiles wasm, only billing lets Stripe in', () => {
    const meeting = pagePolicy('n', false, { wasm: pagePolicyKind('/now/x') === 'meeting' });
    const dashboard = pagePolicy('n', false, { wasm: pagePolicyKind('/') === 'meeting', stripe: pagePolicyKind('/') === 'billing' });
    expect(meeting).toContain("'wasm-unsafe-eval'");
    expect(dashboard).not.toContain('wasm');
    expect(dashboard).not.toContain('stripe');
  });
});

describe('the link guard in every page', () => {
  let reached: string[];
  const reachReact = (event: Event) => reached.push((event.target as Element).closest('a')!.getAttribute('href')!);

  beforeAll(() => {
    // jsdom cannot navigate: keep it from trying (registered first, so it runs before the guard).
    window.addEventListener('click', (event) => event.preventDefault(), true);
    new Function(policyLinkGuard)();
    // Where React listens: the root, after the window's capture phase.
    document.body.addEventListener('click', reachReact);
  });
  beforeEach(() => (reached = []));

  function click(from: string, href: string) {
    window.history.replaceState(null, '', from);
    document.body.innerHTML = `<a href="${href}"><span>go</span></a>`;
    document.querySelector('span')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  }

  it('lets the browser load a page of another policy itself: the client-side router never sees the click', () => {
    click('/', '/now/abc');
    click('/de', '/de/settings#billing');
    click('/now/abc', '/');
    click('/settings', '/now/abc');
    expect(reached).toEqual([]);
  });

  it('leaves links between pages of one policy, and to other sites, to the app', () => {
    click('/', '/calendar');
    click('/settings', '/settings#billing');
    click('/now/abc', '/de/now/abc');
    click('/', 'https://example.org/now/abc');
    expect(reached).toEqual(['/calendar', '/settings#billing', '/de/now/abc', 'https://example.org/now/abc']);
  });
});

describe('the guarded routers', () => {
  it('leave a push within one policy to the client-side router', () => {
    window.history.replaceState(null, '', '/');
    expect(loadedAsDocument('/calendar')).toBe(false);
    expect(loadedAsDocument('https://example.org/now/abc')).toBe(false);
    window.history.replaceState(null, '', '/de/now/abc');
    expect(loadedAsDocument('/now/abc?media=sfu')).toBe(false);
  });
});
