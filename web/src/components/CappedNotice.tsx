import Alert from '@mui/material/Alert';

const count = (n: number) => n.toLocaleString('en-US');

/** The words of a capped list: how many are shown of how many, and how to see the rest. */
export function cappedText(shown: number, total: number, noun: string, narrow: string): string {
  return `Showing the newest ${count(shown)} of ${count(total)} ${noun}: ${narrow} to see the rest.`;
}

/**
 * Says that a list stops at the fetch limit (nothing when every row came), so a capped
 * list is never taken for the whole.
 */
export function CappedNotice({
  shown,
  total,
  noun,
  narrow,
}: {
  shown: number;
  total: number;
  /** What the rows are, plural: 'zone visits'. */
  noun: string;
  /** How to narrow the list: 'choose a shorter period'. */
  narrow: string;
}) {
  if (total <= shown) return null;
  return (
    <Alert severity="warning" data-testid="capped-notice" sx={{ mb: 2 }}>
      {cappedText(shown, total, noun, narrow)}
    </Alert>
  );
}
