import 'server-only';
// use-intl/core: the translator without React, so the worker process (react-server conditions) can load it.
import { createTranslator } from 'use-intl/core';
import { currentBrandName } from '@/lib/configuration/brand';
import { htmlLang, type Locale } from '@/lib/i18n/locales';
import { loadMessages } from '@/lib/i18n/messages';
import { DEFAULT_TITLE } from '@/lib/event-rules/limits';
import { describeRRule, type ScheduleText } from '@/lib/recurrence/describe';

/** Every mail template and the data it needs. */
export interface MailTemplates {
  activation: { firstName: string; link: string };
  /** An invitation to register on this server (issue 35), in the inviter's language. */
  registrationInvitation: { inviterName: string; link: string };
  passwordReset: { firstName: string; link: string };
  /** Sent to a new address: its link confirms it before the account takes it. */
  emailChangeConfirm: { firstName: string; link: string };
  /** Sent to the old address when the account's e-mail changes. */
  emailChanged: { firstName: string; newEmail: string };
  /** Sent when two-factor authentication is turned off (issue 16). */
  twoFactorDisabled: { firstName: string };
  /** A recovery code was used to log in (issue 48, point 6): `left` of them remain. */
  recoveryCodeUsed: { firstName: string; left: number };
  /**
   * Logins from unknown browsers were paused after `count` failures within the hour (issue 32):
   * the advice depends on whether the account has two-factor authentication.
   */
  failedLogins: { firstName: string; count: number; twoFactor: boolean };
  /** A meeting-card holder's one-time login link. */
  cardLogin: { firstName: string; link: string };
  /** The contact-sales form, sent to the sales address. */
  contactSales: { name: string; email: string; message: string };
  /** "Invite by e-mail" from the new-meeting modal. The link never carries the room secret. */
  meetingInvite: {
    inviterName: string;
    roomName: string;
    link: string;
    needsPassword: boolean;
    /** The call may go through this server's SFU (issue 48); absent in mail queued before. */ viaSfu?: boolean;
  };
  /** A scheduled meeting (SPEC point 4); the .ics file travels as an attachment. */
  eventInvitation: EventMailData;
  eventUpdate: EventMailData;
  eventCancellation: EventMailData & { message?: string };
  eventReminder: EventMailData & { leadMinutes: number };
  /** Support answered a ticket (issue 18): the reply, quoted, and the ticket's link. */
  ticketReply: { firstName: string; subject: string; reply: string; link: string };
  /** A ticket was opened (issue 48, point 5): to each admin, with the first message quoted. */
  ticketOpened: { from: string; subject: string; message: string; link: string };
}

/** What every meeting mail shows: `when` is already formatted in the meeting's time zone. */
export interface EventMailData {
  title: string;
  organizer: string;
  when: string;
  link: string | null;
  description?: string | null;
  /** The attendee list, when the organizer shows attendees in e-mails. */
  attendees?: string | null;
  hasPassword?: boolean;
  /** A series: its rule, told in the reader's language ("Every week, on Tuesday, 10 times"). */
  repeat?: { rrule: string; timezone: string } | null;
}

export type MailTemplate = keyof MailTemplates;

/** A template with its data: `{template: 'activation', data: {firstName, link}}`, and so on. */
export type MailInput = {
  [K in MailTemplate]: { template: K; data: MailTemplates[K] };
}[MailTemplate];

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** One piece of a mail body: a paragraph, the call-to-action button, or a quoted text. */
type Block = string | { button: string; url: string } | { quote: string };

interface MailContent {
  subject: string;
  heading: string;
  blocks: Block[];
}

async function translator(locale: Locale) {
  const [messages, brand] = [await loadMessages(locale), currentBrandName()];
  const t = createTranslator({ locale, messages, namespace: 'Mail' });
  const display = createTranslator({ locale, messages, namespace: 'Display' });
  const schedule = createTranslator({ locale, messages, namespace: 'Schedule' }) as unknown as ScheduleText;
  // Any message may name the brand, which comes from configuration (white-label installs).
  const translate = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, { brand, ...values });
  return Object.assign(translate, {
    /** A meeting's title as the reader sees it: the stored default "(No Title)" in their language. */
    title: (stored: string) => (stored === DEFAULT_TITLE ? display('noTitle') : stored),
    /** A series in words, with the wizard's own texts (lib/recurrence/describe.ts). */
    repeat: (repeat: NonNullable<EventMailData['repeat']>) => describeRRule(repeat.rrule, repeat.timezone, schedule, htmlLang(locale)),
  });
}

