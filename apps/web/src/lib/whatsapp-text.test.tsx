import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WhatsAppText } from './whatsapp-text';

const html = (text: string, inline = false) => render(<WhatsAppText text={text} inline={inline} />).container;

describe('WhatsAppText', () => {
  it('renders the marks as strong, em, s and code elements', () => {
    const el = html('*Admin:*\n_a_ ~b~ ```c``` `d`');
    expect(el.querySelector('strong')?.textContent).toBe('Admin:');
    expect(el.querySelector('em')?.textContent).toBe('a');
    expect(el.querySelector('s')?.textContent).toBe('b');
    expect([...el.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['c', 'd']);
    expect(el.textContent).toBe('Admin:\na b c d');
  });

  it('keeps markup as text: no element comes from the message', () => {
    const el = html('<script>alert(1)</script> *<img src=x onerror=alert(1)>* <b>x</b>');
    expect(el.querySelector('script, img, b')).toBeNull();
    expect(el.querySelector('strong')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(el.textContent).toBe('<script>alert(1)</script> <img src=x onerror=alert(1)> <b>x</b>');
  });

  it('renders lists and quotes as elements, and not in previews', () => {
    const el = html('Itens:\n- *a*\n- b\n2. c\n> d');
    expect([...el.querySelectorAll('ul > li')].map((li) => li.innerHTML)).toEqual([
      '<strong>a</strong>',
      'b',
    ]);
    expect(el.querySelector('ol')?.getAttribute('start')).toBe('2');
    expect(el.querySelector('blockquote')?.textContent).toBe('d');
    const preview = html('- *a*\n> d', true);
    expect(preview.querySelector('ul, ol, blockquote')).toBeNull();
    expect(preview.textContent).toBe('- a\n> d');
    expect(preview.querySelector('strong')?.textContent).toBe('a');
  });

  it('returns plain text untouched', () => {
    expect(html('Olá, tudo bem?').innerHTML).toBe('Olá, tudo bem?');
  });
});
