import { can, STORAGE_KEYS } from '@zapdesk/shared';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useCurrentUser } from '../features/auth/session-context';
import { withStrings } from '../lib/i18n';
import { PageLoader, PrivateRoute, PublicRoute } from './guards';
import { PageShown } from './page-shown';

/*
 * Every page is a route-level chunk loaded on demand, so the first download stays small (/login
 * fetches only the login's code; docs/web.md, "Web delivery"). To add a page, follow the
 * one pattern:
 *
 *   const XPage = lazy(() => withStrings('features/x/x-page', import('../features/x/x-page')).then((m) => ({ default: m.XPage })));
 *   <Route path="/x" element={page(<XPage />)} />
 *
 * Never import a page (or the layout) statically here: its code and its libraries would join the
 * entry chunk and the login's download (the budget check, apps/web/scripts/check-budget.mjs, fails).
 */
const NotFoundPage = lazy(() =>
  withStrings('features/common/not-found-page', import('../features/common/not-found-page')).then((m) => ({
    default: m.NotFoundPage,
  })),
);
/**
 * The query client and the MUI theme: every page but the login form needs them, and the full
 * locale strings (the login form renders with a subset, lib/i18n.ts).
 */
const AppProviders = lazy(() =>
  withStrings('app/app-providers', import('./app-providers')).then((m) => ({ default: m.AppProviders })),
);
/** The signed-in shell (menu, top bar, realtime socket): not needed by the public pages. */
const AppLayout = lazy(() =>
  withStrings('app/layout/app-layout', import('./layout/app-layout')).then((m) => ({ default: m.AppLayout })),
);
const LoginPage = lazy(() =>
  withStrings('features/auth/login-page', import('../features/auth/login-page')).then((m) => ({
    default: m.LoginPage,
  })),
);
const SignupPage = lazy(() =>
  withStrings('features/auth/signup-page', import('../features/auth/signup-page')).then((m) => ({
    default: m.SignupPage,
  })),
);
const ForgotPasswordPage = lazy(() =>
  withStrings('features/auth/forgot-password-page', import('../features/auth/forgot-password-page')).then(
    (m) => ({ default: m.ForgotPasswordPage }),
  ),
);
const UsersPage = lazy(() =>
  withStrings('features/users/users-page', import('../features/users/users-page')).then((m) => ({
    default: m.UsersPage,
  })),
);
const ConnectionsPage = lazy(() =>
  withStrings(
    'features/connections/connections-page',
    import('../features/connections/connections-page'),
  ).then((m) => ({ default: m.ConnectionsPage })),
);
const SimulatorPage = lazy(() =>
  withStrings('features/simulator/simulator-page', import('../features/simulator/simulator-page')).then(
    (m) => ({ default: m.SimulatorPage }),
  ),
);
const TodoListPage = lazy(() =>
  withStrings('features/todolist/todolist-page', import('../features/todolist/todolist-page')).then((m) => ({
    default: m.TodoListPage,
  })),
);
const TicketsPage = lazy(() =>
  withStrings('features/tickets/tickets-page', import('../features/tickets/tickets-page')).then((m) => ({
    default: m.TicketsPage,
  })),
);
const SettingsPage = lazy(() =>
  withStrings('features/settings/settings-page', import('../features/settings/settings-page')).then((m) => ({
    default: m.SettingsPage,
  })),
);
const DashboardPage = lazy(() =>
  withStrings('features/dashboard/dashboard-page', import('../features/dashboard/dashboard-page')).then(
    (m) => ({ default: m.DashboardPage }),
  ),
);
/** The reports (admins, plan flag useReports); recharts loads with its chart only. */
const ReportsPage = lazy(() =>
  withStrings('features/reports/reports-page', import('../features/reports/reports-page')).then((m) => ({
    default: m.ReportsPage,
  })),
);

const ContactsPage = lazy(() =>
  withStrings('features/contacts/contacts-page', import('../features/contacts/contacts-page')).then((m) => ({
    default: m.ContactsPage,
  })),
);

