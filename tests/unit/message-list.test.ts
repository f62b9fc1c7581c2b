import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import compile from 'icu-minify/compile';
import { createTranslator } from 'use-intl/core';
import { messageList } from '@/lib/i18n/message-list';
import { locales } from '@/lib/i18n/locales';

// The build compiles every message (next.config.mjs, next-intl's `precompile`): a list becomes an
// object keyed 0, 1, …, a message with an argument becomes a structure instead of a string. Code
// that read the JSON raw would show the structure; these tests keep the reading in one place.
const sourceFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));

const messages = { Page: { paragraphs: ['{brand} keeps meetings private.', 'Nothing to fill.'] } };

describe('lists in messages/*.json', () => {
  it('are formatted item by item from the JSON as it is (an array: Jest, scripts)', () => {
    const t = createTranslator({ locale: 'en', messages, namespace: 'Page' });
    expect(messageList(t, 'paragraphs', { brand: 'Enclave' })).toEqual(['Enclave keeps meetings private.', 'Nothing to fill.']);
  });

  it('and from the compiled shape the build makes (an object keyed 0, 1, …)', () => {
    const compiled = { Page: { paragraphs: { 0: '{brand} keeps meetings private.', 1: 'Nothing to fill.' } } };
    const t = createTranslator({ locale: 'en', messages: compiled, namespace: 'Page' });
    expect(messageList(t, 'paragraphs', { brand: 'Enclave' })).toEqual(['Enclave keeps meetings private.', 'Nothing to fill.']);
  });

  it('every message of every language compiles', () => {
    for (const locale of locales) {
      const tree = JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8')) as unknown;
      const walk = (node: unknown, id: string): void => {
        if (typeof node === 'string') expect(() => compile(node)).not.toThrow();
        else for (const [key, value] of Object.entries(node as object)) walk(value, `${id}.${key}`);
      };
      walk(tree, locale);
    }
  });

  it('no code reads a message raw (t.raw) except lib/i18n/message-list.ts', () => {
    const readers = ['app', 'components', 'lib']
      .flatMap(sourceFiles)
      .filter((file) => /\.raw\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(process.cwd(), file));
    expect(readers).toEqual([path.join('lib', 'i18n', 'message-list.ts')]);
  });
});
