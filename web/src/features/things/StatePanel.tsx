import NotificationsOff from '@mui/icons-material/NotificationsOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { errorText } from '../../api/client';
import type { Thing } from '../../api/types';
import { Fact } from '../../components/Fact';
import { useSnackbar } from '../../components/Snackbar';
import { fetchThing, useUpdateThing } from './queries';
import { TagText } from './TagText';
import { formatThingDateOrNA, formatZoneTime } from './thingLogic';

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
            onClick={() => void clearAlarm()}
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
        <Fact dense label="Tag" testId="state-tag">
          <TagText thing={thing} />
        </Fact>
        <Fact dense label="Zone" testId="state-zone">
          {state?.zoneName}
        </Fact>
        <Fact dense label="Endpoint">
          {state?.endpointName}
        </Fact>
        <Fact dense label="Direction">
          {state?.direction}
        </Fact>
        <Fact dense label="Zone Time" testId="state-zone-time">
          {formatZoneTime(state ?? {})}
        </Fact>
        <Fact dense label="Last Seen">
          {formatThingDateOrNA(state?.lastEvent)}
        </Fact>
        <Fact dense label="Created">
          {formatThingDateOrNA(thing.common.timeCreated)}
        </Fact>
        <Fact dense label="Modified">
          {formatThingDateOrNA(thing.common.timeModified)}
        </Fact>
      </Box>
    </Box>
  );
}
