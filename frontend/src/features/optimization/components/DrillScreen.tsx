/**
 * The optimisation drill-down (docs/product.md#2-url-paths-and-access): the campaigns of a campaign
 * group, then a campaign's ad groups, keywords, negative keywords, search terms and ads, then an ad
 * group's. The address says which level and carries the date range, sort and page (url-state.ts),
 * so the view survives reload and back/forward. The account and group in the address become the
 * active ones.
 */
import { Center, Group, Loader, Stack, Tabs, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { ALL_ACCOUNTS_PATH, orgsPath, useActiveAccount } from '@/features/accounts';
import { useSession } from '@/features/auth';
import { t, type MessageKey } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { idIn, type EntityId } from '@/lib/ids';
import { tagTypeOf } from '../api/bulk-edit';
import { useAdGroupName, useCampaignName } from '../api/entities';
import { useReport, type ReportRequest, type ReportRow } from '../api/report';
import type { ChartMetrics } from '../chart-metrics';
import { todayIn, type DayRange } from '../date-range';
import { wireFilters, type Filter } from '../filters';
import { useVisibleColumns } from '../hooks/useVisibleColumns';
import { AD_GROUP_TABS, adGroupPath, CAMPAIGN_TABS, campaignPath, campaignsPath, parseDrill, tabPath, type DrillTarget, type Tab } from '../paths';
import { useRowId, useSelection, useTableState } from '../hooks/useReportView';
import { drillSearch } from '../url-state';
import { BulkEditBar } from './BulkEditBar';
import { ChartPanel } from './ChartPanel';
import { DateRangePicker } from './DateRangePicker';
import { FilterPills } from './FilterPills';
import { Crumbs, type Crumb } from './Crumbs';
import { ReportTableSection } from './ReportTable';
import { SyncState } from './SyncState';
import { TableToolbar } from './TableToolbar';

const idOf = idIn;

function DrillBreadcrumbs({ target, accountName, orgName, search }: { target: DrillTarget; accountName: string; orgName: string; search: string }) {
  const campaign = useCampaignName(target.accountId, target.orgId, target.campaignId);
  const adGroup = useAdGroupName(target.accountId, target.orgId, target.campaignId, target.adGroupId);
  const crumbs: Crumb[] = [
    { label: t('drill.allAccounts'), to: `${ALL_ACCOUNTS_PATH}${search}` },
    { label: accountName, to: `${orgsPath(target.accountId)}${search}` },
    { label: orgName, to: `${campaignsPath(target.accountId, target.orgId)}${search}` },
  ];
  if (target.campaignId !== null) {
    crumbs.push({
      label: campaign.data ?? `${t('drill.campaign')} ${target.campaignId}`,
      to: `${campaignPath(target.accountId, target.orgId, target.campaignId)}${search}`,
    });
  }
  if (target.campaignId !== null && target.adGroupId !== null) {
    crumbs.push({
      label: adGroup.data ?? `${t('drill.adGroup')} ${target.adGroupId}`,
      to: `${adGroupPath(target.accountId, target.orgId, target.campaignId, target.adGroupId)}${search}`,
    });
  }
  return <Crumbs crumbs={crumbs} />;
}

function Drill({ target }: { target: DrillTarget }) {
  const { accounts, isLoading, error, choice, setChoice } = useActiveAccount();
  const navigate = useNavigate();
  const account = accounts.find((a) => a._id === target.accountId);
  const org = account?.acls.find((o) => o.orgId === target.orgId);
  const today = todayIn(org?.timeZone);
  const { search, state, update, onSort } = useTableState(today);

  // The address scopes the page: on opening it, its account and campaign group become the
  // active ones. Only on opening: a choice made elsewhere afterwards (a new connection, the
  // selector) moves the page, not the other way round.
  const latest = useRef({ choice, setChoice });
  useEffect(() => {
    latest.current = { choice, setChoice };
  });
  const known = org !== undefined;
  useEffect(() => {
    const { choice: current, setChoice: save } = latest.current;
    if (known && (current?.accountId !== target.accountId || current.orgId !== target.orgId)) {
      save({ accountId: target.accountId, orgId: target.orgId });
    }
  }, [known, target.accountId, target.orgId]);

  const request: ReportRequest = {
    accountId: target.accountId,
    orgId: target.orgId,
    level: target.level,
    startDate: state.range.start,
    endDate: state.range.end,
    campaignId: target.campaignId,
    adGroupId: target.adGroupId,
    sort: state.sort,
    page: state.page,
    pageSize: state.size,
    filters: wireFilters(state.filters),
  };
  const report = useReport(request);
  const columns = useVisibleColumns(target.level, report.data?.locked);
  // Readers see every control disabled (the server answers their edits 403).
  const { user } = useSession();
  const canEdit = user !== null && user.permission !== 'reader';
  const tagType = tagTypeOf(target.level);
  const tagging = useMemo(
    () => (tagType ? { level: target.level, type: tagType, scope: { accountId: target.accountId, orgId: target.orgId }, canEdit } : undefined),
    [tagType, target.level, target.accountId, target.orgId, canEdit],
  );
  const edit = useMemo(
    () => ({ scope: { accountId: target.accountId, orgId: target.orgId, level: target.level, campaignId: target.campaignId, adGroupId: target.adGroupId }, canEdit }),
    [target.accountId, target.orgId, target.level, target.campaignId, target.adGroupId, canEdit],
  );

  // Selected rows belong to one view: a new level, range or filter starts with none.
  const { selected, onSelect, clear } = useSelection(
    JSON.stringify([target.level, target.campaignId, target.adGroupId, request.startDate, request.endDate, request.filters]),
  );
  const { idField, rowId } = useRowId(target.level);

  const onRange = (range: DayRange) => update({ range, page: 1 });
  const onFilters = (filters: Filter[]) => update({ filters, page: 1 });
  const onChart = (chart: ChartMetrics) => update({ chart });
  const carried = drillSearch(search);
  const rowLink = useCallback(
    (row: ReportRow): string | null => {
      if (target.level === 'CAMPAIGNS') {
        const id = idOf(row, 'campaignId');
        return id === null ? null : `${campaignPath(target.accountId, target.orgId, id)}${carried}`;
      }
      if (target.level === 'GROUPS' && target.campaignId !== null) {
        const id = idOf(row, 'adGroupId');
        return id === null ? null : `${adGroupPath(target.accountId, target.orgId, target.campaignId, id)}${carried}`;
      }
      return null;
    },
    [target, carried],
  );

  if (isLoading) {
    return (
      <Center mih="40vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error) return <MessagePage title={t('error.screenTitle')} text={errorMessage(error)} />;
  if (!account) return <MessagePage title={t('title.optimization')} text={t('orgs.unknownAccount')} />;
  if (!org) return <MessagePage title={t('title.optimization')} text={t('drill.unknownOrg')} />;

  const result = report.data;
  const nameField = columns.fields[0];
  const rowOf = (id: EntityId): ReportRow | null => result?.items.find((r) => r[idField] === id) ?? null;
  const nameOf = (id: EntityId): string | null => {
    const row = rowOf(id);
    const name = row && nameField ? row[nameField] : undefined;
    return typeof name === 'string' ? name : null;
  };
  const tabs: readonly Tab[] = target.adGroupId !== null ? AD_GROUP_TABS : CAMPAIGN_TABS;
  // Why a level is empty: nothing synced yet, no negatives (they have no dates), or no data
  // in the range.
  const emptyText = !result?.lastSyncedAt
    ? { title: t('table.notSyncedTitle'), text: t('table.notSyncedText') }
    : state.filters.length > 0
      ? { title: t('table.emptyFilteredTitle'), text: t('table.emptyFilteredText') }
    : target.level === 'NEGATIVE'
      ? { title: t('table.emptyNegativeTitle'), text: t('table.emptyNegativeText') }
      : { title: t('table.emptyRangeTitle'), text: t('table.emptyRangeText') };

  return (
    <Stack gap="md">
      <DrillBreadcrumbs target={target} accountName={account.name} orgName={org.displayName || org.orgId} search={carried} />
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {target.tab ? t(`drill.tab.${target.tab}` as MessageKey) : t('title.campaigns')}
          </Title>
          <SyncState accountId={target.accountId} orgId={target.orgId} lastSyncedAt={result ? (result.lastSyncedAt ?? null) : undefined} account={account} />
        </Stack>
        <DateRangePicker value={state.range} today={today} onChange={onRange} />
      </Group>
      {target.tab && (
        <Tabs value={target.tab} onChange={(tab) => tab && void navigate(`${tabPath(target, tab as Tab)}${carried}`)}>
          <Tabs.List aria-label={t('drill.levels')}>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab} value={tab}>
                {t(`drill.tab.${tab}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      {target.level !== 'NEGATIVE' && <ChartPanel request={request} metrics={state.chart} onMetrics={onChart} />}
      <TableToolbar
        level={target.level}
        filters={state.filters}
        onFilters={onFilters}
        columns={columns}
        request={request}
        selected={selected}
        idField={idField}
        onClearSelection={clear}
      />
      <BulkEditBar
        key={`${target.level}/${target.campaignId}/${target.adGroupId}`}
        level={target.level}
        accountId={target.accountId}
        orgId={target.orgId}
        campaignId={target.campaignId}
        currency={result?.currency ?? null}
        selected={selected}
        canEdit={canEdit}
        nameOf={nameOf}
        rowOf={rowOf}
        adGroupId={target.adGroupId}
      />
      {state.filters.length > 0 && <FilterPills level={target.level} filters={state.filters} onChange={onFilters} />}
      <ReportTableSection
        report={report}
        emptyText={emptyText}
        state={state}
        onState={update}
        level={target.level}
        rowLink={rowLink}
        onSort={onSort}
        columns={columns.fields}
        rowId={rowId}
        selected={selected}
        onSelect={onSelect}
        edit={edit}
        tagging={tagging}
      />
    </Stack>
  );
}

export function DrillScreen() {
  const params = useParams();
  const target = parseDrill(params);
  if (!target) return <MessagePage title={t('title.notFound')} text={t('drill.notFound')} />;
  return <Drill key={`${target.accountId}/${target.orgId}`} target={target} />;
}
