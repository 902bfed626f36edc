import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRules, mockApi, renderAt, findCall } from '../../test/utils';
import SsoSettingsPage from './SsoSettingsPage';

const me = {
  id: 'me1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r-admin'],
  securityCtx: { sites: [], companies: [] },
  superAdmin: false,
  orgId: 'o1',
};

const settings = {
  oktaIssuer: 'https://acme.okta.com',
  oktaClientId: '0oa1',
  oktaClientSecret: '',
  oktaClientSecretSet: true,
  entraTenant: '',
  oktaEnabled: true,
  entraEnabled: false,
  entraAvailable: false,
  oktaRedirectUri: 'https://acme.track.example.com/api/auth/okta/callback',
  entraRedirectUri: 'https://acme.track.example.com/api/auth/entra/callback',
};

describe('SSO settings', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('never shows the stored secret and keeps it when left empty', async () => {
    const { calls } = mockApi({
      'GET /api/users/me': { body: me },
      'GET /api/accessRules': { body: adminRules(['ssosettings']) },
      'GET /api/ssosettings': { body: settings },
      'PUT /api/ssosettings': { body: settings },
    });
    const user = userEvent.setup();
    renderAt(<SsoSettingsPage />, { path: '/ssosettings', route: '/ssosettings' });
    expect(await screen.findByLabelText(/^Okta Issuer/)).toHaveValue('https://acme.okta.com');
    expect(screen.getByLabelText(/^Okta Client Secret/)).toHaveValue('');
    expect(screen.getByText('A secret is stored; leave empty to keep it')).toBeInTheDocument();
    // Only the enabled kind has a tab.
    expect(screen.queryByRole('tab', { name: 'Entra' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Sign-in redirect URI/)).toHaveValue(settings.oktaRedirectUri);

    // Editable once the rights have loaded.
    const save = await screen.findByRole('button', { name: 'Save' });
    await user.clear(screen.getByLabelText(/^Okta Issuer/));
    await user.type(screen.getByLabelText(/^Okta Issuer/), 'http://acme.okta.com');
    await user.click(save);
    expect(
      await screen.findByText('Okta Issuer in the Okta tab: must be an https:// URL'),
    ).toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Okta Issuer/));
    await user.type(screen.getByLabelText(/^Okta Issuer/), 'https://acme.okta.com/oauth2/default');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved SSO settings')).toBeInTheDocument();
    const put = findCall(calls, (c) => c.method === 'PUT');
    expect(await put.json()).toEqual({
      oktaIssuer: 'https://acme.okta.com/oauth2/default',
      oktaClientId: '0oa1',
      oktaClientSecret: '',
      entraTenant: '',
    });
    await waitFor(() => expect(screen.getByLabelText(/^Okta Client Secret/)).toHaveValue(''));
  });
});
