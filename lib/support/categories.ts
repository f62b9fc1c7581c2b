// Shared by the ticket form, the lists and the server's schema (issue 18).
export const ticketCategories = ['billing', 'meetings', 'account', 'other'] as const;
export type TicketCategory = (typeof ticketCategories)[number];

export const ticketStatuses = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export const SUBJECT_MIN = 3;
export const SUBJECT_MAX = 150;
export const MESSAGE_MAX = 5000;

/** 2 MiB, as for avatars: enough for a screenshot or a log, small enough for the database. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;
/** What the file picker offers; the server checks the bytes themselves. */
export const ATTACHMENT_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,.log,.txt,text/plain';
