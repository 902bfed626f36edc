import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, api, toApiError, unwrap, unwrapPage } from '../../api/client';
import type { Thing, ThingCreate, ThingUpdate } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';
import type { DateRangeValue } from '../../components/format';
import { categoryKeys } from '../categories/queries';
import { ensureThingsCategory } from './photoLogic';
import type { Relation, ThingClass } from './thingLogic';

export const thingKeys = {
  all: ['things'] as const,
  list: (site: string | undefined, thingClass: ThingClass, q: ListQuery): readonly unknown[] => [
    'things',
    'list',
    site,
    thingClass,
    q,
  ],
  search: (site: string | undefined, search: string): readonly unknown[] => [
    'things',
    'search',
    site,
    search,
  ],
  one: (id: string) => ['things', 'one', id] as const,
  related: (id: string, relation: Relation) => ['things', 'related', id, relation] as const,
  zoneHistory: (id: string, range: DateRangeValue): readonly unknown[] => [
    'things',
    'zonedurations',
    id,
    range.start.valueOf(),
    range.end.valueOf(),
  ],
  classes: ['thingclasses'] as const,
};

/** One page of a site's items or workers, for the generic list. */
export const thingsListQuery =
  (site: string | undefined, thingClass: ThingClass) => (q: ListQuery) =>
    queryOptions({
      queryKey: thingKeys.list(site, thingClass, q),
      queryFn: () =>
        unwrapPage(
          api.GET('/api/things', {
            params: { query: { ...listQueryParams(q), site, class: thingClass } },
          }),
        ),
      enabled: !!site,
    });

/** Things of the site matching a search, for the link mode of Parents/Children. */
export function useThingSearch(site: string | undefined, search: string, enabled: boolean) {
  return useQuery({
    queryKey: thingKeys.search(site, search),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/things', {
          params: { query: { site, limit: 25, page: 0, ...(search ? { search } : {}) } },
        }),
      ),
    enabled: enabled && !!site,
    placeholderData: keepPreviousData,
  });
}

export function useThing(id: string) {
  return useQuery({
    queryKey: thingKeys.one(id),
    queryFn: () =>
      unwrap(api.GET('/api/things/{thing_id}', { params: { path: { thing_id: id } } })),
    enabled: id !== 'new',
  });
}

/** A fresh copy of a thing, or null when it no longer exists. */
/** The thing as stored now; a thing deleted meanwhile fails with the server's reason. */
export function getThing(id: string): Promise<Thing> {
  return unwrap(api.GET('/api/things/{thing_id}', { params: { path: { thing_id: id } } }));
}

export async function fetchThing(id: string): Promise<Thing | null> {
  try {
    return await getThing(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function putThing(thing: Thing): Promise<Thing> {
  const body: ThingUpdate = thing;
  return unwrap(
    api.PUT('/api/things/{thing_id}', { params: { path: { thing_id: thing._id } }, body }),
  );
}

export function useCreateThing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ThingCreate) => unwrap(api.POST('/api/things', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: thingKeys.all }),
  });
}

/** PUT of the whole thing (class unchanged; state ignored but for clearing the alarm). */
export function useUpdateThing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: putThing,
    onSuccess: (saved) => {
      client.setQueryData(thingKeys.one(saved._id), saved);
      return client.invalidateQueries({ queryKey: thingKeys.all });
    },
  });
}

export function useDeleteThing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/things/{thing_id}', { params: { path: { thing_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: thingKeys.all }),
  });
}

/** The image category photos of things are filed under: found, or created the first time. */
export function useThingsCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      ensureThingsCategory(
        () => unwrap(api.GET('/api/categories', { params: { query: { hidden: true } } })),
        (body) => unwrap(api.POST('/api/image-categories', { body })),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: categoryKeys.all });
    },
  });
}

export function useRelated(id: string, relation: Relation) {
  return useQuery({
    queryKey: thingKeys.related(id, relation),
    queryFn: () => {
      const params = { path: { thing_id: id }, query: { limit: 1000, sort: 'name' } };
      return relation === 'children'
        ? unwrap(api.GET('/api/things/{thing_id}/children', { params }))
        : unwrap(api.GET('/api/things/{thing_id}/parents', { params }));
    },
  });
}

export function useThingClasses() {
  return useQuery({
    queryKey: thingKeys.classes,
    queryFn: () => unwrap(api.GET('/api/thingclasses')),
    staleTime: Infinity,
  });
}

/** A thing's zone visits in the range (fetch limit 10000, spec section 9). */
export function useZoneHistory(thing: Thing, range: DateRangeValue) {
  return useQuery({
    queryKey: thingKeys.zoneHistory(thing._id, range),
    queryFn: () =>
      unwrap(
        api.GET('/api/zonedurations', {
          params: {
            query: {
              site: thing.site,
              thing: thing._id,
              after: range.start.toISOString(),
              before: range.end.toISOString(),
              limit: 10000,
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The list's rows as a workbook, through the generated client. */
export async function downloadThingsExport(query: {
  site: string;
  thingClass: ThingClass;
  search: string;
}): Promise<Blob> {
  const { data, error, response } = await api.GET('/api/things/export', {
    params: {
      query: {
        site: query.site,
        class: query.thingClass,
        download: true,
        ...(query.search ? { search: query.search } : {}),
      },
    },
    parseAs: 'blob',
  });
  if (!response.ok || !data) throw toApiError(response, error);
  return data;
}
