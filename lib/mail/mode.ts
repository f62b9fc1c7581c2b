// Where mail goes (issue 16, item 8). A mail holds live links (activation, password reset, login
// cards), so a production server writes mail to its log only when told to: without SMTP_URL it
// refuses to start unless MAIL_LOG=1 says the log is the mailbox. Development keeps the dev mailbox.

export type MailMode = 'smtp' | 'log' | 'refuse';

export function mailMode(settings: { smtpUrl?: string; production: boolean; mailLog: boolean }): MailMode {
  if (settings.smtpUrl) return 'smtp';
  if (!settings.production || settings.mailLog) return 'log';
  return 'refuse';
}

export const MAIL_NOT_CONFIGURED =
  'Enclave will not start in production without SMTP_URL: e-mails carry live activation and password-reset links. ' +
  'Set SMTP_URL, or MAIL_LOG=1 to write every mail, links included, to this log.';
