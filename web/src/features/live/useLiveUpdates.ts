import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '../../api/client';

/** After a refused stream (not a dropped one), the next try waits this long, doubling. */
export const LIVE_RETRY_FIRST_MS = 5_000;
const LIVE_RETRY_MAX_MS = 60_000;

/** The URL of the site's live stream, from the same base as every other API call. */
function liveUrl(site: string): string {
  return apiUrl('/api/live', {}, new URLSearchParams({ site }));
}

/**
 * Refreshes the queries under `queryKeys` whenever the server says the site changed, over
 * one Server-Sent Events stream while the tab is visible. Returns whether the stream is
 * open: while it is, the page needs no polling; while it is not (connecting, dropped,
 * refused, or no EventSource at all), the page polls as before.
 */
export function useLiveUpdates(site: string | undefined, queryKeys: readonly QueryKey[]): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  const keys = useRef(queryKeys);
  useEffect(() => {
    keys.current = queryKeys;
  }, [queryKeys]);

  useEffect(() => {
    if (!site || typeof EventSource === 'undefined') return undefined;
    let source: EventSource | null = null;
    let retryTimer: number | undefined;
    let refusals = 0;
    // The first opening follows the page's own first load; any later one may have missed
    // changes (the tab hidden, the stream dropped), so it refreshes.
    let opened = false;

    const refresh = () => {
      for (const queryKey of keys.current) void client.invalidateQueries({ queryKey });
    };
    const close = () => {
      window.clearTimeout(retryTimer);
      retryTimer = undefined;
      source?.close();
      source = null;
      setLive(false);
    };
    const open = () => {
      if (source || document.visibilityState === 'hidden') return;
      const stream = new EventSource(liveUrl(site), { withCredentials: true });
      source = stream;
      stream.onopen = () => {
        refusals = 0;
        setLive(true);
        if (opened) refresh();
        opened = true;
      };
      stream.onmessage = refresh;
      stream.onerror = () => {
        setLive(false);
        // A dropped stream is reconnected by the browser itself; a refused one is not.
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        source = null;
        const delay = Math.min(LIVE_RETRY_MAX_MS, LIVE_RETRY_FIRST_MS * 2 ** refusals);
        refusals += 1;
        retryTimer = window.setTimeout(open, delay);
      };
    };
    // A hidden tab neither polls nor keeps a stream open.
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') close();
      else open();
    };

    open();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      close();
    };
  }, [site, client]);

  return live;
}
