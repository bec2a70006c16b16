import { QueryClientContext } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { settleWhenIdle } from '../lib/first-page';

/**
 * Placed after a route's page inside its Suspense boundary, so its effect runs once the page has
 * rendered: the first page settles when its queries are done (lib/first-page.ts). Renders nothing.
 */
export function PageShown() {
  const client = useContext(QueryClientContext);
  useEffect(
    () =>
      settleWhenIdle(
        client
          ? {
              isFetching: () => client.isFetching(),
              subscribe: (onChange) => client.getQueryCache().subscribe(onChange),
            }
          : null,
      ),
    [client],
  );
  return null;
}