const QueuesPage = lazy(() =>
  withStrings('features/queues/queues-page', import('../features/queues/queues-page')).then((m) => ({
    default: m.QueuesPage,
  })),
);
const TagsPage = lazy(() =>
  withStrings('features/tags/tags-page', import('../features/tags/tags-page')).then((m) => ({
    default: m.TagsPage,
  })),
);
const KanbanPage = lazy(() =>
  withStrings('features/kanban/kanban-page', import('../features/kanban/kanban-page')).then((m) => ({
    default: m.KanbanPage,
  })),
);
const QuickMessagesPage = lazy(() =>
  withStrings(
    'features/quick-messages/quick-messages-page',
    import('../features/quick-messages/quick-messages-page'),
  ).then((m) => ({ default: m.QuickMessagesPage })),
);
const SchedulesPage = lazy(() =>
  withStrings('features/schedules/schedules-page', import('../features/schedules/schedules-page')).then(
    (m) => ({ default: m.SchedulesPage }),
  ),
);
const FilesPage = lazy(() =>
  withStrings('features/files/files-page', import('../features/files/files-page')).then((m) => ({
    default: m.FilesPage,
  })),
);
const ChatsPage = lazy(() =>
  withStrings('features/chats/chats-page', import('../features/chats/chats-page')).then((m) => ({
    default: m.ChatsPage,
  })),
);
const AnnouncementsPage = lazy(() =>
  withStrings(
    'features/announcements/announcements-page',
    import('../features/announcements/announcements-page'),
  ).then((m) => ({ default: m.AnnouncementsPage })),
);
const PromptsPage = lazy(() =>
  withStrings('features/bots/prompts-page', import('../features/bots/prompts-page')).then((m) => ({
    default: m.PromptsPage,
  })),
);
const QueueIntegrationPage = lazy(() =>
  withStrings('features/bots/queue-integration-page', import('../features/bots/queue-integration-page')).then(
    (m) => ({ default: m.QueueIntegrationPage }),
  ),
);
const PlansPage = lazy(() =>
  withStrings('features/billing/plans-page', import('../features/billing/plans-page')).then((m) => ({
    default: m.PlansPage,
  })),
);
const InvoicesPage = lazy(() =>
  withStrings('features/billing/invoices-page', import('../features/billing/invoices-page')).then((m) => ({
    default: m.InvoicesPage,
  })),
);
const SubscriptionPage = lazy(() =>
  withStrings('features/billing/subscription-page', import('../features/billing/subscription-page')).then(
    (m) => ({ default: m.SubscriptionPage }),
  ),
);
const HelpsPage = lazy(() =>
  withStrings('features/helps/helps-page', import('../features/helps/helps-page')).then((m) => ({
    default: m.HelpsPage,
  })),
);
const MessagesApiPage = lazy(() =>
  withStrings(
    'features/messages-api/messages-api-page',
    import('../features/messages-api/messages-api-page'),
  ).then((m) => ({ default: m.MessagesApiPage })),
);

const ContactListsPage = lazy(() =>
  withStrings(
    'features/contact-lists/contact-lists-page',
    import('../features/contact-lists/contact-lists-page'),
  ).then((m) => ({ default: m.ContactListsPage })),
);
const ContactListItemsPage = lazy(() =>
  withStrings(
    'features/contact-lists/contact-list-items-page',
    import('../features/contact-lists/contact-list-items-page'),
  ).then((m) => ({
    default: m.ContactListItemsPage,
  })),
);

const CampaignsPage = lazy(() =>
  withStrings('features/campaigns/campaigns-page', import('../features/campaigns/campaigns-page')).then(
    (m) => ({ default: m.CampaignsPage }),
  ),
);
const CampaignReportPage = lazy(() =>
  withStrings(
    'features/campaigns/campaign-report-page',
    import('../features/campaigns/campaign-report-page'),
  ).then((m) => ({ default: m.CampaignReportPage })),
);
const CampaignsConfigPage = lazy(() =>
  withStrings(
    'features/campaigns/campaigns-config-page',
    import('../features/campaigns/campaigns-config-page'),
  ).then((m) => ({ default: m.CampaignsConfigPage })),
);
const FlowsPage = lazy(() =>
  withStrings('features/flows/flows-page', import('../features/flows/flows-page')).then((m) => ({
    default: m.FlowsPage,
  })),
);
const FlowCampaignsPage = lazy(() =>
  withStrings('features/flows/flow-campaigns-page', import('../features/flows/flow-campaigns-page')).then(
    (m) => ({ default: m.FlowCampaignsPage }),
  ),
);
/** The flow editor: @xyflow/react is loaded by this route only. */
const FlowBuilderPage = lazy(() =>
  withStrings('features/flows/flow-builder-page', import('../features/flows/flow-builder-page')).then(
    (m) => ({ default: m.FlowBuilderPage }),
  ),
);

/** A route's page, loaded on demand; the first one rendered settles the first page (PageShown). */
const page = (element: ReactNode) => (
  <Suspense fallback={<PageLoader />}>
    {element}
    <PageShown />
  </Suspense>
);

/** A layout route (the providers, the signed-in shell), loaded on demand. */
const frame = (element: ReactNode) => <Suspense fallback={<PageLoader />}>{element}</Suspense>;

