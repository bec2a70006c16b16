import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { VolumeControl } from './volume-control';

describe('VolumeControl', () => {
  it('opens the volume slider (a lazy chunk) with the stored volume', async () => {
    localStorage.setItem('volume', '0.3');
    const user = userEvent.setup();
    renderWithProviders(<VolumeControl />, { user: createSessionUser() });
    expect(screen.queryByTestId('volume-slider')).toBeNull();
    await user.click(screen.getByTestId('volume-button'));
    const slider = await screen.findByTestId('volume-slider');
    expect(slider.querySelector('input')?.getAttribute('aria-valuenow')).toBe('0.3');
  });
});
