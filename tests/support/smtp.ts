import type { AddressInfo } from 'node:net';
import PostalMime, { type Address, type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** A mail as the SMTP server received it, parsed. */
export interface ParsedMail {
  /** What the client said in MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** The address of the From header. */
  from: string;
  /** The addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string | undefined;
  attachments: { filename: string | null; mimeType: string; content: Buffer }[];
}

export interface TestSmtpServer {
  /** The SMTP_URL that reaches this server. */
  url: string;
  port: number;
  /** Every mail accepted so far, oldest first. */
  messages: ParsedMail[];
  /** The first mail, received or still to come, that matches. */
  waitFor(predicate: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Refuses the next `count` mails with a temporary error (451), as a busy server does. */
  failNext(count: number): void;
  close(): Promise<void>;
}

function addresses(list: Address[] = []): string[] {
  return list.flatMap((entry) => (entry.group ? entry.group.map((m) => m.address) : [entry.address]));
}

function parsed(email: Email, session: SMTPServerSession): ParsedMail {
  const envelope = session.envelope;
  return {
    envelope: {
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((rcpt) => rcpt.address),
    },
    from: email.from ? (addresses([email.from])[0] ?? '') : '',
    to: addresses(email.to),
    subject: email.subject ?? '',
    text: email.text ?? '',
    html: email.html ?? '',
    messageId: email.messageId,
    attachments: email.attachments.map((a) => ({
      filename: a.filename,
      mimeType: a.mimeType,
      content: Buffer.from(a.content as ArrayBuffer),
    })),
  };
}

/** A real SMTP server on 127.0.0.1 (a free port, no TLS) that keeps what it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedMail[] = [];
  const listeners = new Set<() => void>();
  let failures = 0;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // Accept any login, so an SMTP_URL with credentials works too.
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        // Answer only once the mail is parsed and kept: when sendMail resolves, it is here.
        PostalMime.parse(Buffer.concat(chunks)).then((email) => {
          messages.push(parsed(email, session));
          for (const listener of listeners) listener();
          callback();
        }, callback);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return;
          stop();
          resolve(found);
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const stop = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    failNext(count) {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
