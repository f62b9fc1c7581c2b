import 'server-only';
import { z } from 'zod';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { contactRequests } from '@/lib/db/schema';
import { emailField } from '@/lib/email-field';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { CONTACT_LIMITS } from './contact-limits';

export const contactSalesSchema = z.object({
  name: z.string({ error: 'missing_data' }).trim().min(CONTACT_LIMITS.nameMin, 'missing_data').max(CONTACT_LIMITS.nameMax, 'incorrect_data'),
  email: emailField({ required: 'email_required', invalid: 'format_email' }),
  message: z.string({ error: 'missing_data' }).trim().min(1, 'missing_data').max(CONTACT_LIMITS.messageMax, 'incorrect_data'),
});

/** The address in MAIL_FROM ("Name <address>" or a bare address). */
function senderAddress(): string {
  return /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
}

/** Keeps the request and mails it to sales, in one transaction; `client` is the sender's address, for the limit. */
export async function contactSales(input: z.output<typeof contactSalesSchema>, userId: string | null, client: string): Promise<void> {
  await consumeAttempt(limits.contact, client);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(contactRequests).values({ ...input, userId });
    await enqueueMail(tx, { to: config.salesEmail ?? senderAddress(), locale: 'en', template: 'contactSales', data: input });
  });
  kickMailWorker();
}
