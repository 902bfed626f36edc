import { useParams } from 'react-router';
import type { Organization } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { usePermissions } from '../access/queries';
import { retentionDays, retentionRule } from './organizationForm';
import { useDeleteOrganization, useOrganization, useSaveOrganization } from './queries';
import { fieldText } from '../../components/formRules';

interface OrganizationForm {
  name: string;
  subdomain: string;
  oktaEnabled: boolean;
  entraEnabled: boolean;
  historyRetentionDays: string | number | null;
}

const SUBDOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

const tabs: TabDef<OrganizationForm>[] = [
  {
    label: 'Basic',
    fields: [
      { name: 'name', label: 'Name', required: true },
      {
        name: 'subdomain',
        label: 'Subdomain',
        required: true,
        validate: (value) =>
          SUBDOMAIN.test(fieldText(value).trim()) ||
          'use lowercase letters, digits and hyphens only',
      },
      { name: 'oktaEnabled', label: 'Okta Enabled', kind: 'checkbox' },
      { name: 'entraEnabled', label: 'Entra Enabled', kind: 'checkbox' },
      {
        name: 'historyRetentionDays',
        label: 'History Retention (days)',
        kind: 'number',
        validate: retentionRule,
        helperText: 'Events and zone visits older than this are deleted; 0 keeps them forever',
      },
    ],
  },
];

function OrganizationEditor({ id, org }: { id: string; org: Organization | undefined }) {
  const perms = usePermissions();
  const save = useSaveOrganization();
  const remove = useDeleteOrganization();
  return (
    <DetailForm<OrganizationForm, Organization>
      name="organization"
      title={id === 'new' ? 'Add Organization' : (org?.name ?? 'Organization')}
      id={id}
      tabs={tabs}
      initialValues={{
        name: org?.name ?? '',
        subdomain: org?.subdomain ?? '',
        oktaEnabled: org?.oktaEnabled ?? false,
        entraEnabled: org?.entraEnabled ?? false,
        historyRetentionDays: String(org?.historyRetentionDays ?? 0),
      }}
      onSave={(values) =>
        save.mutateAsync({
          id,
          body: {
            name: values.name.trim(),
            subdomain: values.subdomain.trim(),
            oktaEnabled: values.oktaEnabled,
            entraEnabled: values.entraEnabled,
            historyRetentionDays: retentionDays(values.historyRetentionDays),
          },
        })
      }
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/organizations"
      canModify={perms.can('organizations', 'modify')}
      canCreate={perms.can('organizations', 'create')}
      canDelete={perms.can('organizations', 'delete')}
    />
  );
}

export default function OrganizationEditPage() {
  const { id = 'new' } = useParams();
  const query = useOrganization(id);
  if (id === 'new') return <OrganizationEditor key="new" id={id} org={undefined} />;
  return (
    <LoadGate query={query} name="organization">
      {(org) => <OrganizationEditor key={org._id} id={id} org={org} />}
    </LoadGate>
  );
}
