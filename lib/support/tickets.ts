import 'server-only';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { writeAudit, adminActor } from '@/lib/audit/audit-log';
import { config } from '@/lib/environment';
import { getBrandName } from '@/lib/configuration/brand';
import { getDb, type Transaction } from '@/lib/db/client';
import { supportTickets, ticketAttachments, ticketMessages, users, type SupportTicket, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { isLocale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { matchesSearch } from '@/lib/search';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { nameForType, type CheckedAttachment } from './attachments';
import { readTicketForm } from './form';
import type { TicketCategory, TicketStatus } from './categories';

export interface TicketSummary {
  id: string;
  subject: string;
  category: TicketCategory;
  status: TicketStatus;
  createdAt: string;
  updatedAt: string;
  /** The newest message: when, and whether support wrote it. */
  lastReply: { at: string; byStaff: boolean } | null;
  /** The ticket's owner (shown in the staff queue). */
  owner: { email: string; name: string };
}

export interface TicketMessageView {
  id: string;
  body: string;
  byStaff: boolean;
  author: string;
  createdAt: string;
  attachments: { id: string; fileName: string; contentType: string; size: number }[];
}

export interface TicketDetail extends TicketSummary {
  messages: TicketMessageView[];
  /** The caller opened this ticket (else they see it as staff). */
  isOwner: boolean;
}

/** Staff are admins answering someone else's ticket; an admin's own ticket is theirs as a user. */
const actsAsStaff = (user: User, ticket: SupportTicket) => user.role === 'admin' && ticket.userId !== user.id;

/**
 * The ticket if the caller may see it: its owner, or an admin. Another user's ticket answers
 * exactly as one that does not exist (ticket_not_found), so ids reveal nothing.
 */
async function ticketFor(db: Awaited<ReturnType<typeof getDb>> | Transaction, user: User, id: string, lock = false) {
  if (!isUuid(id)) throw new ApiError('ticket_not_found');
  const query = db.select().from(supportTickets).where(eq(supportTickets.id, id)).limit(1);
  const [ticket] = lock ? await query.for('update') : await query;
  if (!ticket || (ticket.userId !== user.id && user.role !== 'admin')) throw new ApiError('ticket_not_found');
  return ticket;
}

async function summaries(tickets: SupportTicket[]): Promise<TicketSummary[]> {
  if (tickets.length === 0) return [];
  const db = await getDb();
  const ids = tickets.map((t) => t.id);
  const [last, owners] = await Promise.all([
    db
      .selectDistinctOn([ticketMessages.ticketId], { ticketId: ticketMessages.ticketId, at: ticketMessages.createdAt, authorId: ticketMessages.authorId })
      .from(ticketMessages)
      .where(inArray(ticketMessages.ticketId, ids))
      .orderBy(ticketMessages.ticketId, desc(ticketMessages.createdAt)),
    db
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(inArray(users.id, [...new Set(tickets.map((t) => t.userId))])),
  ]);
  const lastBy = new Map(last.map((row) => [row.ticketId, row]));
  const ownerBy = new Map(owners.map((row) => [row.id, row]));
  return tickets.map((ticket) => {
    const reply = lastBy.get(ticket.id);
    const owner = ownerBy.get(ticket.userId);
    return {
      id: ticket.id,
      subject: ticket.subject,
      category: ticket.category,
      status: ticket.status,
      createdAt: ticket.createdAt.toISOString(),
      updatedAt: ticket.updatedAt.toISOString(),
      lastReply: reply ? { at: reply.at.toISOString(), byStaff: reply.authorId === null } : null,
      owner: { email: owner?.email ?? '', name: owner ? `${owner.firstName} ${owner.lastName}`.trim() : '' },
    };
  });
}

const filtered = (list: TicketSummary[], query: string) =>
  list.filter((t) => matchesSearch(query, t.subject, t.category, t.status, t.owner.email, t.owner.name));

/** /support: the caller's own tickets, newest activity first; `query` searches them. */
export async function listOwnTickets(user: User, query = ''): Promise<TicketSummary[]> {
  const db = await getDb();
  const rows = await db.select().from(supportTickets).where(eq(supportTickets.userId, user.id)).orderBy(desc(supportTickets.updatedAt));
  return filtered(await summaries(rows), query);
}

/** The staff queue: every ticket (or those of one status), open ones first, then newest activity. */
export async function listQueue(options: { status?: TicketStatus; query?: string } = {}): Promise<TicketSummary[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(supportTickets)
    .where(options.status ? eq(supportTickets.status, options.status) : undefined)
    .orderBy(sql`case ${supportTickets.status} when 'open' then 0 when 'answered' then 1 else 2 end`, desc(supportTickets.updatedAt))
    .limit(500);
  return filtered(await summaries(rows), options.query ?? '');
}

/** /view-ticket/{id}: the conversation, oldest first, with each message's attachments. */
export async function getTicket(user: User, id: string): Promise<TicketDetail> {
  const db = await getDb();
  const ticket = await ticketFor(db, user, id);
  const [messages, files] = await Promise.all([
    db
      .select({
        id: ticketMessages.id,
        body: ticketMessages.body,
        authorId: ticketMessages.authorId,
        createdAt: ticketMessages.createdAt,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(ticketMessages)
      .leftJoin(users, eq(users.id, ticketMessages.authorId))
      .where(eq(ticketMessages.ticketId, ticket.id))
      .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id)),
    db
      .select({
        id: ticketAttachments.id,
        messageId: ticketAttachments.messageId,
        fileName: ticketAttachments.fileName,
        contentType: ticketAttachments.contentType,
        size: ticketAttachments.size,
      })
      .from(ticketAttachments)
      .where(eq(ticketAttachments.ticketId, ticket.id)),
  ]);
  const [summary] = await summaries([ticket]);
  return {
    ...summary!,
    isOwner: ticket.userId === user.id,
    messages: messages.map((m) => ({
      id: m.id,
      body: m.body,
      byStaff: m.authorId === null,
      author: m.authorId === null ? '' : `${m.firstName ?? ''} ${m.lastName ?? ''}`.trim(),
      createdAt: m.createdAt.toISOString(),
      attachments: files
        .filter((f) => f.messageId === m.id)
        .map(({ id: fileId, fileName, contentType, size }) => ({ id: fileId, fileName: nameForType(fileName, contentType), contentType, size })),
    })),
  };
}

/** POST /api/tickets: the attempt counts before the form (up to 2 MiB) is read; answers the ticket's id. */
export async function openTicketFromForm(user: User, request: Request): Promise<string> {
  await consumeAttempt(limits.ticketOpen, user.id);
  const { fields, attachment } = await readTicketForm(request);
  return openTicket(user, fields, attachment);
}

/**
 * /open-ticket: a new open ticket with its first message (and the checked attachment, if any).
 * Every active admin but the one who opened it is mailed, in their language (issue 48, point 5:
 * the support page promises answers, and nobody was told a ticket was waiting).
 */
async function openTicket(
  user: User,
  input: { subject: string; category: TicketCategory; message: string },
  attachment: CheckedAttachment | null,
): Promise<string> {
  const db = await getDb();
  // The mail is rendered inside the transaction, where the brand must already be known.
  await getBrandName();
  let mailed = false;
  const id = await db.transaction(async (tx) => {
    const [ticket] = await tx.insert(supportTickets).values({ userId: user.id, subject: input.subject, category: input.category }).returning();
    const [message] = await tx.insert(ticketMessages).values({ ticketId: ticket!.id, authorId: user.id, body: input.message }).returning();
    if (attachment) {
      await tx.insert(ticketAttachments).values({ ticketId: ticket!.id, messageId: message!.id, ...attachment, size: attachment.data.length });
    }
    const admins = await tx
      .select({ id: users.id, email: users.email, lang: users.lang })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.state, 'active'), ne(users.id, user.id)));
    for (const admin of admins) {
      await enqueueMail(tx, {
        to: admin.email,
        locale: isLocale(admin.lang) ? admin.lang : 'en',
        template: 'ticketOpened',
        data: {
          from: `${user.firstName} ${user.lastName} <${user.email}>`,
          subject: input.subject,
          message: input.message,
          link: `${config.appUrl}/view-ticket/${ticket!.id}`,
        },
        idempotencyKey: `ticket-opened:${ticket!.id}:${admin.id}`,
      });
      mailed = true;
    }
    return ticket!.id;
  });
  if (mailed) kickMailWorker();
  return id;
}

