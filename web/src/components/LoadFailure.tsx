import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { failureText } from '../api/client';
import { EmptyState } from './EmptyState';

/** A query that failed or may fail: its error, and how to load it again. */
export interface Retryable {
  error: unknown;
  isError: boolean;
  refetch: () => unknown;
}

/** 'Failed to load {name}: {message}' with a Retry button. */
export function LoadFailure({ query, name }: { query: Retryable; name: string }) {
  return (
    <Alert
      severity="error"
      data-testid="load-error"
      sx={{ m: 1, alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" onClick={() => void query.refetch()}>
          Retry
        </Button>
      }
    >
      {failureText(`Failed to load ${name}`, query.error)}
    </Alert>
  );
}

/**
 * What a list shows without rows: the failure with Retry when any of its loads failed,
 * otherwise the empty state; never both.
 */
export function NoRows({
  queries,
  name,
  message,
  icon,
}: {
  queries: Retryable | Retryable[];
  name: string;
  message: ReactNode;
  icon?: ReactNode;
}) {
  const failed = (Array.isArray(queries) ? queries : [queries]).filter((q) => q.isError);
  if (failed.length > 0) {
    // Retry loads every failed part again, else the next failure would show after it.
    const retryAll: Retryable = {
      error: failed[0].error,
      isError: true,
      refetch: () => failed.forEach((q) => void q.refetch()),
    };
    return <LoadFailure query={retryAll} name={name} />;
  }
  return <EmptyState message={message} icon={icon} />;
}
