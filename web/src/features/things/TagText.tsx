import Box from '@mui/material/Box';
import { primaryTag } from './thingLogic';

/** The thing's tag, with ' Alarm' appended (in red) while the tamper alarm is set. */
export function TagText({
  thing,
}: {
  thing: { common: Parameters<typeof primaryTag>[0]; state?: { alarmTamper?: boolean | null } };
}) {
  const tag = primaryTag(thing.common);
  const alarm = !!thing.state?.alarmTamper;
  return (
    <Box
      component="span"
      title={alarm ? `${tag} Alarm` : tag}
      sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {tag}
      {alarm && (
        <Box component="span" sx={{ color: 'error.main', fontWeight: 600 }}>
          {' Alarm'}
        </Box>
      )}
    </Box>
  );
}
