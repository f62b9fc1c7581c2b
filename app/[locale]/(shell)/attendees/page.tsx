import { getTranslations } from 'next-intl/server';
import { AddressBook } from '@/components/contacts/AddressBook';
import { requirePageUser } from '@/lib/auth/guard';
import { listContacts } from '@/lib/contacts/list';
import { listGroups } from '@/lib/groups/list';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';
import { InviteForm } from '@/components/registration/InviteForm';
import { mayInvite } from '@/lib/registration/settings';

export const generateMetadata = routeMetadata('attendees');

// Contacts and groups of the logged-in user (SPEC point 2).
export default async function AttendeesPage({ params }: PageProps<'/[locale]/attendees'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/attendees');
  const routes = await getTranslations('Routes');
  const [contacts, groups, invite] = await Promise.all([listContacts(user.id), listGroups(user.id), mayInvite(user)]);
  return (
    <PageMessages page="attendees">
      <section className="mx-auto max-w-6xl">
        <h1 className="mb-6 text-2xl font-bold">{routes('attendees')}</h1>
        <AddressBook contacts={contacts} groups={groups} />
        {/* Issue 35: where the admin lets users invite people to register on this server. */}
        {invite && (
          <div className="mt-8">
            <InviteForm />
          </div>
        )}
      </section>
    </PageMessages>
  );
}
