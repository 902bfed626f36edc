import type { TooltipProps } from '@mui/material/Tooltip';
import { lazy, Suspense } from 'react';

// Tooltips need the popup positioning code (about 11 KiB gzipped): the element shows at once,
// and its tooltip is attached when that code has loaded.
const MuiTooltip = lazy(() => import('@mui/material/Tooltip'));

/** MUI's Tooltip, same props, loaded in its own chunk. */
export function Tooltip(props: TooltipProps) {
  return (
    <Suspense fallback={props.children}>
      <MuiTooltip {...props} />
    </Suspense>
  );
}
