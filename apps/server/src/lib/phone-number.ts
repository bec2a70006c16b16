/**
 * Contact number normalisation (core section 3: numbers are digits only).
 *
 * Brazilian mobile numbers exist with and without the ninth digit: `55 + area code (2 digits) + 8
 * digits` (12 digits, local part starting 6..9) and `55 + area code + 9 + 8 digits` (13 digits) are
 * the same phone. Lookups and creations compare every form.
 */

/** Keeps the digits of `raw` ("+55 (11) 99999-8888" -> "5511999998888"). */
export function digitsOnly(raw: string): string {
  return raw.replace(/\D/g, '');
}

const BR_WITHOUT_NINE = /^55([1-9][1-9])([6-9]\d{7})$/;
const BR_WITH_NINE = /^55([1-9][1-9])9([6-9]\d{7})$/;

/**
 * The forms of a (digits-only) number that denote the same phone: the number itself and, for a
 * Brazilian mobile number, the form with or without the ninth digit. Others: `[number]`.
 */
export function numberVariants(number: string): string[] {
  const without = BR_WITHOUT_NINE.exec(number);
  if (without) return [number, `55${without[1]}9${without[2]}`];
  const withNine = BR_WITH_NINE.exec(number);
  if (withNine) return [number, `55${withNine[1]}${withNine[2]}`];
  return [number];
}

/** One key per phone: the Brazilian mobile form with the ninth digit, else the number itself. */
export function canonicalNumber(number: string): string {
  const without = BR_WITHOUT_NINE.exec(number);
  return without ? `55${without[1]}9${without[2]}` : number;
}
