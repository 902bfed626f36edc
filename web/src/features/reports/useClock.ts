import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';

/** The current time, ticking every `intervalMs` while the tab is visible; stops on unmount. */
export function useClock(intervalMs: number): Dayjs {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') setNow(dayjs());
    };
    const timer = window.setInterval(tick, intervalMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [intervalMs]);
  return now;
}
