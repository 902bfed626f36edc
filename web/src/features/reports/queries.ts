import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { blobFrom } from '../../components/download';
import type { AdhocReport, CategoryReport, ReportConfigWrite } from '../../api/types';
import type { DateRangeValue } from '../../components/format';
import { listQueryParams, type ListQuery } from '../../components/listQuery';
import { sitePeriod } from '../../components/siteClock';
import { LIVE_THINGS_POLL_MS } from './zoneLogic';

/** Reports fetch up to 10000 rows (spec section 9). */
const REPORT_FETCH_LIMIT = 10000;

const rangeKey = (range: DateRangeValue) => [range.start.valueOf(), range.end.valueOf()];

export const reportKeys = {
  activity: (
    site: string | undefined,
    range: DateRangeValue,
    zone: string | undefined,
  ): readonly unknown[] => ['eventsbything', site, ...rangeKey(range), zone],
  configs: ['reportconfigs'] as const,
  configList: (site: string | undefined, q: ListQuery): readonly unknown[] => [
    'reportconfigs',
    'list',
    site,
    q,
  ],
  siteConfigs: (site: string | undefined) => ['reportconfigs', 'site', site] as const,
  config: (id: string) => ['reportconfigs', 'one', id] as const,
  types: ['reporttypes'] as const,
  formats: ['reportformat'] as const,
  categories: (site: string | undefined, zones: readonly string[], categories: readonly string[]) =>
    ['reports', 'categories', site, zones, categories] as const,
  liveThings: (site: string | undefined) => ['things', 'live', site] as const,
  zoneTotals: (site: string | undefined, range: DateRangeValue): readonly unknown[] => [
    'zonedurations',
    'totals',
    site,
    ...rangeKey(range),
  ],
  zoneDurations: (site: string | undefined, range: DateRangeValue): readonly unknown[] => [
    'zonedurations',
    site,
    ...rangeKey(range),
  ],
};

/**
 * The site's things with their zones. With poll, refreshed every 5 s while the tab is
 * visible (TanStack skips interval refetches while hidden) and no longer once the page is left.
 */
export function useLiveThings(site: string | undefined, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: reportKeys.liveThings(site),
    queryFn: () =>
      unwrap(
        api.GET('/api/things', {
          params: { query: { site, limit: REPORT_FETCH_LIMIT, sort: 'name' } },
        }),
      ),
    enabled: !!site,
    refetchInterval: poll ? LIVE_THINGS_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** Per zone: the visits overlapping the period and their time inside it. */
export function useZoneTotals(site: string | undefined, range: DateRangeValue, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.zoneTotals(site, range),
    queryFn: () =>
      unwrap(
        api.GET('/api/zonedurations/totals', {
          params: {
            query: { site, after: range.start.toISOString(), before: range.end.toISOString() },
          },
        }),
      ),
    enabled: !!site && enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * Zone visits of the site that overlap the period, newest first: up to the fetch limit,
 * with the true total from x-total-count so a capped list can say so.
 */
export function useZoneDurations(site: string | undefined, range: DateRangeValue) {
  return useQuery({
    queryKey: reportKeys.zoneDurations(site, range),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/zonedurations', {
          params: {
            query: {
              site,
              after: range.start.toISOString(),
              before: range.end.toISOString(),
              limit: REPORT_FETCH_LIMIT,
            },
          },
        }),
      ),
    enabled: !!site,
    placeholderData: keepPreviousData,
  });
}

/** The Zones History table of the period as zoneshistory.xlsx. */
export function downloadZoneDurations(site: string, range: DateRangeValue): Promise<Blob> {
  return blobFrom(
    api.GET('/api/zonedurations/export', {
      params: {
        query: { site, after: range.start.toISOString(), before: range.end.toISOString() },
      },
      parseAs: 'blob',
    }),
  );
}

/** What is in each zone now, as zonestatus.xlsx. */
export function downloadZoneStatus(site: string): Promise<Blob> {
  return blobFrom(
    api.GET('/api/zonestatus/export', { params: { query: { site } }, parseAs: 'blob' }),
  );
}

