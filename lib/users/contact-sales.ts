import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { contactRequests } from '@/lib/db/schema';
import { emailField } from '@/lib/email-field';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { contactEmail } from '@/lib/public-site/settings';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { CONTACT_LIMITS } from './contact-limits';

export const contactSalesSchema = z.object({
  name: z.string({ error: 'missing_data' }).trim().min(CONTACT_LIMITS.nameMin, 'missing_data').max(CONTACT_LIMITS.nameMax, 'incorrect_data'),
  email: emailField({ required: 'email_required', invalid: 'format_email' }),
  message: z.string({ error: 'missing_data' }).trim().min(1, 'missing_data').max(CONTACT_LIMITS.messageMax, 'incorrect_data'),
});

/** Keeps the request and mails it to sales, in one transaction; `client` is the sender's address, for the limit. */
export async function contactSales(input: z.output<typeof contactSalesSchema>, userId: string | null, client: string): Promise<void> {
  // Issue 35: without SALES_EMAIL there is nobody to write to (the sender address is no-reply).
  const to = contactEmail();
  if (!to) throw new ApiError('contact_not_configured');
  await consumeAttempt(limits.contact, client);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(contactRequests).values({ ...input, userId });
    await enqueueMail(tx, { to, locale: 'en', template: 'contactSales', data: input });
  });
  kickMailWorker();
}
