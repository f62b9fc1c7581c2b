'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { REACTIONS } from '@/lib/meeting/client/call/peer-messages';
import { ReactionEmoji } from '../ReactionEmoji';
import { MoreIcon } from '../icons';
import { ShortLabel } from './ToolbarButton';

/** A control that sits in the bar from md (768 px) up and in the "More" menu below it. */
export interface Secondary {
  key: string;
  label: string;
  /** The word under the icon in the bar (from md): short; `label` stays its name. */
  short: string;
  icon: React.ReactNode;
  shortcut?: string;
  /** aria-pressed in the bar, aria-checked in the menu. */
  active?: boolean;
  badge?: number;
  /** In the bar only from lg (1024 px): between md and lg it stays in a "More" menu. */
  wide?: boolean;
  onClick: () => void;
}

/**
 * The menu button pattern (WAI-ARIA APG): opens with Enter, Space or ArrowUp/Down and focuses an
 * item; arrows, Home and End move; Escape closes and gives focus back to the button; Tab or a
 * click outside closes it.
 */
export function MoreMenu({
  label,
  short,
  reactLabel,
  controls,
  badge,
  reactWith,
  onReact,
}: {
  label: string;
  short: string;
  /** Without it, the menu has no reactions (the md–lg menu: the bar has them). */
  reactLabel?: string;
  controls: Secondary[];
  badge: number;
  reactWith?: (emoji: string) => string;
  onReact: (emoji: string) => void;
}) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    const list = items();
    (open === 'last' ? list[list.length - 1] : list[0])?.focus();
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const choose = (action: () => void) => {
    close(true);
    action();
  };

  function onMenuKey(event: React.KeyboardEvent) {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(at + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(list.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') close(false);
  }

  const item = 'flex w-full items-center gap-3 rounded-md px-3 py-2.5 text-left text-sm hover:bg-slate-600 focus:bg-slate-600 focus:outline-none';
  return (
    <div className="relative flex shrink-0 flex-col items-center gap-1">
      <button
        ref={button}
        type="button"
        className={`toolbar-button relative ${open ? 'toolbar-button-active' : ''}`}
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={!!open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(event.key === 'ArrowUp' ? 'last' : 'first');
          }
        }}
      >
        <MoreIcon />
        {badge > 0 && (
          <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-500 px-1 text-xs" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      <ShortLabel text={short} />
      {open && (
        <div
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className="absolute right-0 bottom-full z-20 mb-2 flex w-64 max-w-[calc(100vw-1.5rem)] flex-col rounded-xl bg-slate-700 p-1.5 text-white shadow-xl"
        >
          {controls.map((control) => (
            <button
              key={control.key}
              type="button"
              tabIndex={-1}
              role={control.active !== undefined ? 'menuitemcheckbox' : 'menuitem'}
              aria-checked={control.active}
              aria-keyshortcuts={control.shortcut?.replace('Ctrl', 'Control')}
              className={`${item} ${control.active ? 'text-sky-300' : ''}`}
              onClick={() => choose(control.onClick)}
            >
              {control.icon}
              <span className="flex-1">{control.label}</span>
              {!!control.badge && (
                <span className="min-w-5 rounded-full bg-red-500 px-1 text-center text-xs" aria-hidden="true">
                  {control.badge}
                </span>
              )}
            </button>
          ))}
          {reactLabel && reactWith && (
            <div role="group" aria-label={reactLabel} className="mt-1 flex justify-between border-t border-slate-600 pt-1.5">
              {REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  tabIndex={-1}
                  role="menuitem"
                  aria-label={reactWith(emoji)}
                  className="rounded-full p-2 text-xl hover:bg-slate-600 focus:bg-slate-600 focus:outline-none"
                  onClick={() => choose(() => onReact(emoji))}
                >
                  <ReactionEmoji emoji={emoji} />
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
