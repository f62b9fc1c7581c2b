/** @jest-environment jsdom */
// Issue 48, point 4: Admin → Configuration offered "Sales site with plans and prices" as the home
// page on a server without billing, where there are no plans or prices. The product site stays a
// choice there (public-site-private.spec.ts shows it without prices), named for what it shows.
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { PublicPagesFields } from '@/components/admin/PublicPagesFields';
import type { HomePageMode } from '@/lib/public-site/home-page';
import en from '@/messages/en.json';

Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? NodeTextEncoder, TextDecoder: globalThis.TextDecoder ?? NodeTextDecoder });

const A = en.AdminConfiguration;
const text: [string, () => void] = ['', () => undefined];
function renderFields(billingOn: boolean, saved: HomePageMode | '') {
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <PublicPagesFields
        defaultHomePage={billingOn ? 'marketing' : 'private'}
        billingOn={billingOn}
        contactConfigured={false}
        homePage={[saved, () => undefined]}
        sentence={text}
        privacy={text}
        terms={text}
        imprint={text}
        errors={{}}
      />
    </NextIntlClientProvider>,
  );
  const select = screen.getByLabelText(A.homePage) as HTMLSelectElement;
  return { select, options: Array.from(select.options).map((option) => option.textContent) };
}

describe('the home page choice in Admin → Configuration', () => {
  it('without billing names the product site without plans or prices', () => {
    const { options } = renderFields(false, '');
    expect(options).toEqual([A.homePageDefault.replace('{mode}', A.homePageModes.private), A.homePageModes.marketingFree, A.homePageModes.private]);
    expect(options).not.toContain(A.homePageModes.marketing);
  });

  it('without billing keeps a saved product-site choice selected', () => {
    const { select } = renderFields(false, 'marketing');
    expect(select.value).toBe('marketing');
  });

  it('with billing offers both', () => {
    const { options } = renderFields(true, '');
    expect(options).toEqual(expect.arrayContaining([A.homePageModes.marketing, A.homePageModes.private]));
    expect(options).toHaveLength(3);
  });
});
