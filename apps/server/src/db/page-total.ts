/**
 * The total count behind one page whose rows each carry it (`total`, an uncorrelated count
 * sub-select, so page and count take one round trip). With no row on the page (nothing at all, or
 * past the end) the total is 0 on the first page (`offset` 0) and `countAll()` after it.
 */
export async function pageTotal(
  rows: readonly { total: number }[],
  offset: number,
  countAll: () => Promise<number>,
): Promise<number> {
  const carried = rows[0]?.total;
  if (carried !== undefined) return carried;
  return offset === 0 ? 0 : countAll();
}
