import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import MapOutlined from '@mui/icons-material/MapOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useSsoAvailable } from '../../features/sso/queries';
import { useSiteReportConfigs } from '../../features/reports/queries';
import { usePermissions } from '../../features/access/queries';
import { useSiteMaps } from '../../features/maps/queries';
import { useSitePath, useSiteSelection } from '../../features/access/SiteContext';
import { useLabels } from '../../features/settings/queries';
import { buildMenu, isActivePath, type MenuIcon, type MenuLink } from './menu';

const ICONS: Record<MenuIcon, ReactNode> = {
  home: <HomeOutlined fontSize="small" />,
  events: <EventNoteOutlined fontSize="small" />,
  items: <Inventory2Outlined fontSize="small" />,
  images: <PhotoLibraryOutlined fontSize="small" />,
  maps: <MapOutlined fontSize="small" />,
  reports: <AssessmentOutlined fontSize="small" />,
  customReports: <SummarizeOutlined fontSize="small" />,
  workers: <BadgeOutlined fontSize="small" />,
  admin: <AdminPanelSettingsOutlined fontSize="small" />,
  configuration: <TuneOutlined fontSize="small" />,
};

interface NavLinkProps {
  label: string;
  detail?: string;
  icon?: MenuIcon;
  /** The address, with the selected site. */
  to: string;
  active: boolean;
  nested?: boolean;
  onNavigate?: () => void;
}

/**
 * One menu entry. Memoised on plain props: the menu draws again each time one of its lists
 * (maps, reports, sign-in options) arrives, and then only the entries that changed draw.
 */
const NavLink = memo(function NavLink({
  label,
  detail,
  icon,
  to,
  active,
  nested,
  onNavigate,
}: NavLinkProps) {
  return (
    <li style={{ listStyle: 'none' }}>
      <ListItemButton
        component={Link}
        to={to}
        selected={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        sx={{ pl: nested ? 6.5 : 2, py: 0.5, my: 0.125 }}
      >
        {!nested && icon && <ListItemIcon>{ICONS[icon]}</ListItemIcon>}
        <ListItemText
          primary={label}
          secondary={detail}
          slotProps={{
            primary: { noWrap: true, title: label, sx: { fontSize: 14 } },
            secondary: { noWrap: true, title: detail, sx: { fontSize: 12 } },
          }}
          sx={{ my: detail ? 0 : undefined }}
        />
      </ListItemButton>
    </li>
  );
});

/** The drawer menu; groups start open and fold on a click. */
export const NavMenu = memo(function NavMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const sitePath = useSitePath();
  const perms = usePermissions();
  const labels = useLabels();
  const { siteId, isAllSites, siteName } = useSiteSelection();
  const maps = useSiteMaps(siteId);
  const askSso = perms.can('ssosettings', 'create');
  const okta = useSsoAvailable('okta', askSso);
  const entra = useSsoAvailable('entra', askSso);
  const reportConfigs = useSiteReportConfigs(siteId);
  const [closed, setClosed] = useState<Record<string, boolean>>({});

  const entries = useMemo(
    () =>
      buildMenu({
        can: perms.can,
        labels,
        // SSO enabled for the organization: its settings screen is offered.
        ssoAvailable: okta.data?.enabled === true || entra.data?.enabled === true,
        // All Sites lists every site's maps and reports: each names its site.
        maps: (maps.data ?? []).map((m) => ({
          id: m._id,
          name: m.name,
          site: isAllSites ? siteName(m.site) : undefined,
        })),
        reportConfigs: reportConfigs.data?.map((r) => ({
          id: r._id,
          name: r.name,
          site: isAllSites ? siteName(r.site) : undefined,
        })),
      }),
    [perms.can, labels, okta.data, entra.data, maps.data, reportConfigs.data, isAllSites, siteName],
  );

  const linkProps = (entry: MenuLink) => ({
    label: entry.label,
    detail: entry.detail,
    icon: entry.icon,
    to: sitePath(entry.path),
    active: isActivePath(entry.path, pathname),
    onNavigate,
  });

  return (
    <nav aria-label="Main menu">
      <List dense sx={{ px: 1 }}>
        {entries.map((entry) => {
          if (entry.kind === 'link') {
            return <NavLink key={entry.path} {...linkProps(entry)} />;
          }
          const open = !closed[entry.label];
          return (
            <li key={entry.label} style={{ listStyle: 'none' }}>
              <ListItemButton
                onClick={() => setClosed((c) => ({ ...c, [entry.label]: open }))}
                aria-expanded={open}
                sx={{ pl: 2, py: 0.5, my: 0.125 }}
              >
                <ListItemIcon>{ICONS[entry.icon]}</ListItemIcon>
                <ListItemText
                  primary={entry.label}
                  slotProps={{ primary: { sx: { fontSize: 14 } } }}
                />
                {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
              </ListItemButton>
              <Collapse in={open} timeout="auto">
                <List dense disablePadding aria-label={entry.label}>
                  {entry.children.map((child) => (
                    <NavLink key={child.path} {...linkProps(child)} nested />
                  ))}
                </List>
              </Collapse>
            </li>
          );
        })}
      </List>
    </nav>
  );
});
