import type { MailInput, RenderedMail } from '@/lib/mail/templates';

type Templates = typeof import('@/lib/mail/templates');
let templates: Templates;

beforeAll(async () => {
  // lib/environment reads the environment once, on first import: set the brand before that.
  process.env.BRAND_NAME = 'Acme Meet';
  templates = await import('@/lib/mail/templates');
});

const render = (input: MailInput, locale: 'en' | 'de' = 'en'): Promise<RenderedMail> => templates.renderMail(locale, input.template, input.data);

const hostile = '<b>Eve</b> & "Co"';
const escaped = '&lt;b&gt;Eve&lt;/b&gt; &amp; &quot;Co&quot;';
const link = 'https://meet.example/invitation/activate?token=abc&next=%2F';

const inputs: MailInput[] = [
  { template: 'activation', data: { firstName: hostile, link } },
  { template: 'passwordReset', data: { firstName: hostile, link } },
  { template: 'emailChanged', data: { firstName: hostile, newEmail: 'new@example.test' } },
  {
    template: 'contactSales',
    data: {
      name: hostile,
      email: 'buyer@example.test',
      message: 'We need 40 seats.\n<script>x</script>',
    },
  },
  { template: 'twoFactorDisabled', data: { firstName: hostile } },
  { template: 'failedLogins', data: { firstName: hostile, count: 100, twoFactor: false } },
  { template: 'emailChangeConfirm', data: { firstName: hostile, link } },
];

