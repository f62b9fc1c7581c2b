import 'server-only';
import { createTransport, type Transporter } from 'nodemailer';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';

// One per process: instrumentation and route handlers are bundled apart but share one process.
const transport = processSlot<Transporter>('mail.transport');

/** The SMTP transport of SMTP_URL, made on first use; null without SMTP_URL (the dev mailbox). */
export function getTransport(): Transporter | null {
  if (!config.smtpUrl) return null;
  return transport.getOrCreate(() =>
    createTransport(
      {
        url: config.smtpUrl,
        // No pool: mail is occasional, and no connection outlives its message. Short timeouts
        // keep one send well inside the 90-second claim on its outbox row (outbox.ts).
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      },
      { from: config.mailFrom },
    ),
  );
}

/** An SMTP failure as text for the outbox and the log, without SMTP_URL's password. */
export function smtpErrorMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const secret of smtpPassword()) message = message.replaceAll(secret, '***');
  return message.slice(0, 1000);
}

/** SMTP_URL's password as written and decoded (none when the URL has none or does not parse). */
function smtpPassword(): string[] {
  try {
    const { password } = new URL(config.smtpUrl ?? '');
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}
