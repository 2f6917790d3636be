import type { HandoffCustomerData, HandoffReports, HandoffStore } from './handoff-types';
import type { AdminSessionStore, ApiKeyStore, AuditStore, CustomerDataStore, MemberStore } from './access-types';
import type { InspectorStore } from './inspector-types';
import type { ConversationStore, FeedbackStore, TraceStore } from './types';

/** Everything the server stores in one database: what each adapter implements, every port at once (the inspector's reads included). */
export type ServerStore = TraceStore &
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
