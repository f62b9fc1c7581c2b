/** @jest-environment jsdom */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { LanguagePicker } from '@/components/i18n/LanguagePicker';
import { flagSrc, localeLabels, locales, type Locale } from '@/lib/i18n/locales';

// SPEC point 1: "a language selector with flag options". The flags are SVG files shipped in
// public/flags (emoji flags draw as letters or boxes on Windows and Linux, issue 33 point 10).
function setup(locale: Locale = 'en') {
  const onChange = jest.fn<void, [Locale]>();
  render(<LanguagePicker locale={locale} label="Language" onChange={onChange} />);
  const button = screen.getByRole('button', { name: /Language/ });
  return { onChange, button };
}

describe('the language picker with flags', () => {
  it('shows the current language as flag and name on a button labelled by the translation', () => {
    const { button } = setup('de');
    expect(button).toHaveAccessibleName('Language Deutsch');
    expect(button).toHaveAttribute('aria-haspopup', 'listbox');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const flag = button.querySelector('img')!;
    expect(flag).toHaveAttribute('src', '/flags/de.svg');
    expect(flag).toHaveAttribute('alt', '');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('lists the twelve languages, each with its decorative flag, its own name and its code', async () => {
    const { button } = setup('en');
    fireEvent.click(button);
    const list = await screen.findByRole('listbox', { name: 'Language' });
    await waitFor(() => expect(list).toHaveFocus());
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(locales.length);
    options.forEach((option, i) => {
      const code = locales[i]!;
      expect(option).toHaveTextContent(localeLabels[code].name);
      expect(option).toHaveTextContent(code);
      const img = option.querySelector('img')!;
      expect(img).toHaveAttribute('alt', '');
      expect(img).toHaveAttribute('src', flagSrc(code));
      expect(img).toHaveAttribute('width', '20');
      expect(img).toHaveAttribute('height', '15');
    });
    expect(screen.getByRole('option', { name: /English/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('option', { name: /Deutsch/ })).toHaveAttribute('aria-selected', 'false');
  });

  it('opens with the keyboard, moves with the arrows, Home and End, and selects with Enter', async () => {
    const { button, onChange } = setup('en');
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const list = await screen.findByRole('listbox');
    const active = () => document.getElementById(list.getAttribute('aria-activedescendant')!);
    expect(active()).toHaveTextContent('English');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(active()).toHaveTextContent('Français');
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(active()).toHaveTextContent('Deutsch');
    fireEvent.keyDown(list, { key: 'End' });
    expect(active()).toHaveTextContent('Português');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(active()).toHaveTextContent('Português');
    fireEvent.keyDown(list, { key: 'Home' });
    expect(active()).toHaveTextContent('English');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('de');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('opens with Enter and Space too, and Escape closes without a change and returns focus', async () => {
    const { button, onChange } = setup('pl');
    fireEvent.keyDown(button, { key: 'Enter' });
    let list = await screen.findByRole('listbox');
    expect(document.getElementById(list.getAttribute('aria-activedescendant')!)).toHaveTextContent('Polski');
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    fireEvent.keyDown(button, { key: ' ' });
    list = await screen.findByRole('listbox');
    fireEvent.keyDown(list, { key: 'Tab' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('calls the change with the clicked locale, and not for the current one', async () => {
    const { button, onChange } = setup('en');
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole('option', { name: /English/ }));
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole('option', { name: /繁體中文/ }));
    expect(onChange).toHaveBeenCalledWith('zh-tw');
  });

  it('ships every flag it points at, small', () => {
    for (const code of locales) {
      const file = path.join(process.cwd(), 'public', flagSrc(code));
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).size).toBeLessThan(10_000);
    }
    expect(existsSync(path.join(process.cwd(), 'public/flags/LICENSE'))).toBe(true);
  });
});
