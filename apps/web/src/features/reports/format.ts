/** Number, duration and trend formats of the reports page (pt-BR first; docs/reports.md "Page"). */

/** The Intl locale of a UI language (pt is Brazilian Portuguese). */
export function intlLocale(language: string): string {
  if (language.startsWith('pt')) return 'pt-BR';
  if (language.startsWith('es')) return 'es';
  return 'en';
}

/**
 * A duration in seconds as its two largest units, e.g. '45 s', '1 min 20 s', '2 h 5 min', '3 d 4 h'
 * (whole seconds; a zero second unit is left out). Null (no figure) shows as '–'.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const total = Math.max(0, Math.round(seconds));
  const units: [number, string][] = [
    [Math.floor(total / 86_400), 'd'],
    [Math.floor((total % 86_400) / 3600), 'h'],
    [Math.floor((total % 3600) / 60), 'min'],
    [total % 60, 's'],
  ];
  const first = units.findIndex(([value]) => value > 0);
  if (first === -1) return '0 s';
  return units
    .slice(first, first + 2)
    .filter(([value], index) => index === 0 || value > 0)
    .map(([value, unit]) => `${value} ${unit}`)
    .join(' ');
}

/** A number in the UI language (at most `digits` decimals); null shows as '–'. */
export function formatNumber(value: number | null | undefined, language: string, digits = 0): string {
  if (value === null || value === undefined) return '–';
  return new Intl.NumberFormat(intlLocale(language), { maximumFractionDigits: digits }).format(value);
}

/** A rate 0..1 as a percent in the UI language (one decimal at most); null shows as '–'. */
export function formatRate(rate: number | null | undefined, language: string): string {
  if (rate === null || rate === undefined) return '–';
  return new Intl.NumberFormat(intlLocale(language), { style: 'percent', maximumFractionDigits: 1 }).format(
    rate,
  );
}

/** How a figure moved from the previous period: its direction and the change in percent. */
export interface Trend {
  direction: 'up' | 'down' | 'flat';
  /** (current − previous) / previous, null when the previous period had no figure (or zero). */
  change: number | null;
}

/**
 * The trend of a figure versus the previous period: up, down or flat, and the relative change
 * (null when either value is missing, or when the previous one is 0 and the current one is not,
 * since no percent can say it).
 */
export function trendOf(current: number | null | undefined, previous: number | null | undefined): Trend {
  if (current === null || current === undefined || previous === null || previous === undefined)
    return { direction: 'flat', change: null };
  const direction = current > previous ? 'up' : current < previous ? 'down' : 'flat';
  if (previous === 0) return { direction, change: current === 0 ? 0 : null };
  return { direction, change: (current - previous) / previous };
}
