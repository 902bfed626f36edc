import PlayArrow from '@mui/icons-material/PlayArrow';
import { Autocomplete } from '../../components/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { CategoryReport } from '../../api/types';
import { ChooseSite } from '../../components/ChooseSite';
import { EmptyState } from '../../components/EmptyState';
import { NoRows } from '../../components/LoadFailure';
import { useLoadFailure } from '../../components/useLoadFailure';
import { FilterBar } from '../../components/FilterBar';
import { IdMultiSelect } from '../../components/IdMultiSelect';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useSiteSelection } from '../access/SiteContext';
import { useZoneOptions } from '../zones/queries';
import { DownloadButton } from './DownloadButton';
import { downloadCategoryReport, useCategoryReport } from './queries';
import { reportCategories } from './zoneLogic';

type ZoneCategories = CategoryReport['zones'][number];

function ZoneCategoryTable({ zone }: { zone: ZoneCategories }) {
  return (
    <Card component="section" aria-label={zone.zoneName} sx={{ minWidth: 0 }}>
      <CardHeader
        title={zone.zoneName}
        action={<Chip size="small" label={zone.total} sx={{ mt: 1, mr: 1 }} />}
        slotProps={{
          title: {
            variant: 'subtitle1',
            component: 'h2',
            noWrap: true,
            title: zone.zoneName,
            sx: { fontWeight: 600 },
          },
          content: { sx: { minWidth: 0 } },
        }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1 }}
      />
      {zone.categories.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 2 }}>
          No things of these categories
        </Typography>
      ) : (
        <Table size="small" aria-label={`${zone.zoneName} categories`}>
          <TableHead>
            <TableRow>
              <TableCell>Category</TableCell>
              <TableCell align="right">Count</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {zone.categories.map((c) => (
              <TableRow key={c.category}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.category}</TableCell>
                <TableCell align="right">{c.count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

interface Selection {
  zones: string[];
  categories: string[];
}

/** Zone Categories: how many things of each category are in each zone now. */
export default function ZoneCategoriesPage() {
  const { site: selected, siteId: selectedId, isAllSites } = useSiteSelection();
  // The report counts one site's zones: All Sites asks for a site first, and nothing is fetched.
  const site = isAllSites ? undefined : selected;
  const siteId = isAllSites ? undefined : selectedId;
  const zones = useZoneOptions(siteId);
  const [chosen, setChosen] = useState<Selection>({ zones: [], categories: [] });
  // The report shows the selection of the last run; Run Report takes the current one.
  const [ran, setRan] = useState<(Selection & { site: string }) | null>(null);
  const query = ran && ran.site === siteId ? ran : null;
  const report = useCategoryReport(query);
  // Every category found in the site's zones, for the picker.
  const all = useCategoryReport(siteId ? { site: siteId, zones: [], categories: [] } : null);
  useLoadFailure(all.error, 'categories');

  const zoneOptions = useMemo(
    () => (zones.data ?? []).map((z) => ({ id: z._id, name: z.name })),
    [zones.data],
  );
  const categoryOptions = useMemo(() => reportCategories(all.data?.zones ?? []), [all.data]);
  const run = () => siteId && setRan({ site: siteId, ...chosen });

  let body;
  if (isAllSites) body = <ChooseSite purpose="run this report" />;
  else if (!query) {
    body = <EmptyState message="Choose categories and zones, then Run Report." />;
  } else if (report.isPending) body = <Loading />;
  else if (!report.data || report.data.zones.length === 0) {
    body = <NoRows queries={report} name="zone categories" message="This site has no zones yet." />;
  } else {
    body = (
      <Box
        data-testid="zone-category-tables"
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            md: 'repeat(2, minmax(0, 1fr))',
            xl: 'repeat(3, minmax(0, 1fr))',
          },
          gap: 2,
          alignItems: 'start',
        }}
      >
        {report.data.zones.map((z) => (
          <ZoneCategoryTable key={z.zone} zone={z} />
        ))}
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader
        title="Zone Categories"
        subtitle={
          site && report.data && query ? `${site.name} · ${report.data.total} total` : site?.name
        }
      />
      <FilterBar>
        <Autocomplete
          multiple
          size="small"
          freeSolo
          options={categoryOptions}
          value={chosen.categories}
          onChange={(_e, value) => setChosen((c) => ({ ...c, categories: value }))}
          disableCloseOnSelect
          disabled={!siteId}
          limitTags={2}
          sx={{ flex: '1 1 240px', minWidth: { xs: '100%', sm: 240 }, maxWidth: { sm: 420 } }}
          renderInput={(params) => (
            <TextField
              {...params}
              label="Categories"
              placeholder={chosen.categories.length ? '' : 'All'}
            />
          )}
        />
        <IdMultiSelect
          label="Zones"
          options={zoneOptions}
          value={chosen.zones}
          onChange={(zones) => setChosen((c) => ({ ...c, zones }))}
          loading={zones.isPending && !!siteId}
          disabled={!siteId}
          maxWidth={420}
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            onClick={() => setChosen((c) => ({ ...c, zones: [] }))}
            disabled={chosen.zones.length === 0}
          >
            All Zones
          </Button>
          <Button variant="contained" startIcon={<PlayArrow />} onClick={run} disabled={!siteId}>
            Run Report
          </Button>
          <DownloadButton
            label="Download XLS"
            fileName="report.xlsx"
            fetchFile={() => downloadCategoryReport({ site: siteId ?? '', ...chosen })}
            disabled={!siteId}
          />
        </Box>
      </FilterBar>
      {body}
    </Box>
  );
}
