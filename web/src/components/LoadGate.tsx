import Alert from '@mui/material/Alert';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorText } from '../api/client';
import { Loading } from './Loading';

/** Spinner while loading, 'Failed to load {name}: {error}' on failure, else the content. */
export function LoadGate<T>({
  query,
  name,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError'>;
  name: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) {
    return (
      <Alert severity="error" data-testid="load-error">
        Failed to load {name}: {errorText(query.error)}
      </Alert>
    );
  }
  if (query.isPending || query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}
