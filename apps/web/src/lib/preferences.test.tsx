import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PreferencesProvider, readVolume, roundVolume, usePreferences } from './preferences';

describe('volume preference', () => {
  afterEach(() => localStorage.clear());

  it('rounds to the step of 0.1 and clamps to 0..1', () => {
    expect(roundVolume(0.6000000000000001)).toBe(0.6);
    expect(roundVolume(0.30000000000000004)).toBe(0.3);
    expect(roundVolume(1.4)).toBe(1);
    expect(roundVolume(-2)).toBe(0);
    expect(roundVolume(Number.NaN)).toBe(1);
  });

  it('stores the rounded volume and reads a stored one rounded', () => {
    let set: (v: number) => void = () => {};
    function Probe() {
      const { volume, setVolume } = usePreferences();
      set = setVolume;
      return <span data-testid="volume">{volume}</span>;
    }
    const view = render(
      <PreferencesProvider>
        <Probe />
      </PreferencesProvider>,
    );
    act(() => set(0.1 + 0.2 + 0.3));
    expect(localStorage.getItem('volume')).toBe('0.6');
    expect(view.getByTestId('volume').textContent).toBe('0.6');
    localStorage.setItem('volume', '0.7000000000000001');
    expect(readVolume()).toBe(0.7);
  });
});
