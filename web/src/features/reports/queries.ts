import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { DateRangeValue } from '../../components/format';
import { LIVE_THINGS_POLL_MS } from './zoneLogic';

/** Reports fetch up to 10000 rows (spec section 9). */
export const REPORT_FETCH_LIMIT = 10000;

const rangeKey = (range: DateRangeValue) => [range.start.valueOf(), range.end.valueOf()];

export const reportKeys = {
  liveThings: (site: string | undefined) => ['things', 'live', site] as const,
  zoneDurations: (site: string | undefined, range: DateRangeValue): readonly unknown[] => [
    'zonedurations',
    site,
    ...rangeKey(range),
  ],
};

/**
 * The site's things with their zones, refreshed every 5 s while the tab is visible (TanStack
 * skips interval refetches while hidden) and no longer once the page is left.
 */
export function useLiveThings(site: string | undefined) {
  return useQuery({
    queryKey: reportKeys.liveThings(site),
    queryFn: () =>
      unwrap(
        api.GET('/api/things', {
          params: { query: { site, limit: REPORT_FETCH_LIMIT, sort: 'name' } },
        }),
      ),
    enabled: !!site,
    refetchInterval: LIVE_THINGS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/** Zone visits of the site that overlap the period. */
export function useZoneDurations(site: string | undefined, range: DateRangeValue) {
  return useQuery({
    queryKey: reportKeys.zoneDurations(site, range),
    queryFn: () =>
      unwrap(
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
