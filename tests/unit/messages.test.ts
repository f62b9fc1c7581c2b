import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { errorCodes } from '@/lib/errors';
import { locales } from '@/lib/i18n/locales';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

const load = (locale: string) => flatten(JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8')) as Tree);
const english = load('en');
/** The ICU arguments a message uses ({name}, {count, plural, …}, {weekday, select, …}), each once. */
function placeholders(text: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if ('value' in element && element.type !== TYPE.literal) names.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) walk(option.value);
      if ('children' in element) walk(element.children);
    }
  };
  walk(parse(text));
  return [...names].sort();
}

describe('every user-facing string in all twelve languages', () => {
  it('English has a message for every error code of SPEC point 8', () => {
    for (const code of errorCodes) expect(english.get(`Errors.${code}`)).toEqual(expect.any(String));
  });

  it("the spec's own wording is kept where it quotes a message", () => {
    expect(english.get('Errors.group_name_required')).toBe('Add a group name');
    expect(english.get('Errors.invite_incorrect_email_format')).toBe('Please enter a valid email');
    expect(english.get('Errors.incorrect_email_format')).toBe('Email address must have a valid format');
    expect(english.get('Errors.notification_not_added')).toBe('Not added, such notification was already added');
  });

  describe.each(locales.filter((l) => l !== 'en'))('%s', (locale) => {
    const messages = load(locale);

    it('carries every key of English and no other', () => {
      expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it('keeps the placeholders of each English message', () => {
      for (const [key, text] of english) expect([key, placeholders(messages.get(key) ?? '')]).toEqual([key, placeholders(text)]);
    });

    it('is a translation, not a copy of English', () => {
      const same = [...english].filter(([key, text]) => messages.get(key) === text && /[a-z]{3}/i.test(text));
      // A few words legitimately stay the same (FAQ, Dashboard, Support…); most must not.
      expect(same.length / english.size).toBeLessThan(0.15);
    });
  });
});

describe('loading a language with English as fallback (lib/i18n/messages)', () => {
  it('keeps lists as lists, in the language asked for', async () => {
    const { loadMessages } = await import('@/lib/i18n/messages');
    const german = await loadMessages('de');
    const raw = JSON.parse(readFileSync(path.join(process.cwd(), 'messages', 'de.json'), 'utf8')) as { Security: { limits: string[] } };
    expect(Array.isArray(german.Security.limits)).toBe(true);
    expect(german.Security.limits).toEqual(raw.Security.limits);
  });
});
