/**
 * How the login form's links move to another page, without react-router: the full app provides
 * its router's navigate (app/app.tsx), the login entry loads the full app first
 * (app/login-entry.tsx). Outside both, a plain page load.
 */
import { createContext, type MouseEvent, type ReactNode, useContext } from 'react';

/** Goes to the in-app path `to` (such as '/signup'). */
export type AuthNavigate = (to: string) => void;

export const AuthNavigationContext = createContext<AuthNavigate>((to) => window.location.assign(to));

/** A link to the in-app path `to`: a plain left click navigates in the page, others act as links do. */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useContext(AuthNavigationContext);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick}>
      {children}
    </a>
  );
}
