import { describe, expect, it } from 'vitest';
import { canonicalNumber, digitsOnly, numberVariants } from './phone-number.js';

describe('contact number normalisation', () => {
  it('keeps digits only', () => {
    expect(digitsOnly('+55 (11) 99999-8888')).toBe('5511999998888');
    expect(digitsOnly('abc')).toBe('');
  });

  it('adds the ninth digit to an 8-digit Brazilian mobile number', () => {
    expect(numberVariants('551188887777')).toEqual(['551188887777', '5511988887777']);
    expect(canonicalNumber('551188887777')).toBe('5511988887777');
  });

  it('removes the ninth digit from a 9-digit Brazilian mobile number', () => {
    expect(numberVariants('5511988887777')).toEqual(['5511988887777', '551188887777']);
    expect(canonicalNumber('5511988887777')).toBe('5511988887777');
  });

  it('leaves landlines, other countries and odd lengths alone', () => {
    expect(numberVariants('551133334444')).toEqual(['551133334444']);
    expect(numberVariants('14155550100')).toEqual(['14155550100']);
    expect(numberVariants('55119888877771')).toEqual(['55119888877771']);
    expect(numberVariants('5501988887777')).toEqual(['5501988887777']);
    expect(canonicalNumber('14155550100')).toBe('14155550100');
  });
});
