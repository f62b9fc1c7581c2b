'use client';

import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { flagSrc, localeLabels, locales, type Locale } from '@/lib/i18n/locales';

/** The flag beside a language's name: decoration (alt=""), the name is what is read. */
function Flag({ locale }: { locale: Locale }) {
  // A plain <img> on purpose: a 20×15 SVG from public/ needs none of next/image's work.
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={flagSrc(locale)} alt="" width={20} height={15} className="h-[15px] w-5 shrink-0 rounded-[2px] object-cover shadow-[0_0_0_1px_rgb(0_0_0/0.1)]" />;
}

const GAP = 4;
const MARGIN = 8;
const WIDTH = 224;

type Place = { top?: number; bottom?: number; left: number; maxHeight: number };

/**
 * The language picker with flag options of SPEC point 1, shared by the app frame and the public
 * pages: a button showing the current language's flag and name, and a listbox of the twelve
 * languages (flag, name in its own script, code). A native <select> cannot show images, so this is
 * the WAI-ARIA "select-only combobox" pattern reduced to a button and a listbox with
 * aria-activedescendant. The popup is fixed to the viewport so that no scrolling container (the
 * drawer's <dialog>, the sidebar) clips it, and it opens up or down, left or right, where there is room.
 * What choosing does (saving to the user or as the guest language) is the caller's `onChange`.
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
  const optionId = (code: Locale) => `${id}-${code}`;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<Locale>(locale);
  const [place, setPlace] = useState<Place | null>(null);

  function show(start: Locale = locale) {
    if (disabled) return;
    setActive(start);
    setOpen(true);
  }

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }

  function choose(code: Locale) {
    close(true);
    if (code !== locale) onChange(code);
  }

  // Where the popup goes: below the button if the list fits there, else on the roomier side; its
  // left edge kept inside the viewport (the public footer's picker sits at the right on wide screens).
  useLayoutEffect(() => {
    if (!open || !buttonRef.current) return;
    const rect = buttonRef.current.getBoundingClientRect();
    const height = window.innerHeight;
    const width = Math.min(WIDTH, window.innerWidth - 2 * MARGIN);
    const wanted = listRef.current?.scrollHeight ?? 0;
    const below = height - rect.bottom - GAP - MARGIN;
    const above = rect.top - GAP - MARGIN;
    const down = below >= wanted || below >= above;
    const start = rect.left + width > window.innerWidth - MARGIN ? rect.right - width : rect.left;
    const left = Math.max(MARGIN, Math.min(start, window.innerWidth - MARGIN - width));
    setPlace(
      down
        ? { top: rect.bottom + GAP, left, maxHeight: Math.max(below, 120) }
        : { bottom: height - rect.top + GAP, left, maxHeight: Math.max(above, 120) },
    );
  }, [open]);

  // Focus moves into the list once it is placed: while it is still hidden it cannot take focus.
  useEffect(() => {
    if (open && place) listRef.current?.focus();
  }, [open, place]);

  // The active option stays in view while the arrows move it.
  useEffect(() => {
    if (!open) return;
    // By hand, not scrollIntoView, which could also scroll the page (and so close the popup).
    const list = listRef.current;
    const option = document.getElementById(optionId(active));
    if (!list || !option) return;
    if (option.offsetTop < list.scrollTop) list.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = option.offsetTop + option.offsetHeight - list.clientHeight;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- optionId only depends on id.
  }, [open, active]);

  // The page moving or resizing under a fixed popup would leave it behind: close it.
  useEffect(() => {
    if (!open) return;
    const onMove = (event: Event) => {
      if (event.target instanceof Node && listRef.current?.contains(event.target)) return;
      close(false);
    };
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, true);
    return () => {
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, true);
    };
  }, [open]);

  function onButtonKeyDown(event: React.KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'Enter' || event.key === ' ' || event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show();
    }
  }

  function onListKeyDown(event: React.KeyboardEvent<HTMLUListElement>) {
    const index = locales.indexOf(active);
    const move = (to: number) => {
      event.preventDefault();
      setActive(locales[Math.max(0, Math.min(locales.length - 1, to))]!);
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        return move(index - 1);
      case 'Home':
      case 'PageUp':
        return move(0);
      case 'End':
      case 'PageDown':
        return move(locales.length - 1);
      case 'Enter':
      case ' ':
        event.preventDefault();
        return choose(active);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation(); // Inside the drawer's <dialog>: close the list, not the drawer.
        return close(true);
      case 'Tab':
        return close(false);
      default:
        // Type-ahead: the first language whose name or code starts with the typed letter.
        if (event.key.length === 1 && /\S/.test(event.key)) {
          const key = event.key.toLowerCase();
          const order = [...locales.slice(index + 1), ...locales.slice(0, index + 1)];
          const hit = order.find((code) => localeLabels[code].name.toLowerCase().startsWith(key) || code.startsWith(key));
          if (hit) setActive(hit);
        }
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
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-labelledby={labelId}
          aria-activedescendant={optionId(active)}
          onKeyDown={onListKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null) && event.relatedTarget !== buttonRef.current) setOpen(false);
          }}
          style={place ? { top: place.top, bottom: place.bottom, left: place.left, maxHeight: place.maxHeight } : { visibility: 'hidden' }}
          className="fixed z-50 w-56 max-w-[calc(100vw-1rem)] overflow-y-auto overscroll-contain rounded-md border border-slate-200 bg-white py-1 text-sm text-slate-900 shadow-lg focus:outline-none"
        >
          {locales.map((code) => (
            <li
              key={code}
              id={optionId(code)}
              role="option"
              aria-selected={code === locale}
              onClick={() => choose(code)}
              onMouseMove={() => setActive(code)}
              className={`flex cursor-pointer items-center gap-2 px-3 py-2 ${code === active ? 'bg-slate-100' : ''} ${code === locale ? 'font-semibold' : ''}`}
            >
              <Flag locale={code} />
              <span lang={code} className="min-w-0 flex-1 truncate">
                {localeLabels[code].name}
              </span>
              <span className="text-xs text-slate-500">{code}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
