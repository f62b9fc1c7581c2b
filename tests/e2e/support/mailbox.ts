import { expect } from '@playwright/test';

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

const catcher = () => `http://127.0.0.1:${process.env.MAIL_CATCHER_HTTP_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 2}`;

/**
 * Waits until the loopback SMTP server has received at least `count` mails to `to` that match,
 * and answers the newest.
 */
export async function waitForMail(to: string, predicate: (mail: CaughtMail) => boolean = () => true, count = 1): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${catcher()}/messages`)).json()) as CaughtMail[];
        const matching = mails.filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()) && predicate(mail));
        found = matching[matching.length - 1];
        return matching.length >= count;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

export const firstLink = (mail: CaughtMail) => /https?:\/\/[^\s"<>]+/.exec(mail.text)?.[0] ?? '';
