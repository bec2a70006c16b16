import { IconButton } from '@mui/material';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { LazyTooltip } from './lazy-tooltip';

describe('LazyTooltip', () => {
  it('names the child by its title and shows MUI’s tooltip on hover, hiding it on leave', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    renderWithProviders(
      <LazyTooltip title="Refresh">
        <IconButton data-testid="target" onClick={onClick}>
          x
        </IconButton>
      </LazyTooltip>,
    );
    const target = screen.getByRole('button', { name: 'Refresh' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(target);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Refresh');
    // The child is the same element (not re-mounted) and keeps its own handlers.
    expect(screen.getByTestId('target')).toBe(target);
    await user.click(target);
    expect(onClick).toHaveBeenCalledTimes(1);
    await user.unhover(target);
    await vi.waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('keeps the child’s own accessible name and shows nothing for an empty title', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <LazyTooltip title="Tip">
          <IconButton aria-label="Own name">x</IconButton>
        </LazyTooltip>
        <LazyTooltip title="">
          <IconButton data-testid="untitled">y</IconButton>
        </LazyTooltip>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Own name' })).toBeTruthy();
    expect(screen.getByTestId('untitled').getAttribute('aria-label')).toBeNull();
    await user.hover(screen.getByTestId('untitled'));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
