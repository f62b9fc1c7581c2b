'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiDelete } from '@/lib/api/browser';
import { useApiFeedback } from './useApiFeedback';

/** The state of a list screen: its search, the item in the add/edit modal, the item to delete. */
export function useListEditor<T extends { id: string }>(deletePath: string) {
  const feedback = useApiFeedback();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);

  async function remove() {
    if (!deleting) return;
    const answer = await apiDelete(`${deletePath}/${encodeURIComponent(deleting.id)}`);
    if (answer.status !== 'ok') return feedback.failed(answer.errorCode ?? 'error_contact_us');
    feedback.succeeded();
    setDeleting(null);
  }

  return { query, setQuery, editing, setEditing, deleting, setDeleting, remove, feedback };
}

/** Edit and delete buttons of a list item, named after the item for screen readers. */
export function RowActions({ name, onEdit, onDelete, children }: { name: string; onEdit: () => void; onDelete: () => void; children?: React.ReactNode }) {
  const t = useTranslations('Manage');
  return (
    <div className="flex flex-wrap gap-2">
      {children}
      <button type="button" className="button-secondary" onClick={onEdit} aria-label={t('editNamed', { name })}>
        {t('edit')}
      </button>
      <button type="button" className="button-secondary" onClick={onDelete} aria-label={t('deleteNamed', { name })}>
        {t('delete')}
      </button>
    </div>
  );
}
