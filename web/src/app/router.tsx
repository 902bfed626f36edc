import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { Loading } from '../components/Loading';
import LoginPage from '../features/auth/LoginPage';
import { prefetchSession } from '../features/access/queries';

// The login page, where every signed-out visit lands, is in the entry: it renders without a
// second round trip. Every other screen is its own chunk, loaded when visited (or at once
// when the first URL shows it, see preloadScreens).
const Layout = screen(() => import('./shell/Layout'));
const PasswordResetRequestPage = screen(
  () => import('../features/passwords/PasswordResetRequestPage'),
);
const PasswordResetConfirmPage = screen(
  () => import('../features/passwords/PasswordResetConfirmPage'),
);
const PasswordResetFormPage = screen(() => import('../features/passwords/PasswordResetFormPage'));
const HomePage = screen(() => import('../features/home/HomePage'));
const SitesPage = screen(() => import('../features/sites/SitesPage'));
const SiteEditPage = screen(() => import('../features/sites/SiteEditPage'));
const UsersPage = screen(() => import('../features/users/UsersPage'));
const UserEditPage = screen(() => import('../features/users/UserEditPage'));
const ProfilePage = screen(() => import('../features/users/ProfilePage'));
const ImagesPage = screen(() => import('../features/images/ImagesPage'));
const ImageEditPage = screen(() => import('../features/images/ImageEditPage'));
const CategoriesPage = screen(() => import('../features/categories/CategoriesPage'));
const CategoryEditPage = screen(() => import('../features/categories/CategoryEditPage'));
const OrganizationsPage = screen(() => import('../features/organizations/OrganizationsPage'));
const OrganizationEditPage = screen(() => import('../features/organizations/OrganizationEditPage'));
const EventsPage = screen(() => import('../features/events/EventsPage'));
const ItemsPage = screen(() => import('../features/things/ItemsPage'));
const WorkersPage = screen(() => import('../features/things/WorkersPage'));
const ThingEditPage = screen(() => import('../features/things/ThingEditPage'));
const EndpointsPage = screen(() => import('../features/endpoints/EndpointsPage'));
const EndpointEditPage = screen(() => import('../features/endpoints/EndpointEditPage'));
const ZonesPage = screen(() => import('../features/zones/ZonesPage'));
const ZoneEditPage = screen(() => import('../features/zones/ZoneEditPage'));
const LocationTagsPage = screen(() => import('../features/locationtags/LocationTagsPage'));
const LocationTagEditPage = screen(() => import('../features/locationtags/LocationTagEditPage'));
const ApiKeysPage = screen(() => import('../features/apikeys/ApiKeysPage'));
const ApiKeyEditPage = screen(() => import('../features/apikeys/ApiKeyEditPage'));
const SsoSettingsPage = screen(() => import('../features/sso/SsoSettingsPage'));
const ImportPage = screen(() => import('../features/imports/ImportPage'));
const MapsPage = screen(() => import('../features/maps/MapsPage'));
const MapEditPage = screen(() => import('../features/maps/MapEditPage'));
const MapViewPage = screen(() => import('../features/maps/MapViewPage'));
const SiteSettingsPage = screen(() => import('../features/settings/SiteSettingsPage'));
const ZoneStatusPage = screen(() => import('../features/reports/ZoneStatusPage'));
const ZonesHistoryPage = screen(() => import('../features/reports/ZonesHistoryPage'));
const ActivityPage = screen(() => import('../features/reports/ActivityPage'));
const ZoneCategoriesPage = screen(() => import('../features/reports/ZoneCategoriesPage'));
const ReportRunPage = screen(() => import('../features/reports/ReportRunPage'));
const ReportConfigsPage = screen(() => import('../features/reports/ReportConfigsPage'));
const ReportConfigEditPage = screen(() => import('../features/reports/ReportConfigEditPage'));
const ExceptionsPage = screen(() => import('../features/exceptions/ExceptionsPage'));
const ExceptionDetailPage = screen(() => import('../features/exceptions/ExceptionDetailPage'));

/** What a route's screen module may export besides the screen. */
interface ScreenModule {
  default: ComponentType;
  /** Starts the screen's first data calls, from the URL, before it renders. */
  prefetch?: (client: QueryClient, url: URL) => void;
}

type Screen = LazyExoticComponent<ComponentType> & { load: () => Promise<ScreenModule> };

/** A screen in its own chunk; `load` fetches it (once) before the screen renders. */
function screen(factory: () => Promise<ScreenModule>): Screen {
  let module: Promise<ScreenModule> | undefined;
  const load = () => (module ??= factory());
  return Object.assign(lazy(load), { load });
}

