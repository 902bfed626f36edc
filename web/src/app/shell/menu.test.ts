import { describe, expect, it } from 'vitest';
import { labelsFrom } from '../../features/settings/labels';
import { permissionsFrom } from '../../features/access/permissions';
import { buildMenu, isActivePath, type MenuEntry } from './menu';

function labelsOf(entries: MenuEntry[]): string[] {
  return entries.flatMap((e) =>
    e.kind === 'link' ? [e.label] : [e.label, ...e.children.map((c) => `${e.label}/${c.label}`)],
  );
}

const rule = (resource: string, create: boolean, modify: boolean, del = false) => ({
  resource,
  create,
  modify,
  delete: del,
});

describe('buildMenu', () => {
  it('shows the everyday entries and no admin groups without rights', () => {
    const menu = buildMenu({
      can: permissionsFrom([]).can,
      labels: labelsFrom(undefined),
      ssoAvailable: false,
    });
    expect(labelsOf(menu)).toEqual([
      'Home',
      'Events',
      'Items',
      'Images',
      'Reports',
      'Reports/Activity',
      'Reports/Exceptions',
      'Reports/Zone Status',
      'Reports/Zones History',
      'Reports/Zone Categories',
      'Workers',
    ]);
  });

  it('adds each admin entry by its right', () => {
    const can = permissionsFrom([
      rule('apikeys', true, false),
      rule('image-categories', false, true),
      rule('reportconfigs', false, true),
      rule('sites', false, true),
      rule('import', false, true),
      rule('users', true, false),
      rule('ssosettings', true, false),
    ]).can;
    const menu = buildMenu({ can, labels: labelsFrom(undefined), ssoAvailable: true });
    const admin = menu.find((e) => e.label === 'Admin');
    expect(admin?.kind === 'group' && admin.children.map((c) => c.label)).toEqual([
      'API Keys',
      'Categories',
      'Report Configuration',
      'Sites',
      'Import',
      'Users',
      'SSO Settings',
    ]);
  });

  it('needs the right operation, not just any rule', () => {
    const can = permissionsFrom([
      rule('apikeys', false, true),
      rule('sites', true, false),
      rule('users', false, true),
      rule('organizations', true, false),
    ]).can;
    const labels = labelsOf(buildMenu({ can, labels: labelsFrom(undefined), ssoAvailable: true }));
    expect(labels).not.toContain('Admin/API Keys');
    expect(labels).not.toContain('Admin/Sites');
    expect(labels).not.toContain('Admin/Users');
    expect(labels).not.toContain('Configuration/Organizations');
    expect(labels).not.toContain('Admin');
  });

  it('shows SSO Settings only when single sign-on is available', () => {
    const can = permissionsFrom([rule('ssosettings', true, true)]).can;
    const without = labelsOf(
      buildMenu({ can, labels: labelsFrom(undefined), ssoAvailable: false }),
    );
    expect(without).not.toContain('Admin/SSO Settings');
    const withSso = labelsOf(buildMenu({ can, labels: labelsFrom(undefined), ssoAvailable: true }));
    expect(withSso).toContain('Admin/SSO Settings');
  });

  it('adds configuration entries by modify right', () => {
    const can = permissionsFrom(
      ['endpoints', 'locationtags', 'maps', 'zones', 'orgsettings', 'organizations'].map((r) =>
        rule(r, false, true),
      ),
    ).can;
    const menu = buildMenu({ can, labels: labelsFrom(undefined), ssoAvailable: false });
    const config = menu.find((e) => e.label === 'Configuration');
    expect(config?.kind === 'group' && config.children.map((c) => [c.label, c.path])).toEqual([
      ['Endpoints', '/endpoints'],
      ['Location Tags', '/locationtags'],
      ['Maps', '/maps'],
      ['Zones', '/zones'],
      ['Organization Settings', '/settings'],
      ['Organizations', '/organizations'],
    ]);
  });

  it('uses the renamed labels and hides workers', () => {
    const labels = labelsFrom({ itemLabel: 'Assets', workerLabel: 'Staff', hideWorkers: false });
    const menu = labelsOf(buildMenu({ can: () => false, labels, ssoAvailable: false }));
    expect(menu).toContain('Assets');
    expect(menu).toContain('Staff');
    const hidden = labelsOf(
      buildMenu({
        can: () => false,
        labels: labelsFrom({ workerLabel: 'Staff', hideWorkers: true }),
        ssoAvailable: false,
      }),
    );
    expect(hidden).not.toContain('Staff');
    expect(hidden).not.toContain('Workers');
  });

  it('lists maps and custom reports only when there are some', () => {
    const menu = buildMenu({
      can: () => false,
      labels: labelsFrom(undefined),
      ssoAvailable: false,
      maps: [{ id: 'm1', name: 'Floor 1' }],
      reportConfigs: [{ id: 'r1', name: 'Weekly' }],
    });
    const maps = menu.find((e) => e.label === 'Maps');
    expect(maps?.kind === 'group' && maps.children[0]).toMatchObject({ path: '/mapview/m1' });
    const custom = menu.find((e) => e.label === 'Custom Reports');
    expect(custom?.kind === 'group' && custom.children[0]).toMatchObject({ path: '/reports/r1' });
  });

  it('names the site under a map or custom report when one is given', () => {
    const menu = buildMenu({
      can: () => false,
      labels: labelsFrom(undefined),
      ssoAvailable: false,
      reportConfigs: [
        { id: 'r1', name: 'Weekly', site: 'Leeds' },
        { id: 'r2', name: 'Weekly', site: 'Chicago' },
        { id: 'r3', name: 'Daily' },
      ],
    });
    const custom = menu.find((e) => e.label === 'Custom Reports');
    expect(custom?.kind === 'group' && custom.children.map((c) => [c.label, c.detail])).toEqual([
      ['Weekly', 'Leeds'],
      ['Weekly', 'Chicago'],
      ['Daily', undefined],
    ]);
  });

  it('marks a menu path active on its detail pages too', () => {
    expect(isActivePath('/sites', '/sites')).toBe(true);
    expect(isActivePath('/sites', '/sites/abc')).toBe(true);
    expect(isActivePath('/sites', '/sitesx')).toBe(false);
  });
});
