import NotificationsOff from '@mui/icons-material/NotificationsOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { errorText } from '../../api/client';
import type { Thing } from '../../api/types';
import { useSnackbar } from '../../components/Snackbar';
import { fetchThing, useUpdateThing } from './queries';
import { TagText } from './TagText';
import { formatThingDateOrNA, formatZoneTime } from './thingLogic';

function Item({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        variant="body2"
        component="div"
        data-testid={testId}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {children || '—'}
      </Typography>
    </Box>
  );
}

/** Where the thing is now (read-only), and the way to clear its tamper alarm. */
export function StatePanel({ thing, canModify }: { thing: Thing; canModify: boolean }) {
  const update = useUpdateThing();
  const snackbar = useSnackbar();
  const state = thing.state;

  const clearAlarm = async () => {
    try {
      const fresh = (await fetchThing(thing._id)) ?? thing;
      await update.mutateAsync({ ...fresh, state: { ...fresh.state, alarmTamper: false } });
      snackbar.notify('Alarm cleared');
    } catch (err) {
      snackbar.error(`Save failed: ${errorText(err)}`);
    }
  };

  return (
    <Box sx={{ mt: 3 }} data-testid="thing-state">
      <Divider sx={{ mb: 2 }} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          State
        </Typography>
        {state?.alarmTamper && canModify && (
          <Button
            variant="outlined"
            color="error"
            size="small"
            startIcon={<NotificationsOff />}
            onClick={clearAlarm}
            disabled={update.isPending}
          >
            Clear Alarm
          </Button>
        )}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
          gap: 2,
        }}
      >
        <Item label="Tag" testId="state-tag">
          <TagText thing={thing} />
        </Item>
        <Item label="Zone" testId="state-zone">
          {state?.zoneName}
        </Item>
        <Item label="Endpoint">{state?.endpointName}</Item>
        <Item label="Direction">{state?.direction}</Item>
        <Item label="Zone Time" testId="state-zone-time">
          {formatZoneTime(state ?? {})}
        </Item>
        <Item label="Last Seen">{formatThingDateOrNA(state?.lastEvent)}</Item>
        <Item label="Created">{formatThingDateOrNA(thing.common.timeCreated)}</Item>
        <Item label="Modified">{formatThingDateOrNA(thing.common.timeModified)}</Item>
      </Box>
    </Box>
  );
}
