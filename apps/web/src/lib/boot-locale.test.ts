import bootEn from 'virtual:boot-locale/en';
import bootPt from 'virtual:boot-locale/pt';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import pt from '../locales/pt.json';

describe('first-render locale subset', () => {
  it('holds only the sections the login form needs, with the full locale texts', () => {
    expect(Object.keys(bootEn).sort()).toEqual(['auth', 'common', 'errors', 'login', 'validation']);
    expect(bootEn.login).toEqual(en.login);
    expect(bootPt.errors).toEqual(pt.errors);
    // Positive control: a page's section is in the full locale but not in the subset.
    expect(en.menu).toBeDefined();
    expect(bootEn.menu).toBeUndefined();
  });
});
