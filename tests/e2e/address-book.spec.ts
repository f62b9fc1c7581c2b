import { expect, test, type Locator, type Page } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const en = messages('en');
const { Contacts: C, Groups: G, Rooms: R, Manage: M } = en;

/** The list item whose heading is `name`. */
const item = (list: Locator, name: string) => list.getByRole('listitem').filter({ has: list.page().getByRole('heading', { name, exact: true }) });

async function confirmIn(page: Page, title: string, button: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test.describe('SPEC point 2: the address book and the rooms list, as the demo account', () => {
  test.beforeEach(async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(context, baseURL!);
  });

  test('two contacts and a group of them are added, edited and deleted', async ({ page }) => {
    const suffix = Date.now().toString(36);
    const [ann, bob, team] = [`Ann ${suffix}`, `Bob ${suffix}`, `Team ${suffix}`];
    await page.goto('/attendees');
    const contacts = page.getByRole('list', { name: C.listLabel });
    const groups = page.getByRole('list', { name: G.listLabel });

    // A contact, after the phone entry refuses a number that is not valid.
    await page.getByRole('button', { name: C.add }).click();
    let dialog = page.getByRole('dialog', { name: C.addTitle });
    await dialog.getByLabel(C.name, { exact: true }).fill(ann);
    await dialog.getByLabel(C.email, { exact: true }).fill(`ann.${suffix}@example.test`);
    await dialog.getByLabel(C.phone, { exact: true }).fill('12');
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog.getByText(C.phoneInvalid)).toBeVisible();
    await dialog.getByLabel(C.country, { exact: true }).selectOption('GB');
    await dialog.getByLabel(C.phone, { exact: true }).fill('020 7946 0958');
    await dialog.getByLabel(C.language, { exact: true }).selectOption('de');
    await dialog.getByLabel(C.timezone, { exact: true }).selectOption('Europe/Berlin');
    await dialog.getByRole('radio', { name: en.Colors['5'] }).check({ force: true });
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();
    await expect(item(contacts, ann)).toContainText('+442079460958');
    await expect(item(contacts, ann)).toContainText('Deutsch · Europe/Berlin');

    await page.getByRole('button', { name: C.add }).click();
    dialog = page.getByRole('dialog', { name: C.addTitle });
    await dialog.getByLabel(C.name, { exact: true }).fill(bob);
    await dialog.getByLabel(C.email, { exact: true }).fill(`bob.${suffix}@example.test`);
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();
    await expect(item(contacts, bob)).toBeVisible();

    // A group needs two contacts.
    await page.getByRole('button', { name: G.add }).click();
    dialog = page.getByRole('dialog', { name: G.addTitle });
    await dialog.getByLabel(G.name, { exact: true }).fill(team);
    await dialog.getByRole('checkbox', { name: ann }).check();
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog.getByText(G.selectTwo)).toBeVisible();
    await dialog.getByRole('checkbox', { name: bob }).check();
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();
    await expect(item(groups, team)).toContainText(`${ann} and ${bob}`);

    // Editing asks for confirmation before saving.
    await item(contacts, ann)
      .getByRole('button', { name: `Edit ${ann}` })
      .click();
    dialog = page.getByRole('dialog', { name: C.editTitle });
    await dialog.getByLabel(C.name, { exact: true }).fill(`Anna ${suffix}`);
    await dialog.getByRole('button', { name: M.save }).click();
    await confirmIn(page, M.updateTitle, M.confirmSave);
    await expect(item(contacts, `Anna ${suffix}`)).toContainText('+442079460958');
    await expect(item(groups, team)).toContainText(`Anna ${suffix} and ${bob}`);

    await item(groups, team)
      .getByRole('button', { name: `Edit ${team}` })
      .click();
    dialog = page.getByRole('dialog', { name: G.editTitle });
    await dialog.getByLabel(G.name, { exact: true }).fill(`Crew ${suffix}`);
    await dialog.getByRole('button', { name: M.save }).click();
    await confirmIn(page, M.updateTitle, M.confirmSave);
    await expect(item(groups, `Crew ${suffix}`)).toBeVisible();

    // Deleting asks first; the group goes, then both contacts.
    await item(groups, `Crew ${suffix}`)
      .getByRole('button', { name: `Delete Crew ${suffix}` })
      .click();
    await confirmIn(page, G.deleteTitle, M.confirmDelete);
    await expect(item(groups, `Crew ${suffix}`)).toHaveCount(0);
    for (const name of [`Anna ${suffix}`, bob]) {
      await item(contacts, name)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      await confirmIn(page, C.deleteTitle, M.confirmDelete);
      await expect(item(contacts, name)).toHaveCount(0);
    }
  });

  test('a room with a password is added, edited and deleted', async ({ page }) => {
    const suffix = Date.now().toString(36);
    const [board, renamed] = [`Board ${suffix}`, `Boardroom ${suffix}`];
    await page.goto('/admin');
    const rooms = page.getByRole('list', { name: R.listLabel });
    await expect(item(rooms, 'Demo room')).toContainText(R.defaultBadge);

    await page.getByRole('button', { name: R.add }).click();
    let dialog = page.getByRole('dialog', { name: R.addTitle });
    await dialog.getByLabel(R.name, { exact: true }).fill('Tiny');
    await dialog.getByLabel(R.password, { exact: true }).fill('short');
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog.getByText(en.Errors.room_title_length)).toBeVisible();
    await expect(dialog.getByText(en.Errors.room_password_length)).toBeVisible();
    await dialog.getByLabel(R.name, { exact: true }).fill(board);
    await dialog.getByLabel(R.password, { exact: true }).fill('Sesame-Street-42');
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();
    await expect(item(rooms, board)).toContainText(R.protected);
    await expect(item(rooms, board)).toContainText('Managed by Demo User (demo@enclave.local)');
    await expect(item(rooms, board).getByRole('link')).toHaveAttribute('href', /\/now\/[\w-]{22}$/);

    await item(rooms, board)
      .getByRole('button', { name: `Edit ${board}` })
      .click();
    dialog = page.getByRole('dialog', { name: R.editTitle });
    await dialog.getByLabel(R.name, { exact: true }).fill(renamed);
    await dialog.getByLabel(R.removePassword).check();
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();
    await expect(item(rooms, renamed)).toContainText(R.open);

    await item(rooms, renamed)
      .getByRole('button', { name: `Delete ${renamed}` })
      .click();
    await confirmIn(page, R.deleteTitle, M.confirmDelete);
    await expect(item(rooms, renamed)).toHaveCount(0);
    await expect(item(rooms, 'Demo room')).toContainText(R.defaultBadge);
  });

  test('small screens show contacts and groups as tabs', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/attendees');
    const tabs = page.getByRole('tablist', { name: C.tabs });
    await expect(tabs.getByRole('tab', { name: C.title })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: G.title, level: 2 })).toBeHidden();
    await tabs.getByRole('tab', { name: C.title }).press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: G.title })).toBeFocused();
    await expect(page.getByRole('heading', { name: G.title, level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: C.title, level: 2 })).toBeHidden();
  });
});
