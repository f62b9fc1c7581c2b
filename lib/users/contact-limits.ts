// The contact-sales form's limits, shared by the server's schema (lib/users/contact-sales.ts) and
// the browser's form, which checks them natively without shipping zod to a public page.
export const CONTACT_LIMITS = { nameMin: 2, nameMax: 120, emailMax: 254, messageMax: 5000 } as const;
