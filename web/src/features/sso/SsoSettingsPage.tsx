import type { SsoSettings } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { usePermissions } from '../access/queries';
import { useSaveSsoSettings, useSsoSettings } from './queries';
import { fieldText } from '../../components/formRules';

interface SsoSettingsForm {
  oktaIssuer: string;
  oktaClientId: string;
  oktaClientSecret: string;
  entraTenant: string;
  oktaRedirectUri: string;
  entraRedirectUri: string;
}

// Like the server: https, or plain http on this machine (a provider under test).
const ISSUER_URL = /^(https:\/\/[^\s/]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)(\/\S*)?$/;

function tabsFor(settings: SsoSettings): TabDef<SsoSettingsForm>[] {
  // Each kind's tab shows when it is enabled for the organization (both when neither is).
  const neither = !settings.oktaEnabled && !settings.entraEnabled;
  return [
    {
      label: 'Okta',
      hidden: !settings.oktaEnabled && !neither,
      fields: [
        {
          name: 'oktaIssuer',
          label: 'Okta Issuer',
          placeholder: 'https://example.okta.com/oauth2/default',
          wide: true,
          validate: (value) =>
            !value || ISSUER_URL.test(fieldText(value).trim()) || 'must be an https:// URL',
        },
        { name: 'oktaClientId', label: 'Okta Client ID', autoComplete: 'off' },
        {
          name: 'oktaClientSecret',
          label: 'Okta Client Secret',
          kind: 'password',
          autoComplete: 'new-password',
          placeholder: settings.oktaClientSecretSet ? '••••••••' : undefined,
          helperText: settings.oktaClientSecretSet
            ? 'A secret is stored; leave empty to keep it'
            : 'Never shown again once saved',
        },
        {
          name: 'oktaRedirectUri',
          label: 'Sign-in redirect URI (register it with Okta)',
          readOnly: true,
          wide: true,
        },
      ],
    },
    {
      label: 'Entra',
      hidden: !settings.entraEnabled && !neither,
      fields: [
        {
          name: 'entraTenant',
          label: 'Entra Tenant',
          placeholder: 'Tenant id or domain, e.g. contoso.onmicrosoft.com',
          wide: true,
          helperText: settings.entraAvailable
            ? undefined
            : 'This installation has no Entra app registration yet',
        },
        {
          name: 'entraRedirectUri',
          label: 'Redirect URI of the Entra app registration',
          readOnly: true,
          wide: true,
        },
      ],
    },
  ];
}

function SsoSettingsEditor({ settings }: { settings: SsoSettings }) {
  const perms = usePermissions();
  const save = useSaveSsoSettings();
  return (
    <DetailForm<SsoSettingsForm, SsoSettings>
      name="SSO settings"
      title="SSO Settings"
      id="settings"
      tabs={tabsFor(settings)}
      initialValues={{
        oktaIssuer: settings.oktaIssuer,
        oktaClientId: settings.oktaClientId,
        // The stored secret is never sent back; an empty field keeps it.
        oktaClientSecret: '',
        entraTenant: settings.entraTenant,
        oktaRedirectUri: settings.oktaRedirectUri,
        entraRedirectUri: settings.entraRedirectUri,
      }}
      onSave={(values) =>
        save.mutateAsync({
          oktaIssuer: values.oktaIssuer.trim(),
          oktaClientId: values.oktaClientId.trim(),
          oktaClientSecret: values.oktaClientSecret,
          entraTenant: values.entraTenant.trim(),
        })
      }
      saveAndStay
      canModify={perms.can('ssosettings', 'modify')}
    />
  );
}

export default function SsoSettingsPage() {
  const query = useSsoSettings();
  // A fresh form after each save (keyed by the settings): a typed secret never lingers.
  return (
    <LoadGate query={query} name="SSO settings">
      {(settings) => <SsoSettingsEditor key={JSON.stringify(settings)} settings={settings} />}
    </LoadGate>
  );
}
