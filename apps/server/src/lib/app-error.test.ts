import { describe, expect, it } from 'vitest';
import { AppError, orNotFound } from './app-error.js';

describe('orNotFound', () => {
  it('answers the value that is there, falsy values included', () => {
    const row = { id: 1 };
    expect(orNotFound(row)).toBe(row);
    expect(orNotFound(0)).toBe(0);
    expect(orNotFound('')).toBe('');
  });

  it('throws ERR_NOT_FOUND (404) for undefined and null, or the code given', () => {
    for (const missing of [undefined, null]) {
      expect(() => orNotFound(missing)).toThrow(AppError);
      try {
        orNotFound(missing);
      } catch (error) {
        expect((error as AppError).code).toBe('ERR_NOT_FOUND');
        expect((error as AppError).status).toBe(404);
      }
    }
    expect(() => orNotFound(undefined, 'ERR_NO_TICKET_FOUND')).toThrow('ERR_NO_TICKET_FOUND');
  });
});
