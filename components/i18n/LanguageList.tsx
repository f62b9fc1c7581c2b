'use client';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { localeLabels, locales, type Locale } from '@/lib/i18n/locales';
import { Flag } from './Flag';

const GAP = 4;
const MARGIN = 8;
const WIDTH = 224;

type Place = { top?: number; bottom?: number; left: number; maxHeight: number };

/**
 * The open half of the language picker: the listbox of the twelve languages, fixed to the viewport
 * beside its button. Its own module so that pages load it when a person opens the picker, not with
 * the page (issue 33: the auth pages' weight).
 */
export function LanguageList({
  locale,
  labelId,
  listId,
  optionId,
  button,
  onChoose,
  onClose,
}: {
  locale: Locale;
  labelId: string;
  listId: string;
  optionId: (code: Locale) => string;
  button: React.RefObject<HTMLButtonElement | null>;
  onChoose: (code: Locale) => void;
  /** `refocus`: give the focus back to the button (Escape), not when it moved elsewhere (Tab). */
  onClose: (refocus: boolean) => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [active, setActive] = useState<Locale>(locale);
  const [place, setPlace] = useState<Place | null>(null);

  // Where the popup goes: below the button if the list fits there, else on the roomier side; its
  // left edge kept inside the viewport (the public footer's picker sits at the right on wide screens).
  useLayoutEffect(() => {
    if (!button.current) return;
    const rect = button.current.getBoundingClientRect();
    const height = window.innerHeight;
    const width = Math.min(WIDTH, window.innerWidth - 2 * MARGIN);
    const wanted = listRef.current?.scrollHeight ?? 0;
    const below = height - rect.bottom - GAP - MARGIN;
    const above = rect.top - GAP - MARGIN;
    const down = below >= wanted || below >= above;
    const start = rect.left + width > window.innerWidth - MARGIN ? rect.right - width : rect.left;
    const left = Math.max(MARGIN, Math.min(start, window.innerWidth - MARGIN - width));
    setPlace(
      down ? { top: rect.bottom + GAP, left, maxHeight: Math.max(below, 120) } : { bottom: height - rect.top + GAP, left, maxHeight: Math.max(above, 120) },
    );
  }, [button]);

  // Focus moves into the list once it is placed: while it is still hidden it cannot take focus.
  useEffect(() => {
    if (place) listRef.current?.focus();
  }, [place]);

  // The active option stays in view while the arrows move it.
  useEffect(() => {
    // By hand, not scrollIntoView, which could also scroll the page (and so close the popup).
    const list = listRef.current;
    const option = document.getElementById(optionId(active));
    if (!list || !option) return;
    if (option.offsetTop < list.scrollTop) list.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > list.scrollTop + list.clientHeight)
      list.scrollTop = option.offsetTop + option.offsetHeight - list.clientHeight;
  }, [active, optionId]);

  // The page moving or resizing under a fixed popup would leave it behind: close it.
  useEffect(() => {
    const onMove = (event: Event) => {
      if (event.target instanceof Node && listRef.current?.contains(event.target)) return;
      onClose(false);
    };
    window.addEventListener('resize', onMove);
    window.addEventListener('scroll', onMove, true);
    return () => {
      window.removeEventListener('resize', onMove);
      window.removeEventListener('scroll', onMove, true);
    };
  }, [onClose]);

  function onKeyDown(event: React.KeyboardEvent<HTMLUListElement>) {
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
        return onChoose(active);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation(); // Inside the drawer's <dialog>: close the list, not the drawer.
        return onClose(true);
      case 'Tab':
        return onClose(false);
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
    <ul
      ref={listRef}
      id={listId}
      role="listbox"
      tabIndex={-1}
      aria-labelledby={labelId}
      aria-activedescendant={optionId(active)}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null) && event.relatedTarget !== button.current) onClose(false);
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
          onClick={() => onChoose(code)}
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
  );
}
