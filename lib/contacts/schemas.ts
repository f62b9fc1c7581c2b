// The contact form and POST /api/attendee, /api/attendee/update share these rules (SPEC point 5).
import { z } from 'zod';
import { colorField } from '@/lib/color-field';
import { emailField } from '@/lib/email-field';
import { locales } from '@/lib/i18n/locales';
import { isValidTimezone } from '@/lib/time/timezones';
import { normalizePhone } from './phone';

const fields = {
  name: z.string({ error: 'missing_data' }).trim().min(1, 'missing_data').max(100, 'incorrect_data'),
  // SPEC point 5: 'Email address must have a valid format' for attendees.
  email: emailField({ required: 'email_required', invalid: 'incorrect_email_format' }),
  /** '' removes the number. */
  phoneNumber: z.string({ error: 'incorrect_data' }).trim().max(32, 'incorrect_data'),
  countryCode: z.string({ error: 'incorrect_data' }).regex(/^[A-Z]{2}$/, 'incorrect_data'),
  color: colorField,
  lang: z.enum(locales, { error: 'incorrect_data' }),
  /** '' removes the time zone. */
  timezone: z
    .string({ error: 'incorrect_data' })
    .max(64, 'incorrect_data')
    .refine((zone) => zone === '' || isValidTimezone(zone), 'incorrect_data'),
};

/** 'Number not valid' (SPEC point 5) is answered as incorrect_data on the phoneNumber field. */
function checkPhone(contact: { phoneNumber?: string; countryCode?: string }, ctx: z.RefinementCtx) {
  if (contact.phoneNumber && !normalizePhone(contact.phoneNumber, contact.countryCode)) {
    ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'incorrect_data' });
  }
}

const contactObject = z.object({
  name: fields.name,
  email: fields.email,
  phoneNumber: fields.phoneNumber.optional(),
  countryCode: fields.countryCode.optional(),
  color: fields.color.optional(),
  lang: fields.lang.optional(),
  timezone: fields.timezone.optional(),
});

export const contactSchema = contactObject.superRefine(checkPhone);
export type ContactInput = z.output<typeof contactSchema>;

/** Fields left out stay as they are. */
export const contactUpdateSchema = contactObject
  .partial()
  .extend({ id: z.string({ error: 'missing_data' }).max(64, 'attendee_not_found') })
  .superRefine(checkPhone);
export type ContactUpdate = z.output<typeof contactUpdateSchema>;
