import type { Attendee } from '@/lib/db/schema';

/** A contact as the API answers it (SPEC point 3, "Attendee / contact"). */
export function contactView(contact: Attendee) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phoneNumber: contact.phoneNumber,
    countryCode: contact.countryCode,
    dialCode: contact.dialCode,
    color: contact.color,
    lang: contact.lang,
    timezone: contact.timezone,
  };
}
export type ContactView = ReturnType<typeof contactView>;
