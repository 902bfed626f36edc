import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { NO_PERMISSIONS, permissionsFrom, type Permissions } from './permissions';

export const sessionKeys = {
  all: ['session'] as const,
  me: ['session', 'me'] as const,
  rules: (roles: readonly string[]) => ['session', 'accessRules', [...roles].sort().join(',')],
  version: ['session', 'version'] as const,
};

export function useCurrentUser() {
  return useQuery({
    queryKey: sessionKeys.me,
    queryFn: () => unwrap(api.GET('/api/users/me')),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

function useAccessRules(roles: readonly string[] | undefined) {
  return useQuery({
    queryKey: sessionKeys.rules(roles ?? []),
    queryFn: () =>
      unwrap(
        api.GET('/api/accessRules', { params: { query: { roles: (roles ?? []).join(',') } } }),
      ),
    enabled: roles !== undefined,
    staleTime: 5 * 60_000,
  });
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
