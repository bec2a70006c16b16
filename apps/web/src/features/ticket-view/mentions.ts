/**
 * `@mentions` in the composer's note mode (docs/inbox.md "Notes and mentions"): the word being typed
 * after '@', the users it matches, the text with the chosen name, and the ids a note mentions.
 */

/** A user a note may mention. */
export interface Mentionable {
  id: number;
  name: string;
}

/** The '@word' ending at `caret`: where its '@' is and what follows it, or null when none is typed. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]{0,40})$/u.exec(before);
  if (!match) return null;
  return { start: before.length - match[2]!.length - 1, query: match[2]! };
}

const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The users whose name (or one of its words) starts with `query`, ignoring case and accents; at most 8. */
export function mentionOptions(query: string, users: readonly Mentionable[] | undefined): Mentionable[] {
  const wanted = fold(query);
  return (users ?? [])
    .filter(
      (u) =>
        fold(u.name)
          .split(/\s+/)
          .some((word) => word.startsWith(wanted)) || fold(u.name).startsWith(wanted),
    )
    .slice(0, 8);
}

/** `text` with the '@word' from `start` to `caret` replaced by '@Name ', and where the caret goes. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The ids of the chosen users whose '@Name' is still in `text`. */
export function mentionedIds(text: string, chosen: readonly Mentionable[]): number[] {
  return [...new Set(chosen.filter((u) => text.includes(`@${u.name}`)).map((u) => u.id))];
}
