// A mail catcher for end-to-end tests: an SMTP server that keeps every mail, and an HTTP
// server to read them. Point the app's SMTP_URL at smtp://127.0.0.1:$MAIL_CATCHER_SMTP_PORT.
//   GET    /messages  → [{to: string[], subject, text, html, receivedAt}], oldest first
//   DELETE /messages  → clears the list
// Run: MAIL_CATCHER_SMTP_PORT=2525 MAIL_CATCHER_HTTP_PORT=2580 node tests/e2e/support/mail-catcher.mjs
import { createServer } from 'node:http';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT);
const httpPort = Number(process.env.MAIL_CATCHER_HTTP_PORT);
if (!smtpPort || !httpPort) {
  console.error('mail-catcher: set MAIL_CATCHER_SMTP_PORT and MAIL_CATCHER_HTTP_PORT');
  process.exit(1);
}

let messages = [];

const addresses = (list = []) => list.flatMap((entry) => (entry.group ? entry.group.map((m) => m.address) : [entry.address]));

const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  allowInsecureAuth: true,
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('error', callback);
    stream.on('end', () => {
      PostalMime.parse(Buffer.concat(chunks)).then((email) => {
        messages.push({
          to: addresses(email.to),
          subject: email.subject ?? '',
          text: email.text ?? '',
          html: email.html ?? '',
          receivedAt: new Date().toISOString(),
        });
        callback();
      }, callback);
    });
  },
});

const http = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/messages') {
    response.writeHead(404).end();
  } else if (request.method === 'GET') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(messages));
  } else if (request.method === 'DELETE') {
    messages = [];
    response.writeHead(204).end();
  } else {
    response.writeHead(405, { Allow: 'GET, DELETE' }).end();
  }
});

smtp.listen(smtpPort, '127.0.0.1', () => {
  http.listen(httpPort, '127.0.0.1', () => {
    console.log(`mail-catcher: SMTP on 127.0.0.1:${smtpPort}, HTTP on 127.0.0.1:${httpPort}`);
  });
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    http.close();
    smtp.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref(); // an open SMTP session must not hold us
  });
}
