import { useMemo } from 'react';
import type { User } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { usePermissions } from '../access/queries';
import { useDeleteUser, useRoles, usersListQuery } from './queries';

export default function UsersPage() {
  const perms = usePermissions();
  const roles = useRoles();
  const remove = useDeleteUser();
  const columns = useMemo<ListColumn<User>[]>(() => {
    const names = new Map((roles.data ?? []).map((r) => [r.id, r.name]));
    return [
      { field: 'name', headerName: 'Name', minWidth: 140 },
      { field: 'username', headerName: 'Username', minWidth: 180 },
      {
        field: 'roles',
        headerName: 'Roles',
        sortable: false,
        hideOnMobile: true,
        valueGetter: (value: string[] | undefined) =>
          (value ?? []).map((id) => names.get(id) ?? id).join(', '),
      },
    ];
  }, [roles.data]);

  return (
    <GenericList<User>
      title="Users"
      name="user"
      query={usersListQuery}
      columns={columns}
      getRowId={(u) => u.id}
      rowPath={(u) => `/users/${u.id}`}
      addPath="/users/new"
      canAdd={perms.can('users', 'create')}
      canDelete={perms.can('users', 'delete')}
      onDelete={(u) => remove.mutateAsync(u.id)}
      emptyMessage="No users found"
      testId="users-list"
    />
  );
}
