import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useVersion } from '../../features/access/queries';
import { AccountMenu } from './AccountMenu';
import { Logo } from './Logo';
import { NavMenu } from './NavMenu';
import { SiteSelector } from './SiteSelector';

/** Logo, site selector, menu, then (on phones) the account entries, and the version. */
export function DrawerContent({
  mobile = false,
  onNavigate,
}: {
  mobile?: boolean;
  onNavigate?: () => void;
}) {
  const version = useVersion();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ px: 2.5, pt: 2, pb: 1.5 }}>
        <Logo />
      </Box>
      <Box sx={{ px: 2, pb: 1.5 }}>
        <SiteSelector />
      </Box>
      <Divider />
      <Box sx={{ flex: '1 1 auto', overflowY: 'auto', py: 1 }}>
        <NavMenu onNavigate={onNavigate} />
      </Box>
      {mobile && (
        <>
          <Divider />
          <AccountMenu variant="list" onNavigate={onNavigate} />
        </>
      )}
      <Divider />
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ px: 2.5, py: 1.25 }}
        data-testid="app-version"
      >
        {version.data ? `Version ${version.data.version}` : '\u00a0'}
      </Typography>
    </Box>
  );
}
