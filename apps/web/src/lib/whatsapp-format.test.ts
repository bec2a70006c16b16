import { describe, expect, it } from 'vitest';
import { parseWhatsApp, type WaBlock, type WaInline, wrapSelection } from './whatsapp-format';

/** A compact form of the tree: <b> bold, <i> italic, <s> strike, <tt> mono, <c> inline code. */
function runs(list: WaInline[]): string {
  return list
    .map((run) => {
      if (typeof run === 'string') return run;
      if ('text' in run) return run.type === 'mono' ? `<tt>${run.text}</tt>` : `<c>${run.text}</c>`;
      const tag = { bold: 'b', italic: 'i', strike: 's' }[run.type];
      return `<${tag}>${runs(run.children)}</${tag}>`;
    })
    .join('');
}

function show(blocks: WaBlock[]): string {
  return blocks
    .map((b) => {
      if ('lines' in b)
        return b.type === 'quote' ? `[quote ${b.lines.map(runs).join(' | ')}]` : b.lines.map(runs).join('\n');
      if (b.type === 'bullet') return `[ul ${b.items.map(runs).join(' | ')}]`;
      return `[ol@${b.start} ${b.items.map(runs).join(' | ')}]`;
    })
    .join('\n');
}

const formatted = (text: string) => show(parseWhatsApp(text));
const preview = (text: string) => show(parseWhatsApp(text, { inline: true }));

describe('parseWhatsApp', () => {
  it.each([
    // the marks
    ['*bold*', '<b>bold</b>'],
    ['_italic_', '<i>italic</i>'],
    ['~strike~', '<s>strike</s>'],
    ['```mono```', '<tt>mono</tt>'],
    ['`code`', '<c>code</c>'],
    ['plain text', 'plain text'],
    ['', ''],
    // the signature and the accept greeting
    ['*Admin:*\nOlá', '<b>Admin:</b>\nOlá'],
    [
      'Olá *Bruno*, meu nome é *Ana* e agora vou prosseguir com o seu atendimento!',
      'Olá <b>Bruno</b>, meu nome é <b>Ana</b> e agora vou prosseguir com o seu atendimento!',
    ],
    // word boundaries: a marker opens only after a non-letter, closes only before one
    ['2*3*4', '2*3*4'],
    ['snake_case_name', 'snake_case_name'],
    ['a*b* c', 'a*b* c'],
    ['*bold*text', '*bold*text'],
    ['(*bold*)', '(<b>bold</b>)'],
    ['*bold*, then', '<b>bold</b>, then'],
    ['"_quoted_"', '"<i>quoted</i>"'],
    ['açúcar*doce*', 'açúcar*doce*'],
    ['*ação*', '<b>ação</b>'],
    // no spaces just inside the markers
    ['x * not bold*', 'x * not bold*'],
    ['*not bold *', '*not bold *'],
    ['*two words*', '<b>two words</b>'],
    ['a * b * c', 'a * b * c'],
    // empty and unclosed
    ['**', '**'],
    ['****', '****'],
    ['**x**', '*<b>x</b>*'],
    ['*open only', '*open only'],
    ['_a_ _b', '<i>a</i> _b'],
    // same line only
    ['*not\nbold*', '*not\nbold*'],
    ['_a\nb_', '_a\nb_'],
    // the first valid closer wins
    ['*a *b* c*', '<b>a *b</b> c*'],
    ['*one* and *two*', '<b>one</b> and <b>two</b>'],
    // nesting
    ['*_bold italic_*', '<b><i>bold italic</i></b>'],
    ['_*italic bold*_', '<i><b>italic bold</b></i>'],
    ['*bold _and italic_ here*', '<b>bold <i>and italic</i> here</b>'],
    ['~*_all three_*~', '<s><b><i>all three</i></b></s>'],
    ['*a _b* c_', '<b>a _b</b> c_'],
    // literal inside code
    ['```*not bold*```', '<tt>*not bold*</tt>'],
    ['`*not bold*`', '<c>*not bold*</c>'],
    ['*bold `code*` x*', '<b>bold <c>code*</c> x</b>'],
    ['*`code` in bold*', '<b><c>code</c> in bold</b>'],
    ['```a\n*b*\nc```', '<tt>a\n*b*\nc</tt>'],
    ['x ```\nline 1\nline 2\n``` y', 'x <tt>\nline 1\nline 2\n</tt> y'],
    ['``` ```', '``` ```'],
    ['```open', '```open'],
    ['a```mono```', 'a```mono```'],
    ['`a\nb`', '`a\nb`'],
    ['` x`', '` x`'],
    ['``a``', '``a``'],
    // markup is only text
    ['<script>alert(1)</script>', '<script>alert(1)</script>'],
    ['*<img src=x onerror=alert(1)>*', '<b><img src=x onerror=alert(1)></b>'],
    // emoji next to markers
    ['😀*sim*😀', '😀<b>sim</b>😀'],
  ])('%j', (text, expected) => {
    expect(formatted(text)).toBe(expected);
  });

  it.each([
    ['* one\n* two', '[ul one | two]'],
    ['- one\n- *two*', '[ul one | <b>two</b>]'],
    ['1. first\n2. second', '[ol@1 first | second]'],
    ['3. third\n4. fourth', '[ol@3 third | fourth]'],
    ['> quoted _text_\n> more', '[quote quoted <i>text</i> | more]'],
    ['Itens:\n- a\n- b\nFim', 'Itens:\n[ul a | b]\nFim'],
    ['*bold line*\n- item', '<b>bold line</b>\n[ul item]'],
    ['* not bold*', '[ul not bold*]'],
    ['-not a list', '-not a list'],
    ['>not a quote', '>not a quote'],
    ['1.not a list', '1.not a list'],
    ['a\n\nb', 'a\n\nb'],
  ])('blocks: %j', (text, expected) => {
    expect(formatted(text)).toBe(expected);
  });

  it('keeps line prefixes as typed in previews, marks still apply', () => {
    expect(preview('> *quoted*\n- item')).toBe('> <b>quoted</b>\n- item');
    expect(preview('*Admin:*\nOlá')).toBe('<b>Admin:</b>\nOlá');
  });
});

describe('wrapSelection', () => {
  it('wraps the selection and keeps it selected inside the markers', () => {
    expect(wrapSelection('say hello now', 4, 9, '*')).toEqual({ text: 'say *hello* now', start: 5, end: 10 });
  });

  it('leaves spaces at the edges outside the markers', () => {
    expect(wrapSelection('say hello now', 3, 10, '_')).toEqual({
      text: 'say _hello_ now',
      start: 5,
      end: 10,
    });
  });

  it('inserts a pair with the caret between on an empty selection', () => {
    expect(wrapSelection('ab', 1, 1, '~')).toEqual({ text: 'a~~b', start: 2, end: 2 });
  });

  it('accepts a backwards selection and clamps it to the text', () => {
    expect(wrapSelection('abc', 3, 0, '```')).toEqual({ text: '```abc```', start: 3, end: 6 });
    expect(wrapSelection('abc', -2, 99, '*')).toEqual({ text: '*abc*', start: 1, end: 4 });
  });
});
