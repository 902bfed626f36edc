import MenuIcon from '@mui/icons-material/Menu';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useDeferredValue, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { errorText } from '../../api/client';
import { Loading } from '../../components/Loading';
import { currentUserQuery, useCurrentUser, usePermissions } from '../../features/access/queries';
import { SiteProvider } from '../../features/access/SiteContext';
import { orgSettingsQuery, useOrgSettings } from '../../features/settings/queries';
import { siteOptionsQuery } from '../../features/sites/queries';
import { DRAWER_WIDTH } from '../theme';
import { AccountMenu } from './AccountMenu';
import { DrawerContent } from './DrawerContent';
import { SearchField } from './SearchField';

// The images route has a richer search bar: its own chunk, loaded on that route only.
const ImageSearchBar = lazy(() => import('../../features/images/ImageSearchBar'));

const hideOnPrint = { displayPrint: 'none' } as const;

/**
 * Asks for the organization's labels and the sites as soon as this chunk has loaded (once
 * the session is known good), not after the shell has rendered with the user's rights.
 * The router calls it on the loaded module.
 * @public
 */
export function prefetch(client: QueryClient) {
  client
    .query(currentUserQuery)
    .then(() => Promise.all([client.query(orgSettingsQuery), client.query(siteOptionsQuery)]))
    .catch(() => undefined);
}

/** The root layout: signed-in users only; a 401 sends the browser to login. */
export default function Layout() {
  const me = useCurrentUser();
  const perms = usePermissions();
  const settings = useOrgSettings();
  // Screens render once the rights and labels are known, so nothing appears or renames late;
  // settings that fail to load leave the default labels.
  const known = !(me.isPending || perms.loading || settings.isLoading);
  // The answer that completes them arrives as an urgent update, which React would draw in one
  // long task: the whole shell and its page. Deferred, it draws in slices between other work.
  const ready = useDeferredValue(known);
  if (me.isError) {
    return (
      <Box sx={{ p: 4 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void me.refetch()}>
              Retry
            </Button>
          }
        >
          Failed to load the current user: {errorText(me.error)}
        </Alert>
      </Box>
    );
  }
  if (!ready) return <Loading minHeight="100vh" />;
  return (
    <SiteProvider>
      <Shell />
    </SiteProvider>
  );
}

function Shell() {
  const [mobileOpen, setMobileOpen] = useState(false);
  const { pathname } = useLocation();
  // One drawer for the screen's size: a hidden one would still draw its menu and ask for its
  // maps, reports and sign-in options, on a phone's slow CPU and network.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Stable, so the memoised menu does not draw again when the shell does.
  const closeMobile = useCallback(() => setMobileOpen(false), []);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        color="inherit"
        sx={{
          ...hideOnPrint,
          width: { sm: `calc(100% - ${DRAWER_WIDTH}px)` },
          ml: { sm: `${DRAWER_WIDTH}px` },
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
        data-testid="top-bar"
      >
        <Toolbar sx={{ gap: 1.5, px: { xs: 1, sm: 2 } }}>
          {phone && (
            <IconButton aria-label="Open menu" edge="start" onClick={() => setMobileOpen(true)}>
              <MenuIcon />
            </IconButton>
          )}
          <Box sx={{ flex: '1 1 auto', minWidth: 0 }}>
            {/* A new screen starts with an empty search box. */}
            {pathname === '/images' ? (
              <Suspense fallback={<SearchField key={pathname} />}>
                <ImageSearchBar />
              </Suspense>
            ) : (
              <SearchField key={pathname} />
            )}
          </Box>
          {!phone && <AccountMenu variant="menu" />}
        </Toolbar>
      </AppBar>
      <Box
        component="nav"
        aria-label="Navigation"
        sx={{ ...hideOnPrint, width: { sm: DRAWER_WIDTH }, flexShrink: { sm: 0 } }}
      >
        <Drawer
          variant={phone ? 'temporary' : 'permanent'}
          open={phone ? mobileOpen : true}
          onClose={closeMobile}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' } }}
          data-testid={phone ? 'drawer-mobile' : 'drawer'}
        >
          <DrawerContent mobile={phone} onNavigate={phone ? closeMobile : undefined} />
        </Drawer>
      </Box>
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          minWidth: 0,
          width: { sm: `calc(100% - ${DRAWER_WIDTH}px)` },
          p: { xs: 1.5, sm: 3 },
          '@media print': { width: '100%', p: 0 },
        }}
      >
        <Toolbar sx={hideOnPrint} />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