/** The support mails' own namespace (issue 18), with the brand like the others. */
async function supportTranslator(locale: Locale) {
  const [messages, brand] = [await loadMessages(locale), currentBrandName()];
  const t = createTranslator({ locale, messages, namespace: 'SupportMail' });
  return (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, { brand, ...values });
}

function ticketReplyMail(t: Awaited<ReturnType<typeof supportTranslator>>, data: MailTemplates['ticketReply']): MailContent {
  return {
    subject: t('ticketReply.subject', { subject: data.subject }),
    heading: t('ticketReply.heading'),
    blocks: [
      t('ticketReply.greeting', { firstName: data.firstName }),
      t('ticketReply.intro', { subject: data.subject }),
      { quote: data.reply },
      { button: t('ticketReply.button'), url: data.link },
    ],
  };
}

function ticketOpenedMail(t: Awaited<ReturnType<typeof supportTranslator>>, data: MailTemplates['ticketOpened']): MailContent {
  return {
    subject: t('ticketOpened.subject', { subject: data.subject }),
    heading: t('ticketOpened.heading'),
    blocks: [
      t('ticketOpened.intro', { from: data.from, subject: data.subject }),
      { quote: data.message },
      { button: t('ticketOpened.button'), url: data.link },
    ],
  };
}

/** The support mails, in their own namespace. */
const supportTemplates = { ticketReply: ticketReplyMail, ticketOpened: ticketOpenedMail };
type SupportTemplate = keyof typeof supportTemplates;
const isSupportTemplate = (template: MailTemplate): template is SupportTemplate => template in supportTemplates;

type Translate = Awaited<ReturnType<typeof translator>>;

/** The blocks every meeting mail shares: when, join button, attendees, password note, notes. */
function meetingBlocks(t: Translate, data: EventMailData): Block[] {
  const blocks: Block[] = [t('event.when', { when: data.when })];
  const repeats = data.repeat ? t.repeat(data.repeat) : null;
  if (repeats) blocks.push(t('event.repeats', { rule: repeats }));
  if (data.link) blocks.push({ button: t('event.join'), url: data.link });
  if (data.attendees) blocks.push(t('event.attendees', { attendees: data.attendees }));
  if (data.hasPassword) blocks.push(t('event.password'));
  if (data.description) blocks.push({ quote: data.description });
  return blocks;
}

function reminderIntro(t: Translate, minutes: number): string {
  if (minutes % 1440 === 0) return t('eventReminder.introDays', { count: minutes / 1440 });
  if (minutes % 60 === 0) return t('eventReminder.introHours', { count: minutes / 60 });
  return t('eventReminder.introMinutes', { count: minutes });
}

const eventTemplates: {
  [K in 'eventInvitation' | 'eventUpdate' | 'eventCancellation' | 'eventReminder']: (t: Translate, data: MailTemplates[K]) => MailContent;
} = {
  eventInvitation: (t, data) => ({
    subject: t('eventInvitation.subject', { title: t.title(data.title) }),
    heading: t.title(data.title),
    blocks: [t('eventInvitation.intro', { organizer: data.organizer }), ...meetingBlocks(t, data), t('event.calendarFile')],
  }),
  eventUpdate: (t, data) => ({
    subject: t('eventUpdate.subject', { title: t.title(data.title) }),
    heading: t.title(data.title),
    blocks: [t('eventUpdate.intro', { organizer: data.organizer }), ...meetingBlocks(t, data), t('event.calendarFile')],
  }),
  eventCancellation: (t, data) => ({
    subject: t('eventCancellation.subject', { title: t.title(data.title) }),
    heading: t.title(data.title),
    blocks: [
      t('eventCancellation.intro', { organizer: data.organizer }),
      t('event.when', { when: data.when }),
      ...(data.repeat && t.repeat(data.repeat) ? [t('event.repeats', { rule: t.repeat(data.repeat)! })] : []),
      ...(data.message ? [t('eventCancellation.message'), { quote: data.message }] : []),
      t('event.calendarFile'),
    ],
  }),
  eventReminder: (t, data) => ({
    subject: t('eventReminder.subject', { title: t.title(data.title) }),
    heading: t.title(data.title),
    blocks: [reminderIntro(t, data.leadMinutes), ...meetingBlocks(t, data)],
  }),
};

