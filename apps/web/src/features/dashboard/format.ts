/**
 * A duration in minutes as 'HH h mm m' (core section 2 Dashboard): whole minutes, hours padded to
 * two digits (more when needed); a negative or missing value shows as '00 h 00 m'.
 */
export function formatMinutes(minutes: number | null | undefined): string {
  const total = Math.max(0, Math.round(minutes ?? 0));
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  return `${String(hours).padStart(2, '0')} h ${String(rest).padStart(2, '0')} m`;
}

/** 'yyyy-MM-dd' as 'dd/MM' for chart axes (pt-BR day order). */
export function shortDay(isoDate: string): string {
  const [, month, day] = isoDate.split('-');
  return `${day}/${month}`;
}

/** Today as 'yyyy-MM-dd' in the browser's time zone (the date inputs' default). */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
