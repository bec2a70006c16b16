/** The weekdays' English keys, Monday first: the `weekdayEn` of working and attendance hours. */
export const WEEKDAYS_EN = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

/** One weekday's hours as companies and queues store them: times are 'HH:mm'. */
export interface WeekdayHours {
  weekday: string;
  weekdayEn: (typeof WEEKDAYS_EN)[number];
  startTime: string;
  endTime: string;
}

/**
 * The spec's default week, for a company's working hours and a queue's attendance hours alike:
 * Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00 (closed). Weekday names are
 * the original product's Portuguese ones. Kept free of zod so the pages that only need the default
 * (the companies' schemas reach the public pages) do not load the queues' schemas.
 */
export const DEFAULT_WEEK: readonly WeekdayHours[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];