/** The Activity report: per thing, per day, the hours on site in the period (its days on
 * the site's clock when a zone is given). */
export function useActivity(
  site: string | undefined,
  range: DateRangeValue,
  zone: string | undefined,
) {
  return useQuery({
    queryKey: reportKeys.activity(site, range, zone),
    queryFn: () =>
      unwrap(
        api.GET('/api/eventsbything', { params: { query: { site, ...sitePeriod(range, zone) } } }),
      ),
    enabled: !!site,
    placeholderData: keepPreviousData,
  });
}

export function downloadActivity(
  site: string,
  range: DateRangeValue,
  zone: string | undefined,
): Promise<Blob> {
  return blobFrom(
    api.GET('/api/eventsbything/export', {
      params: { query: { site, ...sitePeriod(range, zone) } },
      parseAs: 'blob',
    }),
  );
}

/** The site's report configurations by name (the Custom Reports menu). */
export function useSiteReportConfigs(site: string | undefined) {
  return useQuery({
    queryKey: reportKeys.siteConfigs(site),
    queryFn: () =>
      unwrap(
        api.GET('/api/reportconfigs', {
          params: { query: { site, sort: 'name', limit: REPORT_FETCH_LIMIT } },
        }),
      ),
    enabled: !!site,
    staleTime: 60_000,
  });
}

/** One page of report configurations, for the generic list. */
export const reportConfigsListQuery = (site: string | undefined) => (q: ListQuery) =>
  queryOptions({
    queryKey: reportKeys.configList(site, q),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/reportconfigs', { params: { query: { ...listQueryParams(q), site } } }),
      ),
    enabled: site !== undefined,
  });

export function useReportConfig(id: string) {
  return useQuery({
    queryKey: reportKeys.config(id),
    queryFn: () =>
      unwrap(api.GET('/api/reportconfigs/{config_id}', { params: { path: { config_id: id } } })),
    enabled: id !== 'new',
  });
}

export function useSaveReportConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ReportConfigWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/reportconfigs', { body }))
        : unwrap(
            api.PUT('/api/reportconfigs/{config_id}', {
              params: { path: { config_id: id } },
              body,
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.configs }),
  });
}

export function useDeleteReportConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/reportconfigs/{config_id}', { params: { path: { config_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.configs }),
  });
}

export function useReportTypes() {
  return useQuery({
    queryKey: reportKeys.types,
    queryFn: () => unwrap(api.GET('/api/reporttypes')),
    staleTime: Infinity,
  });
}

export function useReportFormats() {
  return useQuery({
    queryKey: reportKeys.formats,
    queryFn: () => unwrap(api.GET('/api/reportformat')),
    staleTime: Infinity,
  });
}

/** A configured report over the period (days on the zone's clock), as the server's file. */
export function downloadReport(
  id: string,
  range: DateRangeValue,
  zone: string | undefined,
): Promise<Blob> {
  return blobFrom(
    api.GET('/api/reports/{config_id}', {
      params: { path: { config_id: id }, query: sitePeriod(range, zone) },
      parseAs: 'blob',
    }),
  );
}

type CategoryQuery = Omit<AdhocReport, 'type' | 'format'>;

/** Counts of the things now in each zone by category (the Zone Categories report). */
export function useCategoryReport(query: CategoryQuery | null) {
  return useQuery({
    queryKey: reportKeys.categories(query?.site, query?.zones ?? [], query?.categories ?? []),
    // The call answers JSON or a workbook by format; this one asks for JSON.
    queryFn: () => {
      // Runs only when enabled, that is with a query.
      if (!query) throw new Error('No report query');
      return unwrap(
        api.POST('/api/reports/adhoc', {
          body: { ...query, type: 'reportTypeCategories', format: 'json' },
        }),
      ) as Promise<CategoryReport>;
    },
    enabled: !!query?.site,
  });
}

/** The same report as report.xlsx. */
export function downloadCategoryReport(query: CategoryQuery): Promise<Blob> {
  return blobFrom(
    api.POST('/api/reports/adhoc', {
      body: { ...query, type: 'reportTypeCategories', format: 'excel' },
      parseAs: 'blob',
    }),
  );
}
