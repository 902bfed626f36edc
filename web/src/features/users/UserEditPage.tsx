import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import Button from '@mui/material/Button';
import { useParams } from 'react-router';
import { errorText } from '../../api/client';
import type { User } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { useSnackbar } from '../../components/Snackbar';
import { useSignOut } from '../auth/queries';
import { useCurrentUser, usePermissions } from '../access/queries';
import { passwordProblem } from './passwordRule';
import { useRoleOptions, useScopedSiteOptions } from './scopeOptions';
import {
  emailExists,
  useCreateUser,
  useDeleteUser,
  useResetUserPassword,
  useUpdateUser,
  useUser,
} from './queries';
import { fieldText } from '../../components/formRules';

interface UserForm {
  name: string;
  username: string;
  roles: string[];
  sites: string[];
  sendEmail: boolean;
  password: string;
}

function userToForm(user: User | undefined): UserForm {
  return {
    name: user?.name ?? '',
    username: user?.username ?? '',
    roles: user?.roles ?? [],
    sites: user?.securityCtx?.sites ?? [],
    sendEmail: false,
    password: '',
  };
}

function UserEditor({ id, user }: { id: string; user: User | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const me = useCurrentUser();
  const create = useCreateUser();
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const reset = useResetUserPassword();
  const signOut = useSignOut();
  const snackbar = useSnackbar();
  const canModify = perms.can('users', 'modify');
  const editingSelf = !isNew && me.data?.id === id;
  const roleOptions = useRoleOptions(perms.isSuperAdmin);
  const siteOptions = useScopedSiteOptions();

  const initialUsername = user?.username ?? '';
  const tabs: TabDef<UserForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true, autoComplete: 'off' },
        {
          name: 'username',
          label: 'Username',
          kind: 'email',
          required: true,
          autoComplete: 'off',
          helperText: 'An email address',
          validate: async (value) => {
            const email = fieldText(value).trim();
            if (!email || email === initialUsername) return true;
            return (await emailExists(email)) ? 'a user with this email already exists' : true;
          },
        },
        {
          name: 'roles',
          label: 'Roles',
          kind: 'multiselect',
          required: true,
          options: roleOptions,
        },
        { name: 'sites', label: 'Sites', kind: 'multiselect', options: siteOptions },
        {
          name: 'sendEmail',
          label: 'Send activation email',
          kind: 'checkbox',
          hidden: !isNew,
          helperText: 'The user sets a password from the email',
        },
        {
          name: 'password',
          label: 'Password',
          kind: 'password',
          autoComplete: 'new-password',
          hidden: (v) => !isNew || v.sendEmail,
          requiredWhen: (v) => isNew && !v.sendEmail,
          validate: (value, v) => {
            if (!isNew || v.sendEmail || !value) return true;
            return passwordProblem(fieldText(value)) ?? true;
          },
        },
      ],
    },
  ];

  const onSave = async (values: UserForm) => {
    const base = {
      name: values.name.trim(),
      username: values.username.trim(),
      roles: values.roles,
      securityCtx: { sites: values.sites, companies: user?.securityCtx?.companies ?? [] },
    };
    if (isNew) {
      return create.mutateAsync({
        body: { ...base, password: values.sendEmail ? null : values.password },
        sendEmail: values.sendEmail,
      });
    }
    return update.mutateAsync({ ...base, id });
  };

  const resetPassword = () =>
    reset.mutate(id, {
      onSuccess: () => snackbar.notify('Password reset email sent'),
      onError: (err) => snackbar.error(`Password reset failed: ${errorText(err)}`),
    });

  return (
    <DetailForm<UserForm, User>
      name="user"
      title={isNew ? 'Add User' : 'Edit User'}
      id={id}
      tabs={tabs}
      initialValues={userToForm(user)}
      onSave={onSave}
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/users"
      // Saving one's own record ends the session: sign in again with the new details.
      afterSave={editingSelf ? signOut : undefined}
      canModify={canModify}
      canCreate={perms.can('users', 'create')}
      canDelete={perms.can('users', 'delete') && !editingSelf}
      extraActions={
        !isNew && canModify ? (
          <Button
            variant="outlined"
            startIcon={<LockResetOutlined />}
            onClick={resetPassword}
            disabled={reset.isPending}
          >
            Reset Password
          </Button>
        ) : undefined
      }
    />
  );
}

export default function UserEditPage() {
  const { id = 'new' } = useParams();
  const query = useUser(id);
  if (id === 'new') return <UserEditor key="new" id={id} user={undefined} />;
  return (
    <LoadGate query={query} name="user">
      {(user) => <UserEditor key={user.id} id={id} user={user} />}
    </LoadGate>
  );
}
