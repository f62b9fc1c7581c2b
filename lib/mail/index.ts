// The mail subsystem: queue a mail with the change it is about, a worker sends it.
export { assertMailConfigured, deliverDueMail, enqueueMail, kickMailWorker, startMailWorker } from './outbox';
export type { EnqueueMailInput } from './outbox';
export type { MailInput, MailTemplate, MailTemplates, RenderedMail } from './templates';
