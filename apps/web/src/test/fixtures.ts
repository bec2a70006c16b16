/** Test data factories for the web tests (unique ids per call). */
import {
  EMPTY_USER_BILLING,
  type Plan,
  type PublicUser,
  type SessionUser,
  type Whatsapp,
} from '@zapdesk/shared';

let seq = 0;
const next = () => ++seq;

/** A plan with every feature off unless overridden. */
export function createPlan(overrides: Partial<Plan> = {}): Plan {
  return {
    id: next(),
    name: 'Plano',
    value: 0,
    users: 5,
    connections: 1,
    queues: 3,
    useCampaigns: false,
    useSchedules: false,
    useInternalChat: false,
    useExternalApi: false,
    useKanban: false,
    useOpenAi: false,
    useIntegrations: false,
    useReports: false,
    ...overrides,
  };
}

/** A public user of company 1. */
export function createUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const id = next();
  return {
    id,
    name: `User ${id}`,
    email: `user${id}@example.com`,
    profile: 'user',
    super: false,
    online: true,
    allTicket: 'desabled',
    whatsappId: null,
    language: null,
    maxOpenTickets: 0,
    availability: 'online',
    companyId: 1,
    queues: [],
    company: { dueDate: '2030-12-31T00:00:00.000Z' },
    ...EMPTY_USER_BILLING,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A signed-in user with its company and plan. */
export function createSessionUser(
  overrides: Partial<Omit<PublicUser, 'company'>> = {},
  plan: Partial<Plan> | null = {},
): SessionUser {
  const user = createUser(overrides);
  return {
    ...user,
    company: {
      id: user.companyId,
      name: 'Acme',
      dueDate: '2030-12-31T00:00:00.000Z',
      status: true,
      settings: [],
      plan: plan === null ? null : createPlan(plan),
    },
  };
}

/** A connection of company 1, CONNECTED unless overridden. */
export function createWhatsapp(overrides: Partial<Whatsapp> = {}): Whatsapp {
  const id = next();
  return {
    id,
    name: `Connection ${id}`,
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    isDefault: false,
    provider: 'beta',
    number: null,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    token: null,
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    timeToTransfer: 0,
    transferQueueId: null,
    promptId: null,
    integrationId: null,
    queues: [],
    companyId: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-03-05T14:07:00.000Z',
    ...overrides,
  };
}
