import { describe, expect, it } from 'vitest';
import { ALL_SITES_ID } from '../../constants';
import { labelsFrom } from '../settings/labels';
import { permissionsFrom } from './permissions';
import { pathWithSite, resolveSite, siteNameLookup, siteOptionsFor } from './siteSelection';

describe('permissions', () => {
  it('grants an operation when any role grants it', () => {
    const p = permissionsFrom([
      { resource: 'sites', create: false, modify: true, delete: false },
      { resource: 'sites', create: true, modify: false, delete: false },
    ]);
    expect(p.can('sites', 'create')).toBe(true);
    expect(p.can('sites', 'modify')).toBe(true);
    expect(p.can('sites', 'delete')).toBe(false);
    expect(p.can('users', 'create')).toBe(false);
  });

  it('makes super admin the delete right on allsites', () => {
    expect(
      permissionsFrom([{ resource: 'allsites', create: true, modify: true, delete: false }])
        .isSuperAdmin,
    ).toBe(false);
    expect(
      permissionsFrom([{ resource: 'allsites', create: false, modify: false, delete: true }])
        .isSuperAdmin,
    ).toBe(true);
  });
});

describe('site selection', () => {
  const sites = [
    { _id: 'a', name: 'Alpha', timezone: { id: 'Europe/Amsterdam' } },
    { _id: 'b', name: 'Beta', timezone: { id: 'America/Chicago' } },
  ];

  it('puts All Sites first for super admins and all-sites users only', () => {
    expect(siteOptionsFor(sites, { superAdmin: false, securityCtx: { sites: ['a'] } })).toEqual([
      { id: 'a', name: 'Alpha', timezone: 'Europe/Amsterdam' },
      { id: 'b', name: 'Beta', timezone: 'America/Chicago' },
    ]);
    expect(siteOptionsFor(sites, { superAdmin: true })[0]).toEqual({
      id: ALL_SITES_ID,
      name: 'All Sites',
      timezone: '',
    });
    expect(siteOptionsFor(sites, { securityCtx: { sites: [ALL_SITES_ID] } })).toHaveLength(3);
  });

  it('selects the wanted site, else the first', () => {
    const options = siteOptionsFor(sites, undefined);
    expect(resolveSite(options, 'b')?.id).toBe('b');
    expect(resolveSite(options, 'zzz')?.id).toBe('a');
    expect(resolveSite(options, null)?.id).toBe('a');
    expect(resolveSite([], 'a')).toBeUndefined();
  });

  it('keeps the site in links', () => {
    expect(pathWithSite('/sites', 'a')).toBe('/sites?site=a');
    expect(pathWithSite('/users?page=1', 'b')).toBe('/users?page=1&site=b');
    expect(pathWithSite('/home?site=x', 'b')).toBe('/home?site=b');
    expect(pathWithSite('/home', undefined)).toBe('/home');
  });

  it('names a record site from the sites the user has', () => {
    const name = siteNameLookup(siteOptionsFor(sites, { superAdmin: true }));
    expect(name('b')).toBe('Beta');
    expect(name('gone')).toBe('');
    expect(name(null)).toBe('');
  });
});

describe('labels', () => {
  it('uses the defaults for empty labels', () => {
    expect(labelsFrom({ itemLabel: '', workerLabel: ' ', itemNameLabel: 'Title' })).toEqual({
      item: 'Items',
      worker: 'Workers',
      itemName: 'Title',
      itemSerial: 'Serial',
      hideWorkers: false,
    });
  });
});
