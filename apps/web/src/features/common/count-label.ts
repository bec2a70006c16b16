/**
 * The accessible name of an icon button with a count badge: "Notifications (3)", or the title alone
 * when the count is 0. The badge itself is hidden from assistive technology (COUNT_SLOT), so the name
 * carries the number once and matches what is on screen (WCAG 2.5.3, axe's label-content-name-mismatch).
 */
export function countLabel(title: string, count: number): string {
  return count > 0 ? `${title} (${count})` : title;
}

/** MUI Badge `slotProps` that hide the drawn count from assistive technology (see countLabel). */
export const COUNT_SLOT = { badge: { 'aria-hidden': true } } as const;
