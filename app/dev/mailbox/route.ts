import { desc } from 'drizzle-orm';
import { apiRoute } from '@/lib/api/handler';
import { getDb } from '@/lib/db/client';
import { mailOutbox } from '@/lib/db/schema';
import { escapeHtml } from '@/lib/mail/templates';

type Mail = typeof mailOutbox.$inferSelect;

// GET /dev/mailbox – the newest 50 mails of the outbox, for development without SMTP_URL
export const GET = apiRoute({ auth: 'none' }, async () => {
  // Read at request time: the mails hold activation and reset links.
  if (process.env.NODE_ENV === 'production') return new Response('Not found', { status: 404 });
  const db = await getDb();
  const mails = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(50);
  return new Response(page(mails), { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
});

// Unstyled on purpose: /dev/* answers with the API's closed Content-Security-Policy.
function page(mails: Mail[]): string {
  const list = mails.length ? mails.map(article).join('\n') : '<p>No mail yet.</p>';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dev mailbox</title></head>
<body>
<h1>Dev mailbox</h1>
<p>The newest 50 mails of the outbox, newest first.</p>
${list}
</body>
</html>
`;
}

function article(mail: Mail): string {
  const created = mail.createdAt.toISOString();
  return `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<dl>
<dt>To</dt><dd>${escapeHtml(mail.to)}</dd>
<dt>Status</dt><dd>${escapeHtml(mail.status)}</dd>
<dt>Created</dt><dd><time datetime="${created}">${created}</time></dd>
</dl>
<pre>${escapeHtml(mail.text)}</pre>
</article>
<hr>`;
}
