import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { blobFrom } from '../../components/download';
import type { DateRangeValue } from '../../components/format';

export const exceptionKeys = {
  all: ['exceptions'] as const,
  page: (
    site: string | undefined,
    range: DateRangeValue,
    page: number,
    limit: number,
  ): readonly unknown[] => [
    'exceptions',
    'page',
    site,
    range.start.valueOf(),
    range.end.valueOf(),
    page,
    limit,
  ],
  one: (id: string) => ['exceptions', 'one', id] as const,
};

/** One page of the site's exceptions in the period, newest first. */
export function useExceptions(
  site: string | undefined,
  range: DateRangeValue,
  page: number,
  limit: number,
) {
  return useQuery({
    queryKey: exceptionKeys.page(site, range, page, limit),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/exceptions', {
          params: {
            query: {
              site,
              after: range.start.toISOString(),
              before: range.end.toISOString(),
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
export function downloadExceptions(site: string, range: DateRangeValue): Promise<Blob> {
  return blobFrom(
    api.GET('/api/exceptions/export', {
      params: {
        query: { site, after: range.start.toISOString(), before: range.end.toISOString() },
      },
      parseAs: 'blob',
    }),
  );
}
