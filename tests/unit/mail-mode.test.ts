import { mailMode } from '@/lib/mail/mode';

// Issue 16, item 8: a production server never prints live mail links to its log unless told to.
describe('where mail goes', () => {
  it.each([
    [{ smtpUrl: 'smtp://mail.example:587', production: true, mailLog: false }, 'smtp'],
    [{ smtpUrl: 'smtp://mail.example:587', production: true, mailLog: true }, 'smtp'],
    [{ production: false, mailLog: false }, 'log'],
    [{ production: true, mailLog: true }, 'log'],
    [{ production: true, mailLog: false }, 'refuse'],
  ] as const)('%j → %s', (settings, mode) => expect(mailMode(settings)).toBe(mode));
});