const templates: { [K in Exclude<MailTemplate, SupportTemplate>]: (t: Translate, data: MailTemplates[K]) => MailContent } = {
  activation: (t, { firstName, link }) => ({
    subject: t('activation.subject'),
    heading: t('activation.heading'),
    blocks: [t('activation.greeting', { firstName }), t('activation.intro'), { button: t('activation.button'), url: link }, t('activation.ignore')],
  }),
  // Without a name, the invitation comes from the server's operator (the CLI).
  registrationInvitation: (t, { inviterName, link }) => ({
    subject: inviterName ? t('registrationInvitation.subject', { inviterName }) : t('registrationInvitation.subjectOperator'),
    heading: t('registrationInvitation.heading'),
    blocks: [
      inviterName ? t('registrationInvitation.intro', { inviterName }) : t('registrationInvitation.introOperator'),
      { button: t('registrationInvitation.button'), url: link },
      t('registrationInvitation.expiry'),
      t('registrationInvitation.ignore'),
    ],
  }),
  passwordReset: (t, { firstName, link }) => ({
    subject: t('passwordReset.subject'),
    heading: t('passwordReset.heading'),
    blocks: [
      t('passwordReset.greeting', { firstName }),
      t('passwordReset.intro'),
      { button: t('passwordReset.button'), url: link },
      t('passwordReset.expiry'),
      t('passwordReset.ignore'),
    ],
  }),
  emailChangeConfirm: (t, { firstName, link }) => ({
    subject: t('emailChangeConfirm.subject'),
    heading: t('emailChangeConfirm.heading'),
    blocks: [
      t('emailChangeConfirm.greeting', { firstName }),
      t('emailChangeConfirm.intro'),
      { button: t('emailChangeConfirm.button'), url: link },
      t('emailChangeConfirm.expiry'),
      t('emailChangeConfirm.ignore'),
    ],
  }),
  emailChanged: (t, { firstName, newEmail }) => ({
    subject: t('emailChanged.subject'),
    heading: t('emailChanged.heading'),
    blocks: [t('emailChanged.greeting', { firstName }), t('emailChanged.intro', { newEmail }), t('emailChanged.notYou')],
  }),
  twoFactorDisabled: (t, { firstName }) => ({
    subject: t('twoFactorDisabled.subject'),
    heading: t('twoFactorDisabled.heading'),
    blocks: [t('twoFactorDisabled.greeting', { firstName }), t('twoFactorDisabled.intro'), t('twoFactorDisabled.notYou')],
  }),
  recoveryCodeUsed: (t, { firstName, left }) => ({
    subject: t('recoveryCodeUsed.subject'),
    heading: t('recoveryCodeUsed.heading'),
    blocks: [
      t('recoveryCodeUsed.greeting', { firstName }),
      t('recoveryCodeUsed.intro', { count: left }),
      t('recoveryCodeUsed.renew'),
      t('recoveryCodeUsed.notYou'),
    ],
  }),
  failedLogins: (t, { firstName, count, twoFactor }) => ({
    subject: t('failedLogins.subject'),
    heading: t('failedLogins.heading'),
    blocks: [
      t('failedLogins.greeting', { firstName }),
      t('failedLogins.intro', { count }),
      t('failedLogins.knownBrowser'),
      twoFactor ? t('failedLogins.adviceTwoFactorOn') : t('failedLogins.adviceTwoFactorOff'),
    ],
  }),
  meetingInvite: (t, { inviterName, roomName, link, needsPassword, viaSfu }) => ({
    subject: t('meetingInvite.subject', { inviterName }),
    heading: t('meetingInvite.heading'),
    blocks: [
      t('meetingInvite.intro', { inviterName, roomName }),
      { button: t('meetingInvite.button'), url: link },
      ...(needsPassword ? [t('meetingInvite.password', { inviterName })] : []),
      t(viaSfu ? 'meetingInvite.noAccountSfu' : 'meetingInvite.noAccount'),
    ],
  }),
  cardLogin: (t, { firstName, link }) => ({
    subject: t('cardLogin.subject'),
    heading: t('cardLogin.heading'),
    blocks: [
      t('cardLogin.greeting', { firstName }),
      t('cardLogin.intro'),
      { button: t('cardLogin.button'), url: link },
      t('cardLogin.expiry'),
      t('cardLogin.ignore'),
    ],
  }),
  contactSales: (t, { name, email, message }) => ({
    subject: t('contactSales.subject', { name }),
    heading: t('contactSales.heading'),
    blocks: [t('contactSales.intro', { name, email }), { quote: message }, t('contactSales.reply', { email })],
  }),
  ...eventTemplates,
};

