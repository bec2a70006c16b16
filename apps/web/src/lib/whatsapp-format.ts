/**
 * WhatsApp's text formatting, parsed into a plain tree (no HTML: the tree is rendered by
 * `whatsapp-text.tsx` as React elements, so a message's text always stays text).
 *
 * The marks, as WhatsApp applies them:
 * - `*bold*`, `_italic_`, `~strike~`: a marker opens only where the character before it is not a
 *   letter or digit and the one after it is not a space; it closes at the first same marker on the
 *   same line that follows a non-space and is not followed by a letter or digit. Marks nest
 *   (`*_bold italic_*`); an unclosed marker stays as typed.
 * - ` ```monospace``` `: may span lines; what is inside is literal (no marks).
 * - `` `inline code` ``: one line, literal inside, the same boundary rules as the marks.
 * - Lines starting with `* ` or `- ` are bullet items, `1. ` numbered items, `> ` a quote.
 */

/** A run of text: plain text, a mark around more runs, or a literal code span. */
export type WaInline =
  | string
  | { type: 'bold' | 'italic' | 'strike'; children: WaInline[] }
  | { type: 'mono' | 'code'; text: string };

/** A block of lines: a paragraph or quote (one inline list per line), or a list's items. */
export type WaBlock =
  | { type: 'paragraph' | 'quote'; lines: WaInline[][] }
  | { type: 'bullet'; items: WaInline[][] }
  | { type: 'numbered'; start: number; items: WaInline[][] };

type CodeSpan = { type: 'mono' | 'code'; text: string };
/** One character of text, or a code span found earlier (opaque to the marks). */
type Atom = string | CodeSpan;

const MARKS: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
const FENCE = '```';

const isWord = (a: Atom | undefined): boolean => typeof a === 'string' && /[\p{L}\p{N}]/u.test(a);
const isSpace = (a: Atom | undefined): boolean => typeof a === 'string' && /\s/u.test(a);

/** Splits `text` into text and ``` spans (which may cross lines); an unclosed fence stays text. */
function splitFences(text: string): (string | CodeSpan)[] {
  const out: (string | CodeSpan)[] = [];
  let rest = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf(FENCE, from);
    if (open < 0) break;
    if (isWord(charBefore(text, open))) {
      from = open + 1;
      continue;
    }
    let close = text.indexOf(FENCE, open + FENCE.length + 1);
    while (close >= 0 && isWord(charAt(text, close + FENCE.length))) close = text.indexOf(FENCE, close + 1);
    if (close < 0) break;
    const inner = text.slice(open + FENCE.length, close);
    if (inner.trim() === '') {
      from = open + 1;
      continue;
    }
    if (open > rest) out.push(text.slice(rest, open));
    out.push({ type: 'mono', text: inner });
    rest = close + FENCE.length;
    from = rest;
  }
  if (rest < text.length) out.push(text.slice(rest));
  return out;
}

/** The code point before index `i` of `s` (undefined at the start). */
function charBefore(s: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = s.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s[i - 1];
}

/** The code point at index `i` of `s` (undefined past the end). */
function charAt(s: string, i: number): string | undefined {
  const cp = s.codePointAt(i);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

/** The lines of `text` as atoms: characters, with ``` spans as single atoms. */
function toLines(text: string): Atom[][] {
  const lines: Atom[][] = [[]];
  for (const part of splitFences(text)) {
    if (typeof part !== 'string') {
      lines[lines.length - 1]?.push(part);
      continue;
    }
    for (const ch of part) {
      if (ch === '\n') lines.push([]);
      else lines[lines.length - 1]?.push(ch);
    }
  }
  return lines;
}

/** A mark may open at `i` (see the module's rules); a doubled marker ('**') opens nothing. */
function canOpen(atoms: Atom[], i: number): boolean {
  const next = atoms[i + 1];
  return !isWord(atoms[i - 1]) && next !== undefined && !isSpace(next) && next !== atoms[i];
}

/** The index of the marker closing the one opened at `i`, before `end`; -1 when none. */
function findClose(atoms: Atom[], i: number, end: number, marker: string): number {
  for (let j = i + 2; j < end; j++) {
    if (atoms[j] === marker && !isSpace(atoms[j - 1]) && !isWord(atoms[j + 1])) return j;
  }
  return -1;
}

/** A lone backtick at `i` (one of a run such as '``' is never an inline code marker). */
const loneTick = (line: Atom[], i: number) => line[i] === '`' && line[i - 1] !== '`' && line[i + 1] !== '`';

/** Replaces `inline code` spans of one line by code atoms (the ``` spans are atoms already). */
function inlineCode(line: Atom[]): Atom[] {
  const out: Atom[] = [];
  for (let i = 0; i < line.length; i++) {
    const atom = line[i] as Atom;
    if (loneTick(line, i) && canOpen(line, i)) {
      let close = findClose(line, i, line.length, '`');
      while (close > 0 && !loneTick(line, close)) close = findClose(line, close, line.length, '`');
      const inner = line.slice(i + 1, close);
      if (close > 0 && inner.every((a) => typeof a === 'string')) {
        out.push({ type: 'code', text: inner.join('') });
        i = close;
        continue;
      }
    }
    out.push(atom);
  }
  return out;
}

/** The runs of `atoms[start..end)`: bold, italic and strike marks, nested, around text and code. */
function parseMarks(atoms: Atom[], start: number, end: number): WaInline[] {
  const out: WaInline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push(text);
    text = '';
  };
  for (let i = start; i < end; i++) {
    const atom = atoms[i] as Atom;
    if (typeof atom !== 'string') {
      flush();
      out.push(atom);
      continue;
    }
    const type = MARKS[atom];
    if (type && canOpen(atoms, i)) {
      const close = findClose(atoms, i, end, atom);
      if (close > 0) {
        flush();
        out.push({ type, children: parseMarks(atoms, i + 1, close) });
        i = close;
        continue;
      }
    }
    text += atom;
  }
  flush();
  return out;
}

