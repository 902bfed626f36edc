import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { Loading } from '../components/Loading';
import LoginPage from '../features/auth/LoginPage';

// The login page, where every signed-out visit lands, is in the entry: it renders without a
// second round trip. Every other screen is its own chunk, loaded when visited.
const Layout = lazy(() => import('./shell/Layout'));
const PasswordResetRequestPage = lazy(() => import('../features/auth/PasswordResetRequestPage'));
const PasswordResetConfirmPage = lazy(() => import('../features/auth/PasswordResetConfirmPage'));
const PasswordResetFormPage = lazy(() => import('../features/auth/PasswordResetFormPage'));
const HomePage = lazy(() => import('../features/home/HomePage'));
const SitesPage = lazy(() => import('../features/sites/SitesPage'));
const SiteEditPage = lazy(() => import('../features/sites/SiteEditPage'));
const UsersPage = lazy(() => import('../features/users/UsersPage'));
const UserEditPage = lazy(() => import('../features/users/UserEditPage'));
const ProfilePage = lazy(() => import('../features/userme/ProfilePage'));
const ImagesPage = lazy(() => import('../features/images/ImagesPage'));
const ImageEditPage = lazy(() => import('../features/images/ImageEditPage'));
const CategoriesPage = lazy(() => import('../features/categories/CategoriesPage'));
const CategoryEditPage = lazy(() => import('../features/categories/CategoryEditPage'));
const OrganizationsPage = lazy(() => import('../features/organizations/OrganizationsPage'));
const OrganizationEditPage = lazy(() => import('../features/organizations/OrganizationEditPage'));
const EventsPage = lazy(() => import('../features/events/EventsPage'));
const ItemsPage = lazy(() => import('../features/things/ItemsPage'));
const WorkersPage = lazy(() => import('../features/things/WorkersPage'));
const ThingEditPage = lazy(() => import('../features/things/ThingEditPage'));
const EndpointsPage = lazy(() => import('../features/endpoints/EndpointsPage'));
const EndpointEditPage = lazy(() => import('../features/endpoints/EndpointEditPage'));
const ZonesPage = lazy(() => import('../features/zones/ZonesPage'));
const ZoneEditPage = lazy(() => import('../features/zones/ZoneEditPage'));
const LocationTagsPage = lazy(() => import('../features/locationtags/LocationTagsPage'));
const LocationTagEditPage = lazy(() => import('../features/locationtags/LocationTagEditPage'));
const ApiKeysPage = lazy(() => import('../features/apikeys/ApiKeysPage'));
const ApiKeyEditPage = lazy(() => import('../features/apikeys/ApiKeyEditPage'));
const SsoSettingsPage = lazy(() => import('../features/ssosettings/SsoSettingsPage'));
const ImportPage = lazy(() => import('../features/imports/ImportPage'));
const MapsPage = lazy(() => import('../features/maps/MapsPage'));
const MapEditPage = lazy(() => import('../features/maps/MapEditPage'));
const MapViewPage = lazy(() => import('../features/maps/MapViewPage'));
const SiteSettingsPage = lazy(() => import('../features/settings/SiteSettingsPage'));
const ZoneStatusPage = lazy(() => import('../features/reports/ZoneStatusPage'));
const ZonesHistoryPage = lazy(() => import('../features/reports/ZonesHistoryPage'));
const ActivityPage = lazy(() => import('../features/reports/ActivityPage'));
const ZoneCategoriesPage = lazy(() => import('../features/reports/ZoneCategoriesPage'));
const ReportRunPage = lazy(() => import('../features/reports/ReportRunPage'));
const ReportConfigsPage = lazy(() => import('../features/reports/ReportConfigsPage'));
const ReportConfigEditPage = lazy(() => import('../features/reports/ReportConfigEditPage'));
const ExceptionsPage = lazy(() => import('../features/exceptions/ExceptionsPage'));
const ExceptionDetailPage = lazy(() => import('../features/exceptions/ExceptionDetailPage'));

function page(Component: LazyExoticComponent<ComponentType>, fullPage = false) {
  return (
    <Suspense fallback={<Loading minHeight={fullPage ? '100vh' : 200} />}>
      <Component />
    </Suspense>
  );
}

/** The root goes home, keeping the query (the selected site). */
function ToHome() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/home', search }} replace />;
}

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/passwordreset/request', element: page(PasswordResetRequestPage, true) },
  { path: '/passwordreset/confirm', element: page(PasswordResetConfirmPage, true) },
  { path: '/passwordreset/form', element: page(PasswordResetFormPage, true) },
  {
    path: '/',
    element: page(Layout, true),
    children: [
      { index: true, element: <ToHome /> },
      { path: 'home', element: page(HomePage) },
      { path: 'images', element: page(ImagesPage) },
      { path: 'images/:id', element: page(ImageEditPage) },
      { path: 'categories', element: page(CategoriesPage) },
      { path: 'categories/:id', element: page(CategoryEditPage) },
      { path: 'sites', element: page(SitesPage) },
      { path: 'sites/:id', element: page(SiteEditPage) },
      { path: 'users', element: page(UsersPage) },
      { path: 'users/:id', element: page(UserEditPage) },
      { path: 'userme', element: page(ProfilePage) },
      { path: 'organizations', element: page(OrganizationsPage) },
      { path: 'organizations/:id', element: page(OrganizationEditPage) },
      { path: 'events', element: page(EventsPage) },
      { path: 'items', element: page(ItemsPage) },
      { path: 'items/:id', element: page(ThingEditPage) },
      { path: 'workers', element: page(WorkersPage) },
      { path: 'workers/:id', element: page(ThingEditPage) },
      { path: 'things/:id', element: page(ThingEditPage) },
      { path: 'endpoints', element: page(EndpointsPage) },
      { path: 'endpoints/:id', element: page(EndpointEditPage) },
      { path: 'zones', element: page(ZonesPage) },
      { path: 'zones/:id', element: page(ZoneEditPage) },
      { path: 'locationtags', element: page(LocationTagsPage) },
      { path: 'locationtags/:id', element: page(LocationTagEditPage) },
      { path: 'apikeys', element: page(ApiKeysPage) },
      { path: 'apikeys/:id', element: page(ApiKeyEditPage) },
      { path: 'ssosettings', element: page(SsoSettingsPage) },
      { path: 'import', element: page(ImportPage) },
      { path: 'maps', element: page(MapsPage) },
      { path: 'maps/:id', element: page(MapEditPage) },
      { path: 'mapview/:id', element: page(MapViewPage) },
      { path: 'settings', element: page(SiteSettingsPage) },
      { path: 'reports/zones', element: page(ZoneStatusPage) },
      { path: 'reports/zonedurations', element: page(ZonesHistoryPage) },
      { path: 'reports/events', element: page(ActivityPage) },
      { path: 'reports/exceptions', element: page(ExceptionsPage) },
      { path: 'reports/zonecategories', element: page(ZoneCategoriesPage) },
      { path: 'reports/:id', element: page(ReportRunPage) },
      { path: 'reportconfigs', element: page(ReportConfigsPage) },
      { path: 'reportconfigs/:id', element: page(ReportConfigEditPage) },
      { path: 'exceptions/:id', element: page(ExceptionDetailPage) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];
