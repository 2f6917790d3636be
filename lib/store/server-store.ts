import type { ApiKeyStore } from './ports/api-keys';
import type { AuditStore } from './ports/audit';
import type { ConversationStore } from './ports/conversations';
import type { CustomerDataStore } from './ports/customer-data';
import type { FeedbackStore } from './ports/feedback';
import type { HandoffCustomerData } from './ports/handoff-customer-data';
import type { HandoffReports } from './ports/handoff-reports';
import type { HandoffStore } from './ports/handoffs';
import type { InspectorStore } from './ports/inspector';
import type { MemberStore } from './ports/members';
import type { AdminSessionStore } from './ports/sessions';
import type { TurnStore } from './ports/turns';

/**
 * Everything the server stores in one database: what each adapter (sqlite.ts, postgres.ts)
 * implements, every port at once (lib/store/ports/, one file per port; the inspector's reads
 * included). Each consumer depends on the narrow port it uses; store-contract.test.ts runs every
 * case on both adapters.
 */
export type ServerStore = TurnStore &
  ConversationStore &
  FeedbackStore &
  InspectorStore &
  AdminSessionStore &
  ApiKeyStore &
  MemberStore &
  AuditStore &
  CustomerDataStore &
  HandoffStore &
  HandoffReports &
  HandoffCustomerData;
