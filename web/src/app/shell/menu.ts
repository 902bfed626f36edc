/** The drawer menu, by the user's rights (spec section 2, Shell). */
import type { Labels } from '../../features/settings/labels';
import type { Operation, Resource } from '../../features/access/permissions';

export type MenuIcon =
  | 'home'
  | 'events'
  | 'items'
  | 'images'
  | 'maps'
  | 'reports'
  | 'customReports'
  | 'workers'
  | 'admin'
  | 'configuration';

export interface MenuLink {
  kind: 'link';
  label: string;
  path: string;
  icon?: MenuIcon;
  /** A second line, e.g. the site of a map or report while All Sites is selected. */
  detail?: string;
}

interface MenuGroup {
  kind: 'group';
  label: string;
  icon: MenuIcon;
  children: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export interface MenuInput {
  can: (resource: Resource, operation: Operation) => boolean;
  labels: Labels;
  /** Either single sign-on kind is available. */
  ssoAvailable: boolean;
  maps?: readonly SiteRecord[];
  reportConfigs?: readonly SiteRecord[];
}

/** A map or report configuration; `site` is its site's name where it must be told apart. */
interface SiteRecord {
  id: string;
  name: string;
  site?: string;
}

const link = (label: string, path: string, icon?: MenuIcon): MenuLink => ({
  kind: 'link',
  label,
  path,
  icon,
});

const recordLink = (r: SiteRecord, path: string): MenuLink =>
  r.site ? { ...link(r.name, path), detail: r.site } : link(r.name, path);

function group(label: string, icon: MenuIcon, children: MenuLink[]): MenuGroup[] {
  return children.length > 0 ? [{ kind: 'group', label, icon, children }] : [];
}

export function buildMenu({
  can,
  labels,
  ssoAvailable,
  maps = [],
  reportConfigs = [],
}: MenuInput): MenuEntry[] {
  const admin: MenuLink[] = [];
  if (can('apikeys', 'create')) admin.push(link('API Keys', '/apikeys'));
  if (can('image-categories', 'modify')) admin.push(link('Categories', '/categories'));
  if (can('reportconfigs', 'modify')) admin.push(link('Report Configuration', '/reportconfigs'));
  if (can('sites', 'modify')) admin.push(link('Sites', '/sites'));
  if (can('import', 'modify')) admin.push(link('Import', '/import'));
  if (can('users', 'create')) admin.push(link('Users', '/users'));
  if (can('ssosettings', 'create') && ssoAvailable) {
    admin.push(link('SSO Settings', '/ssosettings'));
  }

  const configuration: MenuLink[] = [];
  if (can('endpoints', 'modify')) configuration.push(link('Endpoints', '/endpoints'));
  if (can('locationtags', 'modify')) configuration.push(link('Location Tags', '/locationtags'));
  if (can('maps', 'modify')) configuration.push(link('Maps', '/maps'));
  if (can('zones', 'modify')) configuration.push(link('Zones', '/zones'));
  if (can('orgsettings', 'modify')) {
    configuration.push(link('Organization Settings', '/settings'));
  }
  if (can('organizations', 'modify')) configuration.push(link('Organizations', '/organizations'));

  return [
    link('Home', '/home', 'home'),
    link('Events', '/events', 'events'),
    link(labels.item, '/items', 'items'),
    link('Images', '/images', 'images'),
    ...group(
      'Maps',
      'maps',
      maps.map((m) => recordLink(m, `/mapview/${m.id}`)),
    ),
    ...group('Reports', 'reports', [
      link('Activity', '/reports/events'),
      link('Exceptions', '/reports/exceptions'),
      link('Zone Status', '/reports/zones'),
      link('Zones History', '/reports/zonedurations'),
      link('Zone Categories', '/reports/zonecategories'),
    ]),
    ...group(
      'Custom Reports',
      'customReports',
      reportConfigs.map((r) => recordLink(r, `/reports/${r.id}`)),
    ),
    ...(labels.hideWorkers ? [] : [link(labels.worker, '/workers', 'workers')]),
    ...group('Admin', 'admin', admin),
    ...group('Configuration', 'configuration', configuration),
  ];
}

/** Whether a menu path is the current screen or one of its detail pages. */
export function isActivePath(menuPath: string, pathname: string): boolean {
  return pathname === menuPath || pathname.startsWith(`${menuPath}/`);
}