/** Renders a template in the recipient's language (English where a translation lacks a text). */
export async function renderMail<K extends MailTemplate>(locale: Locale, template: K, data: MailTemplates[K]): Promise<RenderedMail> {
  const t = await translator(locale);
  const content = isSupportTemplate(template)
    ? (supportTemplates[template] as (t: Awaited<ReturnType<typeof supportTranslator>>, data: MailTemplates[K]) => MailContent)(
        await supportTranslator(locale),
        data,
      )
    : (templates[template as Exclude<MailTemplate, SupportTemplate>] as (t: Translate, data: MailTemplates[K]) => MailContent)(t, data);
  // A line break in a header would end it; user input (a name) can reach the subject.
  const subject = content.subject.replace(/\s+/g, ' ').trim();
  const footer = t('footer');
  return {
    subject,
    html: toHtml({ ...content, subject }, footer, t('linkHint'), locale),
    text: toText(content, footer),
  };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Makes any text safe inside HTML elements and quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function safeUrl(url: string): string {
  // Only web links belong in a mail: never javascript: or data: from a bad caller.
  if (!/^https?:\/\//i.test(url)) throw new Error('mail links must be http(s) URLs');
  return escapeHtml(url);
}

const font = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const paragraph = 'margin:0 0 16px;font-size:16px;line-height:1.5';
const small = 'font-size:14px;line-height:1.5;color:#52525b';

function htmlBlock(block: Block, linkHint: string): string {
  if (typeof block === 'string') return `<p style="${paragraph}">${escapeHtml(block)}</p>`;
  if ('quote' in block) {
    return `<blockquote style="${paragraph};padding:12px 16px;border-left:4px solid #d4d4d8;background:#f4f4f5;white-space:pre-wrap">${escapeHtml(block.quote)}</blockquote>`;
  }
  const url = safeUrl(block.url);
  return [
    `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:#15803d;color:#ffffff;font-size:16px;font-weight:600;text-decoration:none">${escapeHtml(block.button)}</a></p>`,
    `<p style="margin:0 0 16px;${small}">${escapeHtml(linkHint)}<br><a href="${url}" style="color:#15803d;word-break:break-all">${url}</a></p>`,
  ].join('\n');
}

function toHtml(content: MailContent, footer: string, linkHint: string, locale: Locale): string {
  const lang = htmlLang(locale);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:24px 12px;background:#f4f4f5;color:#18181b;${font}">
<div role="article" aria-label="${escapeHtml(content.subject)}" lang="${lang}" style="max-width:560px;margin:0 auto;padding:32px;border-radius:8px;background:#ffffff">
<h1 style="margin:0 0 24px;font-size:22px;line-height:1.3">${escapeHtml(content.heading)}</h1>
${content.blocks.map((block) => htmlBlock(block, linkHint)).join('\n')}
<hr style="margin:32px 0 16px;border:0;border-top:1px solid #e4e4e7">
<p style="margin:0;${small}">${escapeHtml(footer)}</p>
</div>
</body>
</html>
`;
}

function textBlock(block: Block): string {
  if (typeof block === 'string') return block;
  if ('quote' in block) return block.quote.replace(/^/gm, '> ');
  return `${block.button}:\n${block.url}`;
}

function toText(content: MailContent, footer: string): string {
  const body = content.blocks.map(textBlock);
  return `${content.heading}\n\n${body.join('\n\n')}\n\n-- \n${footer}\n`;
}
