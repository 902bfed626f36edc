import { useMemo } from 'react';
import type { FieldOption } from '../../components/FormField';
import { ALL_SITES_ID, ALL_SITES_NAME } from '../../constants';
import { useCurrentUser, usePermissions } from '../access/queries';
import { useSiteOptions } from '../sites/queries';
import { useRoles } from './queries';

const SUPER_ADMIN_ROLE = 'Super Admin';

/** Role choices by name; Super Admin only where it may be given. */
export function useRoleOptions(offerSuperAdmin: boolean): FieldOption[] {
  const roles = useRoles();
  return useMemo(
    () =>
      (roles.data ?? [])
        .filter((r) => offerSuperAdmin || r.name !== SUPER_ADMIN_ROLE)
        .map((r) => ({ value: r.id, label: r.name })),
    [roles.data, offerSuperAdmin],
  );
}

/** Site choices within the signed-in user's own scope: All Sites first when they hold it. */
export function useScopedSiteOptions(): FieldOption[] {
  const perms = usePermissions();
  const me = useCurrentUser();
  const sites = useSiteOptions();
  const allSites = perms.isSuperAdmin || (me.data?.securityCtx?.sites ?? []).includes(ALL_SITES_ID);
  return useMemo(
    () => [
      ...(allSites ? [{ value: ALL_SITES_ID, label: ALL_SITES_NAME }] : []),
      ...(sites.data ?? []).map((s) => ({ value: s._id, label: s.name })),
    ],
    [sites.data, allSites],
  );
}
