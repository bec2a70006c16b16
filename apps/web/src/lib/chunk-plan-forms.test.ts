import { describe, expect, it } from 'vitest';
import { type PassChunk, planFirstRender } from '../../chunk-plan';
import { passChunk as chunk, PASS_SRC as src } from '../test/pass-chunk';

const mui = (name: string) => `/app/node_modules/@mui/material/esm/${name}/${name}.js`;

/**
 * The sign-up form and the contacts page share MUI's TextField and a schema library; the layout and
 * the sign-up form share Paper; the tickets page loads none of them.
 */
const chunks: PassChunk[] = [
  chunk('index.js', 'main.tsx', [], ['main']),
  chunk('login-entry.js', 'app/login-entry.tsx', ['react.js'], ['login-entry']),
  chunk('react.js', null, [], ['react']),
  chunk('app.js', 'app/app.tsx', ['react.js'], ['app']),
  chunk('providers.js', 'app/app-providers.tsx', ['react.js'], ['providers']),
  chunk('layout.js', 'app/layout/app-layout.tsx', ['react.js', 'paper.js'], ['layout']),
  chunk('paper.js', null, [], [mui('Paper')]),
  chunk('tickets-page.js', 'features/tickets/tickets-page.tsx', [], ['tickets-page']),
  chunk(
    'signup-page.js',
    'features/auth/signup-page.tsx',
    ['react.js', 'paper.js', 'text-field.js', 'form-control.js', 'zod.js'],
    ['signup-page'],
  ),
  chunk(
    'contacts-page.js',
    'features/contacts/contacts-page.tsx',
    ['text-field.js', 'zod.js'],
    ['contacts-page'],
  ),
  chunk('text-field.js', null, ['form-control.js'], [mui('TextField'), mui('Select'), mui('Modal')]),
  chunk('form-control.js', null, [], [mui('FormControl')]),
  chunk(
    'switch.js',
    'features/tickets/show-all-switch-mui.tsx',
    ['form-control.js'],
    ['show-all-switch-mui', mui('Switch')],
  ),
  chunk('zod.js', null, [], ['/app/node_modules/zod/index.js']),
];

describe('the forms chunk (chunk-plan.ts, decision 0132)', () => {
  const groups = planFirstRender(src, chunks);

  it("the MUI modules of the public pages' forms that no first render loads form one chunk", () => {
    for (const name of ['TextField', 'Select', 'Modal']) expect(groups.get(mui(name))).toBe('mui-forms');
  });

  it('what the show-all switch, fetched right after /tickets renders, shares with the forms joins the app', () => {
    expect(groups.get(mui('FormControl'))).toBe('app');
    expect(groups.get(mui('Switch'))).toBeUndefined();
  });

  it('what a first render loads keeps its group; other libraries and the pages stay with the bundler', () => {
    expect(groups.get(mui('Paper'))).toBe('app');
    expect(groups.get('/app/node_modules/zod/index.js')).toBeUndefined();
    expect(groups.get('signup-page')).toBeUndefined();
    expect(groups.get('contacts-page')).toBeUndefined();
  });
});
