import { can, STORAGE_KEYS } from '@zapdesk/shared';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useCurrentUser } from '../features/auth/session-context';
import { ComingSoonPage } from '../features/common/coming-soon-page';
import { NotFoundPage } from '../features/common/not-found-page';
import { PageLoader, PrivateRoute, PublicRoute } from './guards';
import { AppLayout } from './layout/app-layout';
import { PLACEHOLDER_ROUTES, type PlaceholderRoute } from './placeholder-routes';

// Pages are loaded on demand so the first download stays small.
const LoginPage = lazy(() => import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() =>
  import('../features/auth/signup-page').then((m) => ({ default: m.SignupPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
);
const UsersPage = lazy(() => import('../features/users/users-page').then((m) => ({ default: m.UsersPage })));
const ConnectionsPage = lazy(() =>
  import('../features/connections/connections-page').then((m) => ({ default: m.ConnectionsPage })),
);
const SimulatorPage = lazy(() =>
  import('../features/simulator/simulator-page').then((m) => ({ default: m.SimulatorPage })),
);
const TodoListPage = lazy(() =>
  import('../features/todolist/todolist-page').then((m) => ({ default: m.TodoListPage })),
);
const TicketsPage = lazy(() =>
  import('../features/tickets/tickets-page').then((m) => ({ default: m.TicketsPage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/settings-page').then((m) => ({ default: m.SettingsPage })),
);
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);

const ContactsPage = lazy(() =>
  import('../features/contacts/contacts-page').then((m) => ({ default: m.ContactsPage })),
);

const QueuesPage = lazy(() =>
  import('../features/queues/queues-page').then((m) => ({ default: m.QueuesPage })),
);
const TagsPage = lazy(() => import('../features/tags/tags-page').then((m) => ({ default: m.TagsPage })));
const KanbanPage = lazy(() =>
  import('../features/kanban/kanban-page').then((m) => ({ default: m.KanbanPage })),
);
const QuickMessagesPage = lazy(() =>
  import('../features/quick-messages/quick-messages-page').then((m) => ({ default: m.QuickMessagesPage })),
);
const ChatsPage = lazy(() => import('../features/chats/chats-page').then((m) => ({ default: m.ChatsPage })));
const AnnouncementsPage = lazy(() =>
  import('../features/announcements/announcements-page').then((m) => ({ default: m.AnnouncementsPage })),
);
const HelpsPage = lazy(() => import('../features/helps/helps-page').then((m) => ({ default: m.HelpsPage })));

const page = (element: ReactNode) => <Suspense fallback={<PageLoader />}>{element}</Suspense>;

/** `/`: the dashboard for admins (core section 2); other profiles start at /tickets. */
function HomeRoute() {
  const user = useCurrentUser();
  if (!can(user.profile, 'dashboard:view')) return <Navigate to="/tickets" replace />;
  return page(<DashboardPage />);
}

/**
 * A placeholder page; campaign routes need the `cshow` flag or a plan with campaigns, flow routes
 * need `cshow` or an admin (document 3 route table, core side menu).
 */
function PlaceholderPage({ route }: { route: PlaceholderRoute }) {
  const user = useCurrentUser();
  const cshow = localStorage.getItem(STORAGE_KEYS.cshow) !== null;
  const allowed =
    route.gate === undefined ||
    cshow ||
    (route.gate === 'campaigns' ? user.company.plan?.useCampaigns === true : user.profile === 'admin');
  return allowed ? <ComingSoonPage titleKey={route.titleKey} /> : <NotFoundPage />;
}

/** The route table: public pages, then the private pages inside the layout. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={page(<LoginPage />)} />
        <Route path="/signup" element={page(<SignupPage />)} />
        <Route path="/forgetpsw" element={page(<ForgotPasswordPage />)} />
      </Route>
      <Route element={<PrivateRoute />}>
        <Route element={<AppLayout />}>
          <Route index element={<HomeRoute />} />
          <Route path="/users" element={page(<UsersPage />)} />
          <Route path="/contacts" element={page(<ContactsPage />)} />
          <Route path="/todolist" element={page(<TodoListPage />)} />
          <Route path="/connections" element={page(<ConnectionsPage />)} />
          <Route path="/simulator" element={page(<SimulatorPage />)} />
          <Route path="/tickets/:uuid?" element={page(<TicketsPage />)} />
          <Route path="/settings" element={page(<SettingsPage />)} />
          <Route path="/queues" element={page(<QueuesPage />)} />
          <Route path="/tags" element={page(<TagsPage />)} />
          <Route path="/quick-messages" element={page(<QuickMessagesPage />)} />
          <Route path="/chats/:chatId?" element={page(<ChatsPage />)} />
          <Route path="/kanban" element={page(<KanbanPage />)} />
          <Route path="/announcements" element={page(<AnnouncementsPage />)} />
          <Route path="/helps" element={page(<HelpsPage />)} />
          {PLACEHOLDER_ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<PlaceholderPage route={route} />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
