/**
 * Route guards (core section 2, document 3 section 6): private routes send an unauthenticated user
 * to /login; public routes send an authenticated one to / (or to /tickets right after login).
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../features/auth/session-context';

/** Full-page spinner shown while the stored session is checked (plain CSS: base.css). */
export function PageLoader() {
  return (
    <div className="zd-page-loader">
      <span className="zd-spinner" role="progressbar" aria-label="loading" />
    </div>
  );
}

/** Renders its child routes only for a signed-in user. */
export function PrivateRoute() {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <PageLoader />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Renders its child routes only for a visitor without a session. */
export function PublicRoute() {
  const { user, loading, justLoggedIn } = useSession();
  if (loading) return <PageLoader />;
  if (user) return <Navigate to={justLoggedIn ? '/tickets' : '/'} replace />;
  return <Outlet />;
}
