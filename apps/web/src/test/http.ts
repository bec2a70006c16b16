/** HTTP helpers for the web tests' fetch stubs. */

/** A fetch Response with `body` as JSON and the given status. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