/**
 * A reply. The owner's reply (re)opens the ticket; a staff reply marks it answered, is written
 * to the audit log and mails the owner, in the owner's language, through the outbox.
 */
export async function replyToTicket(user: User, id: string, body: string): Promise<{ ticketStatus: TicketStatus }> {
  await consumeAttempt(limits.ticketWrite, user.id);
  const db = await getDb();
  // The mail is rendered inside the transaction, where the brand must already be known.
  await getBrandName();
  let mailed = false;
  const result = await db.transaction(async (tx) => {
    const ticket = await ticketFor(tx, user, id, true);
    const staff = actsAsStaff(user, ticket);
    const status: TicketStatus = staff ? 'answered' : 'open';
    const [message] = await tx
      .insert(ticketMessages)
      .values({ ticketId: ticket.id, authorId: staff ? null : user.id, body })
      .returning();
    await tx.update(supportTickets).set({ status, updatedAt: new Date() }).where(eq(supportTickets.id, ticket.id));
    if (staff) {
      await writeAudit(tx, adminActor(user), 'ticket_reply', { userId: ticket.userId, label: ticket.subject }, { ticketId: ticket.id });
      const [owner] = await tx.select().from(users).where(eq(users.id, ticket.userId));
      if (owner) {
        await enqueueMail(tx, {
          to: owner.email,
          locale: isLocale(owner.lang) ? owner.lang : 'en',
          template: 'ticketReply',
          data: { firstName: owner.firstName, subject: ticket.subject, reply: body, link: `${config.appUrl}/view-ticket/${ticket.id}` },
          idempotencyKey: `ticket-reply:${message!.id}`,
        });
        mailed = true;
      }
    }
    return { ticketStatus: status };
  });
  if (mailed) kickMailWorker();
  return result;
}

/**
 * Close and reopen (the owner), or any status (staff, written to the audit log). An owner cannot
 * mark their own ticket answered.
 */
export async function setTicketStatus(user: User, id: string, status: TicketStatus): Promise<{ ticketStatus: TicketStatus }> {
  await consumeAttempt(limits.ticketWrite, user.id);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const ticket = await ticketFor(tx, user, id, true);
    const staff = actsAsStaff(user, ticket);
    if (!staff && status === 'answered') throw new ApiError('incorrect_data', { field: 'status' });
    if (ticket.status === status) return { ticketStatus: status };
    await tx.update(supportTickets).set({ status, updatedAt: new Date() }).where(eq(supportTickets.id, ticket.id));
    if (staff) {
      await writeAudit(
        tx,
        adminActor(user),
        'ticket_status',
        { userId: ticket.userId, label: ticket.subject },
        { ticketId: ticket.id, from: ticket.status, to: status },
      );
    }
    return { ticketStatus: status };
  });
}

/** For GET …/attachments/{attachmentId}: throws ticket_not_found unless the caller may see the ticket. */
export async function assertTicketAccess(user: User, id: string): Promise<void> {
  await ticketFor(await getDb(), user, id);
}
