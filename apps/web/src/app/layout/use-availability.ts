import { useMutation } from '@tanstack/react-query';
import type { PublicUser } from '@zapdesk/shared';
import { useCurrentUser, useSession } from '../../features/auth/session-context';
import { api } from '../../lib/api';

/**
 * The signed-in user's availability for automatic assignment (docs/automation.md "Automatic
 * assignment"): `current` ('online' or 'away'), and `toggle`, which saves the other one with
 * `PUT /users/:id` and puts the answer in the session (other tabs follow the `user` event). Going
 * online makes the server run the user's queues. A failure shows the usual error toast.
 */
export function useAvailability() {
  const user = useCurrentUser();
  const { setUser } = useSession();
  const save = useMutation({
    mutationFn: (availability: PublicUser['availability']) =>
      api.put<PublicUser>(`/users/${user.id}`, { availability }),
    onSuccess: (saved) => setUser({ ...user, availability: saved.availability }),
  });
  const current = user.availability;
  return {
    current,
    busy: save.isPending,
    toggle: () => save.mutate(current === 'online' ? 'away' : 'online'),
  };
}
