import { htmlLang, isLocale, localeFromAcceptLanguage, locales } from '@/lib/i18n/locales';

describe('SPEC point 1: twelve interface languages, English the fallback', () => {
  it('has exactly the twelve languages of the spec', () => {
    expect([...locales].sort()).toEqual(['de', 'el', 'en', 'es', 'fr', 'hi', 'nl', 'pl', 'pt', 'sk', 'zh-cn', 'zh-tw'].sort());
  });

  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['fr-CH, fr;q=0.9', 'fr'],
    ['zh-TW,zh;q=0.9', 'zh-tw'],
    ['zh-Hant-HK', 'zh-tw'],
    ['zh-CN', 'zh-cn'],
    ['zh', 'zh-cn'],
    ['ja-JP,ko;q=0.5', 'en'],
    ['en;q=0.2, pl;q=0.9', 'pl'],
    ['pt-BR', 'pt'],
    ['', 'en'],
    ['*', 'en'],
  ])('Accept-Language %j picks %s', (header, expected) => {
    expect(localeFromAcceptLanguage(header)).toBe(expected);
  });

  it('writes <html lang> as a BCP 47 tag', () => {
    expect(htmlLang('de')).toBe('de');
    expect(htmlLang('zh-cn')).toBe('zh-CN');
    expect(htmlLang('zh-tw')).toBe('zh-TW');
  });

  it('refuses anything that is not one of the twelve', () => {
    expect(isLocale('ja')).toBe(false);
    expect(isLocale('EN')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
