'use client';

import { useSyncExternalStore } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import type { FileTransfers, TransferView } from '@/lib/meeting/client/files/transfers';
import { STALL_MS } from '@/lib/meeting/client/files/stall-watch';
import { formatFileSize } from './file-size';

/** The call's file transfers, both ways, between the stage and the toolbar; nothing when there are none. */
export default function FileTransferList({ files }: { files: FileTransfers }) {
  const t = useTranslations('Meeting.files');
  const transfers = useSyncExternalStore(files.subscribe, files.getSnapshot, files.getSnapshot);
  if (!transfers.length) return null;
  return (
    <section aria-label={t('list')} className="max-h-48 shrink-0 overflow-y-auto bg-slate-900 px-2 py-2 text-slate-100">
      <ul className="space-y-2">
        {transfers.map((transfer) => (
          <TransferRow key={transfer.key} transfer={transfer} files={files} />
        ))}
      </ul>
    </section>
  );
}

function TransferRow({ transfer, files }: { transfer: TransferView; files: FileTransfers }) {
  const t = useTranslations('Meeting.files');
  const format = useFormatter();
  const { key, name, peerName, direction, status } = transfer;
  const size = (bytes: number) => formatFileSize(format, bytes);
  const button = 'rounded-md px-3 py-1 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-white';
  return (
    <li data-testid="file-transfer" data-status={status} data-direction={direction} className="rounded-md bg-slate-800 px-3 py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="min-w-0 truncate font-medium" title={name}>
          {name}
        </p>
        <p className="text-xs text-slate-300">
          {direction === 'in' ? t('from', { name: peerName }) : t('toPeer', { name: peerName })} · {size(transfer.size)}
        </p>
      </div>
      {status === 'active' && (
        <div className="mt-1 flex items-center gap-2">
          <progress className="h-2 min-w-0 flex-1" max={transfer.size} value={transfer.bytes} aria-label={t('progress', { file: name })} />
          <span className="text-xs tabular-nums text-slate-300">{t('amount', { done: size(transfer.bytes), total: size(transfer.size) })}</span>
        </div>
      )}
      <p role={status === 'failed' ? 'alert' : 'status'} className={`mt-1 text-sm ${status === 'failed' ? 'text-red-300' : 'text-slate-200'}`}>
        {statusText(t, transfer, size(files.limit))}
      </p>
      <div className="mt-1 flex flex-wrap gap-2">
        {status === 'incoming' && (
          <>
            <button
              type="button"
              className={`${button} bg-white text-slate-900`}
              aria-label={t('acceptFile', { file: name })}
              onClick={() => files.accept(key)}
            >
              {t('accept')}
            </button>
            <button type="button" className={`${button} bg-slate-600`} aria-label={t('declineFile', { file: name })} onClick={() => files.decline(key)}>
              {t('decline')}
            </button>
          </>
        )}
        {(status === 'waiting' || status === 'active') && (
          <button type="button" className={`${button} bg-slate-600`} aria-label={t('cancelFile', { file: name })} onClick={() => files.cancel(key)}>
            {t('cancel')}
          </button>
        )}
        {status === 'done' && direction === 'in' && (
          <button type="button" className={`${button} bg-white text-slate-900`} aria-label={t('saveFile', { file: name })} onClick={() => files.save(key)}>
            {t('save')}
          </button>
        )}
        {(status === 'done' || status === 'declined' || status === 'cancelled' || status === 'failed') && (
          <button type="button" className={`${button} bg-slate-600`} aria-label={t('dismissFile', { file: name })} onClick={() => files.dismiss(key)}>
            {t('dismiss')}
          </button>
        )}
      </div>
    </li>
  );
}

type T = ReturnType<typeof useTranslations<'Meeting.files'>>;

/** One sentence: where the transfer stands, and why it stopped if it did. */
function statusText(t: T, { status, problem, direction, peerName: name }: TransferView, limit: string): string {
  switch (status) {
    case 'waiting':
      return t('waiting', { name });
    case 'incoming':
      return t('incoming');
    case 'active':
      return direction === 'in' ? t('receiving') : t('sending');
    case 'done':
      return direction === 'in' ? t('arrived') : t('delivered', { name });
    case 'declined':
      return direction === 'in' ? t('youDeclined') : t('declined', { name });
    case 'cancelled':
      return problem === 'by-peer' ? t('cancelledBy', { name }) : t('cancelled');
    case 'failed':
      switch (problem) {
        case 'too-large':
          return t('refusedTooLarge', { size: limit });
        case 'peer-left':
          return direction === 'in' ? t('peerLeftIn', { name }) : t('peerLeftOut', { name });
        case 'corrupt':
          return t('corrupt');
        case 'memory':
          return t('memory');
        case 'stalled':
          return t('stalled', { name, seconds: STALL_MS / 1000 });
        default:
          return t('interrupted', { name });
      }
  }
}
