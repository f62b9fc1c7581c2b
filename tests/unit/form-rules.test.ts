import { emailOnlyProblems, loginProblems, registerProblems, resetPasswordProblems } from '@/lib/auth/form-rules';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from '@/lib/auth/schemas';
import type { z } from 'zod';

// Issue 33 (the account pages' weight): the forms check without zod; each rule must answer what
// the server's schema answers, field by field and code by code.
function schemaProblems(schema: z.ZodType, values: object): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    problems[field] ??= issue.message;
  }
  return problems;
}

const emails = ['', '   ', 'a@b.co', ' Ada@Example.COM ', 'no-at', 'x@y', 'a..b@c.de', `${'a'.repeat(250)}@b.co`, "o'neil@mail.ie"];
const passwords = ['', 'short', 'alllowercase', 'Blue-Harbour-42', 'UPPER lower', 'abcDEF12', 'x'.repeat(300)];
const names = ['', ' ', 'A', 'Ada', 'Jean-Luc', "O'Neil", 'Zoë', '李雷', '1abc', 'Ada!', 'x'.repeat(65)];

describe('the account forms check as their schemas do', () => {
  it('login', () => {
    for (const email of emails)
      for (const password of passwords) expect(loginProblems({ email, password })).toEqual(schemaProblems(loginSchema, { email, password }));
  });

  it('forgot password and the activation mail again', () => {
    for (const email of emails) expect(emailOnlyProblems({ email })).toEqual(schemaProblems(forgotPasswordSchema, { email }));
  });

  it('register', () => {
    for (const firstName of names)
      for (const password of passwords)
        for (const agree of [true, false]) {
          const values = {
            firstName,
            lastName: names[(firstName.length + 3) % names.length]!,
            email: emails[password.length % emails.length]!,
            password,
            passwordConfirm: agree ? password : 'other',
            agree,
          };
          const expected = schemaProblems(registerSchema, values);
          // zod skips the object's "passwords match" refinement while a field fails; the form
          // reports the same code at once, beside the others.
          if (Object.keys(expected).length > 0 && values.password !== values.passwordConfirm) expected.passwordConfirm = 'passwords_dont_match';
          expect([values, registerProblems(values)]).toEqual([values, expected]);
        }
  });

  it('reset password', () => {
    for (const password of passwords)
      for (const passwordConfirm of [password, 'different'])
        expect(resetPasswordProblems({ password, passwordConfirm })).toEqual(
          schemaProblems(resetPasswordSchema, { link: 'x'.repeat(32), password, passwordConfirm }),
        );
  });
});
