'use client';

import { Suspense, useCallback, useId, useRef, useState } from 'react';
import { lazyComponent } from '@/components/dialog/lazy';
import { localeLabels, type Locale } from '@/lib/i18n/locales';
import { Flag } from './Flag';

const loadList = () => import('./LanguageList').then((module) => module.LanguageList);
const LanguageList = lazyComponent(loadList);

/**
 * The language picker with flag options of SPEC point 1, shared by the app frame and the public
 * pages: a button showing the current language's flag and name, and a listbox of the twelve
 * languages (flag, name in its own script, code). A native <select> cannot show images, so this is
 * the WAI-ARIA "select-only combobox" pattern reduced to a button and a listbox with
 * aria-activedescendant. The listbox (`LanguageList`) loads when first opened; pointing at or
 * focusing the button fetches it ahead. What choosing does (saving to the user or as the guest
 * language) is the caller's `onChange`.
 */
export function LanguagePicker({
  locale,
  label,
  onChange,
  disabled = false,
  inline = false,
}: {
  locale: Locale;
  label: string;
  onChange: (next: Locale) => void;
  disabled?: boolean;
  /** Label beside the button (public footer) instead of above it (app sidebar). */
  inline?: boolean;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const buttonId = `${id}-button`;
  const listId = `${id}-list`;
  const optionId = useCallback((code: Locale) => `${id}-${code}`, [id]);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);

  function show() {
    if (!disabled) setOpen(true);
  }

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  function choose(code: Locale) {
    close(true);
    if (code !== locale) onChange(code);
  }

  function onButtonKeyDown(event: React.KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show();
    }
  }

  return (
    <div className={inline ? 'flex items-center gap-2' : 'flex flex-col gap-1'}>
      <span id={labelId} className={inline ? 'text-sm text-slate-600' : 'text-xs font-medium text-slate-500 uppercase'}>
        {label}
      </span>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-labelledby={`${labelId} ${buttonId}`}
        disabled={disabled}
        // While open, a press on the button must not blur (and so close) the list before its click closes it.
        onMouseDown={(event) => open && event.preventDefault()}
        onClick={() => (open ? close(true) : show())}
        onKeyDown={onButtonKeyDown}
        onPointerEnter={() => void loadList()}
        onFocus={() => void loadList()}
        className="flex min-w-0 items-center gap-2 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-left text-sm disabled:opacity-60"
      >
        <Flag locale={locale} />
        <span lang={locale} className="truncate">
          {localeLabels[locale].name}
        </span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="ml-auto h-4 w-4 shrink-0 text-slate-500" fill="currentColor">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      {open && (
        <Suspense fallback={null}>
          <LanguageList locale={locale} labelId={labelId} listId={listId} optionId={optionId} button={buttonRef} onChoose={choose} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
