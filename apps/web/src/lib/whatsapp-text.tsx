/**
 * Renders a message text with WhatsApp's formatting (`whatsapp-format.ts`) as React elements:
 * strong, em, s, code, lists and blockquotes. Text is only ever a React text node, so markup in a
 * message shows as typed.
 */
import { type CSSProperties, Fragment, type ReactNode } from 'react';
import { hasWhatsAppFormatting, parseWhatsApp, type WaBlock, type WaInline } from './whatsapp-format';

const CODE: CSSProperties = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.92em',
  whiteSpace: 'pre-wrap',
};
const INLINE_CODE: CSSProperties = {
  ...CODE,
  padding: '0 0.25em',
  borderRadius: 4,
  backgroundColor: 'rgba(127, 127, 127, 0.16)',
};
const LIST: CSSProperties = { margin: 0, paddingLeft: '1.5em' };
const QUOTE: CSSProperties = {
  margin: 0,
  paddingLeft: '0.6em',
  borderLeft: '3px solid rgba(127, 127, 127, 0.5)',
  opacity: 0.85,
};

function inline(runs: WaInline[]): ReactNode[] {
  return runs.map((run, index) => {
    const key = index;
    if (typeof run === 'string') return <Fragment key={key}>{run}</Fragment>;
    switch (run.type) {
      case 'bold':
        return <strong key={key}>{inline(run.children)}</strong>;
      case 'italic':
        return <em key={key}>{inline(run.children)}</em>;
      case 'strike':
        return <s key={key}>{inline(run.children)}</s>;
      case 'mono':
        return (
          <code key={key} style={CODE}>
            {run.text}
          </code>
        );
      default:
        return (
          <code key={key} style={INLINE_CODE}>
            {run.text}
          </code>
        );
    }
  });
}

/** The lines of a paragraph or quote, separated by line breaks (the container keeps `pre-wrap`). */
function lines(list: WaInline[][]): ReactNode[] {
  return list.map((runs, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place
    <Fragment key={index}>
      {index > 0 && '\n'}
      {inline(runs)}
    </Fragment>
  ));
}

function block(b: WaBlock, key: number): ReactNode {
  switch (b.type) {
    case 'paragraph':
      return <Fragment key={key}>{lines(b.lines)}</Fragment>;
    case 'quote':
      return (
        <blockquote key={key} style={QUOTE}>
          {lines(b.lines)}
        </blockquote>
      );
    case 'bullet':
      return (
        <ul key={key} style={LIST}>
          {b.items.map((runs, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
            <li key={i}>{inline(runs)}</li>
          ))}
        </ul>
      );
    default:
      return (
        <ol key={key} start={b.start} style={LIST}>
          {b.items.map((runs, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
            <li key={i}>{inline(runs)}</li>
          ))}
        </ol>
      );
  }
}

/**
 * `text` with WhatsApp's formatting as React nodes. `inline: true` (list previews) renders the marks
 * and code only, keeping line prefixes such as '> ' as typed. Text without markers comes back as is.
 */
export function formatWhatsApp(text: string, options: { inline?: boolean } = {}): ReactNode {
  if (!hasWhatsAppFormatting(text)) return text;
  // Lists and quotes are block elements: the text around them breaks by itself.
  return parseWhatsApp(text, options).map(block);
}

/** A message text with WhatsApp's formatting (see `formatWhatsApp`). */
export function WhatsAppText({ text, inline: previews = false }: { text: string; inline?: boolean }) {
  return <>{formatWhatsApp(text, { inline: previews })}</>;
}
