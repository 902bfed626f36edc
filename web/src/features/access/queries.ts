import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { NO_PERMISSIONS, permissionsFrom, type Permissions } from './permissions';

export const sessionKeys = {
  all: ['session'] as const,
  me: ['session', 'me'] as const,
  rules: (roles: readonly string[]) => ['session', 'accessRules', [...roles].sort().join(',')],
  version: ['session', 'version'] as const,
};

/** Who is signed in: the first thing every signed-in screen asks. */
export const currentUserQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: () => unwrap(api.GET('/api/users/me')),
  staleTime: 5 * 60_000,
  retry: false,
});

const accessRulesQuery = (roles: readonly string[]) =>
  queryOptions({
    queryKey: sessionKeys.rules(roles),
    queryFn: () =>
      unwrap(api.GET('/api/accessRules', { params: { query: { roles: roles.join(',') } } })),
    staleTime: 5 * 60_000,
  });

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

function useAccessRules(roles: readonly string[] | undefined) {
  return useQuery({ ...accessRulesQuery(roles ?? []), enabled: roles !== undefined });
}

/**
 * Asks who is signed in, then their rights, as soon as the entry runs: the shell waits for
 * both, and its chunk is still on its way.
 */
export function prefetchSession(client: QueryClient) {
  client
    .query(currentUserQuery)
    .then((me) => client.query(accessRulesQuery(me.roles)))
    .catch(() => undefined);
}

/** The signed-in user's rights; nothing is granted until the rules have loaded. */
export function usePermissions(): Permissions & { loading: boolean } {
  const me = useCurrentUser();
  const rules = useAccessRules(me.data?.roles);
  const superAdmin = me.data?.superAdmin ?? false;
  return useMemo(() => {
    const base = rules.data ? permissionsFrom(rules.data) : NO_PERMISSIONS;
    return {
      ...base,
      isSuperAdmin: base.isSuperAdmin || superAdmin,
      loading: me.isPending || rules.isPending,
    };
  }, [rules.data, superAdmin, me.isPending, rules.isPending]);
}

export function useVersion() {
  return useQuery({
    queryKey: sessionKeys.version,
    queryFn: () => unwrap(api.GET('/api/version')),
    staleTime: Infinity,
  });
}
