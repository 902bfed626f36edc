import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { ApiKeyCreate } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const apiKeyKeys = {
  all: ['apikeys'] as const,
  list: (q: ListQuery): readonly unknown[] => ['apikeys', 'list', q],
  one: (id: string) => ['apikeys', 'one', id] as const,
};

export const apiKeysListQuery = (q: ListQuery) =>
  queryOptions({
    queryKey: apiKeyKeys.list(q),
    queryFn: () => unwrapPage(api.GET('/api/apikeys', { params: { query: listQueryParams(q) } })),
  });

export function useApiKey(id: string) {
  return useQuery({
    queryKey: apiKeyKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/apikeys/{key_id}', { params: { path: { key_id: id } } })),
    enabled: id !== 'new',
  });
}

/** Creates a key; the answer holds the whole token, which is never shown again. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreate) => unwrap(api.POST('/api/apikeys', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/apikeys/{key_id}', { params: { path: { key_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
