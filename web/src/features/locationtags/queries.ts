import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { LocationTagWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const locationTagKeys = {
  all: ['locationtags'] as const,
  list: (site: string | undefined, q: ListQuery): readonly unknown[] => [
    'locationtags',
    'list',
    site,
    q,
  ],
  one: (id: string) => ['locationtags', 'one', id] as const,
};

export const locationTagsListQuery = (site: string | undefined) => (q: ListQuery) =>
  queryOptions({
    queryKey: locationTagKeys.list(site, q),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/locationtags', { params: { query: { ...listQueryParams(q), site } } }),
      ),
    enabled: site !== undefined,
  });

export function useLocationTag(id: string) {
  return useQuery({
    queryKey: locationTagKeys.one(id),
    queryFn: () =>
      unwrap(
        api.GET('/api/locationtags/{tag_id}', {
          params: { path: { tag_id: id } },
        }),
      ),
    enabled: id !== 'new',
  });
}

export function useSaveLocationTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LocationTagWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/locationtags', { body }))
        : unwrap(
            api.PUT('/api/locationtags/{tag_id}', {
              params: { path: { tag_id: id } },
              body,
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: locationTagKeys.all }),
  });
}

export function useDeleteLocationTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.DELETE('/api/locationtags/{tag_id}', {
          params: { path: { tag_id: id } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: locationTagKeys.all }),
  });
}
