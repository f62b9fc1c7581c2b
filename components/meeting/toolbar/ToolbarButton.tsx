'use client';

interface ToolbarButtonProps {
  label: string;
  /** The word under the icon from md (issue 48); `label` stays the button's name and tooltip. */
  short: string;
  shortcut?: string;
  off?: boolean;
  active?: boolean;
  badge?: number;
  onClick: () => void;
  children: React.ReactNode;
}

export function ToolbarButton({ label, short, shortcut, off, active, badge, onClick, children }: ToolbarButtonProps) {
  return (
    <div className="flex shrink-0 flex-col items-center gap-1">
      <button
        type="button"
        className={`toolbar-button relative shrink-0 ${off ? 'toolbar-button-off' : ''} ${active ? 'toolbar-button-active' : ''}`}
        aria-label={label}
        aria-pressed={off !== undefined ? off : active !== undefined ? active : undefined}
        aria-keyshortcuts={shortcut?.replace('Ctrl', 'Control')}
        title={shortcut ? `${label} (${shortcut})` : label}
        onClick={onClick}
      >
        {children}
        {!!badge && (
          <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-500 px-1 text-xs" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      <ShortLabel text={short} />
    </div>
  );
}

/**
 * A round button's word under it, from md (768 px) up where the bar has room (below, the "More"
 * menu names everything). Hidden from screen readers: the button's own name says it already.
 */
export function ShortLabel({ text, className = '' }: { text: string; className?: string }) {
  return (
    <span aria-hidden="true" className={`hidden max-w-14 truncate text-center text-[11px] leading-tight text-slate-300 md:block ${className}`.trim()}>
      {text}
    </span>
  );
}
