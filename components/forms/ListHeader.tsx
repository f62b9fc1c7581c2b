'use client';

import { useId } from 'react';

interface ListHeaderProps {
  title: string;
  level: 1 | 2;
  /** e.g. "3 of 30 rooms" */
  total: string;
  searchLabel: string;
  query: string;
  onQuery: (query: string) => void;
  addLabel: string;
  onAdd: () => void;
  /** Why adding is not possible now, if it is not. */
  addBlocked?: string;
}

/** The top of a list screen: heading, total, search box and add button (SPEC point 2). */
export function ListHeader({ title, level, total, searchLabel, query, onQuery, addLabel, onAdd, addBlocked }: ListHeaderProps) {
  const searchId = useId();
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <div className="mb-4 flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <div>
          <Heading className={level === 1 ? 'text-2xl font-bold' : 'text-xl font-semibold'}>{title}</Heading>
          <p className="text-sm text-slate-600" aria-live="polite">
            {total}
          </p>
        </div>
        <button type="button" className="button-primary" onClick={onAdd} disabled={Boolean(addBlocked)}>
          {addLabel}
        </button>
      </div>
      {addBlocked && <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{addBlocked}</p>}
      <label htmlFor={searchId} className="sr-only">
        {searchLabel}
      </label>
      <input
        id={searchId}
        type="search"
        value={query}
        placeholder={searchLabel}
        onChange={(event) => onQuery(event.target.value)}
        className="rounded-md border border-slate-300 px-3 py-2"
      />
    </div>
  );
}
