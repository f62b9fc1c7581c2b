import { expect } from '@playwright/test';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

const catcher = () => `http://127.0.0.1:${process.env.MAIL_CATCHER_HTTP_PORT ?? 3212}`;

/** Waits for the newest mail to `to` that the loopback SMTP server received. */
export async function waitForMail(to: string, predicate: (mail: CaughtMail) => boolean = () => true): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${catcher()}/messages`)).json()) as CaughtMail[];
        found = mails.filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()) && predicate(mail)).pop();
        return Boolean(found);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

export const firstLink = (mail: CaughtMail) => /https?:\/\/[^\s"<>]+/.exec(mail.text)?.[0] ?? '';
