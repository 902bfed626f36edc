import Box from '@mui/material/Box';
import { useMemo, useState } from 'react';
import { DateRange } from '../../components/DateRange';
import { EmptyState } from '../../components/EmptyState';
import { FilterBar } from '../../components/FilterBar';
import { IdMultiSelect } from '../../components/IdMultiSelect';
import { lastDays, type DateRangeValue } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { useLiveUpdates } from '../live/useLiveUpdates';
import { useSiteSelection } from '../access/SiteContext';
import { EventsTable } from './EventsTable';
import { firstFilter } from './prefetch';
import { eventKeys, useEventSources, type EventFilter } from './queries';

// A change at the site refreshes the events shown.
const LIVE_KEYS = [eventKeys.all];

/** The table, polling only while the site's live stream is closed. */
function LiveEventsTable({ filter, site }: { filter: EventFilter; site: string | undefined }) {
  // Here, not in the page: the stream opening or dropping redraws the table alone.
  const live = useLiveUpdates(site, LIVE_KEYS);
  return <EventsTable filter={filter} poll={!live} enabled={!!site} />;
}

/** The endpoints filter: its options arriving redraw this field alone. */
function EndpointsFilter({
  site,
  value,
  onChange,
}: {
  site: string | undefined;
  value: string[];
  onChange: (endpoints: string[]) => void;
}) {
  const sources = useEventSources(site);
  const options = useMemo(
    () => (sources.data ?? []).map((s) => ({ id: s._id, name: s.name })),
    [sources.data],
  );
  return (
    <IdMultiSelect
      label="Endpoints"
      options={options}
      value={value}
      onChange={onChange}
      loading={sources.isPending && !!site}
      maxWidth={480}
    />
  );
}

/**
 * The Events page: a period (default today), endpoints, and the live table, refreshed when
 * the server says the site changed, or by polling while it cannot say.
 */
export default function EventsPage() {
  const { siteId, site, loading } = useSiteSelection();
  const [range, setRange] = useState<DateRangeValue>(() => lastDays(1));
  const [endpoints, setEndpoints] = useState<string[]>([]);
  const filter = useMemo<EventFilter>(
    () => ({ ...firstFilter(siteId, range), endpoints }),
    [siteId, range, endpoints],
  );

  return (
    <Box>
      <PageHeader title="Events" subtitle={site?.name} />
      <FilterBar>
        <DateRange value={range} onChange={setRange} />
        <EndpointsFilter site={siteId} value={endpoints} onChange={setEndpoints} />
      </FilterBar>
      {!siteId && !loading ? (
        <EmptyState message="Select a site to see its events." />
      ) : (
        <LiveEventsTable filter={filter} site={siteId} />
      )}
    </Box>
  );
}
