/**
 * The drill-down's two top levels (docs/product.md#2-url-paths-and-access: ACCOUNTS and ORGS):
 * All accounts (optimization_accounts, `/optimization/accounts`) lists every connected account of
 * the workspace, and an account's page (optimization_orgs, `/optimization/{accountId}`) its
 * campaign groups, each row with its metrics over the range (the report's ACCOUNTS and ORGS
 * levels; money in the row's own currency), the last and next sync (or the account's sync in
 * progress, with 'Sync now' beside its name). A row's name opens the level below. The range,
 * sort, page, filters and chart live in the address as on every level; nothing is edited at
 * these levels. Campaign groups of several currencies get per-currency subtotals and chart
 * lines; the reporting-currency picker (saved in the user's options) adds the money
 * converted to one currency, labelled with the reference rates used.
 */
import { ActionIcon, Center, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, type ReactNode } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { useQueryClient } from '@tanstack/react-query';
import { ALL_ACCOUNTS_PATH, campaignsPath, CONNECT_PATH, orgsPath, SyncNow, useActiveAccount, useRefreshOrgs, type Account } from '@/features/accounts';
import { runningSync, taskKeys, useTasks } from '@/features/tasks';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { isEntityId } from '@/lib/ids';
import { showSnackbar } from '@/lib/notifications';
import { useReport, type ReportRow } from '../api/report';
import { todayIn } from '../date-range';
import { useReportingCurrency } from '../hooks/useReportingCurrency';
import { useVisibleColumns } from '../hooks/useVisibleColumns';
import { convertedNote } from '../reporting-currency';
import { totalsRequest } from '../totals-request';
import { useRowId, useSelection, useTableState } from '../hooks/useReportView';
import { drillSearch } from '../url-state';
import { ChartPanel } from './ChartPanel';
import { Crumbs, type Crumb } from './Crumbs';
import { DateRangePicker } from './DateRangePicker';
import { FilterPills } from './FilterPills';
import { ReportingCurrencyPicker } from './ReportingCurrencyPicker';
import { ReportTableSection } from './ReportTable';
import { SyncState } from './SyncState';
import { TableToolbar } from './TableToolbar';

type TotalsLevel = 'ACCOUNTS' | 'ORGS';

interface TotalsProps {
  level: TotalsLevel;
  /** The account the report is asked through (on ACCOUNTS any of the workspace's). */
  accountId: string;
  crumbs: Crumb[];
  title: string;
  /** Beside the title (refreshing the campaign groups, Sync now). */
  actions?: ReactNode;
  /** The one connection of the page (ORGS), for when it next syncs. */
  account?: Account;
  /** Where a row's name leads, with the query carried down. */
  rowLink: (row: ReportRow, carried: string) => string | null;
}

function Totals({ level, accountId, crumbs, title, actions, account, rowLink }: TotalsProps) {
  // The range's days are named as of the browser's today; each campaign group sums its own
  // days (in its own time zone).
  const today = todayIn(undefined);
  const { search, state, update, onSort } = useTableState(today);
  const { currency: reportingCurrency } = useReportingCurrency();
  const request = totalsRequest(level, accountId, state, reportingCurrency);
  const report = useReport(request);
  const columns = useVisibleColumns(level, report.data?.locked);
  const { idField, rowId } = useRowId(level);
  // Selected rows (for the export) belong to one range and filter set.
  const { selected, onSelect, clear } = useSelection(JSON.stringify([request.startDate, request.endDate, request.filters]));
  const carried = drillSearch(search);
  const link = useCallback((row: ReportRow) => rowLink(row, carried), [rowLink, carried]);
  const result = report.data;
  const emptyText =
    state.filters.length > 0
      ? { title: t('table.emptyFilteredTitle'), text: t('table.emptyFilteredText') }
      : level === 'ORGS'
        ? { title: t('orgs.emptyTitle'), text: t('orgs.emptyText') }
        : { title: t('table.emptyRangeTitle'), text: t('table.emptyRangeText') };

  return (
    <Stack gap="md">
      <Crumbs crumbs={crumbs} />
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={2} size="h3">
              {title}
            </Title>
            {actions}
          </Group>
          {level === 'ORGS' ? (
            // The account's sync (the first, or a 'Sync now'), with its progress, else when it last synced.
            <SyncState accountId={accountId} orgId={null} lastSyncedAt={result ? (result.lastSyncedAt ?? null) : undefined} account={account} />
          ) : (
            <Text size="xs" c="dimmed" data-testid="report-last-synced">
              {result ? (result.lastSyncedAt ? `${t('accounts.lastSynced')} ${formatDateTime(result.lastSyncedAt)}` : t('accounts.notSynced')) : '\u00a0'}
            </Text>
          )}
        </Stack>
        <Group gap="sm" align="flex-end">
          <ReportingCurrencyPicker />
          <DateRangePicker value={state.range} today={today} onChange={(range) => update({ range, page: 1 })} />
        </Group>
      </Group>
      <ChartPanel request={request} metrics={state.chart} onMetrics={(chart) => update({ chart })} />
      <TableToolbar
        level={level}
        filters={state.filters}
        onFilters={(filters) => update({ filters, page: 1 })}
        columns={columns}
        request={request}
        selected={selected}
        idField={idField}
        onClearSelection={clear}
      />
      {state.filters.length > 0 && <FilterPills level={level} filters={state.filters} onChange={(filters) => update({ filters, page: 1 })} />}
      <ReportTableSection
        report={report}
        emptyText={emptyText}
        state={state}
        onState={update}
        level={level}
        rowLink={link}
        onSort={onSort}
        columns={columns.fields}
        rowId={rowId}
        selected={selected}
        onSelect={onSelect}
      />
      {result?.converted && (
        <Text size="xs" c="dimmed" data-testid="converted-note">
          {convertedNote(result.converted)}
        </Text>
      )}
    </Stack>
  );
}