/** `/`: the dashboard for admins (core section 2); other profiles start at /tickets. */
function HomeRoute() {
  const user = useCurrentUser();
  if (!can(user.profile, 'dashboard:view')) return <Navigate to="/tickets" replace />;
  return page(<DashboardPage />);
}

/**
 * A campaign-area page (campaigns, their report and settings, contact lists): shown with the `cshow` flag or a plan with campaigns
 * (document 3 route table, core side menu); otherwise not found.
 */
export function CampaignGate({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const cshow = localStorage.getItem(STORAGE_KEYS.cshow) !== null;
  return cshow || user.company.plan?.useCampaigns === true ? page(children) : page(<NotFoundPage />);
}

/**
 * A flow-area page (flows, flow builder, flow campaigns): shown with the `cshow` flag or to an admin
 * (document 3 route table, core side menu); otherwise not found.
 */
function FlowGate({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const cshow = localStorage.getItem(STORAGE_KEYS.cshow) !== null;
  return cshow || user.profile === 'admin' ? page(children) : page(<NotFoundPage />);
}

/** The route table: public pages, then the private pages inside the layout. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicRoute />}>
        <Route path="/login" element={page(<LoginPage />)} />
        <Route element={frame(<AppProviders />)}>
          <Route path="/signup" element={page(<SignupPage />)} />
          <Route path="/forgetpsw" element={page(<ForgotPasswordPage />)} />
        </Route>
      </Route>
      <Route element={<PrivateRoute />}>
        <Route element={frame(<AppProviders />)}>
          <Route element={frame(<AppLayout />)}>
            <Route index element={<HomeRoute />} />
            <Route path="/reports" element={page(<ReportsPage />)} />
            <Route path="/users" element={page(<UsersPage />)} />
            <Route path="/contacts" element={page(<ContactsPage />)} />
            <Route path="/todolist" element={page(<TodoListPage />)} />
            <Route path="/connections" element={page(<ConnectionsPage />)} />
            <Route path="/simulator" element={page(<SimulatorPage />)} />
            <Route path="/tickets/:uuid?" element={page(<TicketsPage />)} />
            <Route path="/settings" element={page(<SettingsPage />)} />
            <Route path="/queues" element={page(<QueuesPage />)} />
            <Route path="/tags" element={page(<TagsPage />)} />
            <Route
              path="/campaigns"
              element={
                <CampaignGate>
                  <CampaignsPage />
                </CampaignGate>
              }
            />
            <Route
              path="/campaign/:campaignId/report"
              element={
                <CampaignGate>
                  <CampaignReportPage />
                </CampaignGate>
              }
            />
            <Route
              path="/campaigns-config"
              element={
                <CampaignGate>
                  <CampaignsConfigPage />
                </CampaignGate>
              }
            />
            <Route
              path="/contact-lists"
              element={
                <CampaignGate>
                  <ContactListsPage />
                </CampaignGate>
              }
            />
            <Route
              path="/contact-lists/:contactListId/contacts"
              element={
                <CampaignGate>
                  <ContactListItemsPage />
                </CampaignGate>
              }
            />
            <Route
              path="/flowbuilders"
              element={
                <FlowGate>
                  <FlowsPage />
                </FlowGate>
              }
            />
            <Route
              path="/flowbuilder/:id?"
              element={
                <FlowGate>
                  <FlowBuilderPage />
                </FlowGate>
              }
            />
            <Route
              path="/phrase-lists"
              element={
                <FlowGate>
                  <FlowCampaignsPage />
                </FlowGate>
              }
            />
            <Route path="/quick-messages" element={page(<QuickMessagesPage />)} />
            <Route path="/schedules" element={page(<SchedulesPage />)} />
            <Route path="/files" element={page(<FilesPage />)} />
            <Route path="/chats/:chatId?" element={page(<ChatsPage />)} />
            <Route path="/kanban" element={page(<KanbanPage />)} />
            <Route path="/announcements" element={page(<AnnouncementsPage />)} />
            <Route path="/helps" element={page(<HelpsPage />)} />
            <Route path="/prompts" element={page(<PromptsPage />)} />
            <Route path="/queue-integration" element={page(<QueueIntegrationPage />)} />
            <Route path="/planos" element={page(<PlansPage />)} />
            <Route path="/financeiro" element={page(<InvoicesPage />)} />
            <Route path="/subscription" element={page(<SubscriptionPage />)} />
            <Route path="/messages-api" element={page(<MessagesApiPage />)} />
            <Route path="*" element={page(<NotFoundPage />)} />
          </Route>
        </Route>
      </Route>
    </Routes>
  );
}
