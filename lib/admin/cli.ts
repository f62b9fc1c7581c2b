// The operator's CLI (issue 18), apart from its process: `npm run admin -- <command>`
// (scripts/admin.ts) runs it with the process's arguments and console. It calls the same domain
// functions as the admin area (lib/admin/), and every change it makes is in the audit log as
// "operator (CLI)". Apart, its words and exit codes are tested in-process on both databases
// (tests/integration/admin-cli.test.ts); the process itself in admin-cli-process.pglite.test.ts.
import { ApiError } from '@/lib/errors';
import { DataDirInUseError } from '@/lib/db/data-dir-lock';
import { disableAccount, enableAccount } from '@/lib/admin/account-state';
import { OPERATOR } from '@/lib/audit/audit-log';
import { issueMeetingCard } from '@/lib/admin/meeting-card';
import { isPlan, plans, ROOM_RANGE, setPlan } from '@/lib/admin/plans';
import { grantAdmin, listAdmins, revokeAdmin } from '@/lib/admin/roles';
import { emailField } from '@/lib/email-field';
import { isLocale, locales } from '@/lib/i18n/locales';
import { sendInvitation } from '@/lib/registration/invitations';

/** Where the CLI writes: the console in the process, a list of lines in a test. */
export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

const USAGE = `Usage: npm run admin -- <command> [arguments]

Commands:
  grant-admin EMAIL                 give the account the admin role (its sessions end; it logs in again)
  revoke-admin EMAIL                make the account a plain user again
  set-plan EMAIL PLAN [ROOMS]       PLAN is individual (1 room), executive (2-30 rooms) or enterprise (1 or more);
                                    also ends the trial. A plan granted outside Stripe, e.g. invoiced by hand.
  disable EMAIL                     disable the account: its sessions end, logging in answers login_failed_expired
  enable EMAIL                      enable a disabled or expired account again
  issue-card EMAIL                  make the account a meeting card (created if needed) and print its one-time login link
  invite EMAIL [LANG]               mail a registration invitation (works once, 14 days; also when registration
                                    is by invitation only) and print its link; LANG is the mail's language (default en)
  list-admins                       list the admin accounts
  help                              show this text

Exit status: 0 done, 1 refused (unknown e-mail, bad plan, rooms out of range…), 2 wrong usage.`;

class UsageError extends Error {}

/** What an operator reads for each refusal the domain functions answer with. */
function explain(error: ApiError, args: string[]): string {
  switch (error.code) {
    case 'user_not_found':
      return `No account has the e-mail ${args[0]}.`;
    case 'email_exists':
      return `${args[0]} already has an account.`;
    case 'registration_closed':
      return 'Registration is closed on this server (REGISTRATION or the admin setting): invitations are refused.';
    case 'format_email':
    case 'email_required':
      return `"${args[0] ?? ''}" is not an e-mail address.`;
    case 'incorrect_data':
      if (error.field === 'numberOfRooms') {
        const plan = args[1] as keyof typeof ROOM_RANGE;
        const { min, max } = ROOM_RANGE[plan];
        return `The ${plan} plan takes ${min === max ? `exactly ${min} room` : `${min} to ${max} rooms`}; got ${args[2] ?? '(none)'}.`;
      }
      return 'The server refused the change (incorrect data).';
    default:
      return `Refused: ${error.code}.`;
  }
}

function needEmail(args: string[], count = 1): string {
  if (args.length < count || !args[0]) throw new UsageError('This command needs an e-mail address.');
  return args[0];
}

async function run(command: string | undefined, args: string[], out: CliOutput): Promise<void> {
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out.log(USAGE);
      return;
    case 'grant-admin': {
      const { email, changed } = await grantAdmin({ email: needEmail(args) }, OPERATOR);
      out.log(changed ? `${email} is now an admin. Their sessions ended; they log in again to use the admin area.` : `${email} is already an admin.`);
      return;
    }
    case 'revoke-admin': {
      const { email, changed } = await revokeAdmin({ email: needEmail(args) }, OPERATOR);
      out.log(changed ? `${email} is now a plain user. Their sessions ended.` : `${email} was not an admin.`);
      return;
    }
    case 'set-plan': {
      const email = needEmail(args);
      const plan = args[1];
      if (!plan || !isPlan(plan)) throw new UsageError(`PLAN must be one of ${plans.join(', ')}; got ${plan ?? '(none)'}.`);
      let rooms: number | undefined;
      if (args[2] !== undefined) {
        if (!/^\d+$/.test(args[2])) throw new UsageError(`ROOMS must be a whole number; got ${args[2]}.`);
        rooms = Number(args[2]);
      }
      const result = await setPlan({ email }, plan, rooms, OPERATOR);
      out.log(`${result.email}: ${result.accountType} plan, ${result.numberOfRooms} room(s), trial ended.`);
      return;
    }
    case 'disable': {
      const { email, changed } = await disableAccount({ email: needEmail(args) }, OPERATOR);
      out.log(changed ? `${email} is disabled; its sessions ended.` : `${email} was already disabled.`);
      return;
    }
    case 'enable': {
      const { email, changed } = await enableAccount({ email: needEmail(args) }, OPERATOR);
      out.log(changed ? `${email} is enabled.` : `${email} was already active.`);
      return;
    }
    case 'issue-card': {
      const card = await issueMeetingCard({ email: needEmail(args) }, OPERATOR);
      out.log(card.created ? `Created the meeting-card account ${card.email}.` : `${card.email} is a meeting card.`);
      out.log(`One-time login link (valid until ${card.expiresAt}, works once):`);
      out.log(card.link);
      return;
    }
    case 'invite': {
      const email = needEmail(args).trim();
      if (!emailField({ required: 'email_required', invalid: 'format_email' }).safeParse(email).success) throw new ApiError('format_email');
      const lang = args[1] ?? 'en';
      if (!isLocale(lang)) throw new UsageError(`LANG must be one of ${locales.join(', ')}; got ${lang}.`);
      const { link, expiresAt } = await sendInvitation({ operator: true, locale: lang }, email);
      out.log(`Invitation mailed to ${email} (works once, until ${expiresAt.toISOString()}):`);
      out.log(link);
      return;
    }
    case 'list-admins': {
      const admins = await listAdmins();
      if (admins.length === 0) out.log('No admin yet: npm run admin -- grant-admin EMAIL');
      for (const admin of admins) out.log(`${admin.email}\t${`${admin.firstName} ${admin.lastName}`.trim()}\t${admin.state}`);
      return;
    }
    default:
      throw new UsageError(`Unknown command: ${command}`);
  }
}

/** Runs one command; answers the exit status (0 done, 1 refused, 2 wrong usage). */
export async function runAdminCli([command, ...args]: string[], out: CliOutput): Promise<number> {
  try {
    await run(command, args, out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      out.error(explain(error, args));
      return 1;
    }
    // The embedded database is open in the server: PGlite serves one process.
    if (error instanceof DataDirInUseError) {
      out.error(error.message);
      return 1;
    }
    out.error(String(error instanceof Error ? (error.stack ?? error.message) : error));
    return 1;
  }
}
