import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import Logout from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSignOut } from '../../features/auth/queries';
import { useCurrentUser } from '../../features/access/queries';
import { useSiteNavigate } from '../../features/access/SiteContext';

function initials(name: string | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return (
    parts
      .slice(0, 2)
      .map((p) => p[0].toUpperCase())
      .join('') || '?'
  ).slice(0, 2);
}

function useAccountActions() {
  const siteNavigate = useSiteNavigate();
  const signOut = useSignOut();
  return { profile: () => siteNavigate('/userme'), logout: signOut };
}

/** Profile and Logout: a menu in the top bar, a list in the drawer on extra-small screens. */
export function AccountMenu({
  variant,
  onNavigate,
}: {
  variant: 'menu' | 'list';
  /** Closes the phone drawer, as its menu links do. */
  onNavigate?: () => void;
}) {
  const me = useCurrentUser();
  const actions = useAccountActions();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = me.data?.name || me.data?.username;

  if (variant === 'list') {
    return (
      <List
        dense
        subheader={
          <ListSubheader disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
            {name ?? 'Account'}
          </ListSubheader>
        }
      >
        <ListItemButton
          onClick={() => {
            onNavigate?.();
            void actions.profile();
          }}
        >
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Profile" />
        </ListItemButton>
        <ListItemButton
          onClick={() => {
            onNavigate?.();
            actions.logout();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Logout" />
        </ListItemButton>
      </List>
    );
  }

  return (
    <Box>
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        // The name holds all visible text, the avatar's initials too (WCAG 2.5.3).
        aria-label={me.data ? ['Account', initials(name), name].join(' ') : 'Account'}
        aria-haspopup="menu"
        data-testid="account-menu"
        sx={{ gap: 1, px: 1, fontWeight: 500 }}
      >
        <Avatar aria-hidden sx={{ width: 30, height: 30, fontSize: 13, bgcolor: 'primary.main' }}>
          {me.data ? initials(name) : <AccountCircleOutlined fontSize="small" />}
        </Avatar>
        {/* Keeps the initials and the name two words in the button's text. */}{' '}
        <Typography variant="body2" noWrap sx={{ maxWidth: 180 }}>
          {name}
        </Typography>
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void actions.profile();
          }}
        >
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          Profile
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            actions.logout();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Logout
        </MenuItem>
      </Menu>
    </Box>
  );
}