const LINE_KINDS: { type: 'quote' | 'bullet' | 'numbered'; prefix: RegExp }[] = [
  { type: 'quote', prefix: /^> / },
  { type: 'bullet', prefix: /^[*-] / },
  { type: 'numbered', prefix: /^(\d{1,9})\. / },
];

/** The kind of a line by its leading characters, and how many atoms that prefix takes. */
function lineKind(line: Atom[]): { type: WaBlock['type']; skip: number; number: number } {
  let head = '';
  for (const atom of line.slice(0, 12)) {
    if (typeof atom !== 'string') break;
    head += atom;
  }
  for (const kind of LINE_KINDS) {
    const match = kind.prefix.exec(head);
    if (match) return { type: kind.type, skip: match[0].length, number: Number(match[1] ?? 1) };
  }
  return { type: 'paragraph', skip: 0, number: 0 };
}

/**
 * Parses a message text into blocks (paragraphs, quotes, bullet and numbered lists) of inline runs.
 * With `inline: true` (list previews) the lines are one paragraph: marks and code only, line
 * prefixes stay as typed. Pure; never throws.
 */
export function parseWhatsApp(text: string, options: { inline?: boolean } = {}): WaBlock[] {
  const blocks: WaBlock[] = [];
  for (const raw of toLines(text)) {
    const kind = options.inline ? { type: 'paragraph' as const, skip: 0, number: 0 } : lineKind(raw);
    const line = inlineCode(raw.slice(kind.skip));
    const runs = parseMarks(line, 0, line.length);
    const last = blocks[blocks.length - 1];
    if (kind.type === 'paragraph' || kind.type === 'quote') {
      if (last?.type === kind.type) last.lines.push(runs);
      else blocks.push({ type: kind.type, lines: [runs] });
    } else if (kind.type === 'bullet') {
      if (last?.type === 'bullet') last.items.push(runs);
      else blocks.push({ type: 'bullet', items: [runs] });
    } else if (last?.type === 'numbered') last.items.push(runs);
    else blocks.push({ type: 'numbered', start: kind.number, items: [runs] });
  }
  return blocks;
}

/** True when `text` has anything parseWhatsApp would format (a cheap pre-check for plain text). */
export function hasWhatsAppFormatting(text: string): boolean {
  return /[*_~`]|^(> |[*-] |\d+\. )/m.test(text);
}

/**
 * Wraps the selection `[start, end)` of `text` in `marker` (Ctrl+B, Ctrl+I... in the composer).
 * Spaces at the selection's edges stay outside the markers (WhatsApp would not format them); an
 * empty selection gets a marker pair with the caret between. Answers the new text and selection.
 */
export function wrapSelection(
  text: string,
  start: number,
  end: number,
  marker: string,
): { text: string; start: number; end: number } {
  let from = Math.max(0, Math.min(start, end));
  let to = Math.min(text.length, Math.max(start, end));
  while (from < to && /\s/.test(text[from] ?? '')) from++;
  while (to > from && /\s/.test(text[to - 1] ?? '')) to--;
  const wrapped = `${text.slice(0, from)}${marker}${text.slice(from, to)}${marker}${text.slice(to)}`;
  return { text: wrapped, start: from + marker.length, end: to + marker.length };
}
