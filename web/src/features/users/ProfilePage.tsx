import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormLabel from '@mui/material/FormLabel';
import type { CurrentUser } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { useSignOut } from '../auth/queries';
import { useCurrentUser } from '../access/queries';
import { passwordProblem } from './passwordRule';
import { useRoles, useSaveMe } from './queries';
import { fieldText } from '../../components/formRules';

interface ProfileForm {
  name: string;
  username: string;
  roles: string[];
  password: string;
  verify: string;
}

function RoleChips({ ids }: { ids: string[] }) {
  const roles = useRoles();
  const names = new Map((roles.data ?? []).map((r) => [r.id, r.name]));
  return (
    <Box>
      <FormLabel sx={{ fontSize: 12, display: 'block', mb: 0.5 }}>Roles</FormLabel>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }} aria-label="Roles" role="list">
        {ids.map((id) => (
          <Chip key={id} role="listitem" size="small" label={names.get(id) ?? id} />
        ))}
      </Box>
    </Box>
  );
}

function ProfileEditor({ me }: { me: CurrentUser }) {
  const save = useSaveMe();
  const signOut = useSignOut();

  const tabs: TabDef<ProfileForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        { name: 'username', label: 'Username', kind: 'email', required: true },
        {
          name: 'roles',
          label: 'Roles',
          kind: 'custom',
          wide: true,
          render: ({ value }) => <RoleChips ids={(value as string[] | undefined) ?? []} />,
        },
        {
          name: 'password',
          label: 'New Password',
          kind: 'password',
          autoComplete: 'new-password',
          helperText: 'Leave empty to keep the current password',
          validate: (value) => (value ? (passwordProblem(fieldText(value)) ?? true) : true),
        },
        {
          name: 'verify',
          label: 'Verify Password',
          kind: 'password',
          autoComplete: 'new-password',
          validate: (value, v) => (value ?? '') === v.password || 'Passwords are not the same',
          submitMessage: 'Passwords must match',
        },
      ],
    },
  ];

  return (
    <DetailForm<ProfileForm, CurrentUser>
      name="profile"
      title="Edit Profile"
      id={me.id}
      tabs={tabs}
      initialValues={{
        name: me.name,
        username: me.username,
        roles: me.roles,
        password: '',
        verify: '',
      }}
      onSave={(values) =>
        save.mutateAsync({
          name: values.name.trim(),
          username: values.username.trim(),
          password: values.password || null,
        })
      }
      // One's own record changed: the session ends and the user signs in again.
      afterSave={signOut}
      canModify
    />
  );
}

export default function ProfilePage() {
  const me = useCurrentUser();
  return (
    <LoadGate query={me} name="profile">
      {(user) => <ProfileEditor key={user.id} me={user} />}
    </LoadGate>
  );
}
