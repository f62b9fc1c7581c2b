import { currencyForRegion, formatPrice } from '@/lib/billing/pricing';
import { icoFromPng } from '@/lib/brand/icon';
import { CHUNK_TIMEOUT_MS, chunkWatchdog } from '@/lib/chunk-watchdog';
import { languageAlternates, localizedPath, switchLocalePath } from '@/lib/seo/pages';

describe('localized paths of the public pages (SPEC point 1, docs/design.md layout)', () => {
  it.each([
    ['en', '/', '/'],
    ['en', '/faq', '/faq'],
    ['de', '/', '/de'],
    ['zh-tw', '/terms-of-service', '/zh-tw/terms-of-service'],
  ] as const)('%s %s → %s', (locale, path, expected) => expect(localizedPath(locale, path)).toBe(expected));

  it.each([
    ['/de/faq', 'en', '/faq'],
    ['/faq', 'fr', '/fr/faq'],
    ['/de', 'en', '/'],
    ['/', 'pl', '/pl'],
    ['/zh-cn/now/abc', 'zh-tw', '/zh-tw/now/abc'],
    // A first segment that only looks like a locale is part of the path.
    ['/deutsch/faq', 'de', '/de/deutsch/faq'],
  ] as const)('the language selector takes %s to %s as %s', (path, locale, expected) => expect(switchLocalePath(path, locale)).toBe(expected));

  it('hreflang alternates: twelve languages in BCP 47 plus x-default in English', () => {
    const alternates = languageAlternates('/faq');
    expect(Object.keys(alternates)).toHaveLength(13);
    expect(alternates).toMatchObject({ en: '/faq', de: '/de/faq', 'zh-CN': '/zh-cn/faq', 'zh-TW': '/zh-tw/faq', 'x-default': '/faq' });
  });
});

describe("prices of SPEC point 9 in the visitor's currency", () => {
  it.each([
    ['na', 'USD'],
    ['ca', 'USD'],
    ['eu', 'EUR'],
    ['ot', 'EUR'],
  ] as const)('region %s pays in %s', (region, currency) => expect(currencyForRegion(region)).toBe(currency));

  it('formats 34.95 the way each language writes money', () => {
    expect(formatPrice(34.95, 'USD', 'en')).toBe('$34.95');
    expect(formatPrice(34.95, 'EUR', 'de')).toBe('34,95\u00a0€');
    expect(formatPrice(34.95, 'EUR', 'fr')).toMatch(/^34,95\s€$/);
  });
});

describe('favicon.ico wraps one PNG in an ICO directory', () => {
  it('writes the header and the directory entry that point at the PNG', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const ico = icoFromPng(png, 32);
    expect(ico.readUInt16LE(2)).toBe(1); // an icon
    expect(ico.readUInt16LE(4)).toBe(1); // one image
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    expect(ico.readUInt32LE(14)).toBe(png.length);
    expect(ico.readUInt32LE(18)).toBe(22);
    expect(ico.subarray(22)).toEqual(png);
  });

  it('writes 0 for a side of 256 pixels, as the format wants', () => {
    const ico = icoFromPng(Buffer.from([1]), 256);
    expect([ico[6], ico[7]]).toEqual([0, 0]);
  });
});

describe('the chunk watchdog (SPEC point 2: chunk load time-out of 120 s)', () => {
  it('waits 120 s, is plain script and never closes its own tag', () => {
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    expect(chunkWatchdog).toContain('120000');
    expect(chunkWatchdog).not.toMatch(/<\/script|<script/i);
    expect(() => new Function(chunkWatchdog)).not.toThrow();
  });
});
