import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadFailure } from './LoadFailure';
import { Loading } from './Loading';

/** Spinner while loading, 'Failed to load {name}: {error}' with Retry on failure, else the content. */
export function LoadGate<T>({
  query,
  name,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'>;
  name: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) return <LoadFailure query={query} name={name} />;
  if (query.isPending || query.data === undefined) return <Loading />;
  return <>{children(query.data)}</>;
}
