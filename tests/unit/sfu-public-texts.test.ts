import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTranslator } from 'use-intl/core';
import { termsBodyKey, termsSections } from '@/components/terms/TermsText';
import { messageList } from '@/lib/i18n/message-list';
import { locales, type Locale } from '@/lib/i18n/locales';
import { SFU_FROM } from '@/lib/meeting/client/call/route-pin';
import { mediaTextKey, mediaTextValues } from '@/lib/sfu/public-texts';

// Issue 48, points 4 and 9: the public texts say what is true for this server. Without an SFU,
// the mesh texts stay as they were; with one, they say larger calls go through it and that it
// forwards only encrypted frames. Without billing, the terms' liability names no payment.
const catalogue = (locale: string) => JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8'));
const translator = (locale: string, namespace: 'Home' | 'Meta' | 'PrivacyDefault' | 'Terms' | 'Faq') =>
  createTranslator({ locale: locale as Locale, messages: catalogue(locale), namespace });
const values = { brand: 'Enclave', ...mediaTextValues };

/** The texts that depend on the media route, as the pages pick them (lib/sfu/public-texts.ts). */
function mediaTexts(locale: string, hasSfu: boolean): string[] {
  const home = translator(locale, 'Home');
  const meta = translator(locale, 'Meta');
  const privacy = translator(locale, 'PrivacyDefault');
  const terms = translator(locale, 'Terms');
  return [
    home(mediaTextKey('heroText', hasSfu), values),
    home(mediaTextKey('features.p2p.body', hasSfu), values),
    meta(mediaTextKey('home', hasSfu), values),
    meta(mediaTextKey('homeNoTrial', hasSfu), values),
    privacy(mediaTextKey('media.body', hasSfu), values),
    ...messageList(terms, termsBodyKey('service', { billingOn: false, hasSfu }), values),
    // The FAQ's "Can the server see my meetings?" (its link is a rich tag, so read it as written).
    String(translator(locale, 'Faq').raw(mediaTextKey('serverA', hasSfu))),
  ];
}

describe('the texts about how calls travel', () => {
  it('without an SFU keep the mesh texts (no media server, directly between browsers)', () => {
    const [hero, feature, description, descriptionNoTrial, privacy, service] = mediaTexts('en', false);
    expect(hero).toMatch(/No media server in the middle/);
    expect(feature).toMatch(/straight from browser to browser/);
    expect(description).toMatch(/No media server/);
    expect(descriptionNoTrial).toMatch(/No media server/);
    expect(privacy).toMatch(/media does not pass through the server/);
    expect(service).toMatch(/Meetings are peer to peer/);
    expect(mediaTexts('en', false)[6]).toMatch(/Our server only passes connection messages/);
    for (const text of mediaTexts('en', false)) expect(text).not.toMatch(/SFU/);
  });

  it('with an SFU say that larger calls go through it and that it forwards only encrypted frames', () => {
    const texts = mediaTexts('en', true);
    for (const text of texts) {
      expect(text).toMatch(/SFU/);
      expect(text).not.toMatch(/no media server|media does not pass|never passes/i);
      expect(text).not.toMatch(/[{}]|only passes connection messages/);
    }
    expect(texts[0]).toContain(`from ${SFU_FROM} participants`);
    expect(texts[0]).toMatch(/forwards only encrypted frames it cannot read/);
    expect(texts[4]).toMatch(/forward only encrypted data they cannot read/);
  });

  it.each(locales.map((locale) => [locale]))('%s: every SFU text is translated, names the SFU and fills in the number', (locale) => {
    const english = mediaTexts('en', true);
    const texts = mediaTexts(locale, true);
    texts.forEach((text, index) => {
      expect(text).toMatch(/SFU/);
      expect(text).not.toMatch(/[{}]/);
      if (index < 2 || index === 4 || index === 5) expect(text).toContain(String(SFU_FROM));
      if (locale !== 'en') expect(text).not.toBe(english[index]);
    });
    expect(translator(locale, 'Home')(mediaTextKey('heroText', false), values)).not.toMatch(/SFU/);
  });
});

describe('the built-in terms', () => {
  const liability = (locale: string, billingOn: boolean) =>
    messageList(translator(locale, 'Terms'), termsBodyKey('liability', { billingOn, hasSfu: false }), values).join(' ');

  it('with billing on keep the liability limited to what was paid', () => {
    expect(liability('en', true)).toMatch(/what you paid us/);
  });

  it.each(locales.map((locale) => [locale]))('%s: with billing off the liability names no payment, and the billing section is left out', (locale) => {
    const paid = liability(locale, true);
    const free = liability(locale, false);
    expect(free).not.toBe(paid);
    expect(free.length).toBeGreaterThan(40);
    if (locale === 'en') expect(free).not.toMatch(/paid|pay/i);
    expect(termsSections(false)).not.toContain('billing');
  });

  it('every other section reads its own body', () => {
    expect(termsBodyKey('use', { billingOn: false, hasSfu: true })).toBe('sections.use.body');
    expect(termsBodyKey('liability', { billingOn: true, hasSfu: true })).toBe('sections.liability.body');
    expect(termsBodyKey('service', { billingOn: true, hasSfu: false })).toBe('sections.service.body');
  });
});
