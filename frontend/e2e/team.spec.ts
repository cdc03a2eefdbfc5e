/**
 * Issue 26, the team in the browser: an owner invites a reader from Settings › Team; the
 * invitation email's link (read from the served data dir's outbox) leads the reader, signed
 * out, through register with the invited email and back to the invitation, which is
 * accepted; the reader opens the owner's workspace from there and sees its tables with edits
 * disabled, no Keyword Suggester or Automated Rules in the sidebar, /restricted on
 * /auto-rules and on /settings/team, and switches workspaces in the header.
 */
import { expect, test } from './contract';
import { connectSandbox, createAccount, lastEmailTo, password, register, reloadUntil, shot, skipUpsells } from './helpers';

test('an owner invites a reader, who joins by the email link and reads without editing', async ({ page, browser, baseURL }, info) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const ownerEmail = await register(page, 'e2e-team-owner');
  await connectSandbox(page, 'Team account');

  // Settings › Team, through the settings tabs.
  await page.goto('/settings/general');
  await page.getByRole('tab', { name: 'Team' }).click();
  await expect(page).toHaveURL(/\/settings\/team$/);
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByText(ownerEmail)).toBeVisible();
  await expect(members.getByRole('button', { name: /^Leave / })).toBeDisabled();

  const readerEmail = `e2e-team-reader-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const form = page.getByRole('form', { name: 'Invite a teammate' });
  await form.getByRole('textbox', { name: 'Email' }).fill(readerEmail);
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Viewer' }).click();
  await form.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText(`Invitation sent to ${readerEmail}`)).toBeVisible();
  const invitations = page.getByRole('table', { name: 'Pending invitations' });
  await expect(invitations.getByRole('row').filter({ hasText: readerEmail })).toContainText('Viewer');
  await shot(page, info, 'team-01-invited');

  // The invitation email's absolute link.
  await expect.poll(() => lastEmailTo(readerEmail), { timeout: 20_000 }).not.toBeNull();
  const mail = lastEmailTo(readerEmail)!;
  expect(mail.subject).toMatch(/^Invitation to .+ on Searchdeck$/);
  const link = /(https?:\/\/\S+\/invite\?\S+)/.exec(mail.body)?.[1];
  expect(link, mail.body).toBeDefined();
  expect(new URL(link!).origin).toBe(new URL(baseURL!).origin);

  // The reader, in a browser of their own, signed out: register with the invited email.
  const readerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const reader = await readerContext.newPage();
  await skipUpsells(reader);
  await reader.goto(link!);
  await expect(reader.getByText(`Sign in or create an account with ${readerEmail} to accept.`, { exact: false })).toBeVisible();
  // What the invitation offers, named before signing in: who sent it, the workspace, the role.
  await expect(reader.getByTestId('invite-offer')).toHaveText(/^E2E Accounts invited you to join .+ as Viewer\.$/);
  await shot(reader, info, 'team-02-invitation-signed-out');
  await reader.getByRole('link', { name: 'Create account' }).click();
  await expect(reader.getByLabel('Email')).toHaveValue(readerEmail);
  await reader.getByLabel('Full name').fill('E2E Reader');
  await reader.getByLabel('Password', { exact: true }).fill(password);
  await reader.getByLabel('Repeat password').fill(password);
  await createAccount(reader);
  await expect(reader).toHaveURL(/\/invite\?/);
  await expect(reader.getByText(/You joined .+ as Viewer\./)).toBeVisible();
  await shot(reader, info, 'team-03-joined');
  await reader.getByRole('button', { name: /^Open / }).click();
  await expect(reader).toHaveURL(/\/optimization/);

  // The owner's workspace as a Viewer: the sidebar without the editors' screens.
  const nav = reader.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Ads Optimization' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Keyword Suggester' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Automated Rules' })).toHaveCount(0);
  await expect(reader.getByTestId('workspace-switcher')).toContainText('Viewer');

  // Its tables, once the owner's connect has synced, with every edit control disabled.
  const table = reader.getByTestId('report-table');
  await expect(reader.getByTestId('report-last-synced')).not.toHaveText(/Not synced yet|Syncing/, { timeout: 300_000 });
  await table.getByRole('link', { name: 'Cloud Apps' }).click();
  await reloadUntil(reader, table.locator('tbody tr').first());
  const rows = table.locator('tbody tr');
  await expect(rows.first().getByTestId('status-switch')).toBeDisabled();
  await shot(reader, info, 'team-04-reader-table');

  // Restricted routes.
  await reader.goto('/auto-rules');
  await expect(reader).toHaveURL(/\/restricted$/);
  await reader.goto('/settings/team');
  await expect(reader).toHaveURL(/\/restricted$/);
  await reader.goto('/settings/general');
  await expect(reader.getByRole('tab', { name: 'Team' })).toHaveCount(0);

  // Back to their own workspace, where they are the owner.
  await reader.getByTestId('workspace-switcher').click();
  await reader.getByRole('menuitem', { name: /E2E Reader/ }).click();
  await expect(reader.getByTestId('workspace-switcher')).toContainText('Owner');
  await expect(reader.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Automated Rules' })).toBeVisible();
  await shot(reader, info, 'team-05-switched-back');

  // The owner sees the reader among the members, and no pending invitation.
  await page.reload();
  await expect(members.getByRole('row').filter({ hasText: readerEmail })).toBeVisible();
  await expect(members.getByRole('row').filter({ hasText: readerEmail }).getByRole('combobox')).toHaveValue('Viewer');
  await expect(page.getByText('No pending invitations')).toBeVisible();
  await shot(page, info, 'team-06-owner-sees-member');
  await readerContext.close();
});
