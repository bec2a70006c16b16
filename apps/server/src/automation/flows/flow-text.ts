/**
 * Text matching of the flow engine: trigger phrases and menu answers are compared
 * without case, accents or extra spaces ('Olá  Mundo' matches 'ola mundo').
 */

/** Lower case, accents removed, inner spaces collapsed, trimmed. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * True when the customer's message says the trigger phrase: the whole message is the phrase, or
 * contains it as whole words ('oi' matches 'oi, tudo bem?' but not 'boi'), ignoring case and accents.
 */
export function saysPhrase(message: string, phrase: string): boolean {
  const text = normalizeText(message);
  const wanted = normalizeText(phrase);
  if (!wanted) return false;
  if (text === wanted) return true;
  const escaped = wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(text);
}

/** Replaces `{{name}}` placeholders with the run's variables; unknown names stay as written. */
export function fillFlowVariables(text: string, variables: Record<string, string>): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? variables[name]! : whole,
  );
}
