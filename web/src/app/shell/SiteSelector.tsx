import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSiteSelection } from '../../features/access/SiteContext';

/** A dropdown only when there is a choice; otherwise the one site's name. */
export function SiteSelector() {
  const { sites, site, setSite, loading } = useSiteSelection();
  if (loading) return null;
  if (sites.length > 1) {
    return (
      <TextField
        select
        label="Site"
        value={site?.id ?? ''}
        onChange={(e) => setSite(e.target.value)}
        slotProps={{
          select: {
            // A long site name is cut, not spread across the page.
            MenuProps: { slotProps: { paper: { sx: { maxHeight: 360, maxWidth: 360 } } } },
          },
        }}
        data-testid="site-selector"
      >
        {sites.map((s) => (
          <MenuItem
            key={s.id}
            value={s.id}
            title={s.name}
            sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis' }}
          >
            {s.name}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary', minWidth: 0 }}
      data-testid="site-name"
    >
      <PlaceOutlined fontSize="small" />
      <Typography variant="body2" noWrap title={site?.name}>
        {site?.name ?? 'No site'}
      </Typography>
    </Box>
  );
}
