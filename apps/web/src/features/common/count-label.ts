/**
 * The accessible name of an icon button with a count badge: its title, and the count as the badge
 * draws it when there is one ("Notifications (3)", "Notifications (40+)"), so a screen reader
 * announces it with the button.
 */
export function countLabel(title: string, shown: number | string): string {
  return shown === 0 ? title : `${title} (${shown})`;
}