function Loading() {
  return (
    <Center mih="40vh">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/** An account row's name opens its campaign groups. */
function accountLink(row: ReportRow, carried: string): string | null {
  return typeof row.accountId === 'string' && row.accountId !== '' ? `${orgsPath(row.accountId)}${carried}` : null;
}

/** optimization_accounts: every account of the workspace with its totals. */
export function AllAccountsScreen() {
  const { accounts, isLoading, error } = useActiveAccount();
  if (isLoading) return <Loading />;
  if (error) return <MessagePage title={t('error.screenTitle')} text={errorMessage(error)} />;
  // Signed-in users without an account go to the API connection screen
  // (docs/product.md#4-sign-in-account-and-session).
  const first = accounts[0];
  if (!first) return <Navigate to={CONNECT_PATH} replace />;
  return <Totals level="ACCOUNTS" accountId={first._id} title={t('title.allAccounts')} crumbs={[{ label: t('drill.allAccounts'), to: null }]} rowLink={accountLink} />;
}

function RefreshOrgs({ account }: { account: Account }) {
  const refresh = useRefreshOrgs();
  return (
    <Tooltip label={t('accounts.refreshOrgs')} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('accounts.refreshOrgs')}
        loading={refresh.isPending}
        onClick={() =>
          refresh.mutate(account._id, {
            onSuccess: () => showSnackbar(t('accounts.orgsRefreshed')),
            onError: (e) => showSnackbar(errorMessage(e), 'danger'),
          })
        }
      >
        <IconRefresh size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** 'Sync now' beside the account's name; its progress shows in the header line below. */
function AccountSyncNow({ account }: { account: Account }) {
  const tasks = useTasks();
  const queryClient = useQueryClient();
  return (
    <SyncNow
      account={account}
      syncing={runningSync(tasks.data, account._id, null) !== null}
      withTimes={false}
      onStarted={() => void queryClient.invalidateQueries({ queryKey: taskKeys.list() })}
    />
  );
}

/** optimization_orgs: the campaign groups of one account with their totals. */
export function OrgsScreen() {
  const { accountId } = useParams();
  const { accounts, isLoading, error, choice, setChoice } = useActiveAccount();
  const account = accounts.find((a) => a._id === accountId);
  // The address scopes the page (docs/product.md#2-url-paths-and-access): an account opened by its
  // address becomes the active one (with no campaign group), so the selector and the page never
  // disagree.
  const otherActive = account !== undefined && choice?.accountId !== account._id;
  useEffect(() => {
    if (otherActive && account) setChoice({ accountId: account._id, orgId: null });
  }, [otherActive, account, setChoice]);
  const [search] = useSearchParams();
  const orgLink = useCallback(
    (row: ReportRow, carried: string) => (account && isEntityId(row.orgId) ? `${campaignsPath(account._id, row.orgId)}${carried}` : null),
    [account],
  );
  if (error) return <MessagePage title={t('error.screenTitle')} text={errorMessage(error)} />;
  if (!accountId || (!isLoading && !account)) return <MessagePage title={t('title.orgs')} text={t('orgs.unknownAccount')} />;
  // The report is asked with the address's account while the accounts still load (issue 42
  // item 19: waiting for them first put a round trip before the first paint); the name and
  // the account's actions follow as soon as they are known.
  return (
    <Totals
      level="ORGS"
      accountId={accountId}
      title={account?.name ?? '\u00a0'}
      crumbs={[
        { label: t('drill.allAccounts'), to: `${ALL_ACCOUNTS_PATH}${drillSearch(search)}` },
        { label: account?.name ?? '\u00a0', to: null },
      ]}
      actions={
        account && (
          <>
            <RefreshOrgs account={account} />
            <AccountSyncNow account={account} />
          </>
        )
      }
      account={account}
      rowLink={orgLink}
    />
  );
}
