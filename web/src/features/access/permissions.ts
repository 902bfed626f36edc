import type { AccessRule } from '../../api/types';

export type Resource =
  | 'apikeys'
  | 'image-categories'
  | 'locationtags'
  | 'maps'
  | 'organizations'
  | 'ssosettings'
  | 'reportconfigs'
  | 'exceptions'
  | 'import'
  | 'sites'
  | 'users'
  | 'orgsettings'
  | 'endpoints'
  | 'workers'
  | 'items'
  | 'things'
  | 'images'
  | 'zones'
  | 'events'
  | 'allsites';

export type Operation = 'create' | 'modify' | 'delete';

export interface Permissions {
  can: (resource: Resource, operation: Operation) => boolean;
  isSuperAdmin: boolean;
}

/** Rights from the access rules of all the user's roles: any role granting wins. */
export function permissionsFrom(rules: readonly AccessRule[]): Permissions {
  const granted = new Set<string>();
  for (const rule of rules) {
    for (const op of ['create', 'modify', 'delete'] as const) {
      if (rule[op]) granted.add(`${rule.resource}:${op}`);
    }
  }
  const can = (resource: Resource, operation: Operation) => granted.has(`${resource}:${operation}`);
  // The spec defines super admin as the delete right on the all-sites resource.
  return { can, isSuperAdmin: can('allsites', 'delete') };
}

export const NO_PERMISSIONS: Permissions = permissionsFrom([]);
