import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { blobFrom } from '../../components/download';
import type { DateRangeValue } from '../../components/format';
import { sitePeriod } from '../../components/siteClock';

const exceptionKeys = {
  all: ['exceptions'] as const,
  page: (
    site: string | undefined,
    range: DateRangeValue,
    zone: string | undefined,
    page: number,
    limit: number,
  ): readonly unknown[] => [
    'exceptions',
    'page',
    site,
    range.start.valueOf(),
    range.end.valueOf(),
    zone,
    page,
    limit,
  ],
  one: (id: string) => ['exceptions', 'one', id] as const,
};

/** One page of the site's exceptions in the period (days on the zone's clock), newest first. */
export function useExceptions(
  site: string | undefined,
  range: DateRangeValue,
  zone: string | undefined,
  page: number,
  limit: number,
) {
  return useQuery({
    queryKey: exceptionKeys.page(site, range, zone, page, limit),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/exceptions', {
          params: {
            query: {
              site,
              ...sitePeriod(range, zone),
              sort: '-time',
              page,
              limit,
            },
          },
        }),
      ),
    enabled: !!site,
    placeholderData: keepPreviousData,
  });
}

export function useException(id: string) {
  return useQuery({
    queryKey: exceptionKeys.one(id),
    queryFn: () =>
      unwrap(api.GET('/api/exceptions/{exception_id}', { params: { path: { exception_id: id } } })),
  });
}

/** The period's exceptions as exceptions.xlsx. */
export function downloadExceptions(
  site: string,
  range: DateRangeValue,
  zone: string | undefined,
): Promise<Blob> {
  return blobFrom(
    api.GET('/api/exceptions/export', {
      params: { query: { site, ...sitePeriod(range, zone) } },
      parseAs: 'blob',
    }),
  );
}
