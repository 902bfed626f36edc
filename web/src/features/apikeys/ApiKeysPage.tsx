import { useMemo } from 'react';
import { statusErrorText } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { formatDate } from '../../components/format';
import { usePermissions } from '../access/queries';
import { useRoleOptions, useScopedSiteOptions } from '../users/scopeOptions';
import { CONFIRM_DELETE_TITLE } from './messages';
import { apiKeysListQuery, useDeleteApiKey } from './queries';

function names(ids: readonly string[] | undefined, options: { value: string; label: string }[]) {
  const byId = new Map(options.map((o) => [o.value, o.label]));
  return (ids ?? []).map((id) => byId.get(id) ?? id).join(', ');
}

export default function ApiKeysPage() {
  const perms = usePermissions();
  const roles = useRoleOptions(false);
  const sites = useScopedSiteOptions();
  const remove = useDeleteApiKey();
  const columns = useMemo<ListColumn<ApiKey>[]>(
    () => [
      { field: 'name', headerName: 'Name', minWidth: 140 },
      { field: 'token', headerName: 'Token', sortable: false, minWidth: 120 },
      {
        field: 'roles',
        headerName: 'Roles',
        sortable: false,
        hideOnMobile: true,
        valueGetter: (value: string[] | undefined) => names(value, roles),
      },
      {
        field: 'securityCtx',
        headerName: 'Sites',
        sortable: false,
        hideOnMobile: true,
        valueGetter: (value: ApiKey['securityCtx'] | undefined) => names(value?.sites, sites),
      },
      {
        field: 'timeCreated',
        headerName: 'Created',
        hideOnMobile: true,
        valueFormatter: (value: string | undefined) => formatDate(value),
      },
    ],
    [roles, sites],
  );

  return (
    <GenericList<ApiKey>
      title="API Keys"
      name="API key"
      query={apiKeysListQuery}
      columns={columns}
      getRowId={(k) => k._id}
      rowPath={(k) => `/apikeys/${k._id}`}
      addPath="/apikeys/new"
      canAdd={perms.can('apikeys', 'create')}
      // The spec's rule: deleting a key needs the modify right on apikeys.
      canDelete={perms.can('apikeys', 'modify')}
      onDelete={(k) => remove.mutateAsync(k._id)}
      deleteTitle={CONFIRM_DELETE_TITLE}
      formatError={statusErrorText}
      emptyMessage="No API keys found"
      testId="apikeys-list"
    />
  );
}