describe.each(inputs)('mail template $template', (input) => {
  it('renders a subject, an HTML and a text part in English with the configured brand', async () => {
    const mail = await render(input);
    expect(mail.subject).toContain('Acme Meet');
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(mail.html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
    expect(mail.text).toMatch(/\n-- \nThis e-mail was sent by Acme Meet\.\n$/);
    for (const part of [mail.subject, mail.html, mail.text]) {
      // Every placeholder was filled and no message id shows instead of a text.
      expect(part).not.toMatch(/[{}]|Mail\.|Enclave/);
    }
  });

  it('escapes every interpolated value in the HTML and keeps it as it is in the text', async () => {
    const mail = await render(input);
    expect(mail.html).toContain(escaped);
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain(hostile);
  });
});

describe.each(inputs.filter((input) => 'link' in input.data))('the link of $template', (input) => {
  it('is a button and the raw link in the HTML, and the link in the text', async () => {
    const mail = await render(input);
    const href = link.replace('&', '&amp;');
    expect(mail.html.split(`href="${href}"`)).toHaveLength(3);
    expect(mail.html).toContain(`>${href}</a>`);
    expect(mail.html).toContain('If the button does not work, copy this link into your browser:');
    expect(mail.text).toContain(`\n${link}\n`);
  });

  it('must be a web link', async () => {
    const bad = { ...input, data: { ...input.data, link: 'javascript:alert(1)' } } as MailInput;
    await expect(render(bad)).rejects.toThrow('http');
  });
});

describe('what each mail says', () => {
  it('activation asks to confirm the address', async () => {
    const mail = await render(inputs[0]!);
    expect(mail.subject).toBe('Activate your Acme Meet account');
    expect(mail.text).toContain(`Hello ${hostile},`);
    expect(mail.text).toContain('confirm your e-mail address to activate your account');
  });

  it("a registration invitation names who invites, or the server's administrators when the operator's CLI sent it", async () => {
    const byPerson = await render({ template: 'registrationInvitation', data: { inviterName: 'Grace Hopper', link } });
    expect(byPerson.subject).toBe('Grace Hopper invites you to Acme Meet');
    const byOperator = await render({ template: 'registrationInvitation', data: { inviterName: '', link } }, 'de');
    expect(byOperator.subject).toBe('Sie sind zu Acme Meet eingeladen');
    expect(byOperator.text).toContain('Die Administration von Acme Meet lädt Sie ein');
  });

  it('password reset says the link expires in 1 hour and may be ignored', async () => {
    const mail = await render(inputs[1]!);
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('The link expires in 1 hour');
      expect(part).toContain('If you did not ask for this, ignore this e-mail');
    }
  });

  it('e-mail changed names the new address', async () => {
    const mail = await render(inputs[2]!);
    expect(mail.text).toContain('was changed to new@example.test.');
    expect(mail.html).toContain('was changed to new@example.test.');
  });

  it('contact sales quotes the message line by line, with the sender', async () => {
    const mail = await render(inputs[3]!);
    expect(mail.subject).toBe(`Acme Meet sales enquiry from ${hostile}`);
    expect(mail.text).toContain('> We need 40 seats.\n> <script>x</script>');
    expect(mail.text).toContain('(buyer@example.test)');
    expect(mail.html).toMatch(/<blockquote[^>]*>We need 40 seats\.\n&lt;script&gt;x&lt;\/script&gt;<\/blockquote>/);
  });

  it('failed logins say how many, that a browser used before still logs in, and advise by 2FA state', async () => {
    const off = await render(inputs[5]!);
    expect(off.subject).toBe('Someone is trying to log into your Acme Meet account');
    expect(off.text).toContain('more than 100 times within the last hour');
    expect(off.text).toContain('You can still log in as usual from a browser in which you have logged in before.');
    expect(off.text).toContain('turning on two-factor authentication');
    const on = await render({ template: 'failedLogins', data: { firstName: 'Ada', count: 100, twoFactor: true } }, 'de');
    expect(on.subject).toBe('Jemand versucht, sich bei Ihrem Acme Meet-Konto anzumelden');
    expect(on.text).toContain('Die Zwei-Faktor-Authentifizierung schützt Ihr Konto');
    expect(on.text).not.toContain('einschalten');
  });

  it('the confirmation of a new address carries its link and says the old address stays until then', async () => {
    const mail = await render(inputs[6]!);
    expect(mail.subject).toBe('Confirm the new e-mail address of your Acme Meet account');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Until then, your account keeps its current address.');
    expect((await render(inputs[6]!, 'de')).subject).toBe('Bestätigen Sie die neue E-Mail-Adresse Ihres Acme Meet-Kontos');
  });

  it('a line break in user input never reaches the subject header', async () => {
    const mail = await render({
      template: 'contactSales',
      data: { name: 'Mallory\r\nBcc: victim@example.test', email: 'm@example.test', message: 'hi' },
    });
    expect(mail.subject).toBe('Acme Meet sales enquiry from Mallory Bcc: victim@example.test');
  });

  it("renders in the recipient's language, with English for texts not yet translated", async () => {
    const mail = await render(inputs[0]!, 'de');
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="de">/);
    expect(mail.subject).toContain('Acme Meet');
    expect(mail.text).toContain(hostile);
    for (const part of [mail.subject, mail.html, mail.text]) expect(part).not.toMatch(/[{}]|Mail\./);
  });

  it('a meeting stored with the default title "(No Title)" is named in the reader’s language', async () => {
    const data = { title: '(No Title)', organizer: 'Ada', when: 'Montag', link: null, description: null, attendees: null, hasPassword: false };
    const mail = await render({ template: 'eventInvitation', data }, 'de');
    expect(mail.subject).toContain('(Ohne Titel)');
    expect(mail.text).toContain('(Ohne Titel)');
    expect(mail.text).not.toContain('(No Title)');
    const own = await render({ template: 'eventInvitation', data: { ...data, title: 'Retro' } }, 'de');
    expect(own.subject).toContain('Retro');
  });
});

// Issue 48, point 9: the invitation said the call goes directly between the participants, untrue
// where the room may use this server's SFU (lib/meeting-server/invite.ts decides viaSfu).
describe('the meeting invitation says how the call travels', () => {
  const data = { inviterName: 'Ada', roomName: 'Board', link: 'https://meet.example/now/abc', needsPassword: false };
  it('without an SFU (and in mail queued before): directly between the participants', async () => {
    for (const mail of [await render({ template: 'meetingInvite', data }), await render({ template: 'meetingInvite', data: { ...data, viaSfu: false } })]) {
      expect(mail.text).toContain('The call goes directly between the participants');
      expect(mail.text).not.toContain('SFU');
    }
  });
  it('with an SFU: directly or through the SFU, which cannot read it, in every language it is sent in', async () => {
    const mail = await render({ template: 'meetingInvite', data: { ...data, viaSfu: true } });
    expect(mail.text).toContain("through the server's SFU, which cannot read it");
    expect(mail.text).not.toContain('The call goes directly');
    expect((await render({ template: 'meetingInvite', data: { ...data, viaSfu: true } }, 'de')).text).toContain('über die SFU des Servers');
  });
});