/** A route's handle: how to load its screen early. */
interface ScreenHandle {
  load: () => Promise<ScreenModule>;
  /** Data calls started at once, before the screen's chunk has loaded. */
  prefetch?: (client: QueryClient, url: URL) => void;
}

function page(
  Component: Screen,
  fullPage = false,
  prefetch?: ScreenHandle['prefetch'],
): Pick<RouteObject, 'element' | 'handle'> {
  return {
    element: (
      <Suspense fallback={<Loading minHeight={fullPage ? '100vh' : 200} />}>
        <Component />
      </Suspense>
    ),
    handle: { load: Component.load, prefetch } satisfies ScreenHandle,
  };
}

/**
 * Loads the screens the URL shows (the shell and its page) at once, side by side, and starts
 * their first data calls, instead of one after the other as each renders.
 */
export function preloadScreens(
  client: QueryClient,
  url: URL,
  matches: readonly { route: RouteObject }[],
) {
  for (const match of matches) {
    const handle = match.route.handle as ScreenHandle | undefined;
    handle?.prefetch?.(client, url);
    void handle?.load().then((m) => m.prefetch?.(client, url));
  }
}

/** The Events page's first page, from a chunk of its own that needs none of the screens' code. */
function prefetchEvents(client: QueryClient, url: URL) {
  void import('../features/events/prefetch').then((m) => m.prefetchFirstPage(client, url));
}

/** The root goes home, keeping the query (the selected site). */
function ToHome() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/home', search }} replace />;
}

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/passwordreset/request', ...page(PasswordResetRequestPage, true) },
  { path: '/passwordreset/confirm', ...page(PasswordResetConfirmPage, true) },
  { path: '/passwordreset/form', ...page(PasswordResetFormPage, true) },
  {
    path: '/',
    ...page(Layout, true, prefetchSession),
    children: [
      { index: true, element: <ToHome /> },
      { path: 'home', ...page(HomePage) },
      { path: 'images', ...page(ImagesPage) },
      { path: 'images/:id', ...page(ImageEditPage) },
      { path: 'categories', ...page(CategoriesPage) },
      { path: 'categories/:id', ...page(CategoryEditPage) },
      { path: 'sites', ...page(SitesPage) },
      { path: 'sites/:id', ...page(SiteEditPage) },
      { path: 'users', ...page(UsersPage) },
      { path: 'users/:id', ...page(UserEditPage) },
      { path: 'userme', ...page(ProfilePage) },
      { path: 'organizations', ...page(OrganizationsPage) },
      { path: 'organizations/:id', ...page(OrganizationEditPage) },
      { path: 'events', ...page(EventsPage, false, prefetchEvents) },
      { path: 'items', ...page(ItemsPage) },
      { path: 'items/:id', ...page(ThingEditPage) },
      { path: 'workers', ...page(WorkersPage) },
      { path: 'workers/:id', ...page(ThingEditPage) },
      { path: 'things/:id', ...page(ThingEditPage) },
      { path: 'endpoints', ...page(EndpointsPage) },
      { path: 'endpoints/:id', ...page(EndpointEditPage) },
      { path: 'zones', ...page(ZonesPage) },
      { path: 'zones/:id', ...page(ZoneEditPage) },
      { path: 'locationtags', ...page(LocationTagsPage) },
      { path: 'locationtags/:id', ...page(LocationTagEditPage) },
      { path: 'apikeys', ...page(ApiKeysPage) },
      { path: 'apikeys/:id', ...page(ApiKeyEditPage) },
      { path: 'ssosettings', ...page(SsoSettingsPage) },
      { path: 'import', ...page(ImportPage) },
      { path: 'maps', ...page(MapsPage) },
      { path: 'maps/:id', ...page(MapEditPage) },
      { path: 'mapview/:id', ...page(MapViewPage) },
      { path: 'settings', ...page(SiteSettingsPage) },
      { path: 'reports/zones', ...page(ZoneStatusPage) },
      { path: 'reports/zonedurations', ...page(ZonesHistoryPage) },
      { path: 'reports/events', ...page(ActivityPage) },
      { path: 'reports/exceptions', ...page(ExceptionsPage) },
      { path: 'reports/zonecategories', ...page(ZoneCategoriesPage) },
      { path: 'reports/:id', ...page(ReportRunPage) },
      { path: 'reportconfigs', ...page(ReportConfigsPage) },
      { path: 'reportconfigs/:id', ...page(ReportConfigEditPage) },
      { path: 'exceptions/:id', ...page(ExceptionDetailPage) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
