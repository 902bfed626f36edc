import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { OrganizationWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const organizationKeys = {
  all: ['organizations'] as const,
  list: (q: ListQuery): readonly unknown[] => ['organizations', 'list', q],
  one: (id: string) => ['organizations', 'one', id] as const,
};

export const organizationsListQuery = (q: ListQuery) =>
  queryOptions({
    queryKey: organizationKeys.list(q),
    queryFn: () =>
      unwrapPage(api.GET('/api/organizations', { params: { query: listQueryParams(q) } })),
  });

export function useOrganization(id: string) {
  return useQuery({
    queryKey: organizationKeys.one(id),
    queryFn: () =>
      unwrap(api.GET('/api/organizations/{org_id}', { params: { path: { org_id: id } } })),
    enabled: id !== 'new',
  });
}

export function useSaveOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: OrganizationWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/organizations', { body }))
        : unwrap(
            api.PUT('/api/organizations/{org_id}', { params: { path: { org_id: id } }, body }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

export function useDeleteOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/organizations/{org_id}', { params: { path: { org_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
